// An email send killed (SIGKILL) while its batches are being handed to the embedded provider: the
// next start resumes the send, and in the end every recipient has exactly one message at the
// provider (the batch in flight is answered by the Idempotency-Key's replay, never sent again).
// Through `npm run serve` as users run it, the segment uploaded over the API, the send started
// through the web bridge.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/service/db/database';
import { eventually, KEY, spawnServe, tempDir, testSeed, type ServeProcess } from '../helpers/server';

const TOKEN = 'kill-test-token-0123456789abcdef';
const RECIPIENTS = 20_000;

let serve: ServeProcess | undefined;
let dataDir: string | undefined;
/** Every process started, and a start under way: a failed test may leave one starting. */
const started: ServeProcess[] = [];
let starting: Promise<unknown> | undefined;
afterAll(async () => {
  await starting?.catch(() => undefined);
  // stop() answers at once for a process already ended (the one killed mid-test included).
  for (const one of started) await one.stop('SIGKILL');
  // Removed once its last process has exited; the retries only cover the file system's own lag.
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

async function invoke<T = any>(channel: string, input: unknown): Promise<T> {
  const response = await fetch(`${serve!.url}/bridge/invoke/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { ok: boolean; value?: T; error?: unknown };
  if (!body.ok) throw new Error(`${channel}: ${JSON.stringify(body.error)}`);
  return body.value as T;
}

describe('an email send killed mid-handover', () => {
  it('resumes on the next start and gives every recipient exactly one message', async () => {
    const workspace = tempDir('chapar-email-kill-');
    dataDir = workspace;
    const seedFile = path.join(workspace, 'seed.json');
    fs.writeFileSync(seedFile, JSON.stringify(testSeed()));
    const start = async () => {
      const spawned = spawnServe({ dataDir: workspace, seedFile, webUi: true, env: { CHAPAR_WEB_TOKEN: TOKEN } });
      starting = spawned;
      started.push(await spawned);
      return spawned;
    };
    serve = await start();

    const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({
      phone_number: `0912${String(i).padStart(7, '0')}`,
      EMAIL: `customer${i}@example.com`,
      NAME: `Customer ${i}`,
    }));
    const upload = await fetch(`${serve.url}/v2/sms/campaigns/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify(contacts),
    });
    const { segment_id, upload_data_id } = ((await upload.json()) as any).entries;
    await eventually(async () => {
      const read = await fetch(`${serve!.url}/v2/sms/campaigns/contacts/${upload_data_id}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      return ((await read.json()) as any).entries.status === 'COMPLETED' ? true : undefined;
    }, 30_000);

    const accounts = await invoke<Array<{ id: number; name: string }>>('accounts:list', null);
    const account = accounts.find((a) => a.name === 'acme')!;
    const draft = {
      account_id: account.id,
      segment_id,
      from: { email: 'shop@example.com', name: 'Shop' },
      subject: 'Hello {{NAME}}',
      text: 'Dear {{NAME}}, our sale starts today.',
    };
    const preview = await invoke<{ valid: number }>('email:preview', draft);
    expect(preview.valid).toBe(RECIPIENTS);
    const send = await invoke<{ id: number }>('email:send', {
      ...draft,
      expected_count: RECIPIENTS,
      request_id: 'kill-test-request-1',
    });

    // Killed once some batches are handed over and others are not.
    const atKill = await eventually(async () => {
      const now = await invoke<{ counts: Record<string, number> }>('email:get', {
        account_id: account.id,
        send_id: send.id,
      });
      const pending = now.counts.pending ?? 0;
      return pending < RECIPIENTS ? pending : undefined;
    }, 30_000);
    await serve.stop('SIGKILL');
    expect(atKill).toBeGreaterThan(0);

    serve = await start();
    const done = await eventually(async () => {
      const now = await invoke<{ state: string; counts: Record<string, number> }>('email:get', {
        account_id: account.id,
        send_id: send.id,
      });
      return now.state === 'done' ? now : undefined;
    }, 90_000);
    expect(done.counts.delivered).toBe(RECIPIENTS);
    await serve.stop();
    serve = undefined;

    const db = openDatabase({ file: path.join(workspace, 'chapar.db'), readonly: true });
    try {
      const messages = db
        .prepare(
          "SELECT count(*) AS messages, count(DISTINCT recipient) AS recipients FROM email_relay_messages WHERE account_id = 'local'",
        )
        .get() as { messages: number; recipients: number };
      expect(messages).toEqual({ messages: RECIPIENTS, recipients: RECIPIENTS });
      const subjects = db
        .prepare(
          "SELECT recipient, subject FROM email_relay_messages WHERE recipient IN ('customer0@example.com', 'customer19999@example.com') ORDER BY seq",
        )
        .all();
      expect(subjects).toEqual([
        { recipient: 'customer0@example.com', subject: 'Hello Customer 0' },
        { recipient: 'customer19999@example.com', subject: 'Hello Customer 19999' },
      ]);
    } finally {
      db.close();
    }
  }, 240_000);
});
