// The service core: opens the workspace's SQLite store and composes the domains (accounts,
// settings, files, messaging, contacts) and the scheduler. Both transports (HTTP in `serve` and
// Electron's IPC) call into one Core; the rules live in the domains.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { Db } from './db/database';
import { ReaderPool } from './db/readers';
import { systemClock, ManualClock, OffsetClock, type Clock } from './clock';
import { Accounts } from './accounts/accounts';
import { KeyHasher, workspaceSecret } from './accounts/keys';
import { Credit } from './accounts/credit';
import { AccountConfig } from './accounts/account-config';
import { Settings } from './settings/settings';
import { Files } from './files/files';
import { createMessaging, type Messaging } from './messaging';
import type { StatusChange } from './messaging/lifecycle';
import { Scheduler, type GiveWay } from './jobs/scheduler';
import { Jobs } from './jobs/jobs';
import { createContacts, type Imports, type OptOuts, type Segments, type Uploads } from './contacts';
import { Campaigns } from './campaigns';
import { Sends } from './messaging/sends';
import { Inbox, type InboundRecorded } from './messaging/inbox';
import { Conversations } from './messaging/conversations';
import { ContactCards } from './contacts/cards';
import { Templates } from './messaging/templates';
import { Verify } from './messaging/verify';
import { ledgerMessages } from './messaging/ledger-messages';
import { lineHasSent } from './messaging/line-use';
import { campaignNamesLine } from './campaigns/line-users';
import { campaignsNamingSegment } from './campaigns/segment-users';
import { executionSendGroups } from './campaigns/send-groups';
import { ledgerRuns } from './campaigns/ledger-runs';
import { campaignBatchHoldsSend } from './campaigns/send-holds';
import { cachedSecretStore, fileSecretStore, type SecretStore } from './secrets';
import { lineKeySecret } from './accounts/accounts';
import type { Gateways } from './messaging/gateways';
import type { LinePause } from '../../shared/gateways';
import { EmailRelay } from './email/relay/relay';
import { EmailSends } from './email/client/sends';
import type { EmailSend } from '../../shared/ipc/contracts/email';
import { Housekeeping } from './workspace/housekeeping';
import { removeStaleParts } from './workspace/backup';
import { Writers } from './workspace/writers';
import { databaseFile, openWorkspaceDatabase, startFailure } from './workspace/open';

export interface CoreEvents {
  /** Messages whose status moved, batched per lifecycle step or carrier report. */
  'message-status': [StatusChange[]];
  /** Inbound messages were recorded (replies to the account's lines). */
  inbound: [InboundRecorded];
  /** An email send's counts or state changed. */
  'email-progress': [EmailSend];
  /** A line's gateway paused (with the provider's reason) or went on. */
  gateway: [{ account_id: number; line_id: number; paused: LinePause | null }];
  /** A scheduler worker failed; the loop goes on. */
  'worker-error': [{ worker: string; error: unknown }];
  /** Accounts' credit changed (top-ups, corrections, charges, refunds): their balances now, batched per turn. */
  credit: [Array<{ account_id: number; credit_rials: number }>];
}

export interface CoreOptions {
  /** The workspace folder: chapar.db, files/ and secret.key (the API keys' hashing secret) live here. */
  dataDir: string;
  clock?: Clock;
  /** Start the scheduler at once (default true); tests may start it by hand. */
  startScheduler?: boolean;
  /** Where upstream secrets (the email provider's key, an SMTP password) are kept: a 0600 file of the workspace unless given (the desktop app passes the OS keychain). */
  secrets?: SecretStore;
  /** The scheduler's flood thresholds (jobs/scheduler.ts); tests lengthen the pause. */
  giveWay?: GiveWay;
}

