// The app's email sends on a real core (SQLite in a temp folder, segments imported through the
// contacts import), through the default transport, the embedded sandbox in process: settings and
// secrets, the preview's skipped rows and samples, refusals, one message per recipient with its own
// values, the request id, the confirmed count, cancel, and the export read back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Papa from 'papaparse';
import { Core } from '../../core';
import { applySeed } from '../../seed';
import { ServiceError } from '../../errors';
import { tempDir, testSeed } from '../../../../test/helpers/server';
import { draft, importSegment, phoneOf, settled } from '../../../../test/email-client/support';
import { SECRET_PROVIDER_KEY } from './config';
import { SEND_JOB } from './jobs';

let core: Core;
let dir: string;
let account: number;
let people: number;
const progress: string[] = [];

function reason(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error.reason;
    throw error;
  }
  return undefined;
}

beforeAll(async () => {
  dir = tempDir('chapar-email-client-');
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  core = new Core({ dataDir: path.join(dir, 'data') });
  applySeed(core, testSeed());
  account = core.accounts.findByName('acme')!.id;
  core.events.on('email-progress', (send) => progress.push(`${send.id}:${send.state}`));
  people = await importSegment(core, account, dir, [
    { email: 'ali@example.com', name: 'Ali', city: 'Tehran' },
    { email: '', name: 'No Address' },
    { email: 'not-an-address', name: 'Bad' },
    { email: 'sara@example.com', name: 'Sara', city: 'Shiraz' },
    { email: 'ALI@Example.com', name: 'Ali again' },
    { email: 'reza@example.org', name: '<b>Reza</b>', city: 'Tabriz' },
  ]);
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('email settings', () => {
  it('start on the sandbox; a key goes into the secrets only, is never returned, kept when absent, removed by empty', () => {
    expect(core.email.config()).toMatchObject({ transport: 'sandbox', secret_storage: 'file' });
    const config = core.email.configure({
      transport: 'provider',
      provider: { url: 'https://api.mail.example/', account_id: '1001', key: 'ek-secret-1' },
    });
    expect(config.provider).toEqual({ url: 'https://api.mail.example', account_id: '1001', key_set: true });
    expect(JSON.stringify(config)).not.toContain('ek-secret-1');
    expect(core.secrets.get(SECRET_PROVIDER_KEY)).toBe('ek-secret-1');
    const settings = core.db.prepare("SELECT value FROM settings WHERE key LIKE 'email%'").pluck().all();
    expect(JSON.stringify(settings)).not.toContain('ek-secret-1');
    // The same server written otherwise keeps the key.
    core.email.configure({
      transport: 'provider',
      provider: { url: 'https://API.mail.example:443/', account_id: '2' },
    });
    expect(core.secrets.get(SECRET_PROVIDER_KEY)).toBe('ek-secret-1');
    expect(
      core.email.configure({ transport: 'sandbox', provider: { url: '', account_id: '', key: '' } }).provider.key_set,
    ).toBe(false);
    expect(core.secrets.get(SECRET_PROVIDER_KEY)).toBeNull();
  });

  it('sends a stored secret only to the server it was given for: another address or login forgets it', () => {
    core.email.configure({
      transport: 'provider',
      provider: { url: 'https://api.mail.example', account_id: '1001', key: 'ek-secret-2' },
      smtp: { host: 'smtp.shop.example', port: 587, secure: false, user: 'shop', password: 'pw-secret-2' },
    });
    expect(core.secrets.get(SECRET_PROVIDER_KEY)).toBe('ek-secret-2');
    // Another provider without a new key: the old key is not sent there.
    const moved = core.email.configure({
      transport: 'provider',
      provider: { url: 'https://mail.elsewhere.example', account_id: '1001' },
    });
    expect(moved.provider.key_set).toBe(false);
    expect(core.secrets.get(SECRET_PROVIDER_KEY)).toBeNull();
    // With a new key given at the same time, the new key is kept.
    core.email.configure({
      transport: 'provider',
      provider: { url: 'https://mail.third.example', account_id: '1001', key: 'ek-secret-3' },
    });
    expect(core.secrets.get(SECRET_PROVIDER_KEY)).toBe('ek-secret-3');
    // SMTP: the same host in other case keeps the password; another user forgets it.
    expect(
      core.email.configure({
        transport: 'smtp',
        smtp: { host: 'SMTP.shop.example', port: 465, secure: true, user: 'shop' },
      }).smtp.password_set,
    ).toBe(true);
    expect(
      core.email.configure({
        transport: 'smtp',
        smtp: { host: 'smtp.shop.example', port: 465, secure: true, user: 'other' },
      }).smtp.password_set,
    ).toBe(false);
    core.email.configure({ transport: 'sandbox', provider: { url: '', account_id: '', key: '' } });
  });

  it('refuse a provider address that is not http(s) with a host, an empty account id, an empty SMTP host', () => {
    for (const url of ['ftp://mail.example', 'mail.example', 'http://'])
      expect(reason(() => core.email.configure({ transport: 'provider', provider: { url, account_id: '1' } }))).toBe(
        'email_provider_url_invalid',
      );
    expect(
      reason(() =>
        core.email.configure({ transport: 'provider', provider: { url: 'https://m.example', account_id: ' ' } }),
      ),
    ).toBe('email_provider_account_missing');
    expect(
      reason(() => core.email.configure({ transport: 'smtp', smtp: { host: '', port: 25, secure: false, user: '' } })),
    ).toBe('email_smtp_host_missing');
    expect(core.email.config().transport).toBe('sandbox');
  });
});

describe('the preview', () => {
  it('reports skipped rows by row and phone, the columns, unknown variables, and renders each recipient', () => {
    const preview = core.email.preview(draft(account, people, { html: '<p>Hi {{ NAME }} {{ coupon }}</p>' }), {
      limit: 10,
    });
    expect(preview).toMatchObject({
      total: 6,
      valid: 3,
      skipped_count: 3,
      columns: ['EMAIL', 'NAME', 'CITY'],
      email_column: 'EMAIL',
      unknown_variables: ['coupon'],
    });
    // Rows of the imported file as a spreadsheet shows it: the header is row 1.
    expect(preview.skipped).toEqual([
      { row: 3, phone: phoneOf(1), email: '', reason: 'missing' },
      { row: 4, phone: phoneOf(2), email: 'not-an-address', reason: 'invalid' },
      { row: 6, phone: phoneOf(4), email: 'ALI@Example.com', reason: 'duplicate' },
    ]);
    expect(preview.samples.map((s) => [s.row, s.email, s.name, s.subject])).toEqual([
      [2, 'ali@example.com', 'Ali', 'Hello Ali'],
      [5, 'sara@example.com', 'Sara', 'Hello Sara'],
      [7, 'reza@example.org', '<b>Reza</b>', 'Hello <b>Reza</b>'],
    ]);
    expect(preview.samples[1]!.text).toBe(`Dear Sara of Shiraz, your number is ${phoneOf(3)}.`);
    // Values are escaped in the HTML body, as the provider renders it.
    expect(preview.samples[2]!.html).toBe('<p>Hi &#60;b&#62;Reza&#60;/b&#62; </p>');
    expect(core.email.preview(draft(account, people), { offset: 2, limit: 1 }).samples.map((s) => s.row)).toEqual([7]);
  });

  it('reads a half-written draft (counts at once), and the send refuses what is missing', async () => {
    const half = core.email.preview(
      draft(account, people, { from: { email: 'shop' }, subject: '', text: '', html: '' }),
    );
    expect(half).toMatchObject({
      total: 6,
      valid: 3,
      email_column: 'EMAIL',
      problems: ['email_from_invalid', 'email_subject_missing', 'email_body_missing'],
    });
    expect(core.email.preview(draft(account, people)).problems).toEqual([]);
    const send = (overrides: Parameters<typeof draft>[2]) => () =>
      core.email.send({ ...draft(account, people, overrides), expected_count: 3, request_id: 'refused-0001' });
    expect(reason(send({ from: { email: 'shop' } }))).toBe('email_from_invalid');
    expect(reason(send({ reply_to: { email: 'x@' } }))).toBe('email_reply_to_invalid');
    expect(reason(send({ subject: '  ' }))).toBe('email_subject_missing');
    expect(reason(send({ text: ' ', html: '' }))).toBe('email_body_missing');
    expect(core.email.list(account)).toEqual([]);
  });

  it('refuses a missing segment and a segment without EMAIL', async () => {
    expect(reason(() => core.email.preview(draft(account, 99_999)))).toBe('segment_not_found');
    const file = path.join(dir, 'no-email.csv');
    fs.writeFileSync(file, 'PHONE_NUMBER,NAME\n09121111111,Ali\n');
    const { jobId, segmentId } = await core.imports.start(account, { file });
    await core.imports.wait(jobId);
    expect(reason(() => core.email.preview(draft(account, segmentId)))).toBe('email_column_missing');
  });
});

describe('a send through the sandbox', () => {
  it('gives each valid recipient exactly one message with its own values, polled to delivered', async () => {
    const send = core.email.send({ ...draft(account, people), expected_count: 3, request_id: 'confirm-0001' });
    expect(send).toMatchObject({ state: 'sending', total: 3, transport: 'sandbox', segment_name: 'people.csv' });
    const done = await settled(core, account, send.id);
    expect(done.state).toBe('done');
    expect(done.counts.delivered).toBe(3);
    const { rows, total } = core.email.recipients(account, send.id);
    expect(total).toBe(3);
    const relay = core.emailRelay;
    const local = relay.localAccountId();
    for (const row of rows) {
      expect(row.status).toBe('delivered');
      const message = (await relay.get(local, row.message_id!)).body as { subject: string; recipient: unknown };
      expect(message.subject).toBe(`Hello ${row.name}`);
    }
    const listed = relay.list(local, {
      tags: `chapar-send-${core.db.prepare('SELECT uuid FROM email_sends WHERE id = ?').pluck().get(send.id)}`,
    });
    expect((listed.body as { data: unknown[] }).data).toHaveLength(3);
    expect(progress).toContain(`${send.id}:done`);
    // The sender is remembered for the composer.
    expect(core.email.config().default_from).toEqual({ email: 'news@shop.example', name: 'Shop' });
  });

  it('answers the same request id with the same send (a double click sends once)', () => {
    const before = core.email.list(account).length;
    const again = core.email.send({ ...draft(account, people), expected_count: 3, request_id: 'confirm-0001' });
    expect(core.email.list(account)).toHaveLength(before);
    expect(again.id).toBe(core.email.list(account).at(-1)!.id);
  });

  it('refuses a count that is not the one confirmed, and a segment with no valid address', async () => {
    expect(
      reason(() => core.email.send({ ...draft(account, people), expected_count: 4, request_id: 'confirm-0002' })),
    ).toBe('email_count_changed');
    const nobody = await importSegment(core, account, dir, [{ email: 'nope' }, { email: '' }], 'nobody.csv');
    expect(
      reason(() => core.email.send({ ...draft(account, nobody), expected_count: 0, request_id: 'confirm-0003' })),
    ).toBe('email_no_recipients');
    expect(core.email.list(account)).toHaveLength(1);
  });

  it('cancel: recipients not handed over are never sent', async () => {
    await core.jobs.pause(SEND_JOB);
    const send = core.email.send({ ...draft(account, people), expected_count: 3, request_id: 'confirm-0004' });
    const cancelled = core.email.cancel(account, send.id);
    expect(cancelled).toMatchObject({ state: 'cancelled' });
    expect(cancelled.counts.cancelled).toBe(3);
    core.jobs.resume(SEND_JOB);
    await core.jobs.waitForIdle();
    const uuid = core.db.prepare('SELECT uuid FROM email_sends WHERE id = ?').pluck().get(send.id) as string;
    const listed = core.emailRelay.list(core.emailRelay.localAccountId(), { tags: `chapar-send-${uuid}` });
    expect((listed.body as { data: unknown[] }).data).toHaveLength(0);
    expect(core.email.get(account, send.id).state).toBe('cancelled');
    expect(core.email.recipients(account, send.id, { statuses: ['cancelled'] }).total).toBe(3);
  });

  it('exports the results as CSV: headers and statuses in the language, Jalali times in Persian', async () => {
    const send = core.email.list(account).at(-1)!;
    const file = path.join(dir, 'results.csv');
    const seen: number[] = [];
    const { rows } = await core.email.exportResults(
      account,
      send.id,
      { format: 'csv', language: 'fa', timeZone: 'Asia/Tehran', file },
      (done) => seen.push(done),
    );
    expect(rows).toBe(3);
    const parsed = Papa.parse<string[]>(fs.readFileSync(file, 'utf8').replace(/^\ufeff/, ''), { skipEmptyLines: true });
    expect(parsed.data[0]).toEqual([
      'ردیف',
      'ایمیل',
      'نام',
      'وضعیت',
      'خطا',
      'شناسه پیام',
      'آخرین تغییر',
      'آخرین تغییر (ISO 8601)',
    ]);
    expect(parsed.data.slice(1).map((r) => [r[0], r[1], r[3]])).toEqual([
      ['2', 'ali@example.com', 'تحویل‌شده'],
      ['5', 'sara@example.com', 'تحویل‌شده'],
      ['7', 'reza@example.org', 'تحویل‌شده'],
    ]);
    expect(parsed.data[1]![6]).toMatch(/^14\d\d\/\d\d\/\d\d \d\d:\d\d:\d\d$/);
    expect(parsed.data[1]![7]).toMatch(/\+03:30$/);
    const english = path.join(dir, 'results-en.csv');
    await core.email.exportResults(
      account,
      send.id,
      { format: 'csv', language: 'en', timeZone: 'UTC', file: english, statuses: ['error'] },
      () => {},
    );
    expect(fs.readFileSync(english, 'utf8').trim().split('\n')).toHaveLength(1);
    const xlsx = path.join(dir, 'results.xlsx');
    expect(
      (
        await core.email.exportResults(
          account,
          send.id,
          { format: 'xlsx', language: 'fa', timeZone: 'Asia/Tehran', file: xlsx },
          () => {},
        )
      ).rows,
    ).toBe(3);
    expect(fs.existsSync(xlsx)).toBe(true);
  });

  it('does not show another account its sends', () => {
    const other = core.accounts.findByName('other')!.id;
    const send = core.email.list(account)[0]!;
    expect(reason(() => core.email.get(other, send.id))).toBe('email_send_not_found');
    expect(core.email.list(other)).toEqual([]);
  });
});

describe('the preview’s kept members', () => {
  it('keeps a segment’s sorted members between previews, and reads them again once the segment changes', async () => {
    const file = path.join(dir, 'growing.csv');
    fs.writeFileSync(file, 'PHONE_NUMBER,EMAIL,NAME\n09351110001,a@example.com,A\n09351110002,b@example.com,B\n');
    const first = await core.imports.start(account, { file });
    await core.imports.wait(first.jobId);
    const reads = vi.spyOn(core.segments, 'phonesWithFields');
    try {
      expect(core.email.preview(draft(account, first.segmentId))).toMatchObject({ total: 2, valid: 2 });
      expect(
        core.email.preview(draft(account, first.segmentId, { subject: 'Hi {{NAME}}' }), { offset: 1 }).samples,
      ).toEqual([expect.objectContaining({ row: 3, subject: 'Hi B' })]);
      expect(reads).toHaveBeenCalledTimes(1);
      // Rows added to the same segment: the next preview sees them.
      fs.writeFileSync(file, 'PHONE_NUMBER,EMAIL,NAME\n09351110003,c@example.com,C\n09351110004,,D\n');
      const added = await core.imports.start(account, { file, segmentId: first.segmentId });
      await core.imports.wait(added.jobId);
      expect(core.email.preview(draft(account, first.segmentId))).toMatchObject({
        total: 4,
        valid: 3,
        skipped_count: 1,
      });
      expect(reads).toHaveBeenCalledTimes(2);
      // A send reads the segment afresh, whatever the preview kept.
      const send = core.email.send({
        ...draft(account, first.segmentId),
        expected_count: 3,
        request_id: 'growing-0001',
      });
      expect(send.total).toBe(3);
      expect(reads).toHaveBeenCalledTimes(3);
      core.email.cancel(account, send.id);
    } finally {
      reads.mockRestore();
    }
  });
});
