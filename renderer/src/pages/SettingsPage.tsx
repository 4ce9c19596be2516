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

// The tabs in order, each with the panel it shows.
const PANELS = {
  general: GeneralSettings,
  accounts: AccountsSettings,
  apiKeys: ApiKeysSettings,
  lines: LinesSettings,
  credit: CreditSettings,
  pricing: PricingSettings,
  simulator: SimulatorSettings,
  backup: BackupSettings,
} as const;
type Tab = keyof typeof PANELS;
const TABS = Object.keys(PANELS) as Tab[];

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
        {TABS.map((name) => {
          const Panel = PANELS[name];
          return (
            <Tabs.Panel key={name} value={name} pt="md">
              <Panel />
            </Tabs.Panel>
          );
        })}
      </Tabs>
    </Stack>
  );
}
