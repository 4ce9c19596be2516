// Credit of the current account: balance, top-up (TopUpForm: asked once, undone by a correction),
// and the history of every change of credit (CreditHistory: the bill).
import { Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { sessionSelectors } from '../../stores/session';
import { Money } from '../Money';
import { CreditHistory } from './CreditHistory';
import { TopUpForm } from './TopUpForm';

export function CreditSettings() {
  const { t } = useTranslation();
  const { settings, session } = useStores();
  const { balance, refreshCredit } = useStore(
    settings,
    useShallow((s) => ({
      balance: s.balance,
      refreshCredit: s.refreshCredit,
    })),
  );
  // The header's credit follows sends and refunds; when it moves, the ledger has new rows.
  const headerCredit = useStore(session, sessionSelectors.credit);
  useEffect(() => {
    void refreshCredit();
  }, [headerCredit, refreshCredit]);

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
          <TopUpForm />
        </Paper>
      </Group>
      <CreditHistory />
    </Stack>
  );
}
