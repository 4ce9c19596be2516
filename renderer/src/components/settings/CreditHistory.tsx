// The history of the current account's credit: every change of it, newest first. A send's refunds
// are one row of the ledger, which opens to show each refund.
import { ActionIcon, Badge, Button, Group, Paper, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { Fragment, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { LedgerRow } from '../../stores/settings';
import { digits, formatDateTime } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';

const KIND_COLOR = { topup: 'teal', send: 'blue', refund: 'grape', adjust: 'orange' } as const;

export function CreditHistory() {
  const { t } = useTranslation();
  const { settings } = useStores();
  const { ledger, more, refunds, loadOlder, loadRefunds } = useStore(
    settings,
    useShallow((s) => ({
      ledger: s.ledger,
      more: s.ledgerBefore !== null,
      refunds: s.refunds,
      loadOlder: s.loadOlderLedger,
      loadRefunds: s.loadRefunds,
    })),
  );
  // The grouped refund rows shown open, by send id.
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());

  // A re-read of the ledger forgets the refunds it had loaded (new ones may have joined a group):
  // a group left open is read again, so it stays open with its rows instead of showing none.
  const loading = useRef(new Set<number>());
  useEffect(() => {
    for (const sendId of open)
      if (!refunds[sendId] && !loading.current.has(sendId)) {
        loading.current.add(sendId);
        void loadRefunds(sendId).finally(() => loading.current.delete(sendId));
      }
  }, [open, refunds, loadRefunds]);

  const toggle = (sendId: number) => {
    const next = new Set(open);
    if (next.has(sendId)) next.delete(sendId);
    else {
      next.add(sendId);
    }
    setOpen(next);
  };

  return (
    <>
      <Paper withBorder>
        <Table striped data-testid="ledger-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={36} />
              <Table.Th>{t('settings.credit.date')}</Table.Th>
              <Table.Th>{t('settings.credit.kind')}</Table.Th>
              <Table.Th>{t('settings.credit.change')}</Table.Th>
              <Table.Th>{t('settings.credit.ref')}</Table.Th>
              <Table.Th>{t('settings.credit.note')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ledger.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={6}>
                  <Text c="dimmed" ta="center" py="md">
                    {t('settings.credit.empty')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              ledger.map((row) => {
                const group = row.refund_count !== null && row.send_id !== null ? row.send_id : null;
                const shown = group !== null && open.has(group) ? refunds[group] : undefined;
                return (
                  <Fragment key={`${row.kind}-${row.id}`}>
                    <LedgerLine
                      row={row}
                      opened={group !== null && open.has(group)}
                      onToggle={group === null ? null : () => toggle(group)}
                    />
                    {shown?.entries.map((refund) => (
                      <LedgerLine key={refund.id} row={refund} nested />
                    ))}
                    {shown && shown.before !== null ? (
                      <Table.Tr>
                        <Table.Td />
                        <Table.Td colSpan={5}>
                          <Button
                            size="xs"
                            variant="subtle"
                            onClick={() => void loadRefunds(group!)}
                            data-testid="ledger-refunds-more"
                          >
                            {t('settings.credit.moreRefunds')}
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    ) : null}
                  </Fragment>
                );
              })
            )}
          </Table.Tbody>
        </Table>
      </Paper>
      {more ? (
        <Group justify="center">
          <Button variant="subtle" onClick={() => void loadOlder()} data-testid="ledger-more">
            {t('settings.credit.older')}
          </Button>
        </Group>
      ) : null}
    </>
  );
}

/** One row of the ledger: an entry, a send's refunds summed (with its expander), or one of those refunds (nested). */
function LedgerLine({
  row,
  opened = false,
  onToggle = null,
  nested = false,
}: {
  row: LedgerRow;
  opened?: boolean;
  onToggle?: (() => void) | null;
  nested?: boolean;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const Closed = language === 'fa' ? IconChevronLeft : IconChevronRight;
  const ref =
    row.refund_count !== null && row.send_id !== null
      ? t(row.refund_count === 1 ? 'settings.credit.refundGroupOne' : 'settings.credit.refundGroupMany', {
          n: digits(row.refund_count, language),
          id: digits(row.send_id, language),
        })
      : row.send_id
        ? t('settings.credit.sendRef', { id: digits(row.send_id, language) })
        : row.message_id
          ? t('settings.credit.messageRef', { id: digits(row.message_id, language) })
          : '—';
  return (
    <Table.Tr
      data-testid={nested ? 'ledger-refund-row' : 'ledger-row'}
      data-kind={row.kind}
      data-refunds={row.refund_count ?? undefined}
    >
      <Table.Td>
        {onToggle ? (
          <ActionIcon
            variant="subtle"
            size="sm"
            onClick={onToggle}
            aria-expanded={opened}
            aria-label={opened ? t('settings.credit.hideRefunds') : t('settings.credit.showRefunds')}
            data-testid="ledger-refunds-toggle"
          >
            {opened ? <IconChevronDown size={16} /> : <Closed size={16} />}
          </ActionIcon>
        ) : null}
      </Table.Td>
      <Table.Td c={nested ? 'dimmed' : undefined}>{formatDateTime(row.created_at, language)}</Table.Td>
      <Table.Td>
        {nested ? null : (
          <Badge color={KIND_COLOR[row.kind]} variant="light">
            {t(`settings.credit.kinds.${row.kind}`)}
          </Badge>
        )}
      </Table.Td>
      <Table.Td c={row.amount_rials < 0 ? 'red' : 'teal'} fz={nested ? 'sm' : undefined}>
        <Money rials={row.amount_rials} signed />
      </Table.Td>
      <Table.Td fz={nested ? 'sm' : undefined}>{ref}</Table.Td>
      <Table.Td>{row.note || (nested ? null : '—')}</Table.Td>
    </Table.Tr>
  );
}
