// Settings: one tab per concern, each with its own address (#/settings/lines), so another screen
// can link to a tab and a reload (after a restore) stays on it. #/settings alone is General. Each
// tab has a test id for the e2e tests.
import { Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GeneralSettings } from '../components/settings/GeneralSettings';
import { AccountsSettings } from '../components/settings/AccountsSettings';
import { ApiKeysSettings } from '../components/settings/ApiKeysSettings';
import { LinesSettings } from '../components/settings/LinesSettings';
import { SendingSafetySettings } from '../components/settings/SendingSafetySettings';
import { CreditSettings } from '../components/settings/CreditSettings';
import { PricingSettings } from '../components/settings/PricingSettings';
import { SimulatorSettings } from '../components/settings/SimulatorSettings';
import { BackupSettings } from '../components/settings/BackupSettings';
import { WebSessionSettings } from '../components/settings/WebSessionSettings';
import { VerifyTemplatesSettings } from '../components/settings/VerifyTemplatesSettings';
import { EmailSettings } from '../components/settings/EmailSettings';
import { WorkspaceSettings } from '../components/settings/WorkspaceSettings';
import { navigate, useSubPath } from '../components/useRoute';

// The tabs in order, each with the panel it shows.
const PANELS = {
  general: GeneralSettings,
  accounts: AccountsSettings,
  apiKeys: ApiKeysSettings,
  lines: LinesSettings,
  sending: SendingSafetySettings,
  credit: CreditSettings,
  pricing: PricingSettings,
  simulator: SimulatorSettings,
  email: EmailSettings,
  backup: BackupSettings,
  workspace: WorkspaceSettings,
} as const;
type SettingsTab = keyof typeof PANELS;
const TABS = Object.keys(PANELS) as SettingsTab[];

function isTab(name: string): name is SettingsTab {
  return (TABS as string[]).includes(name);
}

/** A tab's address; other screens link to one as `navigate('settings/lines')`. */
function settingsPath(tab: SettingsTab): string {
  return tab === 'general' ? 'settings' : `settings/${tab}`;
}

export function SettingsPage() {
  const { t } = useTranslation();
  const [name = ''] = useSubPath().split('/');
  const tab: SettingsTab = isTab(name) ? name : 'general';
  return (
    <Stack data-testid="page-settings">
      <Title order={2}>{t('settings.title')}</Title>
      <Tabs
        value={tab}
        onChange={(value) => value && isTab(value) && navigate(settingsPath(value))}
        keepMounted={false}
      >
        <Tabs.List>
          {TABS.map((name) => (
            <Tabs.Tab key={name} value={name} data-testid={`settings-tab-${name}`}>
              {/* The workspace tab's texts are a block of their own (its label with them). */}
              {name === 'workspace' ? t('workspace.tab') : t(`settings.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((name) => {
          const Panel = PANELS[name];
          return (
            <Tabs.Panel key={name} value={name} pt="md">
              <Panel />
              {name === 'general' ? <WebSessionSettings /> : null}
              {/* Version 1's templates beside the keys its calls carry. */}
              {name === 'apiKeys' ? <VerifyTemplatesSettings /> : null}
            </Tabs.Panel>
          );
        })}
      </Tabs>
    </Stack>
  );
}
