// Accounts, their API keys (shown once, stored as keyed hashes: accounts/keys.ts) and their sender
// lines (stored in the form of shared/lines.ts: ASCII digits, checked per provider when a line is
// added).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { ServiceError } from '../errors';
import { ReadCache } from './read-cache';
import { ApiCode, type LinePermission, type Provider } from '../../../shared/status';
import { lineNumberFault, normalizeLineNumber, senderLineFault, type Origin } from '../../../shared/lines';
import { toAsciiDigits } from '../../../shared/digits';
import { isTimeZone } from '../../../shared/time-zone';
import type { Account, ApiKeyInfo, Line } from '../../../shared/ipc/schemas';
import { HttpGatewayOptionsSchema, type HttpGatewayOptions } from '../../../shared/ipc/contracts/accounts';
import type { Credit } from './credit';
import type { KeyHasher } from './keys';
import { canonicalIp, isAllowlistEntry } from './ip-allowlist';
import {
  DEFAULT_RATE_PER_SECOND,
  GATEWAY_TEMPLATE_FIELDS,
  GATEWAYS,
  isUpstream,
  type GatewayKind,
} from '../../../shared/gateways';
import type { GatewayInput } from '../../../shared/ipc/contracts/gateways';

export type { Account, ApiKeyInfo, Line };

interface AccountRow {
  id: number;
  name: string;
  active: number;
  credit_rials: number;
  ip_allowlist: string;
  created_at: number;
}
interface LineRow {
  id: number;
  account_id: number;
  number: string;
  provider: Provider;
  can_send_api_campaign: number;
  can_send_panel_campaign: number;
  active: number;
  gateway: GatewayKind;
  gateway_base_url: string | null;
  gateway_sender: string | null;
  gateway_rate: number;
  gateway_options: string | null;
}

/** Whether a line's provider key is kept (the secrets store, which accounts does not hold). */
export type KeyKept = (lineId: number) => boolean;

function toAccount(row: AccountRow): Account {
  return { ...row, active: row.active === 1, ip_allowlist: JSON.parse(row.ip_allowlist) as string[] };
}
function toLine(row: LineRow, keyKept: KeyKept): Line {
  const { gateway, gateway_base_url, gateway_sender, gateway_rate, gateway_options, ...line } = row;
  return {
    ...line,
    can_send_api_campaign: row.can_send_api_campaign === 1,
    can_send_panel_campaign: row.can_send_panel_campaign === 1,
    active: row.active === 1,
    gateway: {
      kind: gateway,
      base_url: gateway_base_url,
      sender: gateway_sender,
      rate_per_second: gateway_rate,
      key_set: isUpstream(gateway) && keyKept(row.id),
      http:
        gateway === 'http-gateway'
          ? HttpGatewayOptionsSchema.parse(gateway_options === null ? {} : JSON.parse(gateway_options))
          : null,
    },
  };
}

/** `line` and its gateway, frozen: shared between callers, it must not be changed by one. */
function frozen(line: Line): Line {
  Object.freeze(line.gateway);
  return Object.freeze(line);
}

/** The secret's name of a line's provider key in the secrets store. */
export function lineKeySecret(lineId: number): string {
  return `line-${lineId}-api-key`;
}

/**
 * A provider's address as kept: http or https, no credentials, no query; the trailing slash
 * dropped. Anything else is refused naming it (a typo would send the key somewhere else).
 */
export function canonicalBaseUrl(typed: string): string {
  let url: URL;
  try {
    url = new URL(typed.trim());
  } catch {
    throw new ServiceError(ApiCode.BadRequest, `not an address: ${JSON.stringify(typed)}`, 'gateway_base_url_invalid');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash)
    throw new ServiceError(
      ApiCode.BadRequest,
      `not an http(s) base address: ${JSON.stringify(typed)}`,
      'gateway_base_url_invalid',
    );
  return url.toString().replace(/\/+$/, '');
}

