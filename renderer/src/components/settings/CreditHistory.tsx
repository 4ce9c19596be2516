// The bill of the current account: every change of its credit, newest first, as the core groups
// it (accounts/credit.ts). A campaign's run or a send is one named row, what it charged, what came
// back and the net, so a provider's bill can be matched; a run opens to its sends, a send to its
// refunds. Top-ups and corrections are rows of their own.
import { ActionIcon, Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { LedgerRow } from '../../stores/settings';
import { digits, formatDateTime } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';

const KIND_COLOR = { topup: 'teal', send: 'blue', refund: 'grape', adjust: 'orange' } as const;
const ORIGIN_COLOR = { campaign: 'indigo', panel: 'blue', api: 'cyan' } as const;
const COLUMNS = 7;

/** What a row opens to: a run's sends, or a send's refunds. */
type Opened = `run:${number}` | `send:${number}`;

function opens(row: LedgerRow): Opened | null {
  const group = row.group;
  if (group === null) return null;
  if (group.execution_id !== null && group.sends > 1) return `run:${group.execution_id}`;
  // A send, or a run of one send (the row names it): its refunds.
  if (group.refund_count > 0 && row.send_id !== null) return `send:${row.send_id}`;
  return null;
}

export function CreditHistory() {
  const { t } = useTranslation();
  const { settings } = useStores();
  const { ledger, more, refunds, runSends, loadOlder, loadRefunds, loadRunSends } = useStore(
    settings,
    useShallow((s) => ({
      ledger: s.ledger,
      more: s.ledgerBefore !== null,
      refunds: s.refunds,
      runSends: s.runSends,
      loadOlder: s.loadOlderLedger,
      loadRefunds: s.loadRefunds,
      loadRunSends: s.loadRunSends,
    })),
  );
  const [open, setOpen] = useState<ReadonlySet<Opened>>(new Set());

  // A re-read of the ledger forgets what the open rows had loaded (new refunds may have come):
  // an open row is read again, so it stays open with its rows instead of showing none.
  const loading = useRef(new Set<Opened>());
  useEffect(() => {
    for (const key of open) {
      const [what, id] = [key.slice(0, 3), Number(key.slice(key.indexOf(':') + 1))];
      const loaded = what === 'run' ? runSends[id] : refunds[id];
      if (!loaded && !loading.current.has(key)) {
        loading.current.add(key);
        void (what === 'run' ? loadRunSends(id) : loadRefunds(id)).finally(() => loading.current.delete(key));
      }
    }
  }, [open, refunds, runSends, loadRefunds, loadRunSends]);

  const toggle = (key: Opened) => {
    const next = new Set(open);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setOpen(next);
  };

  /** The rows an open row shows under it, with a "more" row when there are more. */
  const nested = (key: Opened | null, depth: number): ReactNode => {
    if (key === null || !open.has(key)) return null;
    const id = Number(key.slice(key.indexOf(':') + 1));
    const isRun = key.startsWith('run:');
    const loaded = isRun ? runSends[id] : refunds[id];
    if (!loaded) return null;
    return (
      <>
        {loaded.entries.map((row) => {
          const inner = isRun ? opens(row) : null;
          return (
            <Fragment key={`${key}-${row.id}`}>
              <BillLine
                row={row}
                depth={depth}
                opened={inner !== null && open.has(inner)}
                onToggle={inner && (() => toggle(inner))}
              />
              {nested(inner, depth + 1)}
            </Fragment>
          );
        })}
        {loaded.before !== null ? (
          <Table.Tr>
            <Table.Td />
            <Table.Td colSpan={COLUMNS - 1}>
              <Button
                size="xs"
                variant="subtle"
                onClick={() => void (isRun ? loadRunSends(id) : loadRefunds(id))}
                data-testid="ledger-refunds-more"
              >
                {t(isRun ? 'settings.credit.bill.moreSends' : 'settings.credit.moreRefunds')}
              </Button>
            </Table.Td>
          </Table.Tr>
        ) : null}
      </>
    );
  };

  return (
    <Stack>
      <Paper withBorder>
        <Table striped data-testid="ledger-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={36} />
              <Table.Th>{t('settings.credit.date')}</Table.Th>
              <Table.Th>{t('settings.credit.kind')}</Table.Th>
              <Table.Th>{t('settings.credit.ref')}</Table.Th>
              <Table.Th>{t('settings.credit.bill.charged')}</Table.Th>
              <Table.Th>{t('settings.credit.bill.refunded')}</Table.Th>
              <Table.Th>{t('settings.credit.bill.net')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ledger.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS}>
                  <Text c="dimmed" ta="center" py="md">
                    {t('settings.credit.empty')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              ledger.map((row) => {
                const key = opens(row);
                return (
                  <Fragment key={`${row.kind}-${row.id}`}>
                    <BillLine row={row} opened={key !== null && open.has(key)} onToggle={key && (() => toggle(key))} />
                    {nested(key, 1)}
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
    </Stack>
  );
}

/**
 * One row of the bill: a charge with its refunds (a run, a send: `group`), a top-up or correction,
 * or, nested (`depth` > 0), one of a run's sends or one of a send's refunds.
 */
function BillLine({
  row,
  opened = false,
  onToggle = null,
  depth = 0,
}: {
  row: LedgerRow;
  opened?: boolean;
  onToggle?: (() => void) | null;
  depth?: number;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const Closed = language === 'fa' ? IconChevronLeft : IconChevronRight;
  const group = row.group;
  const origin = group?.origin ?? null;
  const dash = (
    <Text span c="dimmed">
      —
    </Text>
  );
  const separator = language === 'fa' ? '، ' : ' · ';
  const count = (n: number, one: string, many: string) => t(n === 1 ? one : many, { n: digits(n, language) });

  let badge: ReactNode = null;
  let name: ReactNode;
  let detail: string[] = [];
  if (group !== null && depth === 0) {
    badge = (
      <Badge color={origin ? ORIGIN_COLOR[origin] : KIND_COLOR.send} variant="light">
        {t(`settings.credit.bill.origins.${origin ?? 'gone'}`)}
      </Badge>
    );
    name =
      origin === null
        ? t('settings.credit.sendRef', { id: digits(row.send_id ?? 0, language) })
        : origin === 'api'
          ? t('settings.credit.bill.api', { version: digits(group.api_version ?? '', language) })
          : group.name;
    const parts = [
      origin === 'api' && group.name ? group.name : null,
      group.sender ? t('settings.credit.bill.line', { number: digits(group.sender, language) }) : null,
      group.execution_id !== null
        ? count(group.sends, 'settings.credit.bill.sendsOne', 'settings.credit.bill.sendsMany')
        : null,
      count(group.messages, 'settings.credit.bill.messagesOne', 'settings.credit.bill.messagesMany'),
    ];
    detail = parts.filter((p) => p !== null);
  } else if (group !== null) {
    name = t('settings.credit.sendRef', { id: digits(row.send_id ?? 0, language) });
    detail = [count(group.messages, 'settings.credit.bill.messagesOne', 'settings.credit.bill.messagesMany')];
  } else {
    if (depth === 0)
      badge = (
        <Badge color={KIND_COLOR[row.kind]} variant="light">
          {t(`settings.credit.kinds.${row.kind}`)}
        </Badge>
      );
    name = row.message_id
      ? t('settings.credit.messageRef', { id: digits(row.message_id, language) })
      : row.note || (row.send_id ? t('settings.credit.sendRef', { id: digits(row.send_id, language) }) : '—');
  }

  const charged = group !== null ? group.charged_rials : row.kind === 'send' ? -row.amount_rials : null;
  const refunded = group !== null ? group.refunded_rials : row.kind === 'refund' ? row.amount_rials : null;
  const size = depth > 0 ? 'sm' : undefined;
  return (
    <Table.Tr
      data-testid={depth === 0 ? 'ledger-row' : row.kind === 'refund' ? 'ledger-refund-row' : 'ledger-send-row'}
      data-kind={row.kind}
      data-origin={origin ?? undefined}
      data-refunds={group !== null && group.refund_count > 0 ? group.refund_count : undefined}
    >
      <Table.Td>
        {onToggle ? (
          <ActionIcon
            variant="subtle"
            size="sm"
            onClick={onToggle}
            aria-expanded={opened}
            aria-label={opened ? t('settings.credit.bill.hide') : t('settings.credit.bill.show')}
            data-testid="ledger-refunds-toggle"
          >
            {opened ? <IconChevronDown size={16} /> : <Closed size={16} />}
          </ActionIcon>
        ) : null}
      </Table.Td>
      <Table.Td c={depth > 0 ? 'dimmed' : undefined} fz={size}>
        {formatDateTime(row.created_at, language)}
      </Table.Td>
      <Table.Td>{badge}</Table.Td>
      <Table.Td fz={size} style={{ paddingInlineStart: depth * 16 + 10 }}>
        <Text inherit fw={group !== null && depth === 0 ? 600 : undefined} dir="auto" data-testid="ledger-name">
          {name}
        </Text>
        {detail.length > 0 ? (
          <Text size="xs" c="dimmed">
            {/* Each part isolated: a line number beside a count would otherwise run together in
                Persian, where a middle dot also reads as a zero (۰): parts are split by a comma there. */}
            {detail.map((part, i) => (
              <Fragment key={i}>
                {i > 0 ? separator : null}
                <bdi>{part}</bdi>
              </Fragment>
            ))}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td fz={size} data-testid="ledger-charged" data-rials={charged ?? undefined}>
        {charged === null ? dash : <Money rials={charged} />}
      </Table.Td>
      <Table.Td fz={size} data-testid="ledger-refunded" data-rials={refunded ?? undefined}>
        {refunded === null ? (
          dash
        ) : (
          <>
            <Money rials={refunded} />
            {group !== null && group.refund_count > 0 ? (
              <Text size="xs" c="dimmed">
                {count(group.refund_count, 'settings.credit.bill.messagesOne', 'settings.credit.bill.messagesMany')}
              </Text>
            ) : null}
          </>
        )}
      </Table.Td>
      <Table.Td
        c={row.amount_rials < 0 ? 'red' : 'teal'}
        fz={size}
        fw={depth === 0 ? 600 : undefined}
        data-testid="ledger-net"
        data-rials={row.amount_rials}
      >
        <Money rials={row.amount_rials} signed />
      </Table.Td>
    </Table.Tr>
  );
}
