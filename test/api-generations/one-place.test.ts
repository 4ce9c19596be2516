// "One place for each rule" (issue 14): versions 1, 2 and 3 map their wire formats onto the one
// acceptance path and hold no copy of a rule. The opt-out phrase is replaced in its one module
// (shared/optout-phrase.ts) and a price in the one settings value; every generation follows.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEY, post, startServer, type TestServer } from '../helpers/server';

// The one place the phrase is written, changed for this file only.
vi.mock('../../shared/optout-phrase', () => ({ OPT_OUT_PHRASE: '\nانصراف۹۹' }));

const RECEIVER = '09120000001';

describe('one place for each rule: v1, v2 and v3 follow the phrase and the prices', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  async function v1(message: string) {
    const query = new URLSearchParams({ receptor: RECEIVER, sender: '30001111', message });
    const response = await fetch(`${server.url}/v1/${KEY}/sms/send.json?${query}`);
    const body = (await response.json()) as {
      return: { status: number };
      entries: Array<{ message: string; cost: number }>;
    };
    expect(body.return.status).toBe(200);
    return body.entries[0] as { message: string; cost: number };
  }
  async function v2(message: string) {
    const { body } = await post(`${server.url}/v2/sms/send`, { message, sender: '30001111', receivers: [RECEIVER] });
    expect(body.return.status).toBe(200);
    return body.entries[0] as { message: string; cost: number };
  }
  async function v3(message: string) {
    const { body } = await post(`${server.url}/v3/sms/send`, {
      message,
      receivers: [RECEIVER],
      senders: { sms: '30001111', bale: 'bale_acme_bot' },
    });
    expect(body.return.status).toBe(200);
    const sms = body.entries.find((entry: { channel: string }) => entry.channel === 'sms');
    const bale = body.entries.find((entry: { channel: string }) => entry.channel === 'bale');
    return { sms: sms as { message: string; cost: number }, bale: bale as { message: string; cost: number } };
  }

  it('the phrase from its one module ends the SMS text of all three generations, and no messenger text', async () => {
    const [one, two, three] = [await v1('سلام'), await v2('سلام'), await v3('سلام')];
    for (const entry of [one, two, three.sms]) expect(entry.message).toBe('سلام\nانصراف۹۹');
    expect(three.bale.message).toBe('سلام');
  });

  it('a page price changed in the settings is what all three generations charge', async () => {
    const before = [(await v1('hello')).cost, (await v2('hello')).cost, (await v3('hello')).sms.cost];
    expect(new Set(before).size).toBe(1);
    const pricing = server.core.settings.pricing();
    server.core.settings.setPricing({ ...pricing, sms_page_tomans: pricing.sms_page_tomans * 3 });
    const after = [(await v1('hello')).cost, (await v2('hello')).cost, (await v3('hello')).sms.cost];
    expect(after).toEqual(before.map((cost) => cost * 3));
    const messenger = server.core.settings.pricing().messenger_message_tomans;
    server.core.settings.setPricing({ ...server.core.settings.pricing(), messenger_message_tomans: messenger + 7 });
    expect((await v3('hello')).bale.cost).toBe((messenger + 7) * 10);
  });
});
