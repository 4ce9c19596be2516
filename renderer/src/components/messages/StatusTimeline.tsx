// One message's status steps (created -> handed to the carrier -> final), each bullet saying what
// its status means (its tone in the lifecycle table) in its status's colour: a message that ended
// without reaching its receiver (11, 13, 14) ends in the failure colour, never the delivered one.
// The Messages drawer and a campaign recipient's drawer both show it.
import { Text, Timeline, Tooltip } from '@mantine/core';
import { IconCheck, IconClock, IconSend, IconX } from '@tabler/icons-react';
import { LIFECYCLE, isMessageStatus, type StatusTone } from '../../../../shared/lifecycle';
import { formatDateTime } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { statusColor, statusDescription, statusLabel } from '../../lib/status';

function toneIcon(tone: StatusTone) {
  switch (tone) {
    case 'success':
      return <IconCheck size={14} />;
    case 'in-flight':
      return <IconSend size={14} />;
    case 'waiting':
    case 'scheduled':
      return <IconClock size={14} />;
    case 'problem':
    case 'refunded':
    case 'blocked':
    case 'rejected':
      return <IconX size={14} />;
  }
}

function iconFor(status: number) {
  return isMessageStatus(status) ? toneIcon(LIFECYCLE[status].tone) : <IconClock size={14} />;
}

export function StatusTimeline({ events }: { events: ReadonlyArray<{ status: number; at: number }> }) {
  const language = useLanguage();
  return (
    <Timeline active={events.length - 1} bulletSize={24} lineWidth={2} data-testid="timeline">
      {events.map((event) => {
        const color = isMessageStatus(event.status) ? statusColor(event.status) : 'gray';
        return (
          <Timeline.Item
            key={`${event.status}-${event.at}`}
            bullet={iconFor(event.status)}
            color={color}
            title={
              <Tooltip label={statusDescription(event.status, language)} openDelay={400} multiline maw={320}>
                <span>{statusLabel(event.status, language)}</span>
              </Tooltip>
            }
            data-testid="timeline-item"
            data-status={event.status}
            data-color={color}
          >
            <Text size="xs" c="dimmed">
              {formatDateTime(event.at, language)}
            </Text>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