/**
 * An HTTP gateway's request as kept (http-gateway.ts): its address template is http or https with
 * no credentials written into it (the key goes where `{key}` stands); only the placeholders the
 * client fills, in the address and a POST's body; `{to}` and `{text}` in one of them (a GET has
 * no body); the success pattern a regular expression. The query and the body stay as typed: they
 * are the gateway's own.
 */
export function canonicalHttpGateway(
  typed: string,
  options: HttpGatewayOptions,
): { template: string; options: HttpGatewayOptions } {
  const template = typed.trim();
  const refuse = (why: string, code = 'gateway_template_invalid') => {
    throw new ServiceError(ApiCode.BadRequest, why, code);
  };
  let url: URL;
  try {
    url = new URL(template.replace(/\{(\w+)\}/g, 'x'));
  } catch {
    return refuse(`not an address: ${JSON.stringify(typed)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
    refuse(`not an http(s) address without credentials: ${JSON.stringify(typed)}`);
  const body = options.method === 'POST' ? options.body : '';
  const fieldsOf = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const fields = [...fieldsOf(template), ...fieldsOf(body)];
  const unknown = fields.filter((field) => !(GATEWAY_TEMPLATE_FIELDS as readonly string[]).includes(field));
  if (unknown.length > 0) refuse(`unknown placeholders {${unknown.join('}, {')}}`);
  if (!fields.includes('to') || !fields.includes('text'))
    refuse(
      options.method === 'POST'
        ? '{to} and {text} must be in the address or the body'
        : '{to} and {text} must be in the address',
    );
  try {
    new RegExp(options.success);
  } catch {
    refuse(`not a regular expression: ${JSON.stringify(options.success)}`, 'gateway_success_invalid');
  }
  return { template, options: { ...options, body } };
}

/**
 * The allow-list as stored: each entry in one spelling (blanks dropped, IPv6 lower-cased and
 * compressed, an IPv4-mapped address as its IPv4 self, a prefix without leading zeros), each once.
 * An entry that is no address or CIDR range is refused, naming it: a list kept with a typo in it
 * would answer the caller 416 with nothing in Settings saying why.
 */
export function canonicalAllowlist(entries: readonly string[]): string[] {
  const canonical = entries.map((typed) => {
    const entry = typed.trim();
    const [address, bits] = entry.split('/');
    const refuse = () =>
      new ServiceError(ApiCode.BadRequest, `allow-list entry ${JSON.stringify(typed)}`, 'ip_allowlist_entry_invalid');
    // A zone (fe80::1%eth0) names a network card of the caller's machine, nothing a server sees.
    if (!isAllowlistEntry(entry) || entry.includes('%')) throw refuse();
    let ip = canonicalIp(address!);
    if (ip.includes(':')) ip = new URL(`http://[${ip}]`).hostname.slice(1, -1);
    return bits === undefined ? ip : `${ip}/${Number(bits)}`;
  });
  return [...new Set(canonical)];
}

/** An API key's account, without its credit (read that from Credit: it changes with every send). */
export type ApiAccount = Omit<Account, 'credit_rials'>;

export type Authentication = { ok: true; account: ApiAccount } | { ok: false; code: 401 | 403 };

/**
 * Whose secret the stored key hashes are sealed with: this workspace's ('current'), none yet (a
 * database from before migration 0012, now 'sealed'), or another workspace's ('foreign': its keys
 * cannot be verified here).
 */
export type KeyHashState = 'current' | 'sealed' | 'foreign';

/**
 * Whether something of a domain above accounts still names a line (a send from it, a campaign
 * naming it as its sender): such a line keeps its history and cannot be deleted. Registered by
 * those domains at composition (registerLineUse), as accounts may not read their tables.
 */
export type LineUse = (line: Line) => boolean;

