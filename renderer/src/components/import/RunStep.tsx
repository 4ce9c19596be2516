// The run: progress from the service's pushes, rows read, rows per second, time left, the live
// counts, and cancel (nothing half-made stays).
import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { pace } from '../../stores/imports';
import { formatDuration, formatNumber, formatPercent, isolate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { CountCards } from './CountCards';

export function RunStep() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { imports } = useStores();
  const { job, samples, source, cancelling, cancel } = useStore(
    imports,
    useShallow((s) => ({
      job: s.job,
      samples: s.samples,
      source: s.source,
      cancelling: s.cancelling,
      cancel: s.cancel,
    })),
  );
  if (!job) return null;
  const { rowsPerSecond, secondsLeft } = pace(samples);
  return (
    <Paper withBorder p="md" data-testid="import-running" data-job={job.job_id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>
            {t(job.status === 'queued' ? 'import.queued' : 'import.running', {
              name: isolate(source?.name || job.file_name || ''),
            })}
          </Text>
          <Text fw={700} size="lg" data-testid="import-percent">
            {formatPercent(job.fraction, language)}
          </Text>
        </Group>
        <Progress
          value={job.fraction * 100}
          size="xl"
          animated={!cancelling}
          color={cancelling ? 'gray' : undefined}
          data-testid="import-progress"
          data-value={job.fraction}
        />
        <Group gap="lg">
          <Text size="sm" data-testid="import-rows" data-value={job.rows}>
            {t('import.rows', { n: formatNumber(job.rows, language) })}
          </Text>
          {rowsPerSecond !== null ? (
            <Text size="sm" c="dimmed" data-testid="import-rate">
              {t('import.rate', { n: formatNumber(Math.round(rowsPerSecond), language) })}
            </Text>
          ) : null}
          {secondsLeft !== null ? (
            <Text size="sm" c="dimmed" data-testid="import-eta">
              {t('import.left', { time: formatDuration(secondsLeft, language) })}
            </Text>
          ) : null}
        </Group>
        <CountCards job={job} />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {cancelling ? t('import.cancelling') : t('import.runningHint')}
          </Text>
          <Button
            color="red"
            variant="light"
            onClick={() => void cancel()}
            loading={cancelling}
            data-testid="import-cancel"
          >
            {t('import.cancel')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
