// How API keys are kept: never in clear, as HMAC-SHA256(workspace secret, SHA-256(key)). The secret
// is a file beside the database (secret.key, readable by the user only), never inside it, so a
// stolen database or backup alone gives nothing to test guessed keys against. Hashing the key's
// SHA-256 instead of the key itself lets a database from before the secret keep its keys: its
// stored SHA-256 digests are sealed with the secret once, without knowing any key.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SECRET_FILE = 'secret.key';
/** Shorter keys in a seed file are warned about: a short key can be guessed over the API itself. */
export const MIN_SEED_KEY_LENGTH = 20;

const SECRET_BYTES = 32;

/** The plain digest databases before migration 0012 stored; now only the input of the seal. */
export function sha256Hex(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export class KeyHasher {
  /** Names the secret without revealing it: stored in the database to tell whose hashes it holds. */
  readonly fingerprint: string;

  constructor(private readonly secret: Buffer) {
    this.fingerprint = createHmac('sha256', secret)
      .update('chapar api key secret fingerprint')
      .digest('hex')
      .slice(0, 16);
  }

  /** The stored form of a key given in clear. */
  hash(key: string): string {
    return this.seal(sha256Hex(key));
  }

  /** The stored form of a key known only by its old plain SHA-256 digest. */
  seal(sha256: string): string {
    return createHmac('sha256', this.secret).update(sha256).digest('hex');
  }
}

/**
 * The workspace's secret: read from <dataDir>/secret.key, created (mode 0600) on the first open.
 * It is written whole to a temporary file and linked into place, so no reader ever sees half of
 * it and, of two processes opening the workspace at once, both end with the same secret. A file
 * of another shape is refused rather than replaced, which would make every stored key unusable.
 */
export function workspaceSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, SECRET_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(draft, randomBytes(SECRET_BYTES).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A file system without hard links: a plain exclusive create of the same bytes.
      if (code !== 'EEXIST') copyUnlessThere(draft, file);
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  const text = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} is damaged: it does not hold a workspace secret`);
  return Buffer.from(text, 'hex');
}

function copyUnlessThere(from: string, to: string): void {
  try {
    fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
