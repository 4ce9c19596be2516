// POST /v2/sms/campaigns/contacts and GET .../contacts/{upload_data_id} over real HTTP: every rule
// of spec 4.4, the 201 + 200 answer, background processing to COMPLETED, rejected rows with their
// row numbers, opt-outs left out, and no access across accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, KEY, OTHER_KEY, INACTIVE_KEY, post, startServer, type TestServer } from '../helpers/server';

/** Response bodies are checked field by field. */
type Body = any;

async function get(url: string, key: string | null = KEY): Promise<{ status: number; body: Body }> {
  const response = await fetch(url, { headers: key === null ? {} : { authorization: `Bearer ${key}` } });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body };
}

function expectError(result: { status: number; body: Body }, code: number) {
  expect(result.status).toBe(code);
  expect(result.body.return.status).toBe(code);
  expect(typeof result.body.return.message).toBe('string');
  expect(result.body.entries).toEqual([]);
}

describe('contact upload (spec 4.4)', () => {
  let server: TestServer;
  let contacts: string;
  beforeAll(async () => {
    server = await startServer();
    contacts = `${server.url}/v2/sms/campaigns/contacts`;
  });
  afterAll(() => server.close());

  const completed = async (id: number, key = KEY) =>
    eventually(async () => {
      const result = await get(`${contacts}/${id}`, key);
      return result.body.entries?.status === 'COMPLETED' || result.body.entries?.status === 'FAILED'
        ? result
        : undefined;
    }, 30_000);

  it('answers 201 with return.status 200 and {segment_id, upload_data_id} at once, then processes to COMPLETED', async () => {
    const body = [
      { phone_number: '09121234567', NAME: 'Ali', CITY: 'Tehran' },
      { phone_number: '۰۹۱۲۷۶۵۴۳۲۱', NAME: 'Sara', CITY: 'Shiraz' },
      { phone_number: 'not a phone', NAME: 'X', CITY: 'Y' },
      { phone_number: '+98 912 123 4567', NAME: 'Ali again', CITY: 'Karaj' },
      { phone_number: '9351112233', NAME: 'Reza, "the" first', CITY: 'line\nbreak' },
    ];
    const created = await post(contacts, body);
    expect(created.status).toBe(201);
    expect(created.body.return.status).toBe(200);
    expect(created.body.entries).toEqual({ segment_id: expect.any(Number), upload_data_id: expect.any(Number) });
    const { segment_id, upload_data_id } = created.body.entries;

    const done = await completed(upload_data_id);
    expect(done.status).toBe(200);
    expect(done.body.return.status).toBe(200);
    expect(done.body.entries).toMatchObject({
      upload_data_id,
      segment_id,
      status: 'COMPLETED',
      total: 5,
      valid: 3,
      invalid: 1,
      duplicates: 1,
      opted_out: 0,
    });
    expect(done.body.entries.errors).toEqual([
      // An invalid number says what is wrong with it (here letters), a repeat that it is one.
      { row: 3, phone_number: 'not a phone', reason: 'حرف یا نشانه دارد' },
      { row: 4, phone_number: '+98 912 123 4567', reason: 'شماره تکراری' },
    ]);

    // The generated CSV is stored with the upload: phone_number first, then the keys in order.
    const fs = await import('node:fs');
    const path = await import('node:path');
    const csvFile = server.core.db
      .prepare('SELECT csv_file FROM uploads WHERE id = ?')
      .pluck()
      .get(upload_data_id) as string;
    const csv = fs.readFileSync(path.join(server.dataDir, csvFile), 'utf8');
    expect(csv.split('\n')[0]).toBe('phone_number,NAME,CITY');
    expect(csv).toContain('9351112233,"Reza, ""the"" first","line\nbreak"');

    const account = server.core.accounts.findByName('acme')!;
    const segment = server.core.segments.get(account.id, segment_id);
    expect(segment).toMatchObject({ status: 'ready', member_count: 3, columns: ['NAME', 'CITY'] });
    const page = server.core.segments.members(account.id, segment_id, { offset: 0, limit: 10 });
    expect(page.total).toBe(3);
    expect(page.members).toMatchObject([
      { phone: '09121234567', fields: { NAME: 'Ali', CITY: 'Tehran' } },
      { phone: '09127654321', fields: { NAME: 'Sara', CITY: 'Shiraz' } },
      { phone: '09351112233', fields: { NAME: 'Reza, "the" first', CITY: 'line\nbreak' } },
    ]);
  });

  it('is PROCESSING until the scheduler has processed it (the request never waits)', async () => {
    const paused = await startServer({ startScheduler: false });
    try {
      const created = await post(`${paused.url}/v2/sms/campaigns/contacts`, [{ phone_number: '09121234567' }]);
      expect(created.status).toBe(201);
      const id = created.body.entries.upload_data_id;
      const before = await get(`${paused.url}/v2/sms/campaigns/contacts/${id}`);
      expect(before.body.entries).toMatchObject({ status: 'PROCESSING', total: 1 });
      const account = paused.core.accounts.findByName('acme')!;
      expect(paused.core.segments.get(account.id, created.body.entries.segment_id).status).toBe('importing');
      paused.core.scheduler.start();
      const after = await eventually(async () => {
        const result = await get(`${paused.url}/v2/sms/campaigns/contacts/${id}`);
        return result.body.entries.status === 'COMPLETED' ? result : undefined;
      }, 30_000);
      expect(after.body.entries).toMatchObject({ total: 1, valid: 1, invalid: 0, duplicates: 0, errors: [] });
    } finally {
      await paused.close();
    }
  });

  it('leaves opted-out numbers out and reports them', async () => {
    const account = server.core.accounts.findByName('acme')!;
    server.core.optouts.add(account.id, ['09190000001']);
    const created = await post(contacts, [{ phone_number: '09190000001' }, { phone_number: '09190000002' }]);
    const done = await completed(created.body.entries.upload_data_id);
    expect(done.body.entries).toMatchObject({
      total: 2,
      valid: 1,
      opted_out: 1,
      errors: [{ row: 1, phone_number: '09190000001', reason: expect.any(String) }],
    });
    expect(
      server.core.segments.members(account.id, created.body.entries.segment_id).members.map((m) => m.phone),
    ).toEqual(['09190000002']);
  });

  it('counts an empty phone_number as an invalid row', async () => {
    const created = await post(contacts, [{ phone_number: '' }, { phone_number: '09120000000' }, { phone_number: '' }]);
    const done = await completed(created.body.entries.upload_data_id);
    expect(done.body.entries).toMatchObject({ total: 3, valid: 1, invalid: 2 });
    expect(done.body.entries.errors.map((e: { row: number }) => e.row)).toEqual([1, 3]);
  });

  describe('400 for every shape rule', () => {
    const cases: Array<[string, unknown]> = [
      ['an empty array', []],
      ['an object instead of an array', { phone_number: '09121234567' }],
      ['phone_number missing in the first object', [{ NAME: 'x' }, { phone_number: '09121234567', NAME: 'y' }]],
      ['a key not entirely upper case', [{ phone_number: '09121234567', Name: 'x' }]],
      ['a lower-case key', [{ phone_number: '09121234567', city: 'x' }]],
      ['a key without any capital letter', [{ phone_number: '09121234567', '123': 'x' }]],
      [
        'objects with different keys',
        [
          { phone_number: '09121234567', NAME: 'a' },
          { phone_number: '09121234568', CITY: 'b' },
        ],
      ],
      ['an object with an extra key', [{ phone_number: '09121234567' }, { phone_number: '09121234568', NAME: 'b' }]],
      ['an object missing a key', [{ phone_number: '09121234567', NAME: 'a' }, { phone_number: '09121234568' }]],
      ['a value that is not a string', [{ phone_number: 9121234567 }]],
      ['a nested value', [{ phone_number: '09121234567', NAME: { first: 'a' } }]],
      ['a member that is not an object', [{ phone_number: '09121234567' }, 'x']],
      ['null as a member', [null]],
    ];
    it.each(cases)('%s', async (_label, body) => {
      expectError(await post(contacts, body), 400);
    });

    it('a body that is not JSON', async () => {
      expectError(await post(contacts, '[{"phone_number": '), 400);
    });

    it('no body at all', async () => {
      const response = await fetch(contacts, { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
      expectError({ status: response.status, body: await response.json() }, 400);
    });
  });

  it('accepts exactly 100,000 contacts and refuses 100,001 with 414', async () => {
    const many = Array.from({ length: 100_001 }, (_, i) => ({ phone_number: `0912${String(i).padStart(7, '0')}` }));
    expectError(await post(contacts, many), 414);
    const created = await post(contacts, many.slice(0, 100_000));
    expect(created.status).toBe(201);
    const done = await completed(created.body.entries.upload_data_id);
    expect(done.body.entries).toMatchObject({
      status: 'COMPLETED',
      total: 100_000,
      valid: 100_000,
      invalid: 0,
      duplicates: 0,
    });
  });

  it('creates nothing for a refused upload', async () => {
    const account = server.core.accounts.findByName('acme')!;
    const before = server.core.segments.list(account.id).length;
    await post(contacts, [{ phone_number: '09121234567', bad: 'x' }]);
    expect(server.core.segments.list(account.id).length).toBe(before);
  });

  it('needs a valid key of an active account', async () => {
    expectError(await post(contacts, [{ phone_number: '09121234567' }], 'nope'), 403);
    expectError(await post(contacts, [{ phone_number: '09121234567' }], null), 403);
    expectError(await post(contacts, [{ phone_number: '09121234567' }], INACTIVE_KEY), 401);
    expectError(await get(`${contacts}/1`, 'nope'), 403);
  });

  it('gives another account no access to an upload, and 400 for unknown or non-integer ids', async () => {
    const created = await post(contacts, [{ phone_number: '09121234567' }]);
    const id = created.body.entries.upload_data_id;
    await completed(id);
    expectError(await get(`${contacts}/${id}`, OTHER_KEY), 400);
    expectError(await get(`${contacts}/999999`), 400);
    expectError(await get(`${contacts}/abc`), 400);
    expectError(await get(`${contacts}/1.5`), 400);
    const other = server.core.accounts.findByName('other')!;
    expect(() => server.core.segments.get(other.id, created.body.entries.segment_id)).toThrow();
    expect(server.core.segments.list(other.id)).toEqual([]);
  });

  it('keeps answering HTTP while a large import runs in its worker thread', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const lines = ['phone,NAME'];
    for (let i = 0; i < 300_000; i++) lines.push(`0915${String(i).padStart(7, '0')},n${i}`);
    const file = path.join(server.dataDir, 'responsive.csv');
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const account = server.core.accounts.findByName('acme')!;
    let running = false;
    const { jobId } = await server.core.imports.start(
      account.id,
      { file },
      (p) => (running ||= p.status === 'running'),
    );
    await eventually(() => (running ? true : undefined), 30_000);
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await get(`${server.url}/health`, null)).status);
    const stillRunning = server.core.imports.get(account.id, jobId)!.status === 'running';
    expect(answers).toEqual([200, 200, 200, 200, 200]);
    const created = await post(contacts, [{ phone_number: '09121234567' }]);
    expect(created.status).toBe(201);
    expect((await server.core.imports.wait(jobId)).status).toBe('done');
    // The answers came while the import was still writing (the point of the worker thread).
    expect(stillRunning).toBe(true);
  });

  it('documents both operations in the OpenAPI document', async () => {
    const doc = await get(`${server.url}/openapi.json`, null);
    expect(doc.body.paths['/v2/sms/campaigns/contacts'].post.responses['414']).toBeDefined();
    expect(doc.body.paths['/v2/sms/campaigns/contacts/{upload_data_id}'].get.responses['400']).toBeDefined();
    expect(doc.body.components.schemas.UploadStatus).toBeDefined();
  });
});
