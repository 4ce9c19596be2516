// Secrets of upstream connections (the email provider's API key, an SMTP password): kept by the
// process hosting the core, never in the database, never sent to the window. The desktop app keeps
// them encrypted with the OS keychain (electron/main/secrets.ts); `serve` keeps them in a file of
// the workspace only its user can read (mode 0600), written whole and renamed into place.
import fs from 'node:fs';
import path from 'node:path';

export interface SecretStore {
  /** Where the secrets live, as the Settings page tells the user. */
  readonly kind: 'keychain' | 'file';
  get(name: string): string | null;
  set(name: string, value: string): void;
  delete(name: string): void;
}

export const SECRETS_FILE = 'secrets.json';

export function fileSecretStore(dataDir: string): SecretStore {
  const file = path.join(dataDir, SECRETS_FILE);
  const readAll = (): Record<string, string> => {
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  const writeAll = (secrets: Record<string, string>) => {
    const partial = `${file}.part`;
    fs.writeFileSync(partial, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    // The mode of a file that existed before is not changed by writeFileSync's option.
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, file);
  };
  return {
    kind: 'file',
    get: (name) => {
      const value = readAll()[name];
      return typeof value === 'string' ? value : null;
    },
    set: (name, value) => writeAll({ ...readAll(), [name]: value }),
    delete: (name) => {
      const secrets = readAll();
      if (!(name in secrets)) return;
      delete secrets[name];
      writeAll(secrets);
    },
  };
}

/**
 * A store whose answers are kept in memory: every write goes through this process's store, so what
 * it read once stays true until it writes. The carriers ask whether a line's key is kept on every
 * scheduler round; the keychain would decrypt each time.
 */
export function cachedSecretStore(store: SecretStore): SecretStore {
  const known = new Map<string, string | null>();
  return {
    kind: store.kind,
    get: (name) => {
      if (!known.has(name)) known.set(name, store.get(name));
      return known.get(name)!;
    },
    set: (name, value) => {
      store.set(name, value);
      known.set(name, value);
    },
    delete: (name) => {
      store.delete(name);
      known.set(name, null);
    },
  };
}
