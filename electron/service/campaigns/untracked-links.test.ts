// Untracked links (track_links false): each link written in the text as its own address with the
// UTM tags a visit of a short link would be redirected with, no code, no click. The text rule
// alone, then a campaign run over a real core (SQLite, the scheduler on a manual clock).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../clock';
import { testCores } from '../../../test/helpers/core';
import { OPT_OUT_PHRASE } from '../../../shared/optout';
import { campaignUtm, LinkCodes, redirectAddress, taggedAddress } from './links';
import { compileTemplate, TextBuilder, untrackedLinks } from './template';

describe('the address an untracked link is written as', () => {
  const utm = { source: 'news letter', medium: 'sms', campaign: '12' };

  it('is the address as typed with the UTM tags of the redirect, or the address alone without has_utm', () => {
    expect(taggedAddress('https://shop.ir/a?x=1&utm_source=old#top', utm)).toBe(
      'https://shop.ir/a?x=1&utm_source=news%20letter&utm_medium=sms&utm_campaign=12#top',
    );
    expect(taggedAddress('shop.ir/sale', null)).toBe('shop.ir/sale');
    // The text keeps what people typed (no scheme added, Persian as written); the redirect makes it ASCII.
    expect(taggedAddress('shop.ir/حراج', utm)).toBe(
      'shop.ir/حراج?utm_source=news%20letter&utm_medium=sms&utm_campaign=12',
    );
    expect(redirectAddress('shop.ir/حراج', utm)).toBe(
      `https://shop.ir/${encodeURIComponent('حراج')}?utm_source=news%20letter&utm_medium=sms&utm_campaign=12`,
    );
  });

  it('fills every recipient’s text with no link left to code', () => {
    const links = [
      { idx: 0, actual_url: 'https://shop.ir/a', has_utm: true },
      { idx: 1, actual_url: 'https://shop.ir/b', has_utm: false },
    ];
    const template = untrackedLinks(
      compileTemplate('{{NAME}}: https://shop.ir/a and https://shop.ir/b', links),
      links,
      campaignUtm({ id: 7, utm_source: 'chapar', utm_medium: 'sms', utm_campaign: 'c-{id}' }),
    );
    expect(template.links).toEqual([]);
    const builder = new TextBuilder(template, { 1: ['NAME'] }, 'http://127.0.0.1:8080');
    expect(builder.hasLinks).toBe(false);
    expect(builder.text('09120000001', 1, 'Sara')).toBe(
      'Sara: https://shop.ir/a?utm_source=chapar&utm_medium=sms&utm_campaign=c-7 and https://shop.ir/b',
    );
  });
});

const cores = testCores();

describe('an untracked campaign', () => {
  it('sends the original addresses with their UTM tags, records no click and says so in its report', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 23, 8, 0));
    const core = cores.open({ clock, startScheduler: true });
    const account = core.accounts.findByName('acme')!.id;
    // A real line: untracked links need no public base.
    core.accounts.setGateway(account, { number: '30002222', kind: 'kavenegar-v1', base_url: 'http://127.0.0.1:9' });
    const { segment_id } = core.uploads.create(account, [
      { phone_number: '09120000001', NAME: 'Sara' },
      { phone_number: '09120000002', NAME: 'Ali' },
    ]);
    await core.jobs.waitForIdle();
    const body = 'Hi {{NAME}}: https://shop.example/sale?ref=sms#top and shop.example/about';
    const form = (sender: string, trackLinks: string) => ({
      sender,
      name: 'Friday',
      template_body: body,
      send_datetime: '2026-11-23T08:00:00Z',
      inclusion_segments: [String(segment_id)],
      exclusion_segments: [],
      links: [
        { index: 0, actual_url: 'https://shop.example/sale?ref=sms#top', has_utm: 'true' },
        { index: 1, actual_url: 'shop.example/about', has_utm: 'false' },
      ],
      utm: { utm_source: 'newsletter', utm_campaign: 'friday-{id}' },
      track_links: trackLinks,
    });
    const untracked = core.campaigns.create(account, form('30002222', 'false'));
    // A tracked one beside it on the simulator line, to show codes are handed out and visited.
    const tracked = core.campaigns.create(account, form('30001111', 'true'));
    await core.jobs.waitForIdle();

    const id = untracked.campaign_id;
    const texts = core.campaigns
      .messages(account, untracked.execution_id)
      .map((m) => [m.receptor, m.message, m.clicks]);
    expect(texts).toEqual([
      [
        '09120000001',
        `Hi Sara: https://shop.example/sale?ref=sms&utm_source=newsletter&utm_medium=sms&utm_campaign=friday-${id}#top` +
          ` and shop.example/about${OPT_OUT_PHRASE}`,
        0,
      ],
      [
        '09120000002',
        `Hi Ali: https://shop.example/sale?ref=sms&utm_source=newsletter&utm_medium=sms&utm_campaign=friday-${id}#top` +
          ` and shop.example/about${OPT_OUT_PHRASE}`,
        0,
      ],
    ]);
    const report = core.campaigns.report(account, untracked.execution_id);
    expect(report).toMatchObject({ sent: 2, clicks: 0, track_links: false });
    expect(core.campaigns.get(account, id).track_links).toBe(false);

    // No code of the untracked run leads anywhere, even one made with the workspace's own secret.
    const secret = core.settings.read('campaigns.link_secret', z.string(), '');
    const codes = new LinkCodes(secret);
    const forged = codes.encode({ executionId: untracked.execution_id, seq: 0, link: 0 });
    expect(core.campaigns.click(forged, 'phone')).toBeNull();
    // The tracked run's code of the same position does lead to the address, and is counted.
    const real = codes.encode({ executionId: tracked.execution_id, seq: 0, link: 0 });
    expect(core.campaigns.click(real, 'phone')).toBe(
      `https://shop.example/sale?ref=sms&utm_source=newsletter&utm_medium=sms&utm_campaign=friday-${tracked.campaign_id}#top`,
    );
    const clicks = core.db
      .prepare('SELECT execution_id, count(*) AS n FROM campaign_clicks GROUP BY execution_id')
      .all();
    expect(clicks).toEqual([{ execution_id: tracked.execution_id, n: 1 }]);
    expect(core.campaigns.report(account, tracked.execution_id).track_links).toBe(true);
  });
});
