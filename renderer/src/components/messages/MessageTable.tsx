// The virtualized messages table: only the visible rows exist in the DOM, and only their pages
// are fetched (stores/messages.ts), so a million rows scroll like a hundred. Past the height a
// browser allows an element (a million rows of 44 px would be cut near row 762,000) the scroll
// bar is scaled so every row stays reachable (lib/windowing.ts). A new filter starts at the top.
// Narrower than its columns (a 1024 px window), it scrolls sideways, header and rows together.
// While the core cannot be reached, the last rows stay; with none read yet it says so, never
// "no messages".
import { Box, Loader, Paper, Skeleton, Text } from '@mantine/core';
import { IconCloudOff, IconInbox } from '@tabler/icons-react';
import { useEffect, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { messagesSelectors, type MessagesState } from '../../stores/messages';
import { digits, formatDateTime } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { directionFor } from '../../lib/direction';
import { PhoneNumber } from '../PhoneNumber';
import { visibleRows } from '../../lib/windowing';
import { StatusBadge } from '../StatusBadge';
import { useScrollBox } from '../useScrollBox';
import { Money } from '../Money';
import { EmptyState } from '../EmptyState';
import type { MessageRow } from '../../api';
import classes from './MessageTable.module.css';

const ROW_HEIGHT = 44;

export function MessageTable() {
  const { t } = useTranslation();
  const { messages } = useStores();
  const count = useStore(messages, (s) => s.count);
  const filtered = useStore(messages, messagesSelectors.isFiltered);
  const scoped = useStore(messages, (s) => s.scope !== null);
  const ensureRows = useStore(messages, (s) => s.ensureRows);
  const stale = useStore(messages, (s) => s.stale);
  // What the rows answer: a new one starts at the first row (pushes re-read the same one).
  const query = useStore(messages, (s) => s.filter);
  const scope = useStore(messages, (s) => s.scope);
  const accountId = useStore(messages, (s) => s.accountId);
  // The scroll box exists once there are rows; measure it then, and whenever it is resized.
  const hasRows = (count ?? 0) > 0;
  const { ref: scrollRef, scrollTop, viewport, onScroll } = useScrollBox(hasRows);
  // (The box's scroll event brings scrollTop along; a box mounted anew starts at 0 anyway.)
  useLayoutEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [scrollRef, query, scope, accountId]);
  const { height, first, last, offset } = visibleRows(count ?? 0, ROW_HEIGHT, scrollTop, viewport);
  useEffect(() => {
    if (hasRows) ensureRows(first, last);
  }, [first, last, count, hasRows, ensureRows]);

  if (count === null) {
    return (
      <Paper withBorder p={stale ? 0 : 'xl'} ta="center">
        {stale ? (
          <EmptyState
            testId="messages-unavailable"
            icon={<IconCloudOff size={28} />}
            title={t('messages.unavailable')}
            hint={t('messages.unavailableHint')}
          />
        ) : (
          <Loader size="sm" />
        )}
      </Paper>
    );
  }
  if (count === 0) {
    return (
      <Paper withBorder>
        <EmptyState
          testId="messages-empty"
          icon={<IconInbox size={28} />}
          title={filtered ? t('messages.emptyFiltered') : scoped ? t('sends.noMessages') : t('messages.empty')}
          hint={
            filtered ? t('messages.emptyFilteredHint') : scoped ? t('sends.noMessagesHint') : t('messages.emptyHint')
          }
        />
      </Paper>
    );
  }
  return (
    <Paper
      withBorder
      className={classes.table}
      role="table"
      aria-rowcount={count}
      data-testid="messages-table"
      data-stale={stale || undefined}
    >
      <div className={classes.wide}>
        <div className={`${classes.row} ${classes.header}`} role="row">
          <div role="columnheader">{t('messages.columns.id')}</div>
          <div role="columnheader">{t('messages.columns.date')}</div>
          <div role="columnheader">{t('messages.columns.sender')}</div>
          <div role="columnheader">{t('messages.columns.receptor')}</div>
          <div role="columnheader">{t('messages.columns.status')}</div>
          <div role="columnheader">{t('messages.columns.cost')}</div>
          <div role="columnheader">{t('messages.columns.text')}</div>
        </div>
        <div ref={scrollRef} className={classes.scroll} onScroll={onScroll} data-testid="messages-scroll">
          <div style={{ height, position: 'relative' }}>
            {Array.from({ length: last - first + 1 }, (_, k) => first + k).map((index) => (
              <Box
                key={index}
                style={{
                  position: 'absolute',
                  top: 0,
                  insetInlineStart: 0,
                  width: '100%',
                  height: ROW_HEIGHT,
                  transform: `translateY(${index * ROW_HEIGHT + offset}px)`,
                }}
              >
                <Row index={index} />
              </Box>
            ))}
          </div>
        </div>
      </div>
    </Paper>
  );
}

/** One row; subscribes to its own row only, so a status push re-renders just that row. */
function Row({ index }: { index: number }) {
  const { messages } = useStores();
  const row = useStore(messages, (s: MessagesState) => messagesSelectors.row(s, index));
  const openTimeline = useStore(messages, (s) => s.openTimeline);
  if (!row) {
    return (
      <div className={classes.row} role="row">
        <Skeleton height={14} width="80%" style={{ gridColumn: '1 / -1' }} />
      </div>
    );
  }
  return <LoadedRow row={row} onOpen={() => void openTimeline(row)} />;
}

function LoadedRow({ row, onOpen }: { row: MessageRow; onOpen: () => void }) {
  const language = useLanguage();
  return (
    <div
      className={`${classes.row} ${classes.clickable}`}
      role="row"
      tabIndex={0}
      onClick={onOpen}
      onKeyDown={(event) => event.key === 'Enter' && onOpen()}
      data-testid="message-row"
      data-id={row.id}
      data-status={row.status}
    >
      <div role="cell">{digits(row.id, language)}</div>
      <div role="cell" data-testid="message-date">
        {formatDateTime(row.created_at, language)}
      </div>
      {/* Numbers read left to right inside, but sit at the column's start like its header. */}
      <div role="cell" data-testid="message-sender">
        <PhoneNumber number={row.sender} />
      </div>
      <div role="cell" data-testid="message-receptor">
        <PhoneNumber number={row.receptor} />
      </div>
      <div role="cell">
        <StatusBadge status={row.status} />
      </div>
      <div role="cell" data-testid="message-cost">
        <Money rials={row.cost_rials} />
      </div>
      {/* The text keeps its own direction but lines up with the column like the others. */}
      <Text
        role="cell"
        size="sm"
        truncate="end"
        dir={directionFor(row.text, language)}
        data-user-text
        title={row.text}
        ta={language === 'fa' ? 'right' : 'left'}
        data-testid="message-text"
      >
        {row.text.replace(/\n/g, ' ⏎ ')}
      </Text>
    </div>
  );
}
