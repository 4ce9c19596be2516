// POST /upload-file/{bale,rubika} (spec 4.5, 2.7): multipart upload answering 201 with
// return.status 200 and a UUID file_id; malformed multipart bodies are 400, never a 500.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { KEY, startServer, type TestServer } from '../helpers/server';
import { accountId, expectError, request, uploadFile } from './support';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ clock: new ManualClock() });
});
afterAll(() => server.close());

const raw = (provider: string, body: string, contentType: string) =>
  request(`${server.url}/upload-file/${provider}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': contentType },
    body,
  });

describe('file upload', () => {
  it.each([
    ['bale', 'photo.jpg', 'image/jpeg'],
    ['bale', 'ANIMATION.GIF', 'image/gif'],
    ['rubika', 'clip.mp4', 'video/mp4'],
    ['rubika', 'voice.opus', 'audio/ogg'],
  ])('%s accepts %s: 201, return.status 200, a UUID, the bytes kept on disk', async (provider, name, type) => {
    const bytes = new Uint8Array([1, 2, 3, 4, 5, 250, 251]);
    const result = await uploadFile(server.url, provider, { name, type, bytes });
    expect(result.status).toBe(201);
    expect(result.body.return).toEqual({ status: 200, message: 'تایید شد' });
    const id = result.body.entries.file_id;
    expect(id).toMatch(UUID);
    expect(fs.readFileSync(path.join(server.dataDir, 'files', id))).toEqual(Buffer.from(bytes));
    const row = server.core.db.prepare('SELECT account_id, provider, size FROM files WHERE id = ?').get(id);
    expect(row).toEqual({ account_id: accountId(server.core, 'acme'), provider, size: bytes.length });
  });

  it('gives every upload its own id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await uploadFile(server.url, 'bale')).body.entries.file_id);
    expect(ids.size).toBe(5);
  });

  it('refuses a file type the messengers do not take, a file without extension, and an empty file (400)', async () => {
    for (const name of ['script.exe', 'note.txt', 'noextension', 'archive.png.zip'])
      expectError(await uploadFile(server.url, 'bale', { name }), 400);
    expectError(await uploadFile(server.url, 'rubika', { bytes: new Uint8Array(0) }), 400);
  });

  it('keeps 15 MB and refuses more with 414', async () => {
    expect((await uploadFile(server.url, 'bale', { bytes: new Uint8Array(15 * 1024 * 1024) })).status).toBe(201);
    expectError(await uploadFile(server.url, 'bale', { bytes: new Uint8Array(15 * 1024 * 1024 + 1) }), 414);
  });

  it('refuses a body that is not multipart, or has no file part, with 400', async () => {
    expectError(await raw('bale', '{"file":"x"}', 'application/json'), 400);
    expectError(await raw('bale', 'file=x', 'application/x-www-form-urlencoded'), 400);
    const form = new FormData();
    form.append('file', 'just a text field');
    const fieldOnly = await request(`${server.url}/upload-file/bale`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    expectError(fieldOnly, 400);
  });

  it.each([
    [
      'data cut off',
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      'multipart/form-data; boundary=b',
    ],
    ['no boundary parameter', 'xx', 'multipart/form-data'],
    ['no boundary in the body', 'garbage', 'multipart/form-data; boundary=b'],
    ['an empty body', '', 'multipart/form-data; boundary=b'],
    [
      'headers without a blank line',
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n--b--',
      'multipart/form-data; boundary=b',
    ],
  ])('a malformed multipart body (%s) is 400, not 500', async (_label, body, contentType) => {
    expectError(await raw('bale', body, contentType), 400);
    expectError(await raw('rubika', body, contentType), 400);
  });

  it('a malformed multipart body on the JSON endpoints is 400 too', async () => {
    for (const path of ['/v2/sms/send', '/v2/sms/status']) {
      for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=b']) {
        const result = await request(`${server.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': contentType },
          body: 'garbage',
        });
        expectError(result, 400);
      }
    }
  });

  it('the server answers /health after all of it', async () => {
    expect((await request(`${server.url}/health`)).status).toBe(200);
  });
});
