// Whether Electron can run here, found without `require('electron')` (which would try to
// download a missing binary). Used by start.mjs and electron-native.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ELECTRON_DIR = path.join(ROOT, 'node_modules', 'electron');

export function electronVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(ELECTRON_DIR, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** The Electron executable, or null when the package or its binary is missing. */
export function electronBinary() {
  if (!fs.existsSync(path.join(ELECTRON_DIR, 'package.json'))) return null;
  const pathFile = path.join(ELECTRON_DIR, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const relative = fs.readFileSync(pathFile, 'utf8').trim();
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(ELECTRON_DIR, 'dist');
  const binary = path.join(dist, relative);
  return fs.existsSync(binary) ? binary : null;
}

/** Why the desktop app cannot run here, or null when it can. */
export function whyNoDesktop() {
  if (!electronBinary()) return 'no Electron binary (node_modules/electron has none; it could not be downloaded)';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set)';
  return null;
}
