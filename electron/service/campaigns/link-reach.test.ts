// Short links a phone can open, on a line that reaches phones: the address judgement alone, then
// the core's rule as creation, the editor's quote and an execution's start apply it, over a real
// core (SQLite in a temporary folder, the scheduler on a manual clock).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { CampaignDraftFieldsSchema, type CampaignForm } from '../../../shared/campaigns';
import { OPT_OUT_PHRASE } from '../../../shared/optout';
import { unreachableFromPhones } from './link-reach';

const REFUSED = [
  // The default base: the local server's own address.
  'http://127.0.0.1:8080',
  'http://127.45.6.7',
  // Other spellings of loopback the URL parser reads as 127.0.0.1.
  'http://127.1:8080',
  'http://2130706433',
  'http://0x7f.0.0.1',
  'http://localhost:8080',
  'http://LOCALHOST.',
  'http://chapar.localhost',
  'http://[::1]:8080',
  'http://[0:0:0:0:0:0:0:1]',
  'http://[::ffff:127.0.0.1]',
  'http://0.0.0.0:8080',
  'http://[::]',
  'http://10.0.0.5',
  'http://10.255.255.255',
  'http://172.16.0.1',
  'http://172.31.255.254',
  'http://192.168.1.20:8080',
  'https://192.168.0.1/links',
  'http://169.254.10.1',
  'http://100.64.0.1',
  'http://[fe80::1]',
  'http://[fd12:3456::1]',
  'http://[::ffff:192.168.1.1]',
  'http://shop-pc.local',
  'http://links.internal',
  'http://printer.home.arpa',
  'http://my-computer:8080',
];

const ALLOWED = [
  'https://links.example.com',
  'https://go.shop.ir/c',
  'http://172.15.255.255',
  'http://172.32.0.1',
  'http://11.0.0.1',
  'http://192.169.0.1',
  'http://5.160.10.20:8080',
  'http://[2a01:4f8::1]',
  'http://[::ffff:5.160.10.20]',
];

describe('unreachableFromPhones', () => {
  it.each(REFUSED)('refuses %s', (base) => {
    expect(unreachableFromPhones(base)).not.toBeNull();
  });

  it.each(ALLOWED)('allows %s', (base) => {
    expect(unreachableFromPhones(base)).toBeNull();
  });

  it('says which kind of address it is', () => {
    expect(unreachableFromPhones('http://127.0.0.1:8080')).toBe('loopback (127.0.0.0/8)');
    expect(unreachableFromPhones('http://[::1]')).toBe('loopback (::1)');
    expect(unreachableFromPhones('http://localhost')).toBe('loopback (localhost)');
    expect(unreachableFromPhones('http://192.168.1.1')).toBe('private (192.168.0.0/16)');
    expect(unreachableFromPhones('http://169.254.1.1')).toBe('link-local (169.254.0.0/16)');
    expect(unreachableFromPhones('http://[fe80::1]')).toBe('link-local (fe80::/10)');
  });
});

const cores = testCores();
const REAL = '30001111';
const SIMULATED = '30002222';
const LINK = 'https://shop.example/sale';

async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 8, 0));
  const core = cores.open({ clock, startScheduler: true });
  const account = core.accounts.findByName('acme')!.id;
  core.accounts.setGateway(account, { number: REAL, kind: 'kavenegar-v1', base_url: 'http://127.0.0.1:9' });
  const { segment_id } = core.uploads.create(account, [
    { phone_number: '09120000001', NAME: 'Sara' },
    { phone_number: '09120000002', NAME: 'Ali' },
  ]);
  await core.jobs.waitForIdle();
  const form = (overrides: Partial<CampaignForm> = {}): CampaignForm => ({
    sender: REAL,
    name: 'Friday',
    template_body: `Hi {{NAME}}, see ${LINK}`,
    send_datetime: '2026-11-27T10:00:00+03:30',
    inclusion_segments: [String(segment_id)],
    exclusion_segments: [],
    links: [{ index: 0, actual_url: LINK, has_utm: 'true' }],
    utm: {},
    ...overrides,
  });
  const refusal = (f: CampaignForm): ServiceError | null => {
    try {
      core.campaigns.create(account, f);
      return null;
    } catch (error) {
      if (error instanceof ServiceError) return error;
      throw error;
    }
  };
  return { core, clock, account, segment: segment_id, form, refusal };
}

