// Secrets of upstream connections (a provider account's API key, when the app is connected to a
// real provider: a later issue). They are encrypted with Electron's safeStorage (the OS keychain:
// DPAPI, Keychain, libsecret/kwallet) and only the ciphertext is written, to secrets.json in the
// app's user data folder. Where the OS offers no encryption the secret is refused rather than
// written in clear. Nothing uses this yet; the service core never sees where secrets live.
import fs from 'node:fs';
import path from 'node:path';
import { app, safeStorage } from 'electron';

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

export function secretsAvailable(): boolean {
  return safeStorage.isEncryptionAvailable();
}

export function setSecret(name: string, value: string): void {
  if (!secretsAvailable()) throw new Error('this system offers no encrypted storage; the secret was not saved');
  writeAll({ ...readAll(), [name]: safeStorage.encryptString(value).toString('base64') });
}

export function getSecret(name: string): string | null {
  const stored = readAll()[name];
  if (stored === undefined || !secretsAvailable()) return null;
  return safeStorage.decryptString(Buffer.from(stored, 'base64'));
}

export function deleteSecret(name: string): void {
  const secrets = readAll();
  if (!(name in secrets)) return;
  delete secrets[name];
  writeAll(secrets);
}
