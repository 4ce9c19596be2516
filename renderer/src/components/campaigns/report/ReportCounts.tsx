// The run's counts by the report's partition (audience = sent + skipped; sent = delivered +
// failed + on the way), its cost, refunds and clicks, one card each ("not tracked" instead of a
// click count when the campaign's links went out untracked).
import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExecutionReport } from '../../../../../shared/campaigns';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { Money } from '../../Money';

type Count = 'audience' | 'sent' | 'delivered' | 'failed' | 'pending' | 'skipped' | 'clicks';

const COLORS: Partial<Record<Count, string>> = { delivered: 'green.8', failed: 'red.8', pending: 'blue.8' };

export function ReportCounts({ report }: { report: ExecutionReport }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const count = (name: Count) => (
    <Card
      key={name}
      label={t(`report.counts.${name}`)}
      testId={`report-${name}`}
      value={report[name]}
      color={COLORS[name]}
    >
      {formatNumber(report[name], language)}
    </Card>
  );
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="xs" data-testid="report-counts">
      {count('audience')}
      {count('sent')}
      {count('delivered')}
      {count('failed')}
      {count('pending')}
      {count('skipped')}
      <Card label={t('report.counts.cost')} testId="report-cost" value={report.cost} money>
        <Money rials={report.cost} />
      </Card>
      <Card label={t('report.counts.refunded')} testId="report-refunded" value={report.refunded} money>
        <Money rials={report.refunded} />
      </Card>
      {report.track_links ? (
        count('clicks')
      ) : (
        // Its links went out as their own addresses: there is no count, and 0 would say nobody clicked.
        <Card label={t('report.counts.clicks')} testId="report-clicks" value={null}>
          <Text span c="dimmed" size="sm" fw={500} data-testid="report-clicks-untracked">
            {t('report.counts.clicksNotTracked')}
          </Text>
        </Card>
      )}
    </SimpleGrid>
  );
}

function Card({
  label,
  value,
  testId,
  color,
  money = false,
  children,
}: {
  label: string;
  /** null: no figure (clicks not tracked). */
  value: number | null;
  testId: string;
  color?: string | undefined;
  /** Amounts are longer than counts: a smaller size keeps them on one line. */
  money?: boolean;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text
        fw={700}
        size={money ? 'md' : 'lg'}
        c={color}
        data-testid={testId}
        data-value={value ?? ''}
        component="div"
        style={{ whiteSpace: 'nowrap' }}
      >
        {children}
      </Text>
    </Paper>
  );
}
