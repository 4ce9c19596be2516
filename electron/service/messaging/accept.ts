// The one acceptance path, independent of any API version (STYLE.md "messaging/accept"): every
// send — API v1/v2/v3, the panel, a campaign's batch — is a command that goes through here, and
// the composer's preview is a dry run of the very same steps:
//   sender line (shared/lines.ts) -> file -> receivers classified (shared/receivers.ts) -> final
//   text, pages and cost per message (shared/pricing.ts) -> total -> refusal (411, 418) ->
//   credit debited and messages recorded in one transaction, as 1 (queued) or 2 (scheduled).
// A call of messages given one by one (v1 send and sendarray, v2 send-p2p) is several commands in
// one transaction (acceptItems, grouped by item-groups.ts). The APIs' requests in flight are
// accepted together, one commit for a group of them (inGroup, db/group-commit.ts).
// Transports map their wire formats onto AcceptCommand and the Acceptance back; none holds a rule.
import type { Db } from '../db/database';
import type { CountKey } from './counts';
import type { Clock } from '../clock';
import type { Accounts, Line } from '../accounts/accounts';
import type { Credit } from '../accounts/credit';
import type { Files } from '../files/files';
import type { Settings } from '../settings/settings';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { MessageStatus } from '../../../shared/lifecycle';
import {
  classifyReceivers,
  ReceiverKind,
  type ClassifiedReceivers,
  type ReceiverRule,
} from '../../../shared/receivers';
import { priceText, type PricedText } from '../../../shared/pricing';
import type { Origin } from '../../../shared/lines';
import { LocalIds, type EarlierMessage } from './local-ids';
import { messageTextSql } from './message-text';
import { groupsOf, type Repeats, type SendItem } from './item-groups';
import { GroupCommit } from '../db/group-commit';

export interface AcceptCommand {
  accountId: number;
  origin: Origin;
  /** The sender line's number. */
  sender: string;
  /** The text of every recipient without an own text. */
  text: string;
  /** In submitted order. */
  receivers: readonly string[];
  /** Own texts (a campaign's personalization), parallel to `receivers`; an undefined entry uses `text`. */
  texts?: readonly (string | undefined)[] | undefined;
  /** 'strict': spec 4.1's pattern (the API); 'lenient': pasted lists and spreadsheets. */
  rule: ReceiverRule;
  /** A messenger file (POST /upload-file/{provider}). */
  fileId?: string | null | undefined;
  /** Scheduled sends: recorded as 2 and released into the queue at this time (ms). */
  dueAt?: number | null | undefined;
  /** The same key again returns the earlier acceptance: no second record, no second charge. */
  idempotencyKey?: string | null | undefined;
  /**
   * Callers' own ids (version 1's `localid`), parallel to `receivers`; undefined entries have none.
   * Recorded with the messages of the accepted receivers, in the same transaction; one that named a
   * message before is refused (400): callers split those off first (LocalIds.split).
   */
  localIds?: readonly (string | undefined)[] | undefined;
  /** A campaign batch: paid from this credit reservation first (Credit.reserve). */
  reservationId?: number | null | undefined;
  /**
   * Completes the n-th accepted recipient's final text after pricing (a campaign's short link
   * codes). It must not change the text's pages: texts that differ only in what `fill` writes are
   * priced once, which is what keeps a million distinct links as cheap as one.
   */
  fill?: ((n: number, finalText: string) => string) | undefined;
  /**
   * Prices by text, kept by the caller across its commands (a campaign's batches share most texts).
   * The caller drops it when the pricing settings may have changed.
   */
  priceCache?: Map<string, PricedText> | undefined;
}

export interface Acceptance {
  /** The recorded send; null for a dry run. */
  sendId: number | null;
  /** True when an earlier acceptance with the same idempotency key was returned. */
  replayed: boolean;
  line: Line;
  classified: ClassifiedReceivers;
  /** The shared text, priced. */
  price: PricedText;
  /** Per accepted recipient (in `classified.valid` order), when not all share `price`: final text and cost. */
  texts: string[] | null;
  costs: number[] | null;
  /** Message ids are consecutive: the n-th accepted recipient's is firstMessageId + n (0 in a dry run). */
  firstMessageId: number;
  status: MessageStatus;
  /** When it was recorded (ms). */
  createdAt: number;
  accepted: number;
  totalRials: number;
}

