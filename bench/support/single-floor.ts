// The floor of the single1k case: a minimal server doing the least any implementation of a
// one-receiver send must do, in its own process as `serve` runs in its own. Fastify parses the body
// (JSON for v2, a form for v1), the key is looked up, the number checked, one transaction debits the
// credit and inserts the message, and the envelope is answered. Nothing else: no lifecycle, no
// gateway, no events. Prints `floor listening on http://127.0.0.1:PORT`.
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import querystring from 'node:querystring';

const file = process.argv[2];
if (!file) throw new Error('usage: single-floor.ts DATABASE_FILE');

const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  CREATE TABLE IF NOT EXISTS accounts (id INTEGER PRIMARY KEY, api_key TEXT NOT NULL UNIQUE, credit_rials INTEGER NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, sender TEXT NOT NULL,
    receptor TEXT NOT NULL, text TEXT NOT NULL, status INTEGER NOT NULL, cost_rials INTEGER NOT NULL,
    created_at INTEGER NOT NULL) STRICT;
  INSERT OR IGNORE INTO accounts (id, api_key, credit_rials) VALUES (1, 'k-acme-1', 1000000000000);
`);
const findKey = db.prepare<[string], { id: number; credit_rials: number }>(
  'SELECT id, credit_rials FROM accounts WHERE api_key = ?',
);
const debit = db.prepare('UPDATE accounts SET credit_rials = credit_rials - ? WHERE id = ?');
const insert = db.prepare(
  'INSERT INTO messages (account_id, sender, receptor, text, status, cost_rials, created_at) VALUES (?, ?, ?, ?, 1, ?, ?)',
);
const COST = 1500;
const accept = db.transaction((account: number, sender: string, receptor: string, text: string, at: number) => {
  debit.run(COST, account);
  return Number(insert.run(account, sender, receptor, text, COST, at).lastInsertRowid);
});

const fail = (status: number) => ({ return: { status, message: 'خطا' }, entries: [] });

function send(key: string | undefined, sender: unknown, receptor: unknown, message: unknown) {
  const account = key ? findKey.get(key) : undefined;
  if (!account) return { code: 401, body: fail(401) };
  if (typeof receptor !== 'string' || !/^09\d{9}$/.test(receptor) || typeof message !== 'string' || !message)
    return { code: 400, body: fail(400) };
  if (account.credit_rials < COST) return { code: 402, body: fail(402) };
  const date = Math.floor(Date.now() / 1000);
  const messageid = accept(account.id, String(sender), receptor, message, date);
  const entry = { messageid, message, status: 1, statustext: 'در صف ارسال', sender, receptor, date, cost: COST };
  return { code: 200, body: { return: { status: 200, message: 'تایید شد' }, entries: [entry] } };
}

const app = Fastify();
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
  done(null, querystring.parse(body as string)),
);
app.post<{ Body: { sender?: string; receivers?: string[]; message?: string } }>('/v2/sms/send', (request, reply) => {
  const key = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  const receivers = request.body?.receivers;
  const { code, body } = send(
    key,
    request.body?.sender,
    receivers?.length === 1 ? receivers[0] : null,
    request.body?.message,
  );
  return reply.code(code).send(body);
});
app.post<{ Params: { key: string }; Body: Record<string, string> }>('/v1/:key/sms/send.json', (request, reply) => {
  const { code, body } = send(request.params.key, request.body?.sender, request.body?.receptor, request.body?.message);
  return reply.code(code).send(body);
});

app.listen({ host: '127.0.0.1', port: 0 }).then((address) => console.log(`floor listening on ${address}`));
process.on('SIGTERM', () => void app.close().then(() => (db.close(), process.exit(0))));
