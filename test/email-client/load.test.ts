// 10,000 recipients (a CSV with PHONE_NUMBER, EMAIL, NAME and CITY imported through the core's
// contacts import) sent through the embedded sandbox: each gets exactly one message with its own
// substitutions, read back from the relay. The time is printed (no timing assert beyond a
// generous bound: CI machines are slow).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { tempDir, testSeed } from '../helpers/server';
import { draft, importSegment, settled } from './support';

const N = 10_000;
let core: Core;
let dir: string;

beforeAll(() => {
  dir = tempDir('chapar-email-10k-');
  fs.mkdirSync(path.join(dir, 'data'));
  core = new Core({ dataDir: path.join(dir, 'data') });
  applySeed(core, testSeed());
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('sends 10,000 recipients through the sandbox: one message each, with its own values', async () => {
  const account = core.accounts.findByName('acme')!.id;
  const segment = await importSegment(
    core,
    account,
    dir,
    Array.from({ length: N }, (_, i) => ({ email: `r${i}@example.com`, name: `Name ${i}`, city: `c${i}` })),
  );
  const started = performance.now();
  const send = core.email.send({
    ...draft(account, segment, { subject: 'For {{NAME}} in {{ city }}' }),
    expected_count: N,
    request_id: 'load-send-10k',
  });
  const written = performance.now();
  const handedOver = await settled(core, account, send.id, 120_000, (s) => s.counts.pending === 0);
  const handed = performance.now();
  const done = await settled(core, account, send.id, 120_000);
  const finished = performance.now();
  console.log(
    `10,000 recipients: send and recipients written in ${Math.round(written - started)} ms, ` +
      `handed to the sandbox in ${Math.round(handed - started)} ms, all delivered and polled in ${Math.round(finished - started)} ms`,
  );
  expect(handedOver.counts.pending).toBe(0);
  expect(done.state).toBe('done');
  expect(done.counts.delivered).toBe(N);

  const uuid = core.db.prepare('SELECT uuid FROM email_sends WHERE id = ?').pluck().get(send.id) as string;
  const local = core.emailRelay.localAccountId();
  const subjects = new Map<string, string>();
  let after: string | undefined;
  do {
    const body = core.emailRelay.list(local, { tags: `chapar-send-${uuid}`, limit: '100', after }).body as {
      data: Array<{ recipient: string; subject: string }>;
      pagination: { has_more: boolean; next_cursor: string | null };
    };
    for (const message of body.data) {
      expect(subjects.has(message.recipient)).toBe(false);
      subjects.set(message.recipient, message.subject);
    }
    after = body.pagination.has_more ? body.pagination.next_cursor! : undefined;
  } while (after);
  expect(subjects.size).toBe(N);
  for (let i = 0; i < N; i++) expect(subjects.get(`r${i}@example.com`)).toBe(`For Name ${i} in c${i}`);
  // The app's record agrees: each recipient's message id is a message of the relay.
  const ids = core.db
    .prepare('SELECT count(DISTINCT message_id) FROM email_recipients WHERE send_id = ?')
    .pluck()
    .get(send.id);
  expect(ids).toBe(N);
}, 180_000);