/** A call of messages given one by one (item-groups.ts): API v1's send and sendarray, v2's send-p2p. */
export interface ItemsCommand {
  accountId: number;
  origin: Origin;
  /** In submitted order; receptors under the strict rule (these are API calls). */
  items: readonly SendItem[];
  repeats: Repeats;
  /** Scheduled sends: one due time for every item (ms). */
  dueAt?: number | null | undefined;
  /** A messenger file for every item (spec 4.1 rule 7 holds for each sender). */
  fileId?: string | null | undefined;
}

/** One acceptance of an items call. */
export interface ItemGroup {
  /** Its items (indexes into the command's items), in the order of its receivers. */
  indexes: number[];
  /** Null when none of its receptors was valid: each of its items was invalid (0) or a duplicate (15). */
  recorded: Recorded | null;
  /** Its items' kinds and receptors, in `indexes` order. */
  classified: ClassifiedReceivers;
}

export interface ItemsAcceptance {
  /** Per item: the message its local id named before (nothing was sent for it), else undefined. */
  earlier: (EarlierMessage | undefined)[];
  groups: ItemGroup[];
}

/** A recorded acceptance: its send exists. */
export type Recorded = Acceptance & { sendId: number };

export interface Quote extends Acceptance {
  /** What accept() would answer instead of recording: 411 no valid receiver, 418 credit short; null when it would record. */
  refusal: typeof ApiCode.InvalidReceiver | typeof ApiCode.NoCredit | null;
  creditRials: number;
  /** Accepted recipients on the account's opt-out list: they end as 14, refunded. */
  optedOut: number;
}

/** How the domain around it plugs in: the lifecycle's due times, the opt-out list, a wake-up. */
export interface AcceptDeps {
  /** A send's messages are due at `dueAt` (the lifecycle's due ranges, through accepted-due.ts: in the batch). */
  schedule(dueAt: number, firstId: number, lastId: number): void;
  handoffMs(): number;
  countOptedOut(accountId: number, phones: readonly string[]): number;
  /** A send was recorded whose messages are due at `dueAt` (ms). */
  onAccepted(dueAt: number): void;
  /** A program's request is being accepted (the APIs, inGroup): what follows gives way to a flood of them. */
  onRequest(): void;
  /** The aggregates (counts.ts): a send's messages counted in its own transaction. */
  counted(key: CountKey, n: number, costRials: number): void;
  /**
   * The acceptances' batch (counts.ts, message-states.ts, accepted-due.ts): what `counted`,
   * `placed` and `schedule` recorded is written at the end of the outermost batch, so the sends of
   * a group commit write their counts, states rows and due ranges once; an inner batch that throws
   * takes back what it recorded.
   */
  batch<T>(work: () => T): T;
  /** The message states (message-states.ts): a send's messages, one key, in its transaction (in the batch). */
  placed(firstId: number, lastId: number, key: CountKey): void;
}

