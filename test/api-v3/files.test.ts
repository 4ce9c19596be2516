// Messenger files in sends (spec 4.1 rule 7; issue 14 item 2), through versions 2 and 3: a file_id
// must be the caller's account's and of the sender line's provider, else 400 with nothing recorded;
// a version 3 send attaches each messenger channel's file to that channel's messages only. And the
// upload's documented types and size limit are the ones the server enforces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { OTHER_KEY, post, startServer, type TestServer } from '../helpers/server';
import { ALLOWED_FILE_EXTENSIONS, MAX_FILE_BYTES } from '../../electron/service/files/files';
import { accountId, counts, expectEnvelope, expectError, uploadFile, type HttpResult } from '../api-v2/support';

const SMS = '30001111';
const BALE = 'bale_acme_bot';
const RUBIKA = 'rubika_acme';
const RECEIVERS = ['09121234567', '09121234568'];

let server: TestServer;
let acme: number;
let baleFile: string;
let rubikaFile: string;
let othersBaleFile: string;
let othersRubikaFile: string;

const v2 = (body: unknown): Promise<HttpResult> => post(`${server.url}/v2/sms/send`, body);
const v3 = (body: unknown): Promise<HttpResult> => post(`${server.url}/v3/sms/send`, body);

async function uploaded(provider: string, key?: string, name = 'picture.png'): Promise<string> {
  const result = await uploadFile(server.url, provider, { key, name });
  expect(result.status).toBe(201);
  expect(result.body.return.status).toBe(200);
  return result.body.entries.file_id;
}

async function expectRefused(send: Promise<HttpResult>, code: 400 | 412) {
  expectError(await send, code);
}

/** What the messages of a send answer were recorded with: file per message id. */
function filesOf(entries: Array<{ messageid: number; channel?: string }>): Array<[string | undefined, string | null]> {
  const fileOf = server.core.db.prepare<[number], { file_id: string | null }>(
    'SELECT s.file_id FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id = ?',
  );
  return entries.filter((e) => e.messageid > 0).map((e) => [e.channel, fileOf.get(e.messageid)!.file_id]);
}

beforeAll(async () => {
  server = await startServer({ clock: new ManualClock() });
  acme = accountId(server.core, 'acme');
  baleFile = await uploaded('bale');
  rubikaFile = await uploaded('rubika', undefined, 'voice.ogg');
  // The other account has no messenger line; its files are still its own.
  othersBaleFile = await uploaded('bale', OTHER_KEY);
  othersRubikaFile = await uploaded('rubika', OTHER_KEY, 'clip.mp4');
});
afterAll(() => server.close());

describe('file_id of another account (400)', () => {
  it('is refused in a version 2 send and records nothing', async () => {
    const before = counts(server.core, acme);
    await expectRefused(v2({ message: 'x', sender: BALE, receivers: RECEIVERS, file_id: othersBaleFile }), 400);
    await expectRefused(v2({ message: 'x', sender: RUBIKA, receivers: RECEIVERS, file_id: othersRubikaFile }), 400);
    expect(counts(server.core, acme)).toEqual(before);
  });

  it('is refused in a version 3 send, and the channels before it are undone', async () => {
    const before = counts(server.core, acme);
    await expectRefused(
      v3({ message: 'x', receivers: RECEIVERS, senders: { sms: SMS, bale: BALE }, files: { bale: othersBaleFile } }),
      400,
    );
    await expectRefused(
      v3({
        message: 'x',
        receivers: RECEIVERS,
        senders: { sms: SMS, bale: BALE, rubika: RUBIKA },
        files: { bale: baleFile, rubika: othersRubikaFile },
      }),
      400,
    );
    expect(counts(server.core, acme)).toEqual(before);
  });
});

describe("file_id of another provider's (400)", () => {
  it.each<[string, () => unknown]>([
    ['a bale file from the rubika line', () => ({ sender: RUBIKA, file_id: baleFile })],
    ['a bale file from an SMS line', () => ({ sender: SMS, file_id: baleFile })],
    ['a rubika file from the bale line', () => ({ sender: BALE, file_id: rubikaFile })],
    ['a rubika file from an SMS line', () => ({ sender: SMS, file_id: rubikaFile })],
  ])('version 2: %s', async (_label, fields) => {
    const before = counts(server.core, acme);
    await expectRefused(v2({ message: 'x', receivers: RECEIVERS, ...(fields() as object) }), 400);
    expect(counts(server.core, acme)).toEqual(before);
  });

  it.each<[string, () => unknown]>([
    [
      'a bale file on the rubika channel',
      () => ({ senders: { sms: SMS, rubika: RUBIKA }, files: { rubika: baleFile } }),
    ],
    ['a rubika file on the bale channel', () => ({ senders: { sms: SMS, bale: BALE }, files: { bale: rubikaFile } })],
    [
      'the two files swapped',
      () => ({ senders: { bale: BALE, rubika: RUBIKA }, files: { bale: rubikaFile, rubika: baleFile } }),
    ],
    ['a bale file for the SMS channel', () => ({ senders: { sms: SMS }, files: { sms: baleFile } })],
    [
      'a bale file while bale is not sent on',
      () => ({ senders: { sms: SMS, rubika: RUBIKA }, files: { bale: baleFile } }),
    ],
  ])('version 3: %s', async (_label, fields) => {
    const before = counts(server.core, acme);
    await expectRefused(v3({ message: 'x', receivers: RECEIVERS, ...(fields() as object) }), 400);
    expect(counts(server.core, acme)).toEqual(before);
  });
});

