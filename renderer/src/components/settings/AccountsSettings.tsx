// Accounts: list with active switch and credit, a new account, and the chosen account's IP
// allow-list (API version 1).
import { Button, Group, Paper, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { digits, formatDate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';
import { IpAllowlistEditor } from './IpAllowlistEditor';

export function AccountsSettings() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { session } = useStores();
  const { accounts, accountId, createAccount, updateAccount, selectAccount } = useStore(
    session,
    useShallow((s) => ({
      accounts: s.accounts,
      accountId: s.accountId,
      createAccount: s.createAccount,
      updateAccount: s.updateAccount,
      selectAccount: s.selectAccount,
    })),
  );
  const [name, setName] = useState('');
  return (
    <Stack>
      <Paper withBorder>
        <Table highlightOnHover data-testid="accounts-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settings.accounts.id')}</Table.Th>
              <Table.Th>{t('settings.accounts.name')}</Table.Th>
              <Table.Th>{t('settings.accounts.credit')}</Table.Th>
              <Table.Th>{t('settings.accounts.created')}</Table.Th>
              <Table.Th>{t('settings.accounts.active')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.map((account) => (
              <Table.Tr key={account.id} data-testid="account-row">
                <Table.Td>{digits(account.id, language)}</Table.Td>
                <Table.Td>{account.name}</Table.Td>
                <Table.Td>
                  <Money rials={account.credit_rials} />
                </Table.Td>
                <Table.Td>{formatDate(account.created_at, language)}</Table.Td>
                <Table.Td>
                  <Switch
                    checked={account.active}
                    onChange={(event) => void updateAccount(account.id, { active: event.currentTarget.checked })}
                    aria-label={t('settings.accounts.active')}
                  />
                </Table.Td>
                <Table.Td>
                  {account.id === accountId ? (
                    <Text size="sm" c="teal">
                      {t('settings.accounts.current')}
                    </Text>
                  ) : (
                    <Button size="xs" variant="subtle" onClick={() => selectAccount(account.id)}>
                      {t('settings.accounts.use')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <IpAllowlistEditor account={accounts.find((account) => account.id === accountId)} />
      <Paper withBorder p="md" maw={520}>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            if (name.trim() && (await createAccount(name.trim()))) setName('');
          }}
        >
          <Group align="end">
            <TextInput
              label={t('settings.accounts.newName')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              data-testid="account-name"
              style={{ flex: 1 }}
            />
            <Button type="submit" disabled={!name.trim()} data-testid="account-create">
              {t('settings.accounts.create')}
            </Button>
          </Group>
        </form>
      </Paper>
    </Stack>
  );
}
