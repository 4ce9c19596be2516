// A message status as a coloured badge: its short label, the full text on hover (the spec's own
// in Persian), a failure colour for a message that ended without reaching its receiver.
import { Badge, Tooltip } from '@mantine/core';
import { isMessageStatus, statusColor, statusDescription, statusLabel } from '../lib/status';
import { useLanguage } from '../i18n/useLanguage';

export function StatusBadge({ status }: { status: number }) {
  const language = useLanguage();
  const label = statusLabel(status, language);
  const description = statusDescription(status, language);
  const color = isMessageStatus(status) ? statusColor(status) : 'gray';
  return (
    <Tooltip label={description} openDelay={400} multiline maw={320}>
      <Badge
        color={color}
        variant="light"
        maw={220}
        data-testid="status-badge"
        data-status={status}
        data-color={color}
        style={{ textTransform: 'none' }}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}
