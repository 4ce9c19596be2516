// Credit of the current account: balance, top-up (typed in any digits, bounded as the service
// bounds it: shared/credit.ts), and the history of every change of credit (CreditHistory).
import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { sessionSelectors } from '../../stores/session';
import { MAX_CREDIT_CHANGE_RIALS } from '../../../../shared/credit';
import { Money } from '../Money';
import { NumberField } from '../NumberField';
import { CreditHistory } from './CreditHistory';

export function CreditSettings() {
  const { t } = useTranslation();
  const { settings, session } = useStores();
  const { balance, topUp, refreshCredit } = useStore(
    settings,
    useShallow((s) => ({
      balance: s.balance,
      topUp: s.topUp,
      refreshCredit: s.refreshCredit,
    })),
  );
  // The header's credit follows sends and refunds; when it moves, the ledger has new rows.
  const headerCredit = useStore(session, sessionSelectors.credit);
  useEffect(() => {
    void refreshCredit();
  }, [headerCredit, refreshCredit]);
  const [amount, setAmount] = useState<number | ''>('');
  const [note, setNote] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const valid = amount !== '' && Number.isInteger(amount) && amount >= 1 && amount <= MAX_CREDIT_CHANGE_RIALS;

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
        <Paper withBorder p="md" style={{ flex: 1 }} maw={720}>
          <form
            onSubmit={async (event) => {
              event.preventDefault();
              if (!valid) return;
              const why = await topUp(amount, note);
              setRefused(why);
              if (why === null) {
                setAmount('');
                setNote('');
                void session.getState().refreshAccounts();
              }
            }}
          >
            <Stack gap={6}>
              <Group align="start">
                <NumberField
                  label={t('settings.credit.amount')}
                  value={amount}
                  onChange={(value) => {
                    setAmount(value);
                    setRefused(null);
                  }}
                  min={1}
                  max={MAX_CREDIT_CHANGE_RIALS}
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
            </Stack>
          </form>
        </Paper>
      </Group>
      <CreditHistory />
    </Stack>
  );
}