export class Accept {
  /** Callers' own ids of messages: recorded here, looked up and split by the transports' mappings. */
  readonly localIds: LocalIds;
  private readonly insertSend;
  private readonly insertShared;
  private readonly insertOwn;
  private readonly nextMessageId;
  private readonly byKey;
  private readonly recorded;
  private readonly together: GroupCommit;
  /** write() as a transaction, made once (better-sqlite3 builds one anew per db.transaction() call). */
  private readonly record: (
    command: AcceptCommand,
    plan: Acceptance & { fileId: string | null },
    dueAt: number,
    spendable: number | null,
  ) => { sendId: number; firstId: number };
  private readonly recordItems: (
    command: ItemsCommand,
    grouped: readonly number[][],
    earlier: readonly (EarlierMessage | undefined)[],
  ) => ItemGroup[];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly accounts: Accounts,
    private readonly credit: Credit,
    private readonly files: Files,
    private readonly settings: Settings,
    private readonly deps: AcceptDeps,
  ) {
    this.localIds = new LocalIds(db);
    this.together = new GroupCommit(db, deps.batch);
    this.record = db.transaction((command, plan, dueAt, spendable) =>
      deps.batch(() => this.write(command, plan, dueAt, spendable)),
    );
    this.recordItems = db.transaction((command, grouped, earlier) =>
      deps.batch(() => this.writeItems(command, grouped, earlier)),
    );
    this.insertSend = db.prepare(
      `INSERT INTO sends (account_id, line_id, sender, provider, text, pages, origin, api_version, file_id,
         message_count, own_texts, total_rials, idempotency_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // One statement for all of a send's messages: the receivers go in as one JSON array and SQLite
    // makes the rows. Binding values per row from JS cost more than the inserts themselves
    // (measured: a third less time than 500-row multi-row statements).
    this.insertShared = db.prepare(
      `INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at)
       SELECT ? + key, ?, ?, value, ?, ?, ? FROM json_each(?)`,
    );
    // Own texts, one row per message: with a text per row, binding values beats building and
    // parsing the JSON (measured: a quarter less time for 10,000 campaign texts).
    this.insertOwn = db.prepare(
      `INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at, text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.nextMessageId = db.prepare<[], { next: number }>('SELECT COALESCE(MAX(id), 0) + 1 AS next FROM messages');
    this.byKey = db.prepare<[number, string], { id: number }>(
      'SELECT id FROM sends WHERE account_id = ? AND idempotency_key = ?',
    );
    this.recorded = db.prepare<
      [number],
      { id: number; receptor: string; status: MessageStatus; cost_rials: number; text: string; created_at: number }
    >(
      `SELECT m.id, m.receptor, m.status, m.cost_rials, ${messageTextSql()} AS text, m.created_at
       FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.send_id = ? ORDER BY m.id`,
    );
  }

  /** Records the command, or throws the refusal (412, 400, 411, 418) with nothing recorded. */
  accept(command: AcceptCommand): Recorded {
    if (command.idempotencyKey) {
      const earlier = this.byKey.get(command.accountId, command.idempotencyKey);
      if (earlier) return this.replay(command, earlier.id);
    }
    if (command.localIds !== undefined && command.localIds.length !== command.receivers.length)
      throw new ServiceError(ApiCode.BadRequest, 'local ids and receivers differ in number');
    if (command.localIds !== undefined) this.localIds.check(command.localIds);
    const plan = this.plan(command);
    const spendable = this.credit.spendable(command.accountId, command.reservationId);
    const refusal = refusalOf(plan, spendable);
    if (refusal !== null) throw new ServiceError(refusal);

    const dueAt = plan.status === MessageStatus.Scheduled ? command.dueAt! : plan.createdAt + this.deps.handoffMs();
    // Read inside the transaction that debits (a group commit's, an items call's): nothing can
    // move the credit before the debit, which need not read it again. Read outside, it is read again.
    const recorded = this.record(command, plan, dueAt, this.db.inTransaction ? spendable : null);
    this.deps.onAccepted(dueAt);
    return { ...plan, sendId: recorded.sendId, firstMessageId: recorded.firstId };
  }

  /**
   * Runs an acceptance that is all or nothing by itself (accept(), acceptItems(), a multichannel
   * send, a verify lookup) for one of many requests in flight (the APIs): committed together with
   * the others of these turns of the event loop, settled after that commit (db/group-commit.ts).
   */
  inGroup<T>(work: () => T): Promise<T> {
    this.deps.onRequest();
    // In a batch of its own: when the work throws after one of its acceptances ended (a
    // multichannel call's later channel refused), what that one recorded in memory for the group
    // (counts, states, due ranges) is taken back with its rows.
    return this.together.run(() => this.deps.batch(work), { atomic: true });
  }

  /** accept() for one of many requests in flight: inGroup. */
  acceptInGroup(command: AcceptCommand): Promise<Recorded> {
    return this.inGroup(() => this.accept(command));
  }

  /** acceptItems() for one of many requests in flight: inGroup. */
  acceptItemsInGroup(command: ItemsCommand): Promise<ItemsAcceptance> {
    return this.inGroup(() => this.acceptItems(command));
  }

  /**
   * A call of messages given one by one, all or nothing: items whose local id named a message
   * before are answered with it and not sent again; the others go out as the acceptances
   * item-groups.ts makes of them, in one transaction (as Multichannel's channels: each credit
   * check sees what the earlier ones debited, and a later refusal rolls the earlier ones back).
   * Throws the first refusal (412, 400, 418) with nothing recorded, and 411 when no item was valid.
   */
  acceptItems(command: ItemsCommand): ItemsAcceptance {
    const { items } = command;
    const { earlier, fresh } = this.localIds.split(
      command.accountId,
      items.map((item) => item.localId),
    );
    const indexes = groupsOf(items, fresh, command.repeats);
    // One acceptance is all or nothing by itself (the common v1 send of one receptor): no
    // transaction around its own.
    const groups =
      indexes.length === 1 ? this.writeItems(command, indexes, earlier) : this.recordItems(command, indexes, earlier);
    return { earlier, groups };
  }

  /** The writes of an acceptance, in one transaction (a savepoint inside a caller's). */
  private write(
    command: AcceptCommand,
    plan: Acceptance & { fileId: string | null },
    dueAt: number,
    spendable: number | null,
  ) {
    const { line, classified, price, texts, costs, status, createdAt } = plan;
    const sendId = Number(
      this.insertSend.run(
        command.accountId,
        line.id,
        line.number,
        line.provider,
        price.text,
        price.pages,
        storedOrigin(command.origin),
        apiVersion(command.origin),
        plan.fileId,
        plan.accepted,
        // Messages whose own text differs from the send's keep it (the others store NULL).
        texts === null ? 0 : texts.reduce((own, text) => (text === price.text ? own : own + 1), 0),
        plan.totalRials,
        command.idempotencyKey ?? null,
        createdAt,
      ).lastInsertRowid,
    );
    // Inside the transaction again: the balance read and the debit are one atomic step.
    this.credit.debitSend(command.accountId, sendId, plan.totalRials, command.reservationId, spendable);
    // Ids are given here, not by SQLite: the transaction is the only writer, so they are the next
    // consecutive ones, the n-th accepted receiver's being firstId + n. One receiver (a program's
    // one-message send) takes the id SQLite gives a row without one, the same MAX(id) + 1, found
    // by the insert itself (a statement less a send), and its values are bound, without json_each.
    const receptors = classified.valid.map((i) => classified.receptors[i]!);
    let firstId: number;
    if (texts === null && receptors.length === 1)
      firstId = Number(
        this.insertOwn.run(null, sendId, command.accountId, receptors[0], status, price.costRials, createdAt, null)
          .lastInsertRowid,
      );
    else {
      firstId = this.nextMessageId.get()!.next;
      if (texts === null)
        this.insertShared.run(
          firstId,
          sendId,
          command.accountId,
          status,
          price.costRials,
          createdAt,
          JSON.stringify(receptors),
        );
      else
        for (let n = 0; n < receptors.length; n++) {
          const text = texts[n]!;
          this.insertOwn.run(
            firstId + n,
            sendId,
            command.accountId,
            receptors[n],
            status,
            costs![n],
            createdAt,
            text === price.text ? null : text,
          );
        }
    }
    if (command.localIds) {
      const pairs: (readonly [string, number])[] = [];
      classified.valid.forEach((i, n) => {
        const localId = command.localIds![i];
        if (localId !== undefined) pairs.push([localId, firstId + n]);
      });
      this.localIds.record(command.accountId, pairs);
    }
    this.deps.schedule(dueAt, firstId, firstId + plan.accepted - 1);
    if (plan.accepted > 0) {
      const key: CountKey = {
        account_id: command.accountId,
        created_at: createdAt,
        status,
        sender: line.number,
        origin: storedOrigin(command.origin),
      };
      this.deps.placed(firstId, firstId + plan.accepted - 1, key);
      this.deps.counted(key, plan.accepted, plan.totalRials);
    }
    return { sendId, firstId };
  }

  /** An items call's acceptances: all or nothing (recordItems runs more than one in one transaction). */
  private writeItems(
    command: ItemsCommand,
    grouped: readonly number[][],
    earlier: readonly (EarlierMessage | undefined)[],
  ): ItemGroup[] {
    const { items } = command;
    const groups = grouped.map((indexes): ItemGroup => {
      const first = items[indexes[0]!]!;
      const receivers = indexes.map((i) => items[i]!.receptor);
      let recorded: Recorded | null = null;
      try {
        recorded = this.accept({
          accountId: command.accountId,
          origin: command.origin,
          sender: first.sender,
          text: first.text,
          receivers,
          texts: indexes.map((i) => (items[i]!.text === first.text ? undefined : items[i]!.text)),
          rule: 'strict',
          dueAt: command.dueAt ?? null,
          fileId: command.fileId ?? null,
          localIds: indexes.map((i) => items[i]!.localId),
        });
      } catch (error) {
        // A group without one valid receptor is reported item by item; the call is 411 only
        // when nothing in it was valid (below).
        if (!(error instanceof ServiceError && error.code === ApiCode.InvalidReceiver)) throw error;
      }
      return { indexes, recorded, classified: recorded?.classified ?? classifyReceivers(receivers, 'strict') };
    });
    if (groups.every((group) => group.recorded === null) && earlier.every((message) => message === undefined))
      throw new ServiceError(ApiCode.InvalidReceiver);
    return groups;
  }

  /** The same steps as accept(), recording nothing: what it would record, cost and refuse. */
  quote(command: AcceptCommand): Quote {
    const plan = this.plan(command);
    const creditRials = this.credit.spendable(command.accountId, command.reservationId);
    const receptors = plan.classified.valid.map((i) => plan.classified.receptors[i]!);
    return {
      ...plan,
      refusal: refusalOf(plan, creditRials),
      creditRials,
      optedOut: this.deps.countOptedOut(command.accountId, receptors),
    };
  }

  private plan(command: AcceptCommand): Acceptance & { fileId: string | null } {
    const line = this.accounts.senderLine(command.accountId, command.sender, command.origin);
    const fileId = command.fileId ? this.files.forSend(command.accountId, command.fileId, line.provider).id : null;
    const classified = classifyReceivers(command.receivers, command.rule);
    const pricing = this.settings.pricing();
    const price = priceText(command.text, line.provider, pricing);
    let texts: string[] | null = null;
    let costs: number[] | null = null;
    let totalRials = price.costRials * classified.valid.length;
    if (command.fill || command.texts?.some((own) => own !== undefined)) {
      // Priced once per distinct text: a campaign's recipients often share theirs.
      const priced = command.priceCache ?? new Map<string, PricedText>();
      priced.set(command.text, price);
      texts = new Array(classified.valid.length);
      costs = new Array(classified.valid.length);
      totalRials = 0;
      classified.valid.forEach((i, n) => {
        const own = command.texts![i] ?? command.text;
        let p = priced.get(own);
        if (p === undefined) priced.set(own, (p = priceText(own, line.provider, pricing)));
        texts![n] = command.fill ? command.fill(n, p.text) : p.text;
        costs![n] = p.costRials;
        totalRials += p.costRials;
      });
    }
    const createdAt = this.clock.now();
    const scheduled = command.dueAt != null && command.dueAt > createdAt;
    return {
      sendId: null,
      replayed: false,
      line,
      classified,
      price,
      texts,
      costs,
      firstMessageId: 0,
      status: scheduled ? MessageStatus.Scheduled : MessageStatus.Queued,
      createdAt,
      accepted: classified.valid.length,
      totalRials,
      fileId,
    };
  }

  /** The earlier acceptance of an idempotency key, as recorded (every recorded recipient is valid). */
  private replay(command: AcceptCommand, sendId: number): Recorded {
    const rows = this.recorded.all(sendId);
    const line = this.accounts.senderLine(command.accountId, command.sender, command.origin);
    const receptors = rows.map((row) => row.receptor);
    return {
      sendId,
      replayed: true,
      line,
      classified: {
        kinds: rows.map(() => ReceiverKind.Valid),
        receptors,
        valid: rows.map((_, i) => i),
        invalidCount: 0,
        duplicateCount: 0,
      },
      price: priceText(rows[0]?.text ?? command.text, line.provider, this.settings.pricing()),
      texts: rows.map((row) => row.text),
      costs: rows.map((row) => row.cost_rials),
      firstMessageId: rows[0]?.id ?? 0,
      status: rows[0]?.status ?? MessageStatus.Queued,
      createdAt: rows[0]?.created_at ?? 0,
      accepted: rows.length,
      totalRials: rows.reduce((sum, row) => sum + row.cost_rials, 0),
    };
  }
}

/** Why a planned acceptance cannot be recorded: no valid receiver (411), then credit short of the total (418). */
function refusalOf(plan: Acceptance, creditRials: number): Quote['refusal'] {
  if (plan.accepted === 0) return ApiCode.InvalidReceiver;
  if (creditRials < plan.totalRials) return ApiCode.NoCredit;
  return null;
}

/** sends.origin keeps the kind of origin; the API version goes beside it. */
function storedOrigin(origin: Origin): 'api' | 'panel' | 'campaign' {
  return origin === 'panel' || origin === 'campaign' ? origin : 'api';
}
function apiVersion(origin: Origin): number | null {
  return origin === 'api-v1' ? 1 : origin === 'api-v2' ? 2 : origin === 'api-v3' ? 3 : null;
}
