// A message status as a colored badge; long Persian texts are cut with the full text on hover.
import { Badge, Tooltip } from '@mantine/core';
import { isMessageStatus, statusColor, statusLabel } from '../lib/status';
import { useLanguage } from '../i18n/useLanguage';

export function StatusBadge({ status }: { status: number }) {
  const language = useLanguage();
  const label = statusLabel(status, language);
  const color = isMessageStatus(status) ? statusColor(status) : 'gray';
  return (
    <Tooltip label={label} openDelay={400} multiline maw={320}>
      <Badge
        color={color}
        variant="light"
        maw={220}
        data-testid="status-badge"
        data-status={status}
        style={{ textTransform: 'none' }}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}
