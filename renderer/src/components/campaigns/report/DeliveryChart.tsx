// Messages reaching delivered or failed per time bucket (the core sizes the buckets so a run fits
// in about 60 bars), the time axis in the user's calendar and clock.
import { Paper, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DeliveryChart as Chart } from '../../../stores/campaigns';
import { digits, formatDay, type Language } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { EmptyState } from '../../EmptyState';
import { StackedBarChart } from '../../StackedBarChart';

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
        <StackedBarChart
          h={260}
          data={data}
          series={[
            { name: 'delivered', label: t('report.series.delivered'), color: 'green.6' },
            { name: 'failed', label: t('report.series.failed'), color: 'red.6' },
          ]}
        />
      )}
    </Paper>
  );
}
