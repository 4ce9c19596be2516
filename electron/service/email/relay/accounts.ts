// The provider's accounts and their keys (spec 5's email relay rows): a key is stored only as its
// keyed hash and names the operations it may do. A missing or unknown key is 401; a known key of
// another account, or of an account the path does not name, or one without the operation, is 403.
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import { refusal, type RelayAnswer } from './answers';

export const RELAY_OPERATIONS = ['send', 'read', 'cancel'] as const;
export type RelayOperation = (typeof RELAY_OPERATIONS)[number];

/** The app's own account: its in-process transport needs no key. */
export const LOCAL_ACCOUNT_ID = 'local';

export interface RelayKeySpec {
  /** In clear; only its hash is kept. */
  key: string;
  /** What it may do; all three when absent. */
  operations?: readonly RelayOperation[];
}

function bearerKey(header: string): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

export class RelayAccounts {
  private readonly exists;
  private readonly insert;
  private readonly setSandbox;
  private readonly keyOwner;
  private readonly upsertKey;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly hashKey: (key: string) => string,
  ) {
    this.exists = db.prepare<[string], { id: string }>('SELECT id FROM email_relay_accounts WHERE id = ?');
    this.insert = db.prepare('INSERT OR IGNORE INTO email_relay_accounts (id, sandbox, created_at) VALUES (?, ?, ?)');
    this.setSandbox = db.prepare('UPDATE email_relay_accounts SET sandbox = ? WHERE id = ?');
    this.keyOwner = db.prepare<[string], { account_id: string; operations: string }>(
      'SELECT account_id, operations FROM email_relay_keys WHERE key_hash = ?',
    );
    this.upsertKey = db.prepare(
      `INSERT INTO email_relay_keys (key_hash, account_id, operations) VALUES (?, ?, ?)
       ON CONFLICT (key_hash) DO UPDATE SET account_id = excluded.account_id, operations = excluded.operations`,
    );
  }

  has(accountId: string): boolean {
    return this.exists.get(accountId) !== undefined;
  }

  /** The app's own account, made on first use: sandbox on, no keys. */
  local(): string {
    if (!this.has(LOCAL_ACCOUNT_ID)) this.insert.run(LOCAL_ACCOUNT_ID, 1, this.clock.now());
    return LOCAL_ACCOUNT_ID;
  }

  /** The seed's account: created or updated, its keys added (a key seen again keeps one row). */
  upsert(spec: { accountId: string; sandbox: boolean; keys: ReadonlyArray<string | RelayKeySpec> }): void {
    this.db.transaction(() => {
      this.insert.run(spec.accountId, spec.sandbox ? 1 : 0, this.clock.now());
      this.setSandbox.run(spec.sandbox ? 1 : 0, spec.accountId);
      for (const entry of spec.keys) {
        const { key, operations } = typeof entry === 'string' ? { key: entry, operations: undefined } : entry;
        const allowed = RELAY_OPERATIONS.filter((operation) => (operations ?? RELAY_OPERATIONS).includes(operation));
        this.upsertKey.run(this.hashKey(key), spec.accountId, allowed.join(','));
      }
    })();
  }

  /** null: the caller may do `operation` on `accountId`; else the 401 or 403 to answer. */
  authenticate(accountId: string, authorization: string | undefined, operation: RelayOperation): RelayAnswer | null {
    if (!authorization || authorization.trim() === '')
      return refusal(401, 'missing API key: send the header Authorization: Bearer <key>');
    const key = bearerKey(authorization);
    if (!key) return refusal(401, 'malformed Authorization header: expected Bearer <key>');
    const owner = this.keyOwner.get(this.hashKey(key));
    if (!owner) return refusal(401, 'invalid API key');
    if (owner.account_id !== accountId)
      return refusal(403, `this API key has no access to account ${JSON.stringify(accountId)}`);
    if (!owner.operations.split(',').includes(operation))
      return refusal(403, `this API key may not ${operation === 'read' ? 'read messages' : `${operation} messages`}`);
    return null;
  }
}
