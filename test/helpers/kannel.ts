// A real Kannel for the tests (Debian's `kannel` and `kannel-extras`, installed by .ci/run): its
// bearerbox, an smsbox taking `sendsms` requests, and a fake SMSC (fakesmsc) that takes every
// message, on free loopback ports in a temporary folder; stopped by the test. Kannel is a gateway
// we did not write: what Chapar's HTTP gateway client must work with as it is. With `smsc = fake`,
// bearerbox reports every message the fake SMSC took as delivered (type 1) to its dlr-url.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { tempDir } from './server';

export const KANNEL_USER = 'chapar';
export const KANNEL_PASSWORD = 'kannel-test-pass';
const FAKESMSC = '/usr/lib/kannel/test/fakesmsc';

export interface Kannel {
  /** The sendsms address: http://127.0.0.1:PORT/cgi-bin/sendsms */
  sendsms: string;
  /** Messages the fake SMSC received (one line each in its output). */
  received(): string[];
  stop(): Promise<void>;
}

/** Whether Kannel is installed here (the tests need it; .ci/run installs it). */
export function kannelInstalled(): boolean {
  return ['/usr/sbin/bearerbox', '/usr/sbin/smsbox', FAKESMSC].every((file) => fs.existsSync(file));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

async function untilListening(port: number, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > end) throw new Error(`Kannel: nothing listens on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startKannel(): Promise<Kannel> {
  const dir = tempDir('chapar-kannel-');
  const [admin, box, smsc, sendsms] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const config = `
group = core
admin-port = ${admin}
admin-interface = 127.0.0.1
admin-password = kannel-test-admin
admin-allow-ip = "127.0.0.1"
smsbox-port = ${box}
smsbox-interface = 127.0.0.1
box-allow-ip = "127.0.0.1"
log-file = "${dir}/bearerbox.log"
log-level = 2
store-type = file
store-location = "${dir}/kannel.store"
dlr-storage = internal

group = smsc
smsc = fake
smsc-id = fake1
our-host = 127.0.0.1
port = ${smsc}
connect-allow-ip = "127.0.0.1"

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${box}
sendsms-port = ${sendsms}
sendsms-interface = 127.0.0.1
log-file = "${dir}/smsbox.log"
log-level = 2
max-pending-requests = 512
immediate-sendsms-reply = false
# A report callback that finds Chapar down (killed, restarting) is tried again, a second apart.
http-request-retry = 60
http-queue-delay = 1

group = sendsms-user
username = ${KANNEL_USER}
password = ${KANNEL_PASSWORD}
user-allow-ip = "127.0.0.1"
user-deny-ip = "*.*.*.*"
max-messages = 10
concatenation = true

group = sms-service
keyword = default
text = "No service specified"
`;
  const conf = path.join(dir, 'kannel.conf');
  fs.writeFileSync(conf, config);
  const children: ChildProcess[] = [];
  const start = (command: string, args: string[], output: string) => {
    const out = fs.openSync(path.join(dir, output), 'w');
    const child = spawn(command, args, { stdio: ['ignore', out, out] });
    fs.closeSync(out);
    children.push(child);
    return child;
  };
  start('/usr/sbin/bearerbox', ['-v', '2', conf], 'bearerbox.out');
  await untilListening(smsc);
  // -m 0: sends nothing itself; prints every message it is given.
  start(FAKESMSC, ['-H', '127.0.0.1', '-r', String(smsc), '-m', '0', '100 200 text nop'], 'fakesmsc.out');
  start('/usr/sbin/smsbox', ['-v', '2', conf], 'smsbox.out');
  await untilListening(sendsms);
  return {
    sendsms: `http://127.0.0.1:${sendsms}/cgi-bin/sendsms`,
    received: () =>
      fs
        .readFileSync(path.join(dir, 'fakesmsc.out'), 'utf8')
        .split('\n')
        .filter((line) => /Got message/i.test(line)),
    async stop() {
      for (const child of children.reverse()) {
        if (child.exitCode !== null || child.signalCode !== null) continue;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
