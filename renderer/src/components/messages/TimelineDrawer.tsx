// One message's status timeline (created -> handed to the carrier -> final), live while open.
import { Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { digits } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { StatusBadge } from '../StatusBadge';
import { StatusTimeline } from './StatusTimeline';
import { Money } from '../Money';

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
          {timeline === null ? <Loader size="sm" /> : <StatusTimeline events={timeline} />}
        </Stack>
      ) : null}
    </Drawer>
  );
}
