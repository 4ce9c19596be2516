// Links on a real line over real HTTP with the real core: POST /v2/sms/campaigns refuses short links
// no phone could open (400, the spec's envelope with its Persian message) and takes track_links as
// our extension in every encoding; a short link that leads nowhere answers a small page in the
// visitor's language (Persian right to left, or English), never the API's plain text.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { ApiCode } from '../../shared/status';
import { startServer, type TestServer } from '../helpers/server';
import { accountId, expectError, phones, request } from '../api-v2/support';
import { campaignFields, createCampaign, createSegment, get, executionUrl, type Encoding } from './support';

let server: TestServer;
let url: string;
let segment: number;
const REAL = '30001111';
const LINK = 'https://shop.example/sale';

beforeAll(async () => {
  server = await startServer({ clock: new ManualClock(Date.UTC(2026, 10, 23, 8, 0)) });
  url = server.url;
  server.core.accounts.setGateway(accountId(server.core, 'acme'), {
    number: REAL,
    kind: 'kavenegar-v1',
    base_url: 'http://127.0.0.1:9',
  });
  segment = await createSegment(url, phones(3, 200));
}, 60_000);
afterAll(() => server.close());

const withLink = (extra: Record<string, string> = {}) =>
  campaignFields({
    template_body: `Friday sale: ${LINK}`,
    inclusion_segments: String(segment),
    'links[0]actual_url': LINK,
    'links[0]has_utm': 'true',
    ...extra,
  });

const campaigns = () => server.core.db.prepare('SELECT count(*) FROM campaigns').pluck().get() as number;

describe('POST /v2/sms/campaigns on a line with a real provider', () => {
  it.each<Encoding>(['urlencoded', 'multipart', 'json'])(
    'refuses short links under the local server’s own address (%s): 400, nothing created',
    async (encoding) => {
      const before = campaigns();
      expectError(await createCampaign(url, withLink(), { encoding }), ApiCode.BadRequest);
      expect(campaigns()).toBe(before);
    },
  );

  it('refuses a loopback or private public base too, and takes a public one', async () => {
    for (const base of ['http://localhost:8080', 'http://[::1]:8080', 'http://192.168.1.5', 'http://10.0.0.2']) {
      server.core.campaigns.setShortLinkBase(base);
      expectError(await createCampaign(url, withLink()), ApiCode.BadRequest);
    }
    server.core.campaigns.setShortLinkBase('https://links.example.com');
    expect((await createCampaign(url, withLink())).status).toBe(201);
    server.core.campaigns.setShortLinkBase(null);
  });

  it('takes track_links=false, in every encoding, and reports it', async () => {
    for (const encoding of ['urlencoded', 'multipart', 'json'] as const) {
      const created = await createCampaign(url, withLink({ track_links: 'false' }), { encoding });
      expect(created.status, created.text).toBe(201);
      const report = await get(executionUrl(url, created.body.entries.execution_id));
      expect(report.body.entries.track_links).toBe(false);
      expect(report.body.entries.clicks).toBe(0);
    }
    // A JSON body may say it as a boolean.
    const json = await request(`${url}/v2/sms/campaigns`, {
      method: 'POST',
      headers: { authorization: 'Bearer k-acme-1', 'content-type': 'application/json' },
      body: JSON.stringify({ ...withLink(), track_links: false }),
    });
    expect(json.status, json.text).toBe(201);
  });

  it('refuses a track_links that is neither true nor false, on any line', async () => {
    expectError(await createCampaign(url, withLink({ track_links: 'off', sender: '30002222' })), ApiCode.BadRequest);
  });

  it('keeps the simulator’s lines as they were: the local address is fine there', async () => {
    const created = await createCampaign(url, withLink({ sender: '30002222' }));
    expect(created.status, created.text).toBe(201);
    const report = await get(executionUrl(url, created.body.entries.execution_id));
    expect(report.body.entries.track_links).toBe(true);
  });

  it('documents track_links and the refusal in OpenAPI', async () => {
    const doc = (await request(`${url}/openapi.json`)).body;
    const create = doc.paths['/v2/sms/campaigns'].post;
    for (const type of ['multipart/form-data', 'application/x-www-form-urlencoded']) {
      const field = create.requestBody.content[type].schema.properties.track_links;
      expect(field.enum).toEqual(['true', 'false']);
      expect(field.description).toMatch(/^Extension:/);
    }
    expect(create.responses['400'].description).toMatch(/no phone can open/);
    expect(doc.paths['/l/{code}'].get.responses['404'].content['text/html']).toBeDefined();
    expect(doc.components.schemas.ExecutionReport.properties.track_links).toBeDefined();
  });
});

describe('a short link that leads nowhere', () => {
  const visit = (path: string, acceptLanguage?: string) =>
    fetch(`${url}${path}`, {
      redirect: 'manual',
      headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage },
    });

  it.each([
    ['fa-IR,fa;q=0.9,en-US;q=0.8', 'fa', 'rtl'],
    ['fa', 'fa', 'rtl'],
    ['de-DE, fa;q=0.5, en;q=0.4', 'fa', 'rtl'],
    ['en-US,en;q=0.9,fa;q=0.8', 'en', 'ltr'],
    ['fa;q=0, en', 'en', 'ltr'],
    ['de-DE', 'en', 'ltr'],
    [undefined, 'en', 'ltr'],
  ])('Accept-Language %s: 404, a page in %s (%s)', async (acceptLanguage, lang, dir) => {
    for (const code of ['zzzzzzzz', 'ABCDEFGH', 'short']) {
      const response = await visit(`/l/${code}`, acceptLanguage);
      const page = await response.text();
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-language')).toBe(lang);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(page).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${lang}" dir="${dir}">`));
      expect(page).toContain(
        lang === 'fa' ? '<title>این پیوند کار نمی‌کند</title>' : '<title>This link does not work</title>',
      );
      // Its one style is the one its policy allows, and nothing else may load.
      const style = /<style>(.*)<\/style>/.exec(page)![1]!;
      const hash = createHash('sha256').update(style).digest('base64');
      expect(response.headers.get('content-security-policy')).toContain(`style-src 'sha256-${hash}'`);
      expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
      expect(page).not.toMatch(/<script|src=|href=/);
    }
  });

  it('is no visit: nothing is counted, and other unknown paths keep the API’s plain 404', async () => {
    const clicks = server.core.db.prepare('SELECT count(*) FROM campaign_clicks').pluck();
    const before = clicks.get();
    await (await visit('/l/zzzzzzzz', 'fa')).text();
    expect(clicks.get()).toBe(before);
    const other = await visit('/v2/nothing-here', 'fa');
    expect(other.status).toBe(404);
    expect(await other.text()).toBe('404 page not found');
  });
});
