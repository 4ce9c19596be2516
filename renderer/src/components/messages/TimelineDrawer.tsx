// One message's status timeline (created -> handed to the carrier -> final), live while open, and
// what it cost: charged, or refunded (the lifecycle's move into its final status says which).
import { Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { digits, phoneText } from '../../lib/format';
import { MessageTextBox } from '../MessageTextBox';
import { PhoneNumber } from '../PhoneNumber';
import { useLanguage } from '../../i18n/useLanguage';
import { StatusBadge } from '../StatusBadge';
import { StatusTimeline } from './StatusTimeline';
import { Money } from '../Money';
import { CostHint } from './CostHint';
import { MessageStatus, isFinalStatus } from '../../../../shared/lifecycle';
import { refundedMove } from '../../../../shared/status-labels';

type CostNote = 'charged' | 'refunded' | 'carrierBlocked' | 'pending';

/** What this message cost, from its timeline: the step before its final status decides a refund. */
function costNote(status: number, events: ReadonlyArray<{ status: number }>): CostNote {
  if (!isFinalStatus(status)) return 'pending';
  const before = events.length >= 2 ? events[events.length - 2]!.status : MessageStatus.Queued;
  if (refundedMove(before, status)) return 'refunded';
  return status === MessageStatus.Blocked ? 'carrierBlocked' : 'charged';
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
            <Text fw={600}>
              <PhoneNumber number={message.receptor} />
            </Text>
            <StatusBadge status={message.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {t('messages.fromLine', { line: phoneText(message.sender, language) })} ·{' '}
            <Money rials={message.cost_rials} />
          </Text>
          {timeline === null ? null : (
            <Text size="sm" data-testid="timeline-cost" data-cost={costNote(message.status, timeline)}>
              {t(`messages.cost.${costNote(message.status, timeline)}`)}
            </Text>
          )}
          <MessageTextBox text={message.text} data-testid="timeline-text" />
          {timeline === null ? <Loader size="sm" /> : <StatusTimeline events={timeline} />}
          <Text size="xs" c="dimmed">
            <CostHint />
          </Text>
        </Stack>
      ) : null}
    </Drawer>
  );
}