export class Core {
  readonly db: Db;
  /** Read-only connections in worker threads: long reads run there, never on the writer's thread. */
  readonly readers: ReaderPool;
  readonly clock: Clock;
  readonly events = new EventEmitter<CoreEvents>();
  readonly settings: Settings;
  readonly accounts: Accounts;
  /** Each account's version 1 settings (account/config), its default sender among them. */
  readonly accountConfig: AccountConfig;
  readonly credit: Credit;
  readonly files: Files;
  readonly messaging: Messaging;
  readonly scheduler: Scheduler;
  /** Persisted background jobs of every domain, run on the scheduler loop. */
  readonly jobs: Jobs;
  readonly dataDir: string;
  readonly imports: Imports;
  readonly segments: Segments;
  readonly uploads: Uploads;
  readonly optouts: OptOuts;
  readonly campaigns: Campaigns;
  /** Direct sends and campaign executions as rows (the Messages page's "by send" view). */
  readonly sends: Sends;
  /** Inbound messages: replies customers sent to the account's lines. */
  readonly inbox: Inbox;
  /** Who a number is, as the account's segments know it. */
  readonly cards: ContactCards;
  /** A number's thread: our messages to it and its replies, in time order. */
  readonly conversations: Conversations;
  /** API version 1's verify/lookup templates, written in Settings. */
  readonly templates: Templates;
  /** API version 1's verify/lookup: a template filled with a code, sent through Accept. */
  readonly verify: Verify;
  /** The email provider of spec 4.6, embedded as a sandbox (its HTTP API is http/email/). */
  readonly emailRelay: EmailRelay;
  /** The app's email sends: a segment's recipients through the relay client (sandbox, provider or SMTP). */
  readonly email: EmailSends;
  readonly secrets: SecretStore;
  /** The lines' gateways: the simulator or the business's provider account, with each line's queue there. */
  readonly gateways: Gateways;
  /** The workspace's size, retention (archive or delete old messages) and the database's upkeep at quiet times. */
  readonly housekeeping: Housekeeping;
  /** Exports, backups, restores and uploads in progress: close() waits for them (workspace/writers.ts). */
  readonly writers = new Writers();
  private closing: Promise<void> | null = null;

