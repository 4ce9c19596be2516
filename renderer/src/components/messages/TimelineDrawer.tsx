// One message's status timeline (created -> handed to the carrier -> final), live while open.
import { Drawer, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import { IconCheck, IconClock, IconSend, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { LIFECYCLE, isMessageStatus, type StatusTone } from '../../../../shared/lifecycle';
import { digits, formatDateTime } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { statusLabel } from '../../lib/status';
import { StatusBadge } from '../StatusBadge';
import { Money } from '../Money';

/** A step's bullet says what its status means (its tone in the lifecycle table). */
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

export function TimelineDrawer() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { messages } = useStores();
  const { message, timeline, close } = useStore(
    messages,
    useShallow((s) => ({ message: s.openMessage, timeline: s.timeline, close: s.closeTimeline })),
  );
  return (
    <Drawer
      opened={message !== null}
      onClose={close}
      // The end side: Mantine mirrors it in right-to-left, so this opens on the left in Persian.
      position="right"
      title={message ? t('messages.timelineTitle', { id: digits(message.id, language) }) : ''}
      size="md"
      data-testid="timeline-drawer"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {message ? (
        <Stack>
          <Group justify="space-between">
            <Text className="ltr-value" fw={600}>
              {message.receptor}
            </Text>
            <StatusBadge status={message.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {t('messages.fromLine', { line: message.sender })} · <Money rials={message.cost_rials} />
          </Text>
          <Text size="sm" className="final-text" dir="auto" p="sm" bg="gray.0" style={{ borderRadius: 6 }}>
            {message.text}
          </Text>
          {timeline === null ? (
            <Loader size="sm" />
          ) : (
            <Timeline active={timeline.length - 1} bulletSize={24} lineWidth={2} data-testid="timeline">
              {timeline.map((event) => (
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
          )}
        </Stack>
      ) : null}
    </Drawer>
  );
}
