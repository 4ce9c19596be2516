// Two `npm run serve` processes, as users run them, for real delivery tests: the provider (a Chapar
// playing the business's SMS provider: an account with the API key, a line, the IP allow-list and
// credit) and the app (a Chapar whose lines' gateways point at the provider, or at a fault proxy in
// front of it). Each has its own temporary workspace and seed file, listens on a free loopback port,
// opens its web bridge with a fixed token, and is stopped by SIGTERM (or SIGKILL, for crash tests)
// and started again on the same workspace. Their databases are read read-only, beside the process.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { Seed } from '../../electron/service/seed';
import type { UpstreamKind, UpstreamTiming } from '../../shared/gateways';
import { spawnServe, tempDir, type ServeProcess } from './server';

/** The business's API key at the provider: what the app's line keeps as its provider key. */
export const PROVIDER_KEY = 'k-provider-shop-0123456789';
/** The account's name at the provider. */
export const PROVIDER_ACCOUNT = 'shop-at-provider';
/** The line numbers the business has at the provider (each app line sends as one, so each is counted apart). */
export const PROVIDER_LINES = ['30005555', '30006666', '30007777', '30008888', '30009999'] as const;
export const PROVIDER_LINE = PROVIDER_LINES[0];
export const PROVIDER_LINE_2 = PROVIDER_LINES[1];
/** The app's own API key (its websites call the app). */
export const APP_KEY = 'k-shop-app-0123456789';
export const APP_ACCOUNT = 'shop';
/** The bridge token of both processes (`CHAPAR_WEB_TOKEN`). */
export const BRIDGE_TOKEN = 'two-services-bridge-token-0123456789';

/** Short timings for tests: the whole state machine runs in seconds. */
export const TEST_TIMING: Partial<UpstreamTiming> = {
  timeout_ms: 2_000,
  retry_base_ms: 200,
  retry_max_ms: 2_000,
  poll_first_ms: 500,
  poll_max_ms: 2_000,
  inbox_ms: 1_000,
  reconcile_ms: 500,
};

export class Service {
  private current: ServeProcess | null;
  /**
   * Every process started for this service, and a start under way: a test that failed or timed out
   * may leave one stopping or starting while `current` is null, and stopAll waits for it too.
   */
  private readonly started = new Set<ServeProcess>();
  private starting: Promise<ServeProcess> | null = null;
  /** The port it last listened on (a start on the same port comes back there). */
  private lastPort: number;
  constructor(
    readonly name: string,
    /** The temporary folder holding the workspace and the seed file. */
    readonly dir: string,
    readonly dataDir: string,
    readonly seedFile: string,
    process: ServeProcess,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.current = process;
    this.started.add(process);
    this.lastPort = Number(new URL(process.url).port);
  }

  static async start(name: string, seed: Seed, env: NodeJS.ProcessEnv = {}): Promise<Service> {
    const dir = tempDir(`chapar-two-services-${name}-`);
    const seedFile = path.join(dir, 'seed.json');
    fs.writeFileSync(seedFile, JSON.stringify(seed, null, 2));
    const dataDir = path.join(dir, 'data');
    const fullEnv = { CHAPAR_WEB_TOKEN: BRIDGE_TOKEN, ...env };
    const process = await spawnServe({ dataDir, seedFile, webUi: true, env: fullEnv });
    return new Service(name, dir, dataDir, seedFile, process, fullEnv);
  }

  get running(): boolean {
    return this.current !== null && this.current.child.exitCode === null && this.current.child.signalCode === null;
  }

  get url(): string {
    if (!this.current) throw new Error(`${this.name} is stopped`);
    return this.current.url;
  }

  /** The process id (crash tests name it in their messages). */
  get pid(): number | undefined {
    return this.current?.child.pid;
  }

  output(): string {
    return this.current?.output() ?? '';
  }