  constructor(options: CoreOptions) {
    this.dataDir = options.dataDir;
    this.clock = options.clock ?? systemClock;
    // A database that cannot be used ends the start here, saying what is wrong and which backup to go back to.
    this.db = openWorkspaceDatabase(options.dataDir);
    this.readers = new ReaderPool({ file: databaseFile(options.dataDir) });
    try {
      // Backups a killed process left half-written are never finished: their space comes back now.
      removeStaleParts(this);
      this.settings = new Settings(this.db);
      this.secrets = cachedSecretStore(options.secrets ?? fileSecretStore(options.dataDir));
      // The ledger groups refunds by their messages' sends, which messaging reads for it.
      this.credit = new Credit(this.db, this.clock, ledgerMessages(this.db));
      // Every change of credit is told (batched), wherever it came from: the windows show it.
      this.credit.onChange((credits) => this.events.emit('credit', credits));
      // The secret lives beside the database, never in it (accounts/keys.ts).
      this.accounts = new Accounts(this.db, this.clock, this.credit, new KeyHasher(workspaceSecret(this.dataDir)));
      // A line that sent, or that a campaign names, keeps its history: the domains above say so.
      this.accounts.registerLineUse(lineHasSent(this.db));
      this.accounts.registerLineUse(campaignNamesLine(this.db));
      this.accounts.adoptKeyHashes('keep');
      // A line's provider key lives in the secrets store; the line says only whether one is kept.
      this.accounts.useKeyStore((lineId) => this.secrets.get(lineKeySecret(lineId)) !== null);
      this.accountConfig = new AccountConfig(this.db, this.accounts);
      this.files = new Files(this.db, this.clock, path.join(options.dataDir, 'files'));
      this.scheduler = new Scheduler(
        this.clock,
        (worker, error) => this.events.emit('worker-error', { worker, error }),
        options.giveWay,
      );
      this.jobs = new Jobs({
        db: this.db,
        clock: this.clock,
        scheduler: this.scheduler,
        onError: (error) => this.events.emit('worker-error', { worker: 'jobs', error }),
      });
      // The contacts domain is built below; an opt-out reply reaches its list only once replies come.
      this.inbox = new Inbox(
        this.db,
        this.clock,
        () => this.optouts,
        (recorded) => this.events.emit('inbound', recorded),
        () => this.cards,
      );
      // Campaign executions group sends; messaging lists and filters by them through campaigns' SQL.
      const sendGroups = executionSendGroups(this.db);
      this.messaging = createMessaging({
        db: this.db,
        readers: this.readers,
        clock: this.clock,
        accounts: this.accounts,
        credit: this.credit,
        files: this.files,
        settings: this.settings,
        scheduler: this.scheduler,
        // The contacts domain is built just below; the lifecycle asks only once messages move.
        optouts: {
          has: (accountId, phone) => this.optouts.has(accountId, phone),
          filter: (accountId, phones) => this.optouts.filter(accountId, phones),
        },
        onStatusChanges: (changes) => this.events.emit('message-status', changes),
        recordReplies: (replies) => this.inbox.recordAll(replies),
        sendGroups,
        secrets: this.secrets,
        onLineChanged: (line, paused) =>
          this.events.emit('gateway', { account_id: line.account_id, line_id: line.id, paused }),
      });
      this.gateways = this.messaging.gateways;
      // Retention keeps the sends a campaign batch names (its report keeps cost and refunds).
      this.messaging.forgetting.registerSendHold(campaignBatchHoldsSend);
      ({
        imports: this.imports,
        segments: this.segments,
        uploads: this.uploads,
        optouts: this.optouts,
      } = createContacts(
        this.db,
        this.clock,
        this.dataDir,
        this.scheduler,
        this.jobs,
        this.writers.signal,
        this.readers,
      ));
      this.cards = new ContactCards(this.db);
      this.conversations = new Conversations(this.inbox, this.messaging.queries);
      // A segment's page names the campaigns whose audience names it: campaigns says which.
      this.segments.registerUsers(campaignsNamingSegment(this.db));
      this.campaigns = new Campaigns({
        db: this.db,
        clock: this.clock,
        jobs: this.jobs,
        accounts: this.accounts,
        credit: this.credit,
        settings: this.settings,
        segments: this.segments,
        imports: this.imports,
        optouts: this.optouts,
        messaging: this.messaging,
        dataDir: this.dataDir,
        closing: this.writers.signal,
      });
      // The bill groups a campaign run's sends as one charge: campaigns says which they are.
      this.credit.registerRuns(ledgerRuns(this.db));
      this.sends = new Sends({
        db: this.db,
        readers: this.readers,
        executionReport: (accountId, executionId) => this.campaigns.report(accountId, executionId),
        groups: sendGroups,
      });
      this.templates = new Templates(this.db, this.clock, this.accounts);
      this.verify = new Verify(this.accounts, this.templates, this.messaging.accept);
      this.emailRelay = new EmailRelay({
        db: this.db,
        clock: this.clock,
        scheduler: this.scheduler,
        hashKey: (key) => this.accounts.hashKey(key),
      });
      this.email = new EmailSends({
        db: this.db,
        clock: this.clock,
        jobs: this.jobs,
        segments: this.segments,
        settings: this.settings,
        secrets: this.secrets,
        relay: this.emailRelay,
        closing: this.writers.signal,
        onProgress: (send) => this.events.emit('email-progress', send),
      });
      this.housekeeping = new Housekeeping({
        db: this.db,
        readers: this.readers,
        clock: this.clock,
        dataDir: this.dataDir,
        settings: this.settings,
        jobs: this.jobs,
        scheduler: this.scheduler,
        events: this.events,
        messages: this.messaging.forgetting,
        lifecycle: this.messaging.lifecycle,
      });
      // Every job type is registered now: jobs a crash or a close left running are queued again.
      this.jobs.recover();
      this.settings.onChange(() => this.scheduler.poke());
      if (this.clock instanceof ManualClock || this.clock instanceof OffsetClock)
        this.clock.onAdvance(() => this.scheduler.poke());
      if (options.startScheduler !== false) this.scheduler.start();
    } catch (error) {
      // Damaged pages show only when read (the accounts, the jobs, the message states): the same words then.
      void this.readers.close();
      this.db.close();
      throw startFailure(error, this.dataDir);
    }
  }

  /**
   * Refuses new work and stops what writes into the workspace: exports, backups and uploads end
   * (an export between two pages, its partial file removed), the jobs are aborted between two
   * commits (left to resume on the next start) and the threads they started have exited, the
   * scheduler ends its batch, calls to providers end. Then the database closes (WAL checkpointed).
   * Once this resolves nothing writes under dataDir. A second call waits for the first.
   */
  /** The address this core's HTTP server listens at: short links and gateway reports point to it. */
  setLocalAddress(url: string): void {
    this.campaigns.setLocalAddress(url);
    this.gateways.setLocalAddress(url);
  }

  close(): Promise<void> {
    return (this.closing ??= this.closeNow());
  }

  private async closeNow(): Promise<void> {
    const writing = this.writers.close();
    await this.jobs.stop();
    await this.scheduler.stop();
    // Calls to providers in flight end (each within its timeout) and their answers are recorded.
    await this.messaging.carrier.stop();
    await writing;
    await this.readers.close();
    this.db.close();
  }
}
