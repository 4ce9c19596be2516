// The Messages page "by send": each send (Compose, the HTTP API) and each campaign execution as
// one row with its counts and cost, newest first, a page at a time; a row opens that send's
// messages. Counts move with the status pushes (stores/messages.ts re-reads the page, throttled).
import { Group, Loader, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import { IconStack2 } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { SENDS_PAGE_SIZE } from '../../stores/messages';
import { digits, formatDateTime, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { directionFor } from '../../lib/direction';
import { EmptyState } from '../EmptyState';
import { Money } from '../Money';
import { navigate } from '../useRoute';
import type { SendRow } from '../../../../shared/ipc/contracts/messaging';
import { OutcomeBar, SendTitle } from './SendParts';

/** Where a row leads: `messages/send/12` or `messages/execution/3`. */
export function sendPath(row: Pick<SendRow, 'kind' | 'send_id' | 'execution_id'>): string {
  return row.kind === 'execution' ? `messages/execution/${row.execution_id}` : `messages/send/${row.send_id}`;
}

export function SendsTable() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { messages } = useStores();
  const { page, rows, total, showSends, hideSends } = useStore(
    messages,
    useShallow((s) => ({
      page: s.sendsPage,
      rows: s.sendRows,
      total: s.sendsTotal,
      showSends: s.showSends,
      hideSends: s.hideSends,
    })),
  );
  // Read when shown (the page it was left on), and no longer followed once off screen.
  useEffect(() => {
    showSends(messages.getState().sendsPage);
    return hideSends;
  }, [messages, showSends, hideSends]);

  const pages = total === null ? 0 : Math.ceil(total / SENDS_PAGE_SIZE);
  return (
    <Stack gap="sm">
      <Paper withBorder>
        {rows === null ? (
          <Group justify="center" p="xl">
            <Loader size="sm" />
          </Group>
        ) : rows.length === 0 ? (
          <EmptyState
            testId="sends-empty"
            icon={<IconStack2 size={28} />}
            title={t('sends.empty')}
            hint={t('sends.emptyHint')}
          />
        ) : (
          <Table highlightOnHover verticalSpacing="sm" data-testid="sends-table" data-total={total ?? ''}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('sends.columns.send')}</Table.Th>
                <Table.Th>{t('sends.columns.date')}</Table.Th>
                <Table.Th>{t('sends.columns.line')}</Table.Th>
                <Table.Th>{t('sends.columns.text')}</Table.Th>
                <Table.Th>{t('sends.columns.messages')}</Table.Th>
                <Table.Th miw={170}>{t('sends.columns.outcome')}</Table.Th>
                <Table.Th>{t('sends.columns.cost')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const open = () => navigate(sendPath(row));
                return (
                  <Table.Tr
                    key={`${row.kind}-${row.send_id ?? row.execution_id}`}
                    data-testid={
                      row.kind === 'execution' ? `execution-row-${row.execution_id}` : `send-row-${row.send_id}`
                    }
                    data-kind={row.kind}
                    data-messages={row.messages}
                    data-delivered={row.delivered}
                    data-failed={row.failed}
                    data-pending={row.pending}
                    data-cost={row.cost_rials}
                    style={{ cursor: 'pointer' }}
                    tabIndex={0}
                    onClick={open}
                    onKeyDown={(event) => event.key === 'Enter' && open()}
                  >
                    <Table.Td miw={200}>
                      <SendTitle row={row} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(row.created_at, language)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <bdi dir="ltr">{digits(row.sender, language)}</bdi>
                    </Table.Td>
                    <Table.Td maw={260}>
                      {/* The text keeps its own direction but lines up with the column like the others. */}
                      <Text
                        size="sm"
                        truncate="end"
                        dir={directionFor(row.text, language)}
                        data-user-text
                        title={row.text}
                        ta={language === 'fa' ? 'right' : 'left'}
                      >
                        {row.text.replace(/\n/g, ' ⏎ ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatNumber(row.messages, language)}</Table.Td>
                    <Table.Td>
                      <OutcomeBar row={row} />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Money rials={row.cost_rials} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      {pages > 1 ? (
        <Group justify="center">
          <Pagination
            total={pages}
            value={page + 1}
            onChange={(next) => showSends(next - 1)}
            getItemProps={(n) => ({ children: digits(n, language), 'data-testid': `sends-page-${n}` })}
            data-testid="sends-pagination"
          />
        </Group>
      ) : null}
    </Stack>
  );
}
