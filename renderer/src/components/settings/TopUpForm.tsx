// A top-up of the current account's credit: the amount typed in the chosen unit (any digits, bounded
// as the service bounds it: shared/credit.ts) and a note; asked once (the amount and the balance it
// leaves), then an "undo" that records a correction of the same amount. The ledger keeps both rows:
// nothing is ever deleted from it.
import { Alert, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { MAX_CREDIT_CHANGE_RIALS } from '../../../../shared/credit';
import { Money, useMoney } from '../Money';
import { MoneyField } from '../MoneyField';

/** What the last top-up added (undoable once), or what its undo recorded. */
type Done = { kind: 'added'; amountRials: number } | { kind: 'undone'; amountRials: number };

export function TopUpForm() {
  const { t } = useTranslation();
  const money = useMoney();
  const { settings, session } = useStores();
  const balance = useStore(settings, (s) => s.balance);
  const [amount, setAmount] = useState<number | ''>('');
  const [note, setNote] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  const valid = amount !== '' && Number.isInteger(amount) && amount >= 1 && amount <= MAX_CREDIT_CHANGE_RIALS;

  const change = async (amountRials: number, text: string, kind: 'topup' | 'adjust') => {
    setBusy(true);
    const why = await settings.getState().topUp(amountRials, text, kind);
    setBusy(false);
    setRefused(why);
    if (why === null) void session.getState().refreshAccounts();
    return why === null;
  };

  const topUp = async () => {
    if (!valid || busy) return;
    const added = await change(amount, note, 'topup');
    setAsking(false);
    if (added) {
      setDone({ kind: 'added', amountRials: amount });
      setAmount('');
      setNote('');
    }
  };

  const undo = async () => {
    if (done?.kind !== 'added' || busy) return;
    const amountRials = done.amountRials;
    if (
      await change(-amountRials, t('settings.credit.topUpForm.undoNote', { amount: money.text(amountRials) }), 'adjust')
    )
      setDone({ kind: 'undone', amountRials: -amountRials });
  };

  return (
    <>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) setAsking(true);
        }}
      >
        <Stack gap={6}>
          <Group align="start">
            <MoneyField
              label={(unit) => t('settings.credit.amount', { unit })}
              rials={amount}
              onChange={(value) => {
                setAmount(value);
                setRefused(null);
              }}
              minRials={1}
              maxRials={MAX_CREDIT_CHANGE_RIALS}
              data-testid="credit-amount"
              w={200}
            />
            <TextInput
              label={t('settings.credit.note')}
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
              style={{ flex: 1 }}
              miw={120}
            />
            <Button type="submit" disabled={!valid} data-testid="credit-topup" mt={25}>
              {t('settings.credit.topUp')}
            </Button>
          </Group>
          {refused !== null ? (
            <Text size="sm" c="red" data-testid="credit-refused">
              {refused}
            </Text>
          ) : null}
          {done !== null && refused === null ? (
            <Alert
              color={done.kind === 'added' ? 'teal' : 'orange'}
              p="xs"
              data-testid="credit-topup-done"
              data-kind={done.kind}
              data-rials={done.amountRials}
            >
              <Group justify="space-between" gap="xs">
                <Text size="sm">
                  {t(done.kind === 'added' ? 'settings.credit.topUpForm.done' : 'settings.credit.topUpForm.undone', {
                    amount: money.text(done.amountRials),
                    balance: balance === null ? '—' : money.text(balance),
                  })}
                </Text>
                {done.kind === 'added' ? (
                  <Button
                    size="xs"
                    variant="light"
                    color="orange"
                    loading={busy}
                    onClick={() => void undo()}
                    data-testid="credit-topup-undo"
                  >
                    {t('settings.credit.topUpForm.undo')}
                  </Button>
                ) : null}
              </Group>
            </Alert>
          ) : null}
        </Stack>
      </form>
      <Modal
        opened={asking && valid}
        onClose={() => !busy && setAsking(false)}
        title={t('settings.credit.topUpForm.confirmTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {valid ? (
          <Stack data-testid="credit-topup-summary">
            <Table withRowBorders={false} verticalSpacing={4}>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td c="dimmed">{t('settings.credit.topUpForm.adds')}</Table.Td>
                  <Table.Td fw={700} data-testid="credit-topup-adds" data-rials={amount}>
                    <Money rials={amount} />
                  </Table.Td>
                </Table.Tr>
                {balance !== null ? (
                  <Table.Tr>
                    <Table.Td c="dimmed">{t('settings.credit.topUpForm.after')}</Table.Td>
                    <Table.Td fw={600} data-testid="credit-topup-after" data-rials={balance + amount}>
                      <Money rials={balance + amount} />
                    </Table.Td>
                  </Table.Tr>
                ) : null}
              </Table.Tbody>
            </Table>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)} disabled={busy}>
                {t('common.cancel')}
              </Button>
              <Button loading={busy} disabled={busy} onClick={() => void topUp()} data-testid="credit-topup-confirm">
                {t('settings.credit.topUpForm.confirm')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
