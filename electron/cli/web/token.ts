// The web UI's access token and the browser sessions derived from it. The token belongs to the
// workspace: made once at random and kept in its secrets store, so a restart of `serve` on the same
// data prints the same address and the browsers signed in stay signed in (CHAPAR_WEB_TOKEN fixes
// it instead, for scripted runs). It opens the bridge as `Authorization: Bearer`; a browser trades
// it (the printed ?token= URL) for a session cookie that is not the token itself:
// `<issuedAt>.<nonce>.<HMAC(token, generation|issuedAt|nonce)>`, valid for SESSION_LIFETIME_MS
// (the nonce tells apart two browsers signed in at the same millisecond). Rotating the
// generation (Settings → "Sign out other browsers") ends every session issued before; the
// generation is kept in the workspace so a restart with the same token does not bring them back.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SecretStore } from '../../service/secrets';

export const SESSION_COOKIE = 'chapar_session';
/** A shop's PC stays signed in for a month; then the printed address signs it in again. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** Where the session generation is kept, in the data folder. */
export const SESSION_GENERATION_FILE = 'web-session';

/** The name of the workspace's web UI token in its secrets store. */
export const WEB_TOKEN_SECRET = 'web_ui_token';

/** The workspace's token: CHAPAR_WEB_TOKEN when set, else the one kept in `secrets` (made on the first start). */
export function workspaceToken(secrets: SecretStore): string {
  const fixed = process.env['CHAPAR_WEB_TOKEN'];
  if (fixed) return fixed;
  const kept = secrets.get(WEB_TOKEN_SECRET);
  if (kept && /^[\w-]{32}$/.test(kept)) return kept;
  const token = randomBytes(24).toString('base64url');
  secrets.set(WEB_TOKEN_SECRET, token);
  return token;
}

export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token from `Authorization: Bearer TOKEN`, when that is the token. */
export function bearerToken(authorization: string | undefined, token: string): boolean {
  return authorization?.startsWith('Bearer ') === true && sameToken(token, authorization.slice(7).trim());
}

export interface WebSessionOptions {
  token: string;
  /** The data folder, where the generation is kept; none: in memory only (tests). */
  dataDir?: string;
  lifetimeMs?: number;
  /** Wall time, not the core's clock: the end-to-end tests move that one by days. */
  now?: () => number;
}

export class WebSessions {
  readonly lifetimeMs: number;
  private readonly token: string;
  private readonly file: string | null;
  private readonly now: () => number;
  private generation: string;

  constructor(options: WebSessionOptions) {
    this.token = options.token;
    this.lifetimeMs = options.lifetimeMs ?? SESSION_LIFETIME_MS;
    this.now = options.now ?? Date.now;
    this.file = options.dataDir ? path.join(options.dataDir, SESSION_GENERATION_FILE) : null;
    this.generation = this.readGeneration() ?? this.writeGeneration();
  }

  /** A new session cookie's value. */
  issue(): string {
    const issuedAt = this.now();
    const nonce = randomBytes(9).toString('base64url');
    return `${issuedAt}.${nonce}.${this.sign(issuedAt, nonce)}`;
  }

  /** Whether a cookie's value is a session of this generation that has not expired. */
  valid(value: string | undefined): boolean {
    if (!value) return false;
    const match = /^(\d{1,16})\.([\w-]{12})\.([\w-]{43})$/.exec(value);
    if (!match) return false;
    const issuedAt = Number(match[1]);
    const age = this.now() - issuedAt;
    // A little slack for a clock set back; never a session from the future.
    if (age >= this.lifetimeMs || age < -60_000) return false;
    const expected = Buffer.from(this.sign(issuedAt, match[2]!));
    const given = Buffer.from(match[3]!);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Ends every session issued so far; the caller hands its browser a fresh one. */
  rotate(): void {
    this.generation = this.writeGeneration();
  }

  private sign(issuedAt: number, nonce: string): string {
    return createHmac('sha256', this.token).update(`${this.generation}|${issuedAt}|${nonce}`).digest('base64url');
  }

  private readGeneration(): string | null {
    if (!this.file) return null;
    try {
      const text = fs.readFileSync(this.file, 'utf8').trim();
      return /^[\w-]{16,}$/.test(text) ? text : null;
    } catch {
      return null;
    }
  }

  /** A random generation (a counter would start over if the file were lost, reviving old cookies). */
  private writeGeneration(): string {
    const generation = randomBytes(16).toString('base64url');
    if (this.file) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(`${this.file}.tmp`, `${generation}\n`);
      fs.renameSync(`${this.file}.tmp`, this.file);
    }
    return generation;
  }
}