describe('the rule in the core', () => {
  it('refuses every loopback and private base on a real line, allows it on the simulator', async () => {
    const { core, form, refusal } = await setup();
    for (const base of [null, ...REFUSED]) {
      core.campaigns.setShortLinkBase(base);
      const refused = refusal(form());
      expect(refused, `${base}`).not.toBeNull();
      expect(refused!.code).toBe(400);
      expect(refused!.reason).toBe('short_link_base_unreachable');
      expect(refused!.detail).toContain(core.campaigns.linkBase());
      expect(refusal(form({ sender: SIMULATED })), `${base} on the simulator`).toBeNull();
    }
    // Nothing was written by a refusal: only the simulator's campaigns exist.
    expect(core.db.prepare('SELECT DISTINCT sender FROM campaigns').pluck().all()).toEqual([SIMULATED]);
  });

  it('allows a public base, untracked links, and a text without links on a real line', async () => {
    const { core, form, refusal } = await setup();
    expect(refusal(form({ track_links: 'false' }))).toBeNull();
    // The address is listed but not in the text: it gets no short link, so no base is needed.
    expect(refusal(form({ template_body: 'Hi {{NAME}}, no link today' }))).toBeNull();
    expect(refusal(form({ links: [] }))).toBeNull();
    for (const base of ALLOWED) {
      core.campaigns.setShortLinkBase(base);
      expect(refusal(form()), base).toBeNull();
    }
  });

  it('refuses a track_links that is neither true nor false', async () => {
    const { form, refusal } = await setup();
    const refused = refusal(form({ track_links: 'no' }));
    expect(refused?.reason).toBe('campaign_track_links');
    expect(refused?.code).toBe(400);
  });

  it('names the refusal in the editor’s quote, and quotes untracked links as they will go out', async () => {
    const { core, account, segment } = await setup();
    const fields = CampaignDraftFieldsSchema.parse({
      name: 'Friday',
      sender: REAL,
      template_body: `Hi {{NAME}}, see ${LINK}`,
      inclusion_segments: [segment],
      links: [{ actual_url: LINK, has_utm: true }],
    });
    const quote = await core.campaigns.quote(account, fields);
    expect(quote.problem).toMatchObject({ code: 400, field: 'links', reason: 'short_link_base_unreachable' });
    expect(quote.track_links).toBe(true);
    const untracked = await core.campaigns.quote(account, { ...fields, track_links: false });
    expect(untracked.problem).toBeNull();
    expect(untracked.track_links).toBe(false);
    // No campaign yet: the first one will be number 1.
    const written = `${LINK}?utm_source=chapar&utm_medium=sms&utm_campaign=1`;
    expect(untracked.links[0]).toMatchObject({ in_body: true, short_example: written, redirect_to: written });
    expect(untracked.samples[0]!.text).toBe(`Hi Sara, see ${written}${OPT_OUT_PHRASE}`);
  });

  it('ends an execution FAILED, nothing sent, when the base stopped being public before it started', async () => {
    const { core, clock, account, form } = await setup();
    core.campaigns.setShortLinkBase('https://links.example.com');
    const created = core.campaigns.create(account, form({ send_datetime: '2026-11-23T09:00:00Z' }));
    core.campaigns.setShortLinkBase(null);
    clock.advance(2 * 3_600_000);
    await core.jobs.waitForIdle();
    const report = core.campaigns.report(account, created.execution_id);
    expect(report.execution_status).toBe('FAILED');
    expect(report.error).toMatch(/^links: short links under http:\/\/127\.0\.0\.1:8080 cannot be opened from a phone/);
    expect(report.sent).toBe(0);
    expect(report.reserved).toBe(0);
  });
});
