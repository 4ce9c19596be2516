// Pieces of a send's row shared by the by-send list, an open send's header and the dashboard:
// what the send is called, where it came from, an execution's status, and its outcome so far.
import { Badge, Group, Progress, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SendRow } from '../../../../shared/ipc/contracts/messaging';
import { EXECUTION_STATUSES, type ExecutionStatus } from '../../../../shared/campaigns';
import { digits, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { executionShownStatus } from '../../stores/campaigns';
import { CampaignStatusBadge } from '../campaigns/list/CampaignStatusBadge';

/**
 * A campaign execution's status, as the campaigns' own badge shows it; a paused one says so (its
 * status stays RUNNING or SCHEDULED). A status this app does not know is shown as written.
 */
export function ExecutionStatusBadge({ status, paused = false }: { status: string; paused?: boolean }) {
  if (!(EXECUTION_STATUSES as readonly string[]).includes(status))
    return (
      <Badge variant="light" color="gray" tt="none" style={{ flexShrink: 0 }} data-testid="execution-status">
        {status}
      </Badge>
    );
  return (
    <CampaignStatusBadge status={executionShownStatus(status as ExecutionStatus, paused)} testId="execution-status" />
  );
}

/**
 * The row's name (the campaign's for an execution, "Send 12" for a direct send) with where it came
 * from (API, Compose) or, for an execution, its status.
 */
export function SendTitle({ row, size = 'sm' }: { row: SendRow; size?: 'sm' | 'lg' }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Group gap="xs" wrap="nowrap" miw={0}>
      <Text fw={600} size={size} truncate="end" style={{ whiteSpace: 'nowrap' }} data-testid="send-name">
        <bdi>{row.name ?? t('sends.sendName', { id: digits(row.send_id ?? 0, language) })}</bdi>
      </Text>
      {row.kind === 'execution' && row.execution_status ? (
        <ExecutionStatusBadge status={row.execution_status} />
      ) : (
        <Badge
          variant="outline"
          color="gray"
          tt="none"
          style={{ flexShrink: 0 }}
          data-testid="send-origin"
          data-origin={row.origin}
        >
          {t(`sends.origin.${row.origin}`)}
        </Badge>
      )}
    </Group>
  );
}

/** Delivered, failed and on the way as one bar with the three numbers. */
export function OutcomeBar({ row, withLabels = false }: { row: SendRow; withLabels?: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const total = Math.max(row.messages, row.delivered + row.failed + row.pending);
  const share = (n: number) => (total > 0 ? (100 * n) / total : 0);
  const parts = [
    { key: 'delivered', n: row.delivered, color: 'teal' },
    { key: 'failed', n: row.failed, color: 'red' },
    { key: 'pending', n: row.pending, color: 'blue.3' },
  ] as const;
  return (
    <div>
      <Progress.Root size="sm" aria-hidden>
        {parts.map((part) => (
          <Tooltip key={part.key} label={t(`sends.${part.key}`, { n: formatNumber(part.n, language) })}>
            <Progress.Section value={share(part.n)} color={part.color} />
          </Tooltip>
        ))}
      </Progress.Root>
      <Group gap={withLabels ? 'md' : 'xs'} mt={4} wrap="nowrap">
        {parts.map((part) => (
          <Text
            key={part.key}
            size="xs"
            c={part.color === 'blue.3' ? 'dimmed' : part.color}
            data-testid={`outcome-${part.key}`}
            data-value={part.n}
          >
            {withLabels
              ? t(`sends.${part.key}`, { n: formatNumber(part.n, language) })
              : formatNumber(part.n, language)}
          </Text>
        ))}
      </Group>
    </div>
  );
}
