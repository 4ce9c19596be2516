// Pause, resume and cancel of a run that is not over; cancel says first what it gives up.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../../stores/context';
import { isFinal, type Control } from '../../../stores/campaigns';
import type { ExecutionReport } from '../../../../../shared/campaigns';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';

export function ReportControls({ report }: { report: ExecutionReport }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { campaigns } = useStores();
  const [busy, setBusy] = useState<Control | null>(null);
  const [confirming, setConfirming] = useState(false);
  if (isFinal(report)) return null;
  const run = async (action: Control) => {
    setBusy(action);
    await campaigns.getState().control(action);
    setBusy(null);
    setConfirming(false);
  };
  return (
    <Group gap="xs">
      {report.paused ? (
        <Button
          leftSection={<IconPlayerPlay size={16} />}
          loading={busy === 'resume'}
          disabled={busy !== null}
          onClick={() => void run('resume')}
          data-testid="report-resume"
        >
          {t('report.resume')}
        </Button>
      ) : (
        <Button
          variant="light"
          color="yellow"
          leftSection={<IconPlayerPause size={16} />}
          loading={busy === 'pause'}
          disabled={busy !== null}
          onClick={() => void run('pause')}
          data-testid="report-pause"
        >
          {t('report.pause')}
        </Button>
      )}
      <Button
        variant="subtle"
        color="red"
        leftSection={<IconPlayerStop size={16} />}
        disabled={busy !== null}
        onClick={() => setConfirming(true)}
        data-testid="report-cancel"
      >
        {t('report.cancel')}
      </Button>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('report.cancelTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text size="sm">
            {t('report.cancelWarning', {
              // Not final yet: never recorded, or recorded and waiting (a send rate records them all at the start).
              n: formatNumber(Math.max(0, report.audience - report.delivered - report.failed), language),
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-testid="report-cancel-keep">
              {t('report.keep')}
            </Button>
            <Button
              color="red"
              loading={busy === 'cancel'}
              onClick={() => void run('cancel')}
              data-testid="report-cancel-confirm"
            >
              {t('report.cancelConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
