// Messages reaching delivered or failed per time bucket (the core sizes the buckets so a run fits
// in about 60 bars), the time axis in the user's calendar and clock.
import { Paper, Text } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import { useReducedMotion } from '@mantine/hooks';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DeliveryChart as Chart } from '../../../stores/campaigns';
import { digits, formatDay, formatNumber, type Language } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { EmptyState } from '../../EmptyState';

const DAY = 86_400_000;

/** A bucket's label: its clock time, with the day when the run spans more than one. */
function bucketLabel(at: number, withDay: boolean, language: Language): string {
  const date = new Date(at);
  const time = digits(
    `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`,
    language,
  );
  return withDay ? `${formatDay(at, language)} ${time}` : time;
}

export function DeliveryChart({ chart }: { chart: Chart | null }) {
  const { t } = useTranslation();
  const language = useLanguage();
  // Bars grow in unless the user asked the system for less motion.
  const reduceMotion = useReducedMotion();
  const points = chart?.points ?? [];
  const first = points[0]?.at ?? 0;
  const last = points[points.length - 1]?.at ?? 0;
  const withDay = new Date(first).toDateString() !== new Date(last).toDateString() || chart!.bucket_ms >= DAY;
  const data = points.map((point) => ({
    label: bucketLabel(point.at, withDay, language),
    delivered: point.delivered,
    failed: point.failed,
  }));
  return (
    <Paper withBorder p="md" data-testid="report-chart" data-points={points.length}>
      <Text fw={600} mb="sm">
        {t('report.chartTitle')}
      </Text>
      {points.length === 0 ? (
        <EmptyState
          testId="report-chart-empty"
          icon={<IconChartBar size={28} />}
          title={t('report.chartEmpty')}
          hint={t('report.chartEmptyHint')}
        />
      ) : (
        <div dir="ltr">
          <BarChart
            h={260}
            data={data}
            dataKey="label"
            type="stacked"
            series={[
              { name: 'delivered', label: t('report.series.delivered'), color: 'green.6' },
              { name: 'failed', label: t('report.series.failed'), color: 'red.6' },
            ]}
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
  );
}
