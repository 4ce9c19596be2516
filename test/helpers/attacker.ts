// Hostile HTTP clients for the hardening test and the bench's hostile case (the same attack, the
// test checking what the server does, the bench timing /health meanwhile).

/**
 * The attacker, in a process of its own so that only the server's work shares the test's event
 * loop: opens one connection per opening (in batches, so the listen backlog is never what refuses
 * them; the i-th of `count` is the (i mod n)-th of the n kinds), trickles a byte into each every
 * 300 ms (a tenth of them at a time), and reports as JSON lines: `{opened}` once all are open, then
 * `{open, closed, first}` every 100 ms (`first`: what the first connection was answered), until all
 * are closed. Run as `node -e ATTACKER port count JSON.stringify(kinds)`.
 */
export const ATTACKER = `
const net = require('node:net');
const [port, count, kindsJson] = process.argv.slice(1);
const kinds = JSON.parse(kindsJson);
const openings = Array.from({ length: Number(count) }, (_, i) => kinds[i % kinds.length]);
const sockets = [];
let closed = 0;
let first = '';
const report = (line) => process.stdout.write(JSON.stringify(line) + '\\n');
(async () => {
  for (let start = 0; start < openings.length; start += 250) {
    await Promise.all(openings.slice(start, start + 250).map((opening, i) => new Promise((resolve) => {
      const socket = net.createConnection({ host: '127.0.0.1', port: Number(port) }, () => {
        socket.write(opening.first);
        resolve();
      });
      socket.trickle = opening.trickle;
      socket.setEncoding('latin1');
      if (start + i === 0) socket.on('data', (chunk) => (first += chunk));
      socket.on('error', () => {});
      socket.on('close', () => closed++);
      sockets.push(socket);
    })));
  }
  report({ opened: sockets.length });
  let turn = 0;
  setInterval(() => {
    for (let i = turn++ % 10; i < sockets.length; i += 10)
      if (!sockets[i].destroyed && sockets[i].writable) sockets[i].write(sockets[i].trickle);
  }, 30);
  setInterval(() => {
    report({ open: sockets.length - closed, closed, first: first.split('\\r\\n')[0] });
    if (closed === sockets.length) process.exit(0);
  }, 100);
})();
`;

/** What the attacker opens: slow headers, and slow bodies to each kind of route (`key`: an API key). */
export function slowOpenings(key: string): Array<{ first: string; trickle: string }> {
  const slowBody = (path: string, auth: string) => ({
    first: `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${auth}Content-Length: 100000\r\n\r\n[`,
    trickle: ' ',
  });
  return [
    { first: 'POST /v2/sms/send HTTP/1.1\r\nHost: x\r\n', trickle: 'X' },
    slowBody('/v2/sms/outbox', ''),
    slowBody('/bridge/invoke/settings:get', ''),
    slowBody('/nope', ''),
    slowBody('/v2/sms/send', ''),
    slowBody('/v2/sms/send', `Authorization: Bearer ${key}\r\n`),
    // Uploads: held to the minimum rate, which a byte every 300 ms is far below.
    slowBody('/v2/sms/campaigns/contacts', `Authorization: Bearer ${key}\r\n`),
    slowBody('/upload-file/bale', `Authorization: Bearer ${key}\r\n`),
  ];
}

/** `[{},{},…,{}]` of about `bytes` bytes, made without a string of that size. */
export function tinyObjectsBody(bytes: number): Buffer {
  const body = Buffer.alloc(bytes - (bytes % 3)).fill('{},');
  body.write('[', 0);
  body.write(']', body.length - 1);
  return body;
}
