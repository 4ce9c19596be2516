// Finds and launches a Chromium for the end-to-end tests: CHAPAR_CHROMIUM, then the system's
// /usr/bin/chromium, then playwright's own download. None found is a failure that says how
// to install one, never a silent skip.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright';

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const INSTALL_HINT =
  'No Chromium found for the end-to-end tests. Install one: `apt-get install -y chromium` (Debian/Ubuntu), ' +
  'or `npx playwright install chromium`, or point CHAPAR_CHROMIUM at a Chromium/Chrome binary.';

export function findChromium(): string {
  const fromEnv = process.env['CHAPAR_CHROMIUM'];
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`CHAPAR_CHROMIUM=${fromEnv} does not exist. ${INSTALL_HINT}`);
    return fromEnv;
  }
  for (const candidate of SYSTEM_PATHS) if (fs.existsSync(candidate)) return candidate;
  let own: string | undefined;
  try {
    own = chromium.executablePath();
  } catch {
    own = undefined;
  }
  if (own && fs.existsSync(own)) return own;
  throw new Error(INSTALL_HINT);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
