// Settings: one tab per concern. The open tab is local state (the hash names only the page);
// each tab has a test id for the e2e tests.
import { Stack, Tabs, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GeneralSettings } from '../components/settings/GeneralSettings';
import { AccountsSettings } from '../components/settings/AccountsSettings';
import { ApiKeysSettings } from '../components/settings/ApiKeysSettings';
import { LinesSettings } from '../components/settings/LinesSettings';
import { CreditSettings } from '../components/settings/CreditSettings';
import { PricingSettings } from '../components/settings/PricingSettings';
import { SimulatorSettings } from '../components/settings/SimulatorSettings';
import { BackupSettings } from '../components/settings/BackupSettings';

const TABS = ['general', 'accounts', 'apiKeys', 'lines', 'credit', 'pricing', 'simulator', 'backup'] as const;
type Tab = (typeof TABS)[number];

export function SettingsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('general');
  return (
    <Stack data-testid="page-settings">
      <Title order={2}>{t('settings.title')}</Title>
      <Tabs value={tab} onChange={(value) => value && setTab(value as Tab)} keepMounted={false}>
        <Tabs.List>
          {TABS.map((name) => (
            <Tabs.Tab key={name} value={name} data-testid={`settings-tab-${name}`}>
              {t(`settings.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="general" pt="md">
          <GeneralSettings />
        </Tabs.Panel>
        <Tabs.Panel value="accounts" pt="md">
          <AccountsSettings />
        </Tabs.Panel>
        <Tabs.Panel value="apiKeys" pt="md">
          <ApiKeysSettings />
        </Tabs.Panel>
        <Tabs.Panel value="lines" pt="md">
          <LinesSettings />
        </Tabs.Panel>
        <Tabs.Panel value="credit" pt="md">
          <CreditSettings />
        </Tabs.Panel>
        <Tabs.Panel value="pricing" pt="md">
          <PricingSettings />
        </Tabs.Panel>
        <Tabs.Panel value="simulator" pt="md">
          <SimulatorSettings />
        </Tabs.Panel>
        <Tabs.Panel value="backup" pt="md">
          <BackupSettings />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
