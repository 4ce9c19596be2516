// Messages: every sent message with its live status, filters, a virtualized table paged from the
// store, the timeline of one message, and export of the filtered rows.
import { Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../stores/context';
import { formatNumber } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';
import { MessageFilters } from '../components/messages/MessageFilters';
import { MessageTable } from '../components/messages/MessageTable';
import { TimelineDrawer } from '../components/messages/TimelineDrawer';
import { ExportButtons } from '../components/messages/ExportButtons';

export function MessagesPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const count = useStore(useStores().messages, (s) => s.count);
  return (
    <Stack data-testid="page-messages" gap="sm">
      <Group justify="space-between">
        <Group gap="sm" align="baseline">
          <Title order={2}>{t('messages.title')}</Title>
          <Text c="dimmed" data-testid="messages-count" data-value={count ?? ''}>
            {count === null ? t('common.loading') : t('messages.count', { n: formatNumber(count, language) })}
          </Text>
        </Group>
        <ExportButtons />
      </Group>
      <MessageFilters />
      <MessageTable />
      <TimelineDrawer />
    </Stack>
  );
}
