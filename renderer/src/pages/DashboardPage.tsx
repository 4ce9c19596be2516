// Dashboard: today's and this week's sends, delivery rate, cost, credit left, and the statuses
// over time. Figures follow the status pushes (stores/dashboard.ts), never a timer.
import { Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import { IconChartBar } from '@tabler/icons-react';
import { useReducedMotion } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../stores/context';
import { digits, formatDay, formatNumber, formatPercent } from '../lib/format';
import { CHART_SERIES } from '../lib/status';
import { useLanguage } from '../i18n/useLanguage';
import { Money } from '../components/Money';
import { EmptyState } from '../components/EmptyState';

type Span = 'week' | 'today';

export function DashboardPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const stats = useStore(useStores().dashboard, (s) => s.stats);
  const [span, setSpan] = useState<Span>('week');
  // Bars grow in unless the user asked the system for less motion.
  const reduceMotion = useReducedMotion();
  if (!stats) {
    return (
      <Stack data-testid="page-dashboard">
        <Title order={2}>{t('dashboard.title')}</Title>
        <Text c="dimmed">{t('common.loading')}</Text>
      </Stack>
    );
  }
  const buckets = span === 'week' ? stats.daily : stats.hourly;
  // One bar segment per series of the lifecycle's statuses (lib/status.ts), in display order.
  const data = buckets.map((b) => ({
    label:
      span === 'week'
        ? formatDay(b.start, language)
        : digits(new Date(b.start).getHours().toString().padStart(2, '0'), language),
    ...Object.fromEntries(CHART_SERIES.map(({ name }) => [name, b[name]])),
  }));
  const series = CHART_SERIES.map(({ name, color }) => ({ name, label: t(`dashboard.series.${name}`), color }));
  return (
    <Stack data-testid="page-dashboard">
      <Title order={2}>{t('dashboard.title')}</Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
        <Stat label={t('dashboard.today')} testId="stat-today" value={formatNumber(stats.today.total, language)} />
        <Stat label={t('dashboard.week')} testId="stat-week" value={formatNumber(stats.week.total, language)} />
        <Stat
          label={t('dashboard.deliveryRate')}
          testId="stat-delivery-rate"
          value={stats.delivery_rate === null ? '—' : formatPercent(stats.delivery_rate, language)}
        />
        <Stat label={t('dashboard.weekCost')} testId="stat-cost" value={<Money rials={stats.week.cost_rials} />} />
        <Stat
          label={t('dashboard.credit')}
          testId="stat-credit"
          value={stats.credit_rials === null ? '—' : <Money rials={stats.credit_rials} />}
        />
      </SimpleGrid>
      <Paper withBorder p="md">
        <Group justify="space-between" mb="md">
          <Text fw={600}>{t('dashboard.chartTitle')}</Text>
          <SegmentedControl
            size="xs"
            value={span}
            onChange={(value) => setSpan(value as Span)}
            data={[
              { value: 'week', label: t('dashboard.byDay') },
              { value: 'today', label: t('dashboard.byHour') },
            ]}
            data-testid="chart-span"
          />
        </Group>
        {stats.week.total === 0 ? (
          <EmptyState
            testId="dashboard-empty"
            icon={<IconChartBar size={28} />}
            title={t('dashboard.empty')}
            hint={t('dashboard.emptyHint')}
          />
        ) : (
          <div data-testid="status-chart" dir="ltr">
            <BarChart
              h={300}
              data={data}
              dataKey="label"
              type="stacked"
              series={series}
              withLegend
              barProps={{ isAnimationActive: !reduceMotion }}
              legendProps={{ verticalAlign: 'bottom' }}
              valueFormatter={(value) => formatNumber(value, language)}
              yAxisProps={{
                tickFormatter: (value: number) => formatNumber(value, language),
                orientation: language === 'fa' ? 'right' : 'left',
              }}
              xAxisProps={{ reversed: language === 'fa' }}
            />
          </div>
        )}
      </Paper>
    </Stack>
  );
}

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={testId} component="div">
        {value}
      </Text>
    </Paper>
  );
}
