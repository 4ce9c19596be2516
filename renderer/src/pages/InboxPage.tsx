// The Inbox: replies customers sent to the account's lines, newest first, each with the message it
// answers. Unread ones stand out until opened (a click marks one read; a button marks all); a reply
// that asked to opt out carries a badge and leads to the opt-out list it put the number on.
import { Anchor, Badge, Button, Chip, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChecks, IconInbox, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../stores/context';
import { useLanguage } from '../i18n/useLanguage';
import { directionFor } from '../lib/direction';
import { digits, formatDateTime, formatNumber, type Language } from '../lib/format';
import { navigate } from '../components/useRoute';
import { EmptyState } from '../components/EmptyState';
import type { InboxItem } from '../../../shared/ipc/contracts/inbox';

export function InboxPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { inbox } = useStores();
  const { items, next, loaded, loading, counts, filter, setShown, setFilter, loadMore, markRead } = useStore(
    inbox,
    useShallow((s) => ({
      items: s.items,
      next: s.next,
      loaded: s.loaded,
      loading: s.loading,
      counts: s.counts,
      filter: s.filter,
      setShown: s.setShown,
      setFilter: s.setFilter,
      loadMore: s.loadMore,
      markRead: s.markRead,
    })),
  );
  useEffect(() => {
    setShown(true);
    return () => setShown(false);
  }, [setShown]);
  const [search, setSearch] = useState(filter.search);
  const [query] = useDebouncedValue(search.trim(), 250);
  useEffect(() => {
    if (query !== inbox.getState().filter.search) setFilter({ search: query });
  }, [query, inbox, setFilter]);
  const filtered = filter.unreadOnly || filter.optOutsOnly || filter.search !== '';

  return (
    <Stack data-testid="page-inbox" gap="sm">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Group gap="sm" align="baseline">
            <Title order={2}>{t('inbox.title')}</Title>
            {counts ? (
              <Text c="dimmed" data-testid="inbox-counts" data-unread={counts.unread} data-total={counts.total}>
                {t('inbox.counts', {
                  unread: formatNumber(counts.unread, language),
                  total: formatNumber(counts.total, language),
                })}
              </Text>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" maw={640}>
            {t('inbox.hint')}
          </Text>
        </Stack>
        <Button
          variant="light"
          leftSection={<IconChecks size={16} />}
          disabled={!counts || counts.unread === 0}
          onClick={() => void markRead()}
          data-testid="inbox-mark-all"
        >
          {t('inbox.markAllRead')}
        </Button>
      </Group>
      <Group gap="sm">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('inbox.search')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={300}
          data-testid="inbox-search"
        />
        <Chip
          checked={filter.unreadOnly}
          onChange={(unreadOnly) => setFilter({ unreadOnly })}
          wrapperProps={{ 'data-testid': 'inbox-unread-only', 'data-checked': filter.unreadOnly }}
        >
          {t('inbox.unreadOnly')}
        </Chip>
        <Chip
          checked={filter.optOutsOnly}
          color="red"
          onChange={(optOutsOnly) => setFilter({ optOutsOnly })}
          wrapperProps={{ 'data-testid': 'inbox-optouts-only', 'data-checked': filter.optOutsOnly }}
        >
          {t('inbox.optOutsOnly')}
        </Chip>
      </Group>
      {!loaded ? (
        <Loader size="sm" m="xl" />
      ) : items.length === 0 ? (
        filtered ? (
          <EmptyState icon={<IconSearch size={28} />} title={t('inbox.emptyFilter')} testId="inbox-empty" />
        ) : (
          <EmptyState
            icon={<IconInbox size={28} />}
            title={t('inbox.empty')}
            hint={t('inbox.emptyHint')}
            testId="inbox-empty"
          />
        )
      ) : (
        <Stack gap="xs" data-testid="inbox-list">
          {items.map((item) => (
            <Reply key={item.id} item={item} language={language} onOpen={() => void markRead([item.id])} />
          ))}
          {next !== null ? (
            <Group justify="center">
              <Button variant="subtle" loading={loading} onClick={() => void loadMore()} data-testid="inbox-more">
                {t('inbox.loadMore')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}

/** A sent text longer than the two lines the reply shows of it. */
function isLong(text: string): boolean {
  return text.split('\n').length > 2 || text.length > 160;
}

/** One reply: who sent it to which line and when, its text, and the message it answers. */
function Reply({ item, language, onOpen }: { item: InboxItem; language: Language; onOpen: () => void }) {
  const { t } = useTranslation();
  const [whole, setWhole] = useState(false);
  const long = item.replied !== null && isLong(item.replied.text);
  const unread = item.read_at === null;
  return (
    <Paper
      withBorder
      p="sm"
      data-testid="inbox-item"
      data-id={item.id}
      data-unread={unread}
      data-optout={item.opt_out}
      onClick={unread ? onOpen : undefined}
      style={{
        cursor: unread ? 'pointer' : undefined,
        borderInlineStartWidth: 4,
        borderInlineStartColor: unread ? 'var(--mantine-color-teal-6)' : undefined,
        background: unread ? 'var(--mantine-color-teal-0)' : undefined,
      }}
    >
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap="xs" wrap="wrap">
            <Text fw={unread ? 700 : 500} data-testid="inbox-sender">
              <bdi dir="ltr">{digits(item.sender, language)}</bdi>
            </Text>
            <Text size="sm" c="dimmed" data-testid="inbox-line">
              {t('inbox.toLine', { line: digits(item.line_number, language) })}
            </Text>
            {unread ? (
              <Badge size="sm" color="teal" variant="filled" data-testid="inbox-unread-badge">
                {t('inbox.unread')}
              </Badge>
            ) : null}
            {item.opt_out ? (
              <Badge size="sm" color="red" variant="light" data-testid="inbox-optout-badge">
                {t('inbox.optOut')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="inbox-time">
            {formatDateTime(item.received_at, language)}
          </Text>
        </Group>
        <Text
          fw={unread ? 600 : 400}
          dir={directionFor(item.text, language)}
          data-user-text
          style={{ whiteSpace: 'pre-wrap' }}
          data-testid="inbox-text"
        >
          {item.text}
        </Text>
        {item.opt_out ? (
          <Anchor
            size="sm"
            c="red"
            href="#/contacts/optouts"
            onClick={(event) => {
              event.preventDefault();
              event.stopPropagation();
              navigate('contacts/optouts');
            }}
            data-testid="inbox-optout-link"
          >
            {t('inbox.optOutList')}
          </Anchor>
        ) : null}
        {item.replied ? (
          <Paper bg="gray.0" p="xs" radius="sm" data-testid="inbox-replied" data-message={item.replied.id}>
            <Text size="xs" c="dimmed" data-testid="inbox-replied-meta">
              {t('inbox.inReplyTo', {
                date: formatDateTime(item.replied.sent_at, language),
                line: digits(item.replied.line_number, language),
              })}
            </Text>
            <Text
              size="sm"
              dir={directionFor(item.replied.text, language)}
              data-user-text
              lineClamp={whole || !long ? undefined : 2}
              style={{ whiteSpace: 'pre-wrap' }}
              data-testid="inbox-replied-text"
            >
              {item.replied.text}
            </Text>
            {long ? (
              <Anchor
                component="button"
                type="button"
                size="xs"
                onClick={(event) => {
                  event.stopPropagation();
                  setWhole(!whole);
                  if (unread) onOpen();
                }}
                data-testid="inbox-replied-toggle"
              >
                {whole ? t('inbox.showLess') : t('inbox.showWhole')}
              </Anchor>
            ) : null}
          </Paper>
        ) : (
          <Text size="xs" c="dimmed">
            {t('inbox.notLinked')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
