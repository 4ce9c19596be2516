// The desktop app's secret store (service/secrets.ts): upstream secrets (the email provider's API
// key, an SMTP password) encrypted with Electron's safeStorage (the OS keychain: DPAPI, Keychain,
// libsecret/kwallet); only the ciphertext is written, to secrets.json in the app's user data folder
// (mode 0600). Where the OS offers no encryption the workspace's 0600 file is used instead, and the
// Settings page says so (`kind: 'file'`), rather than refusing to keep a connection at all.
import fs from 'node:fs';
import path from 'node:path';
import { app, safeStorage } from 'electron';
import { fileSecretStore, type SecretStore } from '../service/secrets';

function secretsFile(): string {
  return path.join(app.getPath('userData'), 'secrets.json');
}

function readAll(): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(secretsFile(), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

function writeAll(secrets: Record<string, string>): void {
  const file = secretsFile();
  const partial = `${file}.part`;
  fs.writeFileSync(partial, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  fs.renameSync(partial, file);
}

/** The keychain-backed store, or the workspace's 0600 file where the OS offers no encryption. */
export function desktopSecretStore(dataDir: string): SecretStore {
  if (!safeStorage.isEncryptionAvailable()) return fileSecretStore(dataDir);
  return {
    kind: 'keychain',
    get(name) {
      const stored = readAll()[name];
      if (stored === undefined) return null;
      try {
        return safeStorage.decryptString(Buffer.from(stored, 'base64'));
      } catch {
        // Written under another OS user or keychain: as good as absent.
        return null;
      }
    },
    set(name, value) {
      writeAll({ ...readAll(), [name]: safeStorage.encryptString(value).toString('base64') });
    },
    delete(name) {
      const secrets = readAll();
      if (!(name in secrets)) return;
      delete secrets[name];
      writeAll(secrets);
    },
  };
}
