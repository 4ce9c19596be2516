// The messaging domain wired together for Core: the acceptance path, the lifecycle with its
// carrier (the simulator until a real upstream is configured), the status lookup, the app's
// message views and dashboard, and their scheduler workers.
import type { Db } from '../db/database';
import type { ReaderPool } from '../db/readers';
import type { Clock } from '../clock';
import type { Accounts } from '../accounts/accounts';
import type { Credit } from '../accounts/credit';
import type { Files } from '../files/files';
import type { Settings } from '../settings/settings';
import type { Scheduler } from '../jobs/scheduler';
import { Accept } from './accept';
import { MessageCounts } from './counts';
import { MessageStates } from './message-states';
import { ReceiverIndex } from './receivers';
import { SendTextIndex } from './send-texts';
import { Lifecycle, type StatusChange } from './lifecycle';
import { AcceptedDue } from './accepted-due';
import { StatusLookup } from './status';
import { MessageQueries } from './queries';
import { Dashboard } from './dashboard';
import { Outbox } from './outbox';
import { Multichannel } from './multichannel';
import { SimulatorCarrier, type SimulatedReply } from './carriers/simulator';
import type { CarrierFactory, CarrierReports } from './carriers/carrier';
import { GatewayCarrier } from './carriers/gateway-carrier';
import { UpstreamCarrier, type UpstreamReply } from './carriers/upstream/upstream-carrier';
import { Gateways } from './gateways';
import { lineHasMessagesOnTheirWay } from './line-use';
import type { SecretStore } from '../secrets';
import type { Line } from '../accounts/accounts';
import { isUpstream, type LinePause } from '../../../shared/gateways';
import { carrierMessages } from './carrier-messages';
import { MessageForgetting } from './forget';
import type { SendGroups } from './send-groups';

export interface MessagingDeps {
  db: Db;
  /** Reader threads for the reads that walk many messages. */
  readers: ReaderPool;
  clock: Clock;
  accounts: Accounts;
  credit: Credit;
  files: Files;
  settings: Settings;
  scheduler: Scheduler;
  /** The contacts domain's opt-out list. */
  optouts: {
    has(accountId: number, phone: string): boolean;
    filter(accountId: number, phones: readonly string[]): string[];
  };
  onStatusChanges(changes: StatusChange[]): void;
  /** Who delivers the simulator's lines; the simulator by default. */
  carrier?: CarrierFactory;
  /** Where replies are recorded (the Inbox): the simulator's, and those read from providers; without it, none. */
  recordReplies?: (replies: (SimulatedReply | UpstreamReply)[]) => void;
  /** Where the providers' keys are kept (never the database). */
  secrets: SecretStore;
  /** A line's gateway paused or went on (the window's banner). */
  onLineChanged?: (line: Line, pause: LinePause | null) => void;
  /** The campaign executions, by the campaigns domain (above messaging): a message filter by one. */
  sendGroups: SendGroups;
}

export interface Messaging {
  /** The lines' gateways: setting one, its connection test, its queue at the provider. */
  gateways: Gateways;
  /** Who delivers: the simulator's lines and the providers' (stop() waits for calls in flight). */
  carrier: GatewayCarrier;
  accept: Accept;
  /** One call over several channels (API version 3), all or nothing. */
  multichannel: Multichannel;
  lifecycle: Lifecycle;
  statusLookup: StatusLookup;
  /** The app's message views (lists, counts, timelines, export pages). */
  queries: MessageQueries;
  dashboard: Dashboard;
  /** API version 1's outbox reads and counts. */
  outbox: Outbox;
  /** The messages counted per account, slot, status, sender and origin (migration 0017). */
  counts: MessageCounts;
  /** Each message's status and account, two bytes per message (migration 0023), for lookups by id. */
  states: MessageStates;
  /** Receiver searches without a scan (migration 0019); its worker indexes off the send path. */
  receivers: ReceiverIndex;
  sendTexts: SendTextIndex;
  /**
   * Old messages removed with all that is kept of them (retention), the reads that plan it, and
   * the holds of the domains above that keep a send (messaging/forget.ts).
   */
  forgetting: MessageForgetting;
}

