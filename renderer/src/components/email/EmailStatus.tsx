// An email recipient's status and a send's state as coloured badges, and a send's counts as one
// bar (delivered, failed, still on the way) with a badge per status that has any.
import { Badge, Group, Progress, Stack, Tooltip } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { EmailSend } from '../../../../shared/ipc/contracts/email';
import { EMAIL_RECIPIENT_STATUSES, type EmailRecipientStatus } from '../../../../shared/email';
import { GROUP_STATUSES } from '../../stores/email';
import { formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { emailStatusLabel } from '../../../../shared/email-labels';

export const STATUS_COLOR: Record<EmailRecipientStatus, string> = {
  pending: 'gray',
  queued: 'blue',
  scheduled: 'blue',
  processed: 'cyan',
  deferred: 'yellow',
  delivered: 'green',
  sent: 'teal',
  bounced: 'red',
  failed: 'red',
  suppressed: 'orange',
  cancelled: 'gray',
  error: 'red',
};

const STATE_COLOR: Record<EmailSend['state'], string> = {
  sending: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'gray',
};

export function EmailStatusBadge({ status }: { status: EmailRecipientStatus }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Tooltip label={t(`email.statusHint.${status}`)} openDelay={400} multiline maw={320}>
      <Badge
        color={STATUS_COLOR[status]}
        variant="light"
        style={{ textTransform: 'none' }}
        data-testid="email-status"
        data-status={status}
      >
        {emailStatusLabel(status, language)}
      </Badge>
    </Tooltip>
  );
}

export function SendStateBadge({ state }: { state: EmailSend['state'] }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={STATE_COLOR[state]}
      variant="filled"
      style={{ textTransform: 'none' }}
      data-testid="email-send-state"
      data-state={state}
    >
      {t(`email.state.${state}`)}
    </Badge>
  );
}

function sum(send: Pick<EmailSend, 'counts'>, statuses: readonly EmailRecipientStatus[]): number {
  return statuses.reduce((n, status) => n + (send.counts[status] ?? 0), 0);
}

/** Delivered, failed and waiting as one bar over the send's recipients. */
export function CountsBar({ send, size = 'sm' }: { send: EmailSend; size?: 'sm' | 'lg' }) {
  const reduceMotion = useReducedMotion();
  const share = (n: number) => (send.total > 0 ? (n / send.total) * 100 : 0);
  const delivered = sum(send, GROUP_STATUSES.delivered);
  const failed = sum(send, GROUP_STATUSES.failed);
  const waiting = sum(send, GROUP_STATUSES.waiting);
  const running = send.state === 'sending';
  return (
    <Progress.Root size={size} data-testid="email-counts-bar">
      <Progress.Section value={share(delivered)} color="green" />
      <Progress.Section value={share(failed)} color="red" />
      <Progress.Section value={share(waiting)} color="blue.3" striped={running} animated={running && !reduceMotion} />
    </Progress.Root>
  );
}

/** A badge per status with recipients, in the statuses' order. */
export function CountBadges({ send, size = 'sm' }: { send: EmailSend; size?: 'xs' | 'sm' | 'md' }) {
  const language = useLanguage();
  const present = EMAIL_RECIPIENT_STATUSES.filter((status) => (send.counts[status] ?? 0) > 0);
  return (
    <Group gap={4} data-testid="email-count-badges">
      {present.map((status) => (
        <Badge
          key={status}
          size={size}
          color={STATUS_COLOR[status]}
          variant="light"
          style={{ textTransform: 'none' }}
          data-testid={`email-count-${status}`}
          data-value={send.counts[status]}
        >
          {emailStatusLabel(status, language)} {formatNumber(send.counts[status] ?? 0, language)}
        </Badge>
      ))}
    </Group>
  );
}

export function SendCounts({ send }: { send: EmailSend }) {
  return (
    <Stack gap={6}>
      <CountsBar send={send} />
      <CountBadges send={send} size="xs" />
    </Stack>
  );
}
