// One recipient of the run: the text they got, its status timeline (created -> handed to the
// carrier -> final) and their visits of the short links. Read again as the report moves on.
import { Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../../stores/context';
import type { MessageTimeline, RecipientClicks } from '../../../stores/campaigns';
import { digits, formatDateTime, phoneText } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { MessageTextBox } from '../../MessageTextBox';
import { StatusBadge } from '../../StatusBadge';
import { StatusTimeline } from '../../messages/StatusTimeline';
import { Money } from '../../Money';

export function RecipientDrawer({
  messageId,
  version,
  onClose,
}: {
  messageId: number | null;
  /** The report's version: a newer one reads the recipient again. */
  version: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { campaigns } = useStores();
  const [shown, setShown] = useState<{ timeline: MessageTimeline; clicks: RecipientClicks } | null>(null);
  useEffect(() => {
    if (messageId === null) return;
    let current = true;
    void campaigns
      .getState()
      .recipient(messageId)
      .then((answer) => current && answer && setShown(answer));
    return () => {
      current = false;
    };
  }, [campaigns, messageId, version]);
  const message = shown?.timeline.message.id === messageId ? shown.timeline.message : null;
  return (
    <Drawer
      opened={messageId !== null}
      onClose={onClose}
      // The end side: Mantine mirrors it in right-to-left, so this opens on the left in Persian.
      position="right"
      size="md"
      title={message ? t('report.recipient.title', { phone: phoneText(message.receptor, language) }) : ''}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="report-recipient"
    >
      {!message || !shown ? (
        <Loader size="sm" />
      ) : (
        <Stack>
          <Group justify="space-between">
            <Text fw={600}>
              <bdi dir="ltr">{digits(message.receptor, language)}</bdi>
            </Text>
            <StatusBadge status={message.status} />
          </Group>
          <Text size="sm" c="dimmed">
            <Money rials={message.cost_rials} />
          </Text>
          <MessageTextBox text={message.text} />
          <Text fw={600} size="sm">
            {t('report.recipient.timeline')}
          </Text>
          <StatusTimeline events={shown.timeline.events} />
          <Text fw={600} size="sm">
            {t('report.recipient.clicks')}
          </Text>
          {shown.clicks.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="report-recipient-no-clicks">
              {t('report.recipient.noClicks')}
            </Text>
          ) : (
            <Stack gap={4} data-testid="report-recipient-clicks" data-count={shown.clicks.length}>
              {shown.clicks.map((click, i) => (
                <Group key={i} justify="space-between" wrap="nowrap" gap="sm">
                  <Text size="sm" truncate="end" title={click.actual_url}>
                    <bdi dir="ltr">{click.actual_url}</bdi>
                  </Text>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(click.clicked_at, language)}
                  </Text>
                </Group>
              ))}
            </Stack>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
