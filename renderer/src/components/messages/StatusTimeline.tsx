// One message's status steps (created -> handed to the carrier -> final), each bullet saying what
// its status means (its tone in the lifecycle table). The Messages drawer and a campaign
// recipient's drawer both show it.
import { Text, Timeline } from '@mantine/core';
import { IconCheck, IconClock, IconSend, IconX } from '@tabler/icons-react';
import { LIFECYCLE, isMessageStatus, type StatusTone } from '../../../../shared/lifecycle';
import { formatDateTime } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { statusLabel } from '../../lib/status';

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
      {events.map((event) => (
        <Timeline.Item
          key={`${event.status}-${event.at}`}
          bullet={iconFor(event.status)}
          title={statusLabel(event.status, language)}
          data-testid="timeline-item"
          data-status={event.status}
        >
          <Text size="xs" c="dimmed">
            {formatDateTime(event.at, language)}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
