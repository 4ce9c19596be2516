// The campaign form's `file` part is bounded like a contact upload (issue 30): a file of exactly the
// limit is kept, one byte more is 414 in the spec's envelope with nothing created, and a file that
// never ends is refused as it arrives, not read whole. The OpenAPI document says so.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { CAMPAIGN_FILE_LIMIT_BYTES } from '../../electron/service/http/routes/campaigns';
import { CONTACTS_BODY_LIMIT_BYTES } from '../../electron/service/http/routes/contacts';
import { ApiCode } from '../../shared/status';
import { startServer, type TestServer } from '../helpers/server';
import { ENDLESS_BOUNDARY, postEndlessFile as postEndless } from '../helpers/endless-file';
import { expectError, request, type HttpResult } from '../api-v2/support';
import { campaignFields, createCampaign } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ clock: new ManualClock(Date.UTC(2026, 10, 23, 8, 0)) });
});
afterAll(() => server.close());

const campaignCount = () => (server.core.db.prepare('SELECT count(*) AS n FROM campaigns').get() as { n: number }).n;
const keptFiles = () => {
  const dir = path.join(server.dataDir, 'campaign-files');
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
};

/** A refused request: the envelope with entries [], no campaign written and no file kept. */
async function expectNothingCreated(make: () => Promise<HttpResult>, code: ApiCode): Promise<void> {
  const campaigns = campaignCount();
  const files = keptFiles();
  expectError(await make(), code);
  expect(campaignCount()).toBe(campaigns);
  expect(keptFiles()).toBe(files);
}

/** POST /v2/sms/campaigns as multipart with the campaign's fields and a `file` part that never ends. */
function postEndlessFile(url: string, giveUpAfter: number): Promise<HttpResult & { written: number }> {
  const boundary = ENDLESS_BOUNDARY;
  const fields = Object.entries(campaignFields())
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const head = `${fields}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n\r\n`;
  return postEndless(`${url}/v2/sms/campaigns`, head, giveUpAfter);
}

describe('POST /v2/sms/campaigns: the file part is bounded (issue 30)', () => {
  it('is bounded by the contact upload’s limit (one rule for contacts sent in one request)', () => {
    expect(CAMPAIGN_FILE_LIMIT_BYTES).toBe(CONTACTS_BODY_LIMIT_BYTES);
  });

  it('keeps a file of exactly the limit', async () => {
    const bytes = new Uint8Array(CAMPAIGN_FILE_LIMIT_BYTES).fill(0x61);
    const result = await createCampaign(server.url, campaignFields(), {
      encoding: 'multipart',
      file: { name: 'contacts.csv', bytes },
    });
    expect(result.status, result.text.slice(0, 300)).toBe(201);
    const row = server.core.db
      .prepare('SELECT file_size, file_path FROM campaigns WHERE id = ?')
      .get(result.body.entries.campaign_id) as { file_size: number; file_path: string };
    expect(row.file_size).toBe(CAMPAIGN_FILE_LIMIT_BYTES);
    expect(fs.statSync(path.join(server.dataDir, row.file_path)).size).toBe(CAMPAIGN_FILE_LIMIT_BYTES);
  }, 60_000);

  it('refuses one byte more with 414 in the envelope (Persian message, entries []), creating nothing', async () => {
    await expectNothingCreated(
      () =>
        createCampaign(server.url, campaignFields(), {
          encoding: 'multipart',
          file: { name: 'contacts.csv', bytes: new Uint8Array(CAMPAIGN_FILE_LIMIT_BYTES + 1) },
        }),
      ApiCode.TooLarge,
    );
  }, 60_000);

  it('refuses a file that never ends as it arrives, without reading it whole', async () => {
    const campaigns = campaignCount();
    const answer = await postEndlessFile(server.url, 4 * CAMPAIGN_FILE_LIMIT_BYTES);
    expectError(answer, ApiCode.TooLarge);
    // The answer came once the limit was passed, give or take what the sockets buffer.
    expect(answer.written).toBeGreaterThan(CAMPAIGN_FILE_LIMIT_BYTES);
    expect(answer.written).toBeLessThan(CAMPAIGN_FILE_LIMIT_BYTES + 16 * 1024 * 1024);
    expect(campaignCount()).toBe(campaigns);
    // The server goes on answering.
    expect((await request(`${server.url}/health`)).status).toBe(200);
  }, 60_000);

  it('documents the limit and its 414 in the OpenAPI document', async () => {
    const doc = (await request(`${server.url}/openapi.json`)).body;
    const create = doc.paths['/v2/sms/campaigns'].post;
    const file = create.requestBody.content['multipart/form-data'].schema.properties.file;
    expect(file.description).toContain(`${CAMPAIGN_FILE_LIMIT_BYTES} bytes`);
    expect(file.description).toContain('414');
    expect(create.responses['414']).toBeDefined();
  });
});
