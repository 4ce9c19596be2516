// The SMTP option against a local SMTP server (smtp-server) started here on 127.0.0.1: each
// recipient gets one message with that recipient alone in To, the subject and body rendered with
// their own values; a recipient the server refuses for good (550) ends 'error' and the others go
// on; a refused login fails the send; the connection test greets and logs in.
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { tempDir, testSeed } from '../helpers/server';
import { draft, importSegment, settled } from './support';
import { parseMail } from './mime';

interface Received {
  rcptTo: string[];
  raw: string;
}

let core: Core;
let dir: string;
let account: number;
let server: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  dir = tempDir('chapar-email-smtp-');
  fs.mkdirSync(path.join(dir, 'data'));
  core = new Core({ dataDir: path.join(dir, 'data') });
  applySeed(core, testSeed());
  account = core.accounts.findByName('acme')!.id;
  server = new SMTPServer({
    hideSTARTTLS: true,
    authOptional: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'shop' && auth.password === 'smtp-pass-1') return callback(null, { user: 'shop' });
      callback(new Error('535 authentication failed'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refused')) {
        const error = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await core.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('SMTP', () => {
  it('verifies the connection, then sends one message per recipient, rendered for them alone', async () => {
    core.email.configure({
      transport: 'smtp',
      smtp: { host: '127.0.0.1', port, secure: false, user: 'shop', password: 'smtp-pass-1' },
    });
    expect(core.email.config().smtp).toMatchObject({ host: '127.0.0.1', port, password_set: true });
    expect(await core.email.testConnection()).toEqual({ ok: true, error: null });
    const segment = await importSegment(core, account, dir, [
      { email: 'ali@example.com', name: 'Ali', city: 'Tehran' },
      { email: 'refused@example.com', name: 'Nobody' },
      { email: 'sara@example.com', name: 'سارا', city: 'Shiraz' },
    ]);
    const send = core.email.send({
      ...draft(account, segment, { html: '<p>Hi <b>{{NAME}}</b></p>' }),
      expected_count: 3,
      request_id: 'smtp-send-001',
    });
    const done = await settled(core, account, send.id);
    expect(done).toMatchObject({ state: 'done', transport: 'smtp' });
    expect(done.counts).toMatchObject({ sent: 2, error: 1 });
    expect(received).toHaveLength(2);
    const refused = core.email.recipients(account, send.id, { statuses: ['error'] }).rows;
    expect(refused.map((r) => r.email)).toEqual(['refused@example.com']);
    expect(refused[0]!.error).toContain('550');
    const byRecipient = new Map(received.map((r) => [r.rcptTo.join(','), r.raw]));
    const ali = parseMail(byRecipient.get('ali@example.com')!);
    expect(ali.headers.get('to')).toBe('Ali <ali@example.com>');
    expect(ali.headers.get('from')).toBe('Shop <news@shop.example>');
    expect(ali.headers.get('subject')).toBe('Hello Ali');
    expect(ali.text?.trim()).toMatch(/^Dear Ali of Tehran, your number is 0912\d{7}\.$/);
    expect(ali.html).toContain('<p>Hi <b>Ali</b></p>');
    const sara = parseMail(byRecipient.get('sara@example.com')!);
    expect(sara.headers.get('subject')).toBe('Hello سارا');
    expect(sara.headers.get('to')).toContain('sara@example.com');
    expect(sara.headers.get('x-chapar-send')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a refused login fails the send (not retried) and the connection test says why', async () => {
    core.email.configure({
      transport: 'smtp',
      smtp: { host: '127.0.0.1', port, secure: false, user: 'shop', password: 'wrong-pass' },
    });
    const test = await core.email.testConnection();
    expect(test.ok).toBe(false);
    expect(test.error).toMatch(/535|refused the login/);
    const before = received.length;
    const segment = await importSegment(core, account, dir, [{ email: 'x@example.com' }], 'one.csv');
    const send = core.email.send({ ...draft(account, segment), expected_count: 1, request_id: 'smtp-send-002' });
    const done = await settled(core, account, send.id);
    expect(done.state).toBe('failed');
    expect(done.counts.error).toBe(1);
    expect(received.length).toBe(before);
  });
});
