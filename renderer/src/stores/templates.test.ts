// The templates store: the current account's templates, by name; a form's action answers the
// refusal's sentence instead of setting `error`; an answer for an account no longer chosen is
// dropped. And the allow-list store: the whole new list goes through accounts:update, the session
// reads it back, and a refused entry is named in the sentence.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTemplatesStore } from './templates';
import { createAllowlistStore, THIS_COMPUTER } from './allowlist';
import { account, fakeApi, fakeTemplates, verifyTemplate } from '../test/fakes';
import { createClient, type Transport } from '../../../shared/ipc';
import type { Api } from '../api';
import { i18n, resources } from '../i18n';
import { en } from '../i18n/en';

beforeAll(async () => {
  await i18n.init({ resources, lng: 'en', fallbackLng: false, interpolation: { escapeValue: false } });
});

describe('templates store', () => {
  it('loads the account’s templates and keeps them by name through create, update and remove', async () => {
    const { api, transport } = fakeApi(fakeTemplates([verifyTemplate({ id: 1, name: 'otp' })]));
    const store = createTemplatesStore(api);
    await store.getState().load(1);
    expect(store.getState().templates.map((t) => t.name)).toEqual(['otp']);
    expect(await store.getState().create({ name: 'a-first', body: 'Code %token', sender: '30001111' })).toBeNull();
    expect(store.getState().templates.map((t) => t.name)).toEqual(['a-first', 'otp']);
    expect(transport.calls.at(-1)).toEqual({
      channel: 'templates:create',
      input: { account_id: 1, name: 'a-first', body: 'Code %token', sender: '30001111' },
    });
    expect(await store.getState().update(1, { name: 'zz', active: false })).toBeNull();
    expect(store.getState().templates.map((t) => [t.name, t.active])).toEqual([
      ['a-first', true],
      ['zz', false],
    ]);
    expect(transport.calls.at(-1)?.input).toEqual({ account_id: 1, id: 1, name: 'zz', active: false });
    expect(await store.getState().remove(1)).toBeNull();
    expect(store.getState().templates.map((t) => t.name)).toEqual(['a-first']);
  });

  it('answers a refusal to the form, leaving the list and `error` as they were', async () => {
    const { api } = fakeApi(fakeTemplates([verifyTemplate({ id: 1, name: 'otp' })]));
    const store = createTemplatesStore(api);
    await store.getState().load(1);
    const why = await store.getState().create({ name: 'otp', body: 'Code %token', sender: null });
    expect(why).toMatch(/template_exists/);
    expect(await store.getState().update(1, { body: 'no placeholder' })).toMatch(/template_body_needs_token/);
    expect(store.getState().templates).toEqual([verifyTemplate({ id: 1, name: 'otp' })]);
    expect(store.getState().error).toBeNull();
  });

  it('drops the answer for an account no longer chosen', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { api } = fakeApi({
      'templates:list': async ({ account_id }) => {
        if (account_id === 1) await gate;
        return [verifyTemplate({ account_id, name: `of-${account_id}` })];
      },
    });
    const store = createTemplatesStore(api);
    const first = store.getState().load(1);
    await store.getState().load(2);
    release();
    await first;
    expect(store.getState().templates.map((t) => t.name)).toEqual(['of-2']);
    await store.getState().load(null);
    expect(store.getState().templates).toEqual([]);
  });
});

/** A client whose accounts:update answers what the core answers (the fake transport drops reasons). */
function accountsApi(answer: (list: string[]) => { ok: true; list: string[] } | { ok: false; reason: string }) {
  const sent: string[][] = [];
  const transport: Transport = {
    async invoke(channel, input) {
      if (channel !== 'accounts:update') throw new Error(channel);
      const list = (input as { ip_allowlist: string[] }).ip_allowlist;
      sent.push(list);
      const result = answer(list);
      return result.ok
        ? { ok: true, value: account({ ip_allowlist: result.list }) }
        : { ok: false, error: { code: 400, message: 'پارامترها ناقص هستند', reason: result.reason } };
    },
    on: () => () => undefined,
  };
  return { api: { ...fakeApi().api, ...createClient(transport) } as Api, sent };
}

describe('allow-list store', () => {
  it('sends the whole list with the entries added or removed, then has the session read it back', async () => {
    const { api, sent } = accountsApi((list) => ({ ok: true, list }));
    let refreshed = 0;
    const store = createAllowlistStore(api, async () => void refreshed++);
    const acme = account({ ip_allowlist: ['10.0.0.0/8'] });
    expect(await store.getState().add(acme, [' 203.0.113.7 '])).toBeNull();
    expect(await store.getState().add(acme, [...THIS_COMPUTER])).toBeNull();
    expect(await store.getState().remove(acme, '10.0.0.0/8')).toBeNull();
    expect(sent).toEqual([['10.0.0.0/8', '203.0.113.7'], ['10.0.0.0/8', '127.0.0.1', '::1'], []]);
    expect(refreshed).toBe(3);
    expect(store.getState().busy).toBe(false);
  });

  it('names the entry the core refused, and reads nothing back', async () => {
    const { api } = accountsApi(() => ({ ok: false, reason: 'ip_allowlist_entry_invalid' }));
    let refreshed = 0;
    const store = createAllowlistStore(api, async () => void refreshed++);
    const why = await store.getState().add(account(), ['localhost']);
    expect(why).toBe(en.allowlist.invalid.replace('{{entry}}', 'localhost'));
    expect(refreshed).toBe(0);
  });
});
