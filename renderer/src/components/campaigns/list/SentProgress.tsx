// How far a run got, as one bar over its audience: delivered, failed and still on the way (sent,
// not final: queued, waiting for its turn under a send rate, or with the carrier), with the sent
// count in numbers. A rate-limited run records every message at its start, so "sent" alone would
// read as done; the sections show what actually went out.
import { Progress, Stack, Text } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { ExecutionReport } from '../../../../../shared/campaigns';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';

export type Progressed = Pick<ExecutionReport, 'audience' | 'sent' | 'delivered' | 'failed' | 'pending'>;

export function SentProgress({
  run,
  running,
  label = 'campaigns.progress',
  size = 'sm',
  testId,
}: {
  run: Progressed;
  running: boolean;
  label?: 'campaigns.progress' | 'report.progress';
  size?: 'sm' | 'lg';
  testId?: string;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  // The on-the-way stripes move while it runs, unless the user asked the system for less motion.
  const reduceMotion = useReducedMotion();
  const share = (n: number) => (run.audience > 0 ? Math.min(100, (n / run.audience) * 100) : 0);
  const text = t(label, { sent: formatNumber(run.sent, language), audience: formatNumber(run.audience, language) });
  return (
    <Stack gap={4} data-testid={testId} data-sent={run.sent} data-audience={run.audience}>
      <Progress.Root size={size} aria-label={text}>
        <Progress.Section value={share(run.delivered)} color="green" />
        <Progress.Section value={share(run.failed)} color="red" />
        <Progress.Section
          value={share(run.pending)}
          color="blue.3"
          striped={running}
          animated={running && !reduceMotion}
        />
      </Progress.Root>
      <Text size="xs" c="dimmed">
        {text}
      </Text>
    </Stack>
  );
}
