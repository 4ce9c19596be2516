// What to do with the results: a new segment of the failed, delivered, clicked or not-clicked
// recipients (named first, then followed through its import to its size, with a link to it), and
// "resend to failed" (a new campaign sent now, after saying how many and that it is charged).
import { Alert, Anchor, Button, Group, Loader, Modal, Paper, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconRepeat, IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../../stores/context';
import type { FollowUp } from '../../../stores/campaigns';
import { RESULT_KINDS, type ExecutionReport, type ResultKind } from '../../../../../shared/campaigns';
import { formatNumber, isolate } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { navigate } from '../../useRoute';
import { Delivery } from '../../gateways/Delivery';

export function FollowUps({
  report,
  campaignName,
  sender,
  clickers,
}: {
  report: ExecutionReport;
  campaignName: string;
  /** The campaign's line: the resend's confirmation says who delivers it. */
  sender: string;
  clickers: number | null;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { campaigns } = useStores();
  const { followUp, creatingSegment, resending } = useStore(
    campaigns,
    useShallow((s) => ({ followUp: s.followUp, creatingSegment: s.creatingSegment, resending: s.resending })),
  );
  const [naming, setNaming] = useState<ResultKind | null>(null);
  const [name, setName] = useState('');
  const [resendAsked, setResendAsked] = useState(false);
  // How many each kind would hold now (the segment is made of the results when it is created).
  const sizes: Record<ResultKind, number | null> = {
    failed: report.failed,
    delivered: report.delivered,
    clicked: clickers,
    not_clicked: clickers === null ? null : Math.max(0, report.sent - clickers),
  };
  // Untracked links count no click: a segment of clickers (or of the rest) would mean nothing.
  const kinds = RESULT_KINDS.filter((kind) => report.track_links || (kind !== 'clicked' && kind !== 'not_clicked'));
  const ask = (kind: ResultKind) => {
    setName(t(`report.followUpName.${kind}`, { name: campaignName }));
    setNaming(kind);
  };
  const create = async () => {
    if (naming === null || !name.trim()) return;
    if (await campaigns.getState().createSegment(naming, name.trim())) setNaming(null);
  };
  const resend = async () => {
    const executionId = await campaigns.getState().resendFailed();
    setResendAsked(false);
    if (executionId !== null) navigate(`campaigns/execution/${executionId}`);
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Text fw={600}>{t('report.followUps')}</Text>
        <Group gap="xs">
          {kinds.map((kind) => (
            <Button
              key={kind}
              variant="light"
              size="xs"
              leftSection={<IconUsersPlus size={14} />}
              rightSection={
                sizes[kind] === null ? null : (
                  <Text span size="xs" c="dimmed">
                    {formatNumber(sizes[kind], language)}
                  </Text>
                )
              }
              disabled={sizes[kind] === 0 || creatingSegment}
              onClick={() => ask(kind)}
              data-testid={`report-followup-${kind}`}
            >
              {t(`report.followUp.${kind}`)}
            </Button>
          ))}
          <Button
            variant="light"
            color="orange"
            size="xs"
            leftSection={<IconRepeat size={14} />}
            disabled={report.failed === 0}
            onClick={() => setResendAsked(true)}
            data-testid="report-resend"
          >
            {t('report.resend')}
          </Button>
        </Group>
        {followUp ? <FollowUpResult followUp={followUp} /> : null}
      </Stack>
      <Modal
        opened={naming !== null}
        onClose={() => setNaming(null)}
        title={naming ? t(`report.followUp.${naming}`) : ''}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {naming ? t(`report.followUpHint.${naming}`) : ''}
          </Text>
          <TextInput
            label={t('report.segmentName')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') void create();
            }}
            maxLength={200}
            data-autofocus
            data-testid="report-followup-name"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setNaming(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              loading={creatingSegment}
              disabled={!name.trim()}
              onClick={() => void create()}
              data-testid="report-followup-create"
            >
              {t('report.createSegment')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={resendAsked}
        onClose={() => setResendAsked(false)}
        title={t('report.resendTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text size="sm">{t('report.resendWarning', { n: formatNumber(report.failed, language) })}</Text>
          {sender ? (
            <Text size="sm">
              {t('gateways.confirm.delivery')}: <Delivery sender={sender} testId="report-resend-gateway" />
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setResendAsked(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="orange"
              loading={resending}
              onClick={() => void resend()}
              data-testid="report-resend-confirm"
            >
              {t('report.resendConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

/** The follow-up segment's import: running, then its size and a link, or why it failed. */
function FollowUpResult({ followUp }: { followUp: FollowUp }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { campaigns } = useStores();
  const name = isolate(followUp.name);
  const done = followUp.status === 'done';
  const ended = done || followUp.status === 'failed' || followUp.status === 'cancelled';
  return (
    <Alert
      color={ended && !done ? 'red' : 'teal'}
      withCloseButton={ended}
      onClose={() => campaigns.getState().dismissFollowUp()}
      closeButtonLabel={t('common.close')}
      data-testid="report-followup-result"
      data-status={followUp.status}
      data-segment={followUp.segmentId}
      data-members={followUp.members ?? ''}
    >
      {!ended ? (
        <Stack gap={6}>
          <Group gap="xs">
            <Loader size={14} />
            <Text size="sm">{t('report.followUpRunning', { name })}</Text>
          </Group>
          <Progress value={followUp.fraction * 100} size="sm" />
        </Stack>
      ) : done ? (
        <Group gap="sm">
          <Text size="sm">
            {followUp.members === null
              ? t('report.followUpRunning', { name })
              : t('report.followUpDone', { name, n: formatNumber(followUp.members, language) })}
          </Text>
          <Anchor
            size="sm"
            href={`#/contacts/segment/${followUp.segmentId}`}
            onClick={(event) => {
              event.preventDefault();
              navigate(`contacts/segment/${followUp.segmentId}`);
            }}
            data-testid="report-followup-open"
          >
            {t('report.openSegment')}
          </Anchor>
        </Group>
      ) : (
        <Text size="sm">
          {t('report.followUpFailed', { name })}
          {followUp.error ? ` ${followUp.error}` : ''}
        </Text>
      )}
    </Alert>
  );
}
