// All domain stores built from one API client, and the wiring between them: the account chosen
// in the session drives the other stores, and status pushes reach the messages table and the
// dashboard. Components reach the stores through StoresProvider (stores/context.tsx).
import type { Api } from '../api';
import { createSessionStore, sessionSelectors } from './session';
import { createComposeStore } from './compose';
import { createMessagesStore, followStatusChanges } from './messages';
import { createSettingsStore } from './settings';
import { createDashboardStore, followExecutions as followDashboardExecutions } from './dashboard';
import { createContactsStore } from './contacts';
import { createImportsStore } from './imports';
import { createCampaignsStore, followExecutions } from './campaigns';
import { createCampaignEditorStore } from './campaignEditor';
import { createInboxStore, followInbox } from './inbox';
import { createTemplatesStore } from './templates';
import { createAllowlistStore } from './allowlist';
import { createEmailStore, followEmail } from './email';
import { createEmailSettingsStore } from './emailSettings';
import { createWorkspaceStore } from './workspace';
import { createGatewaysStore, followGateways } from './gateways';
import { createPreferencesStore, type PreferenceStorage } from '../lib/preferences';
import { throttled } from '../lib/throttled';

/** The ledger follows the pushed changes of credit at most this often. */
export const ACCOUNTS_REFRESH_MS = 1500;

export function createStores(api: Api, navigatorLanguage?: string, storage?: PreferenceStorage | null) {
  const preferences = createPreferencesStore(storage);
  const stores = {
    preferences,
    session: createSessionStore(api, navigatorLanguage, preferences),
    compose: createComposeStore(api),
    messages: createMessagesStore(api),
    settings: createSettingsStore(api),
    dashboard: createDashboardStore(api),
    contacts: createContactsStore(api),
    imports: createImportsStore(api),
    campaigns: createCampaignsStore(api),
    campaignEditor: createCampaignEditorStore(api),
    inbox: createInboxStore(api),
    templates: createTemplatesStore(api),
    email: createEmailStore(api),
    emailSettings: createEmailSettingsStore(api),
    workspace: createWorkspaceStore(api),
    gateways: createGatewaysStore(api),
    // Called only after the stores exist: the session reads back the list it saved.
    allowlist: createAllowlistStore(api, (): Promise<void> => stores.session.getState().refreshAccounts()),
  };
  return stores;
}
export type Stores = ReturnType<typeof createStores>;

/**
 * Starts the live wiring; returns a function that stops it. Kept out of createStores so unit
 * tests can build stores without subscriptions.
 */
export function connectStores(api: Api, stores: Stores): () => void {
  const onAccount = (accountId: number | null) => {
    void stores.compose.getState().load(accountId);
    stores.messages.getState().setAccount(accountId);
    void stores.settings.getState().load(accountId);
    void stores.dashboard.getState().load(accountId);
    void stores.contacts.getState().load(accountId);
    stores.imports.getState().setAccount(accountId);
    void stores.imports.getState().resume();
    void stores.campaigns.getState().load(accountId);
    stores.campaignEditor.getState().setAccount(accountId);
    stores.inbox.getState().setAccount(accountId);
    void stores.templates.getState().load(accountId);
    void stores.email.getState().load(accountId);
    stores.gateways.getState().setAccount(accountId);
  };
  const unsubscribeSession = stores.session.subscribe((state, previous) => {
    if (state.accountId !== previous.accountId) onAccount(state.accountId);
    // A top-up, or a send from here or elsewhere, changes what the composer's quote says of the credit.
    else if (sessionSelectors.credit(state) !== sessionSelectors.credit(previous)) {
      stores.compose.getState().scheduleQuote();
      stores.campaignEditor.getState().scheduleQuote();
    }
  });
  const unsubscribeMessages = followStatusChanges(api, stores.messages);
  const unsubscribeCompose = api.on('messages:status-changed', ({ changes }) =>
    stores.compose.getState().applyStatusChanges(changes),
  );
  // The core pushes every change of credit (a top-up here or on another page, a send, refunds),
  // batched: the header and the dashboard take the balance as it comes, the ledger's rows are read
  // again at most once per ACCOUNTS_REFRESH_MS (and once after the last) during a big run's refunds.
  const refreshLedger = throttled(() => stores.settings.getState().refreshCredit(), ACCOUNTS_REFRESH_MS);
  const unsubscribeCredit = api.on('credit:changed', ({ credits }) => {
    stores.session.getState().followCredits(credits);
    stores.dashboard.getState().followCredits(credits);
    const accountId = stores.settings.getState().accountId;
    if (credits.some((c) => c.account_id === accountId)) refreshLedger();
  });
  const unsubscribeDashboard = api.on('messages:status-changed', ({ changes }) => {
    const accountId = stores.dashboard.getState().accountId;
    if (changes.some((c) => c.account_id === accountId)) stores.dashboard.getState().followPushes();
  });
  // The wizard follows its run; a finished import (or combine, or opt-out file) changes segments.
  const unsubscribeImports = api.on('import:progress', (progress) => {
    stores.imports.getState().follow(progress);
    stores.contacts.getState().followOptOuts(progress);
    stores.campaigns.getState().followImport(progress);
    if (progress.status === 'done') {
      void stores.compose.getState().refreshSegments();
      void stores.campaignEditor.getState().refreshSegments();
      void stores.email.getState().refreshSegments();
    }
    if (progress.status !== 'running') void stores.contacts.getState().refresh();
  });
  const unsubscribeCampaigns = followExecutions(api, stores.campaigns);
  const unsubscribeDashboardCampaigns = followDashboardExecutions(api, stores.dashboard);
  const unsubscribeInbox = followInbox(api, stores.inbox);
  const unsubscribeEmail = followEmail(api, stores.email);
  // A paused line is said in the header whatever the page: its queue is followed all the time.
  const unsubscribeGateways = followGateways(api, stores.gateways);
  onAccount(stores.session.getState().accountId);
  return () => {
    unsubscribeCampaigns();
    unsubscribeDashboardCampaigns();
    unsubscribeInbox();
    unsubscribeEmail();
    unsubscribeGateways();
    unsubscribeImports();
    unsubscribeSession();
    unsubscribeMessages();
    unsubscribeCompose();
    unsubscribeDashboard();
    unsubscribeCredit();
  };
}
