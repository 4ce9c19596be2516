// What to do with the results: a new segment of the failed, delivered, clicked or not-clicked
// recipients (named first, then followed through its import to its size, with a link to it), and
// "resend to failed": the core's quote of the new campaign shown in the campaigns' one
// confirmation (recipients, line, pages, cost, time, rate and quiet hours, who is left out and
// why), asked once; an execution already resent says so and opens its resend instead.
import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  Loader,
  Modal,
  Paper,
  Progress,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconRepeat, IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../../stores/context';
import type { FollowUp } from '../../../stores/campaigns';
import { RESULT_KINDS, type ExecutionReport, type ResultKind } from '../../../../../shared/campaigns';
import { counted, formatNumber, isolate } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { navigate } from '../../useRoute';
import { useGatewayKind } from '../../gateways/Delivery';
import { CampaignConfirmation } from '../CampaignConfirmation';

const LEFT_OUT_REASONS = ['opted_out', 'blocked', 'invalid'] as const;

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
  const { campaigns, session } = useStores();
  const { followUp, creatingSegment, resending, resendQuote, quotingResend } = useStore(
    campaigns,
    useShallow((s) => ({
      followUp: s.followUp,
      creatingSegment: s.creatingSegment,
      resending: s.resending,
      resendQuote: s.resendQuote,
      quotingResend: s.quotingResend,
    })),
  );
  const gateway = useGatewayKind(sender, undefined);
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
  // The core prices the resend (one place for pricing) before anything is asked.
  const askResend = async () => {
    setResendAsked(true);
    if ((await campaigns.getState().quoteResend(language)) === null) setResendAsked(false);
  };
  const closeResend = () => {
    setResendAsked(false);
    campaigns.getState().forgetResendQuote();
  };
  const resend = async () => {
    const executionId = await campaigns.getState().resendFailed(language);
    if (executionId === null) return;
    setResendAsked(false);
    // What the new campaign holds of the credit shows in the header.
    void session.getState().refreshAccounts();
    navigate(`campaigns/execution/${executionId}`);
  };
  const quote = resendAsked ? resendQuote : null;
  const leftOut = quote ? quote.left_out.opted_out + quote.left_out.blocked + quote.left_out.invalid : 0;
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
            loading={quotingResend}
            onClick={() => void askResend()}
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
      <CampaignConfirmation
        opened={resendAsked && quote !== null && quote.resent === null}
        title={t('report.resendTitle')}
        campaign={
          quote
            ? {
                name: quote.name,
                recipients: quote.audience.recipients,
                sender: quote.sender,
                gateway,
                pages: quote.total_pages,
                costRials: quote.total_cost_rials,
                sendRate: quote.send_rate,
                quietHours: quote.quiet_hours,
                when: null,
                lastMessageAt: quote.estimated_last_message_at,
              }
            : null
        }
        busy={resending}
        canConfirm={quote !== null && quote.audience.recipients > 0 && quote.enough_credit && quote.problem === null}
        confirmLabel={t('report.resendConfirm')}
        cancelLabel={t('common.cancel')}
        onConfirm={() => void resend()}
        onClose={closeResend}
        testId="resend"
      >
        {quote ? (
          <Stack gap={6}>
            <Text size="sm">{t('report.resendWarning')}</Text>
            {leftOut > 0 ? (
              <Alert color="yellow" data-testid="resend-left-out" data-count={leftOut}>
                <Text size="sm">
                  {t('report.resendLeftOut', {
                    ...counted(leftOut, language),
                    failed: formatNumber(quote.failed, language),
                  })}
                </Text>
                <List size="sm" mt={4}>
                  {LEFT_OUT_REASONS.filter((reason) => quote.left_out[reason] > 0).map((reason) => (
                    <List.Item key={reason} data-testid={`resend-left-out-${reason}`}>
                      {t(`report.resendLeftOutReason.${reason}`, {
                        n: formatNumber(quote.left_out[reason], language),
                      })}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            ) : null}
            {quote.audience.recipients === 0 ? (
              <Alert color="red" data-testid="resend-nobody">
                {t('report.resendNobody')}
              </Alert>
            ) : !quote.enough_credit ? (
              <Alert color="red" data-testid="resend-no-credit">
                {t('report.resendNoCredit')}
              </Alert>
            ) : null}
          </Stack>
        ) : null}
      </CampaignConfirmation>
      <Modal
        opened={resendAsked && quote !== null && quote.resent !== null}
        onClose={closeResend}
        title={t('report.resendTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack data-testid="resend-already">
          <Text size="sm">{t('report.resendAlready')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={closeResend}>
              {t('common.close')}
            </Button>
            {quote?.resent?.execution_id ? (
              <Button
                onClick={() => {
                  const executionId = quote.resent!.execution_id!;
                  closeResend();
                  navigate(`campaigns/execution/${executionId}`);
                }}
                data-testid="resend-open"
              >
                {t('report.resendOpen')}
              </Button>
            ) : null}
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
