// The Inbox: replies customers sent to the account's lines, newest first, each with the message it
// answers and who the customer is (their name and columns from the segments holding the number).
// Unread ones stand out until opened (a click marks one read; a button marks all); a reply that
// asked to opt out carries a badge and leads to the opt-out list it put the number on. The open
// conversations are shown by default (done ones on their own view), each line's unread count is a
// chip that shows that line's replies, and a reply opens its number's conversation
// (#/inbox/thread/<number>: components/inbox/ConversationView.tsx).
import {
  Anchor,
  Badge,
  Button,
  Chip,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconChecks, IconInbox, IconMessages, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../stores/context';
import { useLanguage } from '../i18n/useLanguage';
import { directionFor } from '../lib/direction';
import { counted, digits, formatDateTime, formatNumber, type Language } from '../lib/format';
import { navigate, useSubPath } from '../components/useRoute';
import { EmptyState } from '../components/EmptyState';
import { PhoneNumber } from '../components/PhoneNumber';
import { ConversationView } from '../components/inbox/ConversationView';
import type { ConversationView as View, InboxItem } from '../../../shared/ipc/contracts/inbox';

export function InboxPage() {
  const sub = useSubPath();
  const thread = /^thread\/(.+)$/.exec(sub);
  return thread ? <ConversationView phone={decodeURIComponent(thread[1]!)} /> : <InboxList />;
}

function InboxList() {
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
  const filtered = filter.unreadOnly || filter.optOutsOnly || filter.search !== '' || filter.line !== '';
  const byLine = counts?.unread_by_line ?? [];

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
      <Group gap="sm" data-testid="inbox-lines">
        <SegmentedControl
          value={filter.view}
          onChange={(view) => setFilter({ view: view as View })}
          data={[
            { value: 'open', label: t('inbox.conversation.viewOpen') },
            { value: 'done', label: t('inbox.conversation.viewDone') },
            { value: 'all', label: t('inbox.conversation.viewAll') },
          ]}
          data-testid="inbox-view"
          data-value={filter.view}
        />
        <Chip
          checked={filter.line === ''}
          variant="outline"
          onChange={() => setFilter({ line: '' })}
          wrapperProps={{ 'data-testid': 'inbox-all-lines' }}
        >
          {t('inbox.conversation.allLines')}
        </Chip>
        {/* Each line with unread replies, and the one chosen even when it has none left. */}
        {[
          ...byLine,
          ...(filter.line !== '' && !byLine.some((l) => l.line_number === filter.line)
            ? [{ line_number: filter.line, unread: 0 }]
            : []),
        ].map((l) => (
          <Chip
            key={l.line_number}
            checked={filter.line === l.line_number}
            variant="outline"
            onChange={(checked) => setFilter({ line: checked ? l.line_number : '' })}
            wrapperProps={{ 'data-testid': 'inbox-line-chip', 'data-line': l.line_number, 'data-unread': l.unread }}
          >
            <Group gap={6} wrap="nowrap">
              <span>
                {t('inbox.conversation.line')} <PhoneNumber number={l.line_number} />
              </span>
              {l.unread > 0 ? (
                <Badge size="sm" color="teal" circle={l.unread < 10} data-testid="inbox-line-unread">
                  {formatNumber(l.unread, language)}
                </Badge>
              ) : null}
            </Group>
          </Chip>
        ))}
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
            <Reply
              key={item.id}
              item={item}
              language={language}
              onOpen={() => void markRead([item.id])}
              onDone={(done) => void inbox.getState().setDone(item.line_number, item.sender, done)}
            />
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

/** Who the customer is, compactly: the name, the segments holding the number and a few other columns. */
function ContactLine({ item, language }: { item: InboxItem; language: Language }) {
  const { t } = useTranslation();
  const card = item.contact;
  if (card.segment_count === 0) return null;
  const names = card.segments.map((s) => `\u2068${s.name}\u2069`).join(language === 'fa' ? '، ' : ', ');
  // Columns besides the name, each once, as a short line.
  const seen = new Set<string>();
  const fields = card.segments
    .flatMap((s) => s.fields)
    .filter((f) => f.value !== card.name && !seen.has(f.column) && seen.add(f.column))
    .slice(0, 4);
  return (
    <Text size="sm" c="dimmed" data-testid="inbox-contact-segments" lineClamp={2}>
      {t('inbox.conversation.segments', { ...counted(card.segment_count, language), names })}
      {fields.length > 0 ? ' · ' : null}
      {fields.map((f, i) => (
        <span key={f.column}>
          {i > 0 ? ' · ' : null}
          <bdi>{f.column}</bdi>: <bdi>{f.value}</bdi>
        </span>
      ))}
    </Text>
  );
}

/** One reply: who sent it to which line and when, its text, and the message it answers. */
function Reply({
  item,
  language,
  onOpen,
  onDone,
}: {
  item: InboxItem;
  language: Language;
  onOpen: () => void;
  onDone: (done: boolean) => void;
}) {
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
      data-done={item.done}
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
            {item.contact.name ? (
              <Text
                fw={unread ? 700 : 600}
                data-testid="inbox-contact-name"
                dir={directionFor(item.contact.name, language)}
              >
                {item.contact.name}
              </Text>
            ) : null}
            <Text fw={unread ? 700 : 500} c={item.contact.name ? 'dimmed' : undefined} data-testid="inbox-sender">
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
            {item.done ? (
              <Badge size="sm" color="gray" variant="light" data-testid="inbox-done-badge">
                {t('inbox.conversation.done')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="inbox-time">
            {formatDateTime(item.received_at, language)}
          </Text>
        </Group>
        <ContactLine item={item} language={language} />
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
        <Group gap="xs" justify="flex-end">
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconMessages size={14} />}
            onClick={(event) => {
              event.stopPropagation();
              navigate(`inbox/thread/${encodeURIComponent(item.sender)}`);
            }}
            data-testid="inbox-open-thread"
          >
            {t('inbox.conversation.open')}
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={item.done ? <IconRefresh size={14} /> : <IconCheck size={14} />}
            onClick={(event) => {
              event.stopPropagation();
              onDone(!item.done);
            }}
            data-testid="inbox-done"
          >
            {item.done ? t('inbox.conversation.reopen') : t('inbox.conversation.markDone')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