  /**
   * Stops the process: SIGTERM (a clean stop, exit code 0) or SIGKILL (a crash). A clean stop that
   * has not ended after `timeoutMs` is finished by SIGKILL (and answers null: not a clean exit).
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 20_000): Promise<number | null> {
    const process = this.current;
    if (!process) return null;
    this.current = null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
    const code = await Promise.race([process.stop(signal), late]);
    clearTimeout(timer);
    if (code !== 'late') return code;
    await process.stop('SIGKILL');
    return null;
  }

  /**
   * Starts it again on the same workspace with the same seed file: on a new port, or on its last
   * one (`samePort`), as the desktop app comes back where a gateway's reports are addressed.
   */
  async start(options: { samePort?: boolean } = {}): Promise<void> {
    if (this.current || this.starting) throw new Error(`${this.name} is running`);
    const port = options.samePort ? this.lastPort : undefined;
    this.starting = spawnServe({ dataDir: this.dataDir, seedFile: this.seedFile, webUi: true, env: this.env, port });
    try {
      this.current = await this.starting;
      this.started.add(this.current);
      this.lastPort = Number(new URL(this.current.url).port);
    } finally {
      this.starting = null;
    }
  }

  /**
   * Once a start under way has ended, kills (SIGKILL) every process of this service still running
   * and waits until each has exited: nothing of it writes into its workspace any more.
   */
  async end(): Promise<void> {
    await this.starting?.catch(() => undefined);
    this.current = null;
    await Promise.all([...this.started].map((process) => process.stop('SIGKILL')));
  }

  async restart(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const code = await this.stop(signal);
    await this.start();
    return code;
  }

  /** One IPC call through the web bridge; its value, or an error naming the refusal. */
  async invoke<T = any>(channel: string, input: unknown = null): Promise<T> {
    const response = await fetch(`${this.url}/bridge/invoke/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BRIDGE_TOKEN}` },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { ok: boolean; value?: T; error?: unknown };
    if (!body.ok) throw new Error(`${this.name} ${channel}: ${JSON.stringify(body.error)}`);
    return body.value as T;
  }