describe('file_id longer than 100 characters (400)', () => {
  const long = 'a'.repeat(101);
  it('is refused by version 2 and version 3 before anything else', async () => {
    const before = counts(server.core, acme);
    await expectRefused(v2({ message: 'x', sender: BALE, receivers: RECEIVERS, file_id: long }), 400);
    await expectRefused(
      v3({ message: 'x', receivers: RECEIVERS, senders: { bale: BALE }, files: { bale: long } }),
      400,
    );
    await expectRefused(
      v3({ message: 'x', receivers: RECEIVERS, senders: { rubika: RUBIKA }, files: { rubika: long } }),
      400,
    );
    // 100 characters pass validation and are then simply unknown: 400 too, from the file rule.
    await expectRefused(
      v3({ message: 'x', receivers: RECEIVERS, senders: { bale: BALE }, files: { bale: 'a'.repeat(100) } }),
      400,
    );
    expect(counts(server.core, acme)).toEqual(before);
  });
});

describe('a version 3 send with files', () => {
  it('records each messenger channel’s file on its messages only, SMS messages without one', async () => {
    const result = await v3({
      message: 'عکس جدید',
      receivers: RECEIVERS,
      senders: { sms: SMS, bale: BALE, rubika: RUBIKA },
      files: { bale: baleFile, rubika: rubikaFile },
    });
    expectEnvelope(result, 200);
    expect(filesOf(result.body.entries)).toEqual([
      ['sms', null],
      ['sms', null],
      ['bale', baleFile],
      ['bale', baleFile],
      ['rubika', rubikaFile],
      ['rubika', rubikaFile],
    ]);
    // Messenger texts unchanged with a file as without.
    expect(result.body.entries[2].message).toBe('عکس جدید');
  });

  it('a file on one messenger channel leaves the other without one; files null or absent are none', async () => {
    const one = await v3({
      message: 'x',
      receivers: RECEIVERS.slice(0, 1),
      senders: { bale: BALE, rubika: RUBIKA },
      files: { rubika: rubikaFile },
    });
    expectEnvelope(one, 200);
    expect(filesOf(one.body.entries)).toEqual([
      ['bale', null],
      ['rubika', rubikaFile],
    ]);
    for (const files of [null, {}, { bale: null }]) {
      const none = await v3({ message: 'x', receivers: RECEIVERS.slice(0, 1), senders: { bale: BALE }, files });
      expectEnvelope(none, 200);
      expect(filesOf(none.body.entries)).toEqual([['bale', null]]);
    }
  });

  it('the same file may go with several sends', async () => {
    for (let i = 0; i < 2; i++)
      expectEnvelope(
        await v3({ message: 'x', receivers: RECEIVERS, senders: { bale: BALE }, files: { bale: baleFile } }),
        200,
      );
  });
});

describe('the upload as documented', () => {
  it('OpenAPI names the field, every accepted type, the size limit and the 201 answer the server enforces', async () => {
    const doc: any = await (await fetch(`${server.url}/openapi.json`)).json();
    const upload = doc.paths['/upload-file/{provider}'].post;
    expect(upload.parameters[0].schema.enum).toEqual(['bale', 'rubika']);
    const form = upload.requestBody.content['multipart/form-data'];
    expect(form.schema.required).toEqual(['file']);
    expect(form.schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    const text = `${upload.summary} ${upload.description}`;
    for (const extension of ALLOWED_FILE_EXTENSIONS) expect(text).toContain(extension);
    expect(text).toContain(`${MAX_FILE_BYTES / 1024 / 1024} MB`);
    expect(text).toContain(String(MAX_FILE_BYTES));
    expect(upload.responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/FileUploadResponse',
    });
    expect(upload.responses['201'].content['application/json'].example.return.status).toBe(200);
    for (const code of ['400', '401', '403', '414']) expect(upload.responses[code], code).toBeDefined();
    // What is documented is what is enforced: each type in any case passes, the limit exactly.
    for (const extension of ALLOWED_FILE_EXTENSIONS)
      expect((await uploadFile(server.url, 'rubika', { name: `f.${extension.toUpperCase()}` })).status).toBe(201);
    expectError(await uploadFile(server.url, 'bale', { name: 'f.webp' }), 400);
    expect((await uploadFile(server.url, 'bale', { bytes: new Uint8Array(MAX_FILE_BYTES) })).status).toBe(201);
    expectError(await uploadFile(server.url, 'bale', { bytes: new Uint8Array(MAX_FILE_BYTES + 1) }), 414);
  });
});
