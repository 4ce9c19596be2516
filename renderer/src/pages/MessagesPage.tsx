// Messages: every sent message with its live status, filters, a virtualized table paged from the
// store, the timeline of one message, and export of the filtered rows. "By send" lists each send
// and campaign execution as a row; a row opens that send's messages only. Each view has its own
// address (#/messages, #/messages/sends, #/messages/send/12, #/messages/execution/3), so a reload
// keeps it. When the core cannot be reached the last rows and counts stay, said to be as last read.
import { Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../stores/context';
import { sameScope, type SendScope } from '../stores/messages';
import { counted } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';
import { navigate, useSubPath } from '../components/useRoute';
import { MessageFilters } from '../components/messages/MessageFilters';
import { MessageTable } from '../components/messages/MessageTable';
import { TimelineDrawer } from '../components/messages/TimelineDrawer';
import { ExportButtons } from '../components/messages/ExportButtons';
import { SendsTable } from '../components/messages/SendsTable';
import { SendHeader } from '../components/messages/SendHeader';

/** The send a path opens (`send/12`, `execution/3`), or null. */
function scopeOf(path: string): SendScope | null {
  const match = /^(send|execution)\/(\d+)$/.exec(path);
  return match ? { kind: match[1] as SendScope['kind'], id: Number(match[2]) } : null;
}

export function MessagesPage() {
  const { t } = useTranslation();
  const path = useSubPath();
  const scope = scopeOf(path);
  const bySend = scope !== null || path === 'sends';
  return (
    <Stack data-testid="page-messages" data-view={scope ? scope.kind : bySend ? 'sends' : 'all'} gap="sm">
      <Group justify="space-between">
        <Group gap="sm" align="baseline">
          <Title order={2}>{t('messages.title')}</Title>
          {bySend && !scope ? <SendsCount /> : <MessagesCount />}
        </Group>
        <Group gap="sm">
          {bySend && !scope ? null : <ExportButtons />}
          <SegmentedControl
            value={bySend ? 'sends' : 'all'}
            onChange={(value) => navigate(value === 'sends' ? 'messages/sends' : 'messages')}
            data={[
              { value: 'all', label: <span data-testid="messages-view-all">{t('sends.viewAll')}</span> },
              { value: 'sends', label: <span data-testid="messages-view-sends">{t('sends.viewSends')}</span> },
            ]}
            data-testid="messages-view"
          />
        </Group>
      </Group>
      {bySend && !scope ? <SendsTable /> : <ScopedMessages kind={scope?.kind ?? null} id={scope?.id ?? 0} />}
    </Stack>
  );
}

/** The messages table, narrowed to one send when `kind` is given (its row above it). */
function ScopedMessages({ kind, id }: { kind: SendScope['kind'] | null; id: number }) {
  const { messages } = useStores();
  const setScope = useStore(messages, (s) => s.setScope);
  const ready = useStore(messages, (s) => sameScope(s.scope, kind ? { kind, id } : null));
  const missing = useStore(messages, (s) => s.scopeError !== null);
  useEffect(() => setScope(kind ? { kind, id } : null), [kind, id, setScope]);
  // Until the store is narrowed, its rows are another view's.
  if (!ready) return <Loader size="sm" m="xl" />;
  // A send of another account, or none: nothing of it to list.
  if (missing) return <SendHeader />;
  return (
    <>
      {kind ? <SendHeader /> : null}
      <MessageFilters key={`${kind}-${id}`} />
      <MessageTable />
      <TimelineDrawer />
    </>
  );
}

function MessagesCount() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { count, stale } = useStore(
    useStores().messages,
    useShallow((s) => ({ count: s.count, stale: s.stale })),
  );
  return (
    <Group gap="xs" align="baseline">
      <Text c="dimmed" data-testid="messages-count" data-value={count ?? ''}>
        {count === null
          ? t(stale ? 'messages.countUnknown' : 'common.loading')
          : t('messages.count', counted(count, language))}
      </Text>
      {stale && count !== null ? (
        <Text size="xs" c="orange" data-testid="messages-stale">
          {t('messages.stale')}
        </Text>
      ) : null}
    </Group>
  );
}

function SendsCount() {
  const { t } = useTranslation();
  const language = useLanguage();
  const total = useStore(useStores().messages, (s) => s.sendsTotal);
  return (
    <Text c="dimmed" data-testid="sends-count" data-value={total ?? ''}>
      {total === null ? t('common.loading') : t('sends.count', counted(total, language))}
    </Text>
  );
}
