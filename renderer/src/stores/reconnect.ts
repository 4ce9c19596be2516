// Back online after the core could not be reached (web mode: the server stopped or restarted):
// the pushes made meanwhile were missed, so what the stores show is read again once. Every read
// here keeps the rows on screen until the answer replaces them: nothing empties while it loads.
import type { Stores } from './index';
import type { PayloadOf } from '../../../shared/ipc';

type Progress = PayloadOf<'import:progress'>;
const OPEN = new Set<Progress['status']>(['queued', 'running']);

export function refreshAfterReconnect(stores: Stores): void {
  const session = stores.session.getState();
  if (session.settings === null) void session.loadSettings();
  // Keeps the selection; an app that started offline gets its accounts, and with them every page's data.
  void session.loadAccounts();
  const accountId = session.accountId;
  if (accountId === null) return;

  void stores.dashboard.getState().refresh();
  stores.dashboard.getState().followCampaigns();
  void stores.messages.getState().refreshHead();
  void stores.contacts.getState().refresh();
  const campaigns = stores.campaigns.getState();
  if (campaigns.listShown) void campaigns.refreshList();
  if (campaigns.view) campaigns.followReport();
  void stores.settings.getState().load(accountId);
  void stores.compose.getState().refreshSegments();
  void stores.campaignEditor.getState().refreshSegments();
  // A campaign's change the server could not take while it was away is written now.
  if (stores.campaignEditor.getState().save === 'failed') stores.campaignEditor.getState().update({});
  void stores.inbox.getState().refreshCounts();
  void stores.gateways.getState().refresh();
  if (stores.inbox.getState().shown) void stores.inbox.getState().load();
  // Email sends: the list, and the open send's counts (its rows follow the new version).
  const email = stores.email.getState();
  void email.loadSends();
  if (email.currentId !== null) void email.openSend(email.currentId);
  void rereadJobs(stores, accountId);
}

/** The contacts jobs on screen that were still open: read once, followed as if their last push had come. */
async function rereadJobs(stores: Stores, accountId: number): Promise<void> {
  const { api } = stores.contacts.getState();
  const wizard = stores.imports.getState().job;
  const optOuts = stores.contacts.getState().optOuts.job;
  const followUp = stores.campaigns.getState().followUp;
  const open = new Set<number>();
  if (wizard && OPEN.has(wizard.status)) open.add(wizard.job_id);
  if (optOuts && OPEN.has(optOuts.status)) open.add(optOuts.job_id);
  if (followUp && OPEN.has(followUp.status)) open.add(followUp.jobId);
  for (const jobId of open) {
    try {
      const job = await api.invoke('imports:get', { account_id: accountId, job_id: jobId });
      // The job as it is now, as its push would say it (a job read back names no upload).
      const progress: Progress = { ...job, upload_id: null };
      stores.imports.getState().follow(progress);
      stores.contacts.getState().followOptOuts(progress);
      stores.campaigns.getState().followImport(progress);
    } catch {
      // Gone again, or the job is gone: the next push or reconnection tells.
    }
  }
  // No job on screen: one may have started elsewhere meanwhile.
  if (!wizard) void stores.imports.getState().resume();
}