export function createMessaging(deps: MessagingDeps): Messaging {
  const { db, clock, settings, scheduler } = deps;
  const counts = new MessageCounts(db);
  const states = new MessageStates(db);
  const messages = carrierMessages(db);
  // Who delivers the simulator's lines (a test may give another carrier); provider lines go upstream.
  const simulated: CarrierFactory =
    deps.carrier ?? ((reports, read) => new SimulatorCarrier(db, clock, settings, reports, read, deps.recordReplies));
  let upstream: UpstreamCarrier | undefined;
  const carrier = (reports: CarrierReports): GatewayCarrier => {
    upstream = new UpstreamCarrier({
      db,
      clock,
      settings,
      accounts: deps.accounts,
      files: deps.files,
      secrets: deps.secrets,
      reports,
      messages,
      poke: () => scheduler.poke(),
      recordReplies: deps.recordReplies,
      onLineChanged: deps.onLineChanged,
    });
    return new GatewayCarrier(simulated(reports, messages), upstream, deps.accounts);
  };
  const lifecycle = new Lifecycle(
    db,
    clock,
    deps.credit,
    settings,
    counts,
    states,
    (accountId, phone) => deps.optouts.has(accountId, phone),
    deps.onStatusChanges,
    // The carriers read the messages through messaging's operations, never its tables.
    carrier,
  );
  const gatewayCarrier = lifecycle.carrier as GatewayCarrier;
  // A line keeps its gateway while its messages are on their way (queued, with the simulator, or
  // not yet known to be taken by its provider).
  const onTheirWay = lineHasMessagesOnTheirWay(db);
  deps.accounts.registerLineBusy((line) => onTheirWay(line) || upstream!.handovers.inFlight(line.id) > 0);
  const acceptedDue = new AcceptedDue((dueAt, firstId, lastId) => lifecycle.schedule(dueAt, firstId, lastId));
  const accept = new Accept(db, clock, deps.accounts, deps.credit, deps.files, settings, {
    schedule: (dueAt, firstId, lastId) => acceptedDue.add(dueAt, firstId, lastId),
    handoffMs: () => settings.simulator().handoff_ms,
    countOptedOut: (accountId, phones) => deps.optouts.filter(accountId, phones).length,
    onAccepted: (dueAt) => scheduler.poke(dueAt),
    onRequest: () => scheduler.requestArrived(),
    counted: (key, n, costRials) => counts.added(key, n, costRials),
    // A group commit's sends write their counts, states rows and due ranges once, at its end.
    batch: (work) => states.batch(() => counts.batch(() => acceptedDue.batch(work))),
    placed: (firstId, lastId, key) => states.placed(firstId, lastId, key),
  });
  scheduler.register({
    name: 'lifecycle',
    // Sends made one by one are handed over together (the simulator's reports follow at the same
    // times, so they are gathered too); a provider's paced calls (the carriers) are not.
    gathers: true,
    // Answers first: a flood of requests is answered before its messages move on (scheduler.ts).
    givesWay: true,
    nextDueAt: () => lifecycle.nextDueAt(),
    runDue: () => lifecycle.step() !== null,
  });
  if (lifecycle.carrier.worker) scheduler.register(lifecycle.carrier.worker);
  scheduler.register(states.worker);
  const receivers = new ReceiverIndex(db, deps.readers, clock, {
    delivering: () => {
      const due = lifecycle.nextDueAt();
      return (due !== null && due <= clock.now()) || upstream!.sending();
    },
  });
  scheduler.register(receivers.worker);
  const sendTexts = new SendTextIndex(db, deps.readers, clock);
  scheduler.register(sendTexts.worker);
  const forgetting = new MessageForgetting(db, deps.readers, {
    counts,
    receivers,
    states,
    sendTexts,
    carrier: lifecycle.carrier,
  });
  return {
    gateways: new Gateways(db, deps.accounts, deps.secrets, upstream!, messages),
    carrier: gatewayCarrier,
    accept,
    multichannel: new Multichannel(db, deps.accounts, accept),
    lifecycle,
    statusLookup: new StatusLookup(db, states),
    queries: new MessageQueries(db, deps.readers, receivers, sendTexts, states, deps.sendGroups),
    dashboard: new Dashboard(db, clock, deps.credit, (accountId, sender) =>
      isUpstream(deps.accounts.findLine(accountId, sender)?.gateway.kind ?? 'simulator'),
    ),
    outbox: new Outbox(db, deps.accounts),
    counts,
    states,
    receivers,
    sendTexts,
    forgetting,
  };
}