  /** Reads the workspace's database read-only (the process may be running, stopped or killed). */
  read<T>(use: (db: Database.Database) => T): T {
    const db = new Database(path.join(this.dataDir, 'chapar.db'), { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      return use(db);
    } finally {
      db.close();
    }
  }

  /** The id of an account by its name (read from the database). */
  accountId(name: string): number {
    const row = this.read((db) => db.prepare('SELECT id FROM accounts WHERE name = ?').get(name)) as
      { id: number } | undefined;
    if (!row) throw new Error(`${this.name}: no account ${name}`);
    return row.id;
  }
}

export interface ProviderOptions {
  /** The business's opening credit at the provider, rials. */
  credit_rials?: number;
  /** The provider's price of an SMS page, tomans (may differ from the app's: its cost then wins). */
  page_tomans?: number;
  /** The provider's own simulated delivery (how fast and how its messages end). */
  simulator?: Seed['simulator'];
}

/** The provider's seed: one account with the key, its lines allowed to send by API, 127.0.0.1 allowed. */
export function providerSeed(options: ProviderOptions = {}): Seed {
  return {
    accounts: [
      {
        name: PROVIDER_ACCOUNT,
        active: true,
        credit_rials: options.credit_rials ?? 1_000_000_000,
        api_keys: [PROVIDER_KEY],
        ip_allowlist: ['127.0.0.1', '::1'],
        lines: PROVIDER_LINES.map((number) => ({
          number,
          provider: 'sms' as const,
          permissions: ['can_send_api_campaign' as const, 'can_send_panel_campaign' as const],
        })),
      },
    ],
    pricing: { sms_page_tomans: options.page_tomans ?? 150, messenger_message_tomans: 50 },
    simulator: options.simulator ?? {
      seed: 11,
      handoff_ms: 50,
      delivery_ms: 150,
      outcomes: { '10': 0.85, '11': 0.08, '13': 0.03, '14': 0.04 },
      reply_share: 0,
    },
  };
}

export interface AppLine {
  /** The app's line number. */
  number: string;
  kind: UpstreamKind;
  /** What the line carries: SMS unless said (a Safir line carries Bale messages). */
  provider?: 'sms' | 'bale';
  /** The provider's address (the provider itself, or a fault proxy in front of it). */
  base_url: string;
  /** The line's number at the provider; PROVIDER_LINE unless given. */
  sender?: string;
  rate_per_second?: number;
  api_key?: string;
}

export interface AppOptions {
  lines: AppLine[];
  credit_rials?: number;
  page_tomans?: number;
  timing?: Partial<UpstreamTiming>;
}

/** The app's seed: the business's account with its key and lines whose gateways are the provider. */
export function appSeed(options: AppOptions): Seed {
  return {
    accounts: [
      {
        name: APP_ACCOUNT,
        active: true,
        credit_rials: options.credit_rials ?? 1_000_000_000,
        api_keys: [APP_KEY],
        ip_allowlist: ['127.0.0.1', '::1'],
        lines: options.lines.map((line) => ({
          number: line.number,
          provider: line.provider ?? ('sms' as const),
          permissions: ['can_send_api_campaign' as const, 'can_send_panel_campaign' as const],
          upstream: {
            kind: line.kind,
            base_url: line.base_url,
            api_key: line.api_key ?? PROVIDER_KEY,
            sender: line.sender ?? PROVIDER_LINE,
            rate_per_second: line.rate_per_second ?? 50,
          },
        })),
      },
    ],
    pricing: { sms_page_tomans: options.page_tomans ?? 150, messenger_message_tomans: 50 },
    upstream_timing: { ...TEST_TIMING, ...options.timing },
  };
}

export function startProvider(options: ProviderOptions = {}): Promise<Service> {
  return Service.start('provider', providerSeed(options));
}

export function startApp(options: AppOptions): Promise<Service> {
  return Service.start('app', appSeed(options));
}

/**
 * Stops every service given that still runs (SIGTERM, then SIGKILL if it hangs), waits until none
 * of its processes runs (one a failed test left stopping or starting included) and removes its
 * temporary folder; never throws.
 */
export async function stopAll(services: ReadonlyArray<Service | undefined>): Promise<void> {
  await Promise.all(
    services.map(async (service) => {
      if (!service) return;
      if (service.running) await service.stop('SIGTERM', 10_000);
      await service.end();
      // Every process writing into it has exited; the retries only cover the file system's own lag.
      fs.rmSync(service.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }),
  );
}

export interface LocalMessage {
  id: number;
  receptor: string;
  status: number;
  cost_rials: number;
  state: string | null;
  upstream_id: string | null;
  handover_cost: number | null;
  /** Our id of it at the provider (Kavenegar's localid). */
  local_id: string | null;
}

/** The app's messages with their hand-over records. */
export function appMessages(app: Service): LocalMessage[] {
  return app.read((db) => {
    // Our id at the provider (Kavenegar's localid): its own column where the app keeps one, else the message id.
    const columns = db.prepare('PRAGMA table_info(upstream_handovers)').all() as { name: string }[];
    const localId = columns.some((column) => column.name === 'local_id') ? 'h.local_id' : 'm.id';
    return db
      .prepare(
        `SELECT m.id, m.receptor, m.status, m.cost_rials, h.state, h.upstream_id, h.cost_rials AS handover_cost,
           CASE WHEN h.message_id IS NULL THEN NULL ELSE CAST(${localId} AS TEXT) END AS local_id
         FROM messages m LEFT JOIN upstream_handovers h ON h.message_id = m.id ORDER BY m.id`,
      )
      .all();
  }) as LocalMessage[];
}

export interface ProviderMessage {
  id: number;
  receptor: string;
  sender: string;
  status: number;
  cost_rials: number;
  local_id: string | null;
}

/** The provider's messages of the business's account (what it really took). */
export function providerMessages(provider: Service): ProviderMessage[] {
  return provider.read((db) =>
    db
      .prepare(
        `SELECT m.id, m.receptor, s.sender, m.status, m.cost_rials,
           (SELECT MIN(l.local_id) FROM local_ids l WHERE l.message_id = m.id) AS local_id
         FROM messages m JOIN sends s ON s.id = m.send_id JOIN accounts a ON a.id = m.account_id
         WHERE a.name = ? ORDER BY m.id`,
      )
      .all(PROVIDER_ACCOUNT),
  ) as ProviderMessage[];
}

/** Hand-over states of the app's messages, counted. */
export function handoverCounts(app: Service): Record<string, number> {
  const rows = app.read((db) =>
    db.prepare('SELECT state, COUNT(*) AS n FROM upstream_handovers GROUP BY state').all(),
  ) as { state: string; n: number }[];
  return Object.fromEntries(rows.map((row) => [row.state, row.n]));
}

/** Polls `read` until `done` holds, at `everyMs`, or fails after `timeoutMs` saying what it saw last. */
export async function until<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  everyMs = 250,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: not reached in ${timeoutMs} ms; last ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