export class Accounts {
  private readonly byId;
  private readonly byKeyHash;
  private readonly lineByNumber;
  private readonly lineUses: LineUse[] = [];
  private readonly lineBusy: LineUse[] = [];
  private readonly upstreamStmt;
  private keyKept: KeyKept = () => false;
  /** API keys' accounts (by the key as given) and lines (by account and number): read-cache.ts. */
  private readonly keyAccounts: ReadCache<ApiAccount>;
  private readonly lineRows: ReadCache<LineRow>;
  /** findLine's lines of simulator lines, by their cached row. */
  private readonly simulatedLines = new WeakMap<LineRow, Line>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly credit: Credit,
    private readonly hasher: KeyHasher,
  ) {
    this.keyAccounts = new ReadCache(db);
    this.lineRows = new ReadCache(db);
    this.byId = db.prepare<[number], AccountRow>('SELECT * FROM accounts WHERE id = ?');
    this.byKeyHash = db.prepare<[string], AccountRow>(
      `SELECT a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    );
    this.upstreamStmt = db.prepare<[], LineRow>("SELECT * FROM lines WHERE gateway != 'simulator' ORDER BY id");
    this.lineByNumber = db.prepare<[number, string], LineRow>(
      'SELECT * FROM lines WHERE account_id = ? AND number = ?',
    );
  }

  // ---- accounts

  /**
   * Opens an account: its name is unique (400), and its opening credit is a top-up in the ledger,
   * written in the same transaction.
   */
  create(input: {
    name: string;
    active?: boolean | undefined;
    credit_rials?: number | undefined;
    ip_allowlist?: string[] | undefined;
    note?: string | undefined;
  }): Account {
    return this.db.transaction(() => {
      this.assertNameFree(input.name);
      const info = this.db
        .prepare('INSERT INTO accounts (name, active, ip_allowlist, created_at) VALUES (?, ?, ?, ?)')
        .run(
          input.name,
          input.active === false ? 0 : 1,
          JSON.stringify(canonicalAllowlist(input.ip_allowlist ?? [])),
          this.clock.now(),
        );
      const id = Number(info.lastInsertRowid);
      if (input.credit_rials) this.credit.adjust(id, input.credit_rials, input.note ?? 'opening credit');
      return this.get(id);
    })();
  }

  private assertNameFree(name: string, except?: number): void {
    const other = this.findByName(name);
    if (other && other.id !== except)
      throw new ServiceError(ApiCode.BadRequest, `an account named ${name} exists`, 'account_name_taken');
  }

  get(id: number): Account {
    const row = this.byId.get(id);
    if (!row) throw new ServiceError(ApiCode.NotFound, `account ${id}`);
    return toAccount(row);
  }

  find(id: number): Account | undefined {
    const row = this.byId.get(id);
    return row ? toAccount(row) : undefined;
  }

  findByName(name: string): Account | undefined {
    const row = this.db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE name = ?').get(name);
    return row ? toAccount(row) : undefined;
  }

  list(): Account[] {
    return this.db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY id').all().map(toAccount);
  }

  update(
    id: number,
    changes: { name?: string | undefined; active?: boolean | undefined; ip_allowlist?: string[] | undefined },
  ): Account {
    const current = this.get(id);
    if (changes.name) this.assertNameFree(changes.name, id);
    const allowlist = changes.ip_allowlist ? canonicalAllowlist(changes.ip_allowlist) : current.ip_allowlist;
    this.db
      .prepare('UPDATE accounts SET name = ?, active = ?, ip_allowlist = ? WHERE id = ?')
      .run(changes.name ?? current.name, (changes.active ?? current.active) ? 1 : 0, JSON.stringify(allowlist), id);
    this.changed();
    return this.get(id);
  }

  /** The zone an account's local times are read in (campaign quiet hours); Asia/Tehran unless set. */
  timeZone(id: number): string {
    this.get(id);
    return this.db.prepare<[number], string>('SELECT time_zone FROM accounts WHERE id = ?').pluck().get(id)!;
  }

  /** Sets the account's time zone: an IANA name (Asia/Tehran, Europe/Berlin), else 400. */
  setTimeZone(id: number, zone: string): void {
    this.get(id);
    if (!isTimeZone(zone)) throw new ServiceError(ApiCode.BadRequest, `unknown time zone ${zone}`);
    this.db.prepare('UPDATE accounts SET time_zone = ? WHERE id = ?').run(zone, id);
    this.changed();
  }

  // ---- API keys

  /** Creates a key and returns it in clear: the only time it is ever shown. */
  createApiKey(
    accountId: number,
    label = '',
    key = 'chp_' + randomBytes(24).toString('base64url'),
  ): {
    key: string;
    info: ApiKeyInfo;
  } {
    this.get(accountId);
    const info = this.db
      .prepare('INSERT INTO api_keys (account_id, key_hash, hint, label, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(accountId, this.hasher.hash(key), key.slice(-4), label, this.clock.now());
    this.changed();
    return { key, info: this.apiKey(Number(info.lastInsertRowid)) };
  }

  /** Adds a key given in clear (seed files) unless it is already known; true when added. */
  ensureApiKey(accountId: number, key: string, label = 'seed'): boolean {
    const existing = this.db
      .prepare<[string], { account_id: number }>('SELECT account_id FROM api_keys WHERE key_hash = ?')
      .get(this.hasher.hash(key));
    if (existing) return false;
    this.createApiKey(accountId, label, key);
    return true;
  }

  /** The stored form of a key given in clear (the email relay's seeded keys are kept the same way). */
  hashKey(key: string): string {
    return this.hasher.hash(key);
  }

  /**
   * Brings the stored key hashes to this workspace's secret, right after the migrations (at open
   * and after a restore). Plain SHA-256 digests of a database from before 0012 are sealed, which
   * keeps their keys working. Hashes sealed with another workspace's secret (a database or backup
   * brought from elsewhere) cannot be: at open they are left as they are (keys answer 403; the
   * workspace's own secret.key put back makes them work again), and on a restore, which the user
   * asked for, the keys are revoked, so Settings shows them as revoked instead of as working ones,
   * and the secret is adopted; the restore's result counts them.
   */
  adoptKeyHashes(onForeign: 'keep' | 'revoke'): { state: KeyHashState; revoked: number } {
    return this.db.transaction(() => {
      this.changed();
      const fingerprint = this.db
        .prepare<[], string | null>('SELECT secret_fingerprint FROM api_key_hashing WHERE id = 1')
        .pluck()
        .get();
      if (fingerprint === this.hasher.fingerprint) return { state: 'current' as const, revoked: 0 };
      const adopt = () =>
        this.db.prepare('UPDATE api_key_hashing SET secret_fingerprint = ? WHERE id = 1').run(this.hasher.fingerprint);
      if (fingerprint === null || fingerprint === undefined) {
        const rows = this.db.prepare<[], { id: number; key_hash: string }>('SELECT id, key_hash FROM api_keys').all();
        const update = this.db.prepare('UPDATE api_keys SET key_hash = ? WHERE id = ?');
        for (const row of rows) update.run(this.hasher.seal(row.key_hash), row.id);
        adopt();
        return { state: 'sealed' as const, revoked: 0 };
      }
      if (onForeign === 'keep') return { state: 'foreign' as const, revoked: 0 };
      const revoked = this.db
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL')
        .run(this.clock.now()).changes;
      adopt();
      return { state: 'foreign' as const, revoked };
    })();
  }

  apiKey(id: number): ApiKeyInfo {
    const row = this.db
      .prepare<[number], ApiKeyInfo>(
        'SELECT id, account_id, hint, label, created_at, revoked_at FROM api_keys WHERE id = ?',
      )
      .get(id);
    if (!row) throw new ServiceError(ApiCode.NotFound, `api key ${id}`);
    return row;
  }

  listApiKeys(accountId: number): ApiKeyInfo[] {
    return this.db
      .prepare<[number], ApiKeyInfo>(
        'SELECT id, account_id, hint, label, created_at, revoked_at FROM api_keys WHERE account_id = ? ORDER BY id',
      )
      .all(accountId);
  }

  revokeApiKey(id: number): ApiKeyInfo {
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(this.clock.now(), id);
    this.changed();
    return this.apiKey(id);
  }

  /** Spec 5 rule 2: an unknown or revoked key is 403, a known key of an inactive account 401. */
  authenticate(key: string | undefined): Authentication {
    if (!key) return { ok: false, code: 403 };
    const account = this.keyAccounts.get(key, () => {
      const row = this.byKeyHash.get(this.hasher.hash(key));
      if (!row) return undefined;
      const { credit_rials: _credit, ...account } = toAccount(row);
      return account;
    });
    if (!account) return { ok: false, code: 403 };
    if (!account.active) return { ok: false, code: 401 };
    return { ok: true, account };
  }

  /** The database was replaced under the connection (a restore): nothing read before holds. */
  reload(): void {
    this.changed();
  }

  /** Accounts, keys or lines were written: what the caches hold goes. */
  private changed(): void {
    this.keyAccounts.changed();
    this.lineRows.changed();
  }

  // ---- lines

  /**
   * Creates or updates the line with this number (seed files, Settings' permission switches). A
   * new line is stored normalized and must have its provider's form (shared/lines.ts); an existing
   * one keeps the number it was stored with, so a line kept from before the rule stays usable.
   */
  upsertLine(
    accountId: number,
    input: { number: string; provider: Provider; permissions: readonly LinePermission[]; active?: boolean },
  ): Line {
    this.get(accountId);
    const existing = this.typedLine(accountId, input.number);
    const number = existing?.number ?? normalizeLineNumber(input.number);
    if (!existing) {
      // Numbers are unique across accounts, in any digits (a line may be stored in Persian ones).
      const owner = this.db
        .prepare<[], { account_id: number; number: string }>('SELECT account_id, number FROM lines')
        .all()
        .find((line) => toAsciiDigits(line.number) === number);
      if (owner && owner.account_id !== accountId)
        throw new ServiceError(ApiCode.BadRequest, `line ${number} belongs to another account`, 'line_taken');
    }
    if (!existing || existing.provider !== input.provider) {
      const fault = lineNumberFault(number, input.provider);
      if (fault !== null) throw new ServiceError(ApiCode.BadRequest, `${number}: ${fault}`, fault);
    }
    const api = input.permissions.includes('can_send_api_campaign') ? 1 : 0;
    const panel = input.permissions.includes('can_send_panel_campaign') ? 1 : 0;
    this.db
      .prepare(
        `INSERT INTO lines (account_id, number, provider, can_send_api_campaign, can_send_panel_campaign, active, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(number) DO UPDATE SET provider = excluded.provider,
           can_send_api_campaign = excluded.can_send_api_campaign,
           can_send_panel_campaign = excluded.can_send_panel_campaign, active = excluded.active`,
      )
      .run(accountId, number, input.provider, api, panel, input.active === false ? 0 : 1, this.clock.now());
    this.changed();
    return this.findLine(accountId, number)!;
  }

  /** A new line (Settings' add form): as upsertLine, but a number the account has already is refused. */
  addLine(
    accountId: number,
    input: { number: string; provider: Provider; permissions: readonly LinePermission[]; active?: boolean },
  ): Line {
    const existing = this.typedLine(accountId, input.number);
    if (existing) throw new ServiceError(ApiCode.BadRequest, `line ${existing.number} exists`, 'line_exists');
    return this.upsertLine(accountId, input);
  }

  /**
   * The account's line by exactly this number: the API's `sender` must equal it (spec 4.1). Numbers
   * are stored in ASCII digits (normalizeLineNumber; migration 0011 rewrote older ones), so a
   * sender written in Persian digits is not the line, as the spec's letter says.
   */
  findLine(accountId: number, number: string): Line | undefined {
    // The row is kept, not the line: whether its key is kept is the secrets store's, asked each time.
    const row = this.lineRows.get(`${accountId}\u0000${number}`, () => this.lineByNumber.get(accountId, number));
    if (!row) return undefined;
    if (isUpstream(row.gateway)) return toLine(row, this.keyKept);
    // A simulator line has no key to ask about: its line is built once per cached row (a fresh
    // row, after any write, builds it again), frozen, as every one-message send reads it.
    let line = this.simulatedLines.get(row);
    if (line === undefined) this.simulatedLines.set(row, (line = frozen(toLine(row, this.keyKept))));
    return line;
  }

  /**
   * The line a user or a program means by what they typed (a form, a v1 parameter, a template's
   * line): as typed, else in its stored form ("3000 1111", Persian digits).
   */
  typedLine(accountId: number, typed: string): Line | undefined {
    return this.findLine(accountId, typed) ?? this.findLine(accountId, normalizeLineNumber(typed));
  }

  listLines(accountId: number): Line[] {
    return this.db
      .prepare<[number], LineRow>('SELECT * FROM lines WHERE account_id = ? ORDER BY id')
      .all(accountId)
      .map((row) => toLine(row, this.keyKept));
  }

  /**
   * The line a send that names none goes out on (a version 1 send without a default sender, a
   * verify template without its own line): the account's first SMS line that may send for `origin`.
   */
  firstSmsLine(accountId: number, origin: Origin): Line | undefined {
    return this.listLines(accountId).find((line) => line.provider === 'sms' && senderLineFault(line, origin) === null);
  }

  private knownLine(accountId: number, number: string): Line {
    const line = this.typedLine(accountId, number);
    if (!line) throw new ServiceError(ApiCode.NotFound, `line ${number}`, 'line_not_found');
    return line;
  }

  /** Lines with sends keep their history: deactivated, not deleted; the line as it is now (404 when absent). */
  removeLine(accountId: number, number: string): Line {
    const line = this.knownLine(accountId, number);
    this.db.prepare('UPDATE lines SET active = 0 WHERE id = ?').run(line.id);
    this.changed();
    return this.findLine(accountId, line.number)!;
  }

  /**
   * Adds a check of whether a line is in use (deleteLine refuses a line any check names): the
   * domains that keep a line's history (messaging's sends, campaigns) register theirs at composition.
   */
  registerLineUse(check: LineUse): void {
    this.lineUses.push(check);
  }

  /**
   * Deletes a line that never sent and that no campaign names (a typo, a line added by mistake);
   * one with history is refused (`line_has_messages`): deactivate it instead.
   */
  deleteLine(accountId: number, number: string): void {
    const line = this.knownLine(accountId, number);
    this.db.transaction(() => {
      // Every registered check is asked, inside the transaction, so the answer holds at the delete.
      if (this.lineUses.some((inUse) => inUse(line)))
        throw new ServiceError(ApiCode.BadRequest, `line ${line.number} has history`, 'line_has_messages');
      this.db.prepare('DELETE FROM lines WHERE id = ?').run(line.id);
      this.changed();
    })();
  }

  /** The line by its id, whoever owns it (the carriers' reads), or undefined. */
  lineById(lineId: number): Line | undefined {
    const row = this.db.prepare<[number], LineRow>('SELECT * FROM lines WHERE id = ?').get(lineId);
    return row ? toLine(row, this.keyKept) : undefined;
  }

  /** Every line whose gateway is a provider account (the upstream carrier's lines). */
  upstreamLines(): Line[] {
    return this.upstreamStmt.all().map((row) => toLine(row, this.keyKept));
  }

  /** Says whether a line's provider key is kept (the core gives the secrets store's answer). */
  useKeyStore(keyKept: KeyKept): void {
    this.keyKept = keyKept;
  }

  /**
   * Adds a check of whether a line has messages on their way (queued, scheduled, with a carrier):
   * such a line keeps its gateway until they are final. Registered by messaging at composition.
   */
  registerLineBusy(check: LineUse): void {
    this.lineBusy.push(check);
  }

  /**
   * Sets who delivers a line's messages (Settings → Lines, seed files). Switching to another gateway
   * is refused while the line has messages on their way (`gateway_in_flight`). The key goes to
   * `storeKey` (the secrets store) and never into the database; another base address forgets the
   * kept key, as it was given for the old one. Returns the line and what to do with its key.
   */
  setGateway(
    accountId: number,
    input: Omit<GatewayInput, 'account_id'>,
  ): { line: Line; key: 'keep' | 'forget' | { set: string } } {
    const line = this.knownLine(accountId, input.number);
    const kind = input.kind;
    if (!GATEWAYS[kind].providers.includes(line.provider))
      throw new ServiceError(
        ApiCode.BadRequest,
        `${kind} does not carry ${line.provider} lines`,
        'gateway_provider_mismatch',
      );
    // Absent keeps what the line has (for the same gateway); '' means the provider's own.
    const same = kind === line.gateway.kind;
    let baseUrl = !isUpstream(kind)
      ? null
      : input.base_url === undefined
        ? same
          ? line.gateway.base_url
          : null
        : input.base_url === ''
          ? null
          : kind === 'http-gateway'
            ? input.base_url
            : canonicalBaseUrl(input.base_url);
    if (isUpstream(kind) && baseUrl === null && GATEWAYS[kind].defaultBaseUrl === null)
      throw new ServiceError(ApiCode.BadRequest, 'a base address is needed', 'gateway_base_url_invalid');
    // An HTTP gateway's request is checked as a whole: its address and body hold the placeholders.
    let http: HttpGatewayOptions | null = null;
    if (kind === 'http-gateway') {
      const checked = canonicalHttpGateway(
        baseUrl!,
        input.http ?? (same ? line.gateway.http : null) ?? HttpGatewayOptionsSchema.parse({}),
      );
      baseUrl = checked.template;
      http = checked.options;
    }
    const sender = !isUpstream(kind)
      ? null
      : input.sender === undefined
        ? same
          ? line.gateway.sender
          : null
        : input.sender === ''
          ? null
          : normalizeLineNumber(input.sender);
    const rate = input.rate_per_second ?? line.gateway.rate_per_second ?? DEFAULT_RATE_PER_SECOND;
    return this.db.transaction(() => {
      if (kind !== line.gateway.kind && this.lineBusy.some((busy) => busy(line)))
        throw new ServiceError(
          ApiCode.BadRequest,
          `line ${line.number} has messages on their way`,
          'gateway_in_flight',
        );
      this.db
        .prepare(
          'UPDATE lines SET gateway = ?, gateway_base_url = ?, gateway_sender = ?, gateway_rate = ?, gateway_options = ? WHERE id = ?',
        )
        .run(kind, baseUrl, sender, rate, http && JSON.stringify(http), line.id);
      this.changed();
      const moved = kind !== line.gateway.kind || baseUrl !== line.gateway.base_url;
      const key: 'keep' | 'forget' | { set: string } =
        !isUpstream(kind) || input.api_key === ''
          ? 'forget'
          : input.api_key !== undefined
            ? { set: input.api_key }
            : moved
              ? 'forget'
              : 'keep';
      return { line: this.findLine(accountId, line.number)!, key };
    })();
  }

  /** The line an account may send from for this origin (shared/lines.ts); any fault is 412. */
  senderLine(accountId: number, number: string, origin: Origin): Line {
    const line = this.findLine(accountId, number);
    const fault = senderLineFault(line, origin);
    if (fault !== null) throw new ServiceError(ApiCode.InvalidSender, `${number}: ${fault}`);
    return line!;
  }
}

/**
 * The time zone of the account whose id is `accountId` (an SQL expression), as a scalar subquery
 * (NULL for no such account): for a read of another domain that shows its rows in the account's
 * local time within its one statement.
 */
export function accountTimeZoneSql(accountId: string): string {
  return `(SELECT time_zone FROM accounts WHERE id = ${accountId})`;
}

/**
 * The ids of the accounts that exist, as a subquery for `account_id IN (…)`: for a read of another
 * domain over every account (its aggregates, its message states), which then walks its index led
 * by account_id one account at a time and counts only accounts that exist.
 */
export function accountIdsSql(): string {
  return '(SELECT id FROM accounts)';
}

/**
 * Every account's id and name, as a SELECT (of the main database: a file attached beside it, as a
 * retention archive, may have an `accounts` table of its own), for a copy another domain keeps.
 */
export function accountNamesSql(): string {
  return 'SELECT id, name FROM main.accounts';
}
