// Credit of the current account: balance, top-up, and the ledger (every change of credit).
import { Badge, Button, Group, NumberInput, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { sessionSelectors } from '../../stores/session';
import { digits, formatDateTime } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';

const KIND_COLOR = { topup: 'teal', send: 'blue', refund: 'grape', adjust: 'orange' } as const;

export function CreditSettings() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { settings, session } = useStores();
  const { balance, ledger, more, topUp, refreshCredit, loadOlder } = useStore(
    settings,
    useShallow((s) => ({
      balance: s.balance,
      ledger: s.ledger,
      more: s.ledgerBefore !== null,
      topUp: s.topUp,
      refreshCredit: s.refreshCredit,
      loadOlder: s.loadOlderLedger,
    })),
  );
  // The header's credit follows sends and refunds; when it moves, the ledger has new rows.
  const headerCredit = useStore(session, sessionSelectors.credit);
  useEffect(() => {
    void refreshCredit();
  }, [headerCredit, refreshCredit]);
  const [amount, setAmount] = useState<number | string>('');
  const [note, setNote] = useState('');
  return (
    <Stack>
      <Group align="stretch">
        <Paper withBorder p="md" miw={220}>
          <Text size="sm" c="dimmed">
            {t('settings.credit.balance')}
          </Text>
          <Text fw={700} size="xl" data-testid="credit-balance">
            {balance === null ? '—' : <Money rials={balance} />}
          </Text>
        </Paper>
        <Paper withBorder p="md" style={{ flex: 1 }} maw={620}>
          <form
            onSubmit={async (event) => {
              event.preventDefault();
              if (typeof amount === 'number' && amount > 0 && (await topUp(amount, note))) {
                setAmount('');
                setNote('');
                void session.getState().refreshAccounts();
              }
            }}
          >
            <Group align="end">
              <NumberInput
                label={t('settings.credit.amount')}
                value={amount}
                onChange={setAmount}
                min={1}
                step={100000}
                thousandSeparator=","
                allowDecimal={false}
                data-testid="credit-amount"
                w={200}
              />
              <TextInput
                label={t('settings.credit.note')}
                value={note}
                onChange={(event) => setNote(event.currentTarget.value)}
                style={{ flex: 1 }}
              />
              <Button type="submit" disabled={typeof amount !== 'number' || amount <= 0} data-testid="credit-topup">
                {t('settings.credit.topUp')}
              </Button>
            </Group>
          </form>
        </Paper>
      </Group>
      <Paper withBorder>
        <Table striped data-testid="ledger-table">
          <Table.Thead>
            <Table.Tr>
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
                <Table.Td colSpan={5}>
                  <Text c="dimmed" ta="center" py="md">
                    {t('settings.credit.empty')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              ledger.map((entry) => (
                <Table.Tr key={entry.id} data-testid="ledger-row">
                  <Table.Td>{formatDateTime(entry.created_at, language)}</Table.Td>
                  <Table.Td>
                    <Badge color={KIND_COLOR[entry.kind]} variant="light">
                      {t(`settings.credit.kinds.${entry.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td c={entry.amount_rials < 0 ? 'red' : 'teal'}>
                    <Money rials={entry.amount_rials} signed />
                  </Table.Td>
                  <Table.Td>
                    {entry.send_id
                      ? t('settings.credit.sendRef', { id: digits(entry.send_id, language) })
                      : entry.message_id
                        ? t('settings.credit.messageRef', { id: digits(entry.message_id, language) })
                        : '—'}
                  </Table.Td>
                  <Table.Td>{entry.note || '—'}</Table.Td>
                </Table.Tr>
              ))
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
