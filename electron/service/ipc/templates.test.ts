// The templates' and the allow-list's IPC operations as Settings calls them: the core's refusals
// arrive with their reasons (what the UI translates), and one account's call cannot reach
// another's template.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { createDispatcher, type IpcDispatcher } from './dispatcher';
import { ipcCalls } from '../../../test/helpers/ipc';

let core: Core;
let dispatcher: IpcDispatcher;
let acme: number;
let other: number;
const { ok, refused } = ipcCalls(() => dispatcher);

beforeEach(() => {
  core = new Core({ dataDir: tempDir('chapar-templates-'), clock: new ManualClock(), startScheduler: false });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  acme = core.accounts.findByName('acme')!.id;
  other = core.accounts.findByName('other')!.id;
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

describe('templates over IPC', () => {
  it('lists, creates, updates and removes the account’s templates', async () => {
    const made = await ok('templates:create', {
      account_id: acme,
      name: 'otp',
      body: 'Code %token',
      sender: '30001111',
    });
    expect(made).toMatchObject({ account_id: acme, name: 'otp', sender: '30001111', active: true });
    expect(await ok('templates:list', { account_id: acme })).toEqual([made]);
    const off = await ok('templates:update', { account_id: acme, id: made.id, active: false, sender: null });
    expect(off).toMatchObject({ active: false, sender: null, body: 'Code %token' });
    expect(await ok('templates:remove', { account_id: acme, id: made.id })).toBeNull();
    expect(await ok('templates:list', { account_id: acme })).toEqual([]);
  });

  it('refuses with the core’s reasons, and keeps accounts apart', async () => {
    const bad = (input: object) =>
      refused('templates:create', { account_id: acme, name: 'otp', body: '%token', ...input });
    expect(await bad({ name: 'two words' })).toMatchObject({ code: 400, reason: 'template_name_invalid' });
    expect(await bad({ body: 'no code' })).toMatchObject({ code: 400, reason: 'template_body_needs_token' });
    expect(await bad({ body: '%token %token7' })).toMatchObject({ code: 400, reason: 'template_placeholder_unknown' });
    expect(await bad({ sender: '30009999' })).toMatchObject({ code: 412, reason: 'template_sender_not_owned' });
    await ok('templates:create', { account_id: acme, name: 'otp', body: '%token' });
    expect(await bad({})).toMatchObject({ code: 400, reason: 'template_exists' });
    const theirs = await ok('templates:create', { account_id: other, name: 'theirs', body: '%token' });
    expect(await refused('templates:update', { account_id: acme, id: theirs.id, active: false })).toMatchObject({
      code: 404,
      reason: 'template_not_found',
    });
    expect(await refused('templates:remove', { account_id: acme, id: theirs.id })).toMatchObject({ code: 404 });
    expect((await ok('templates:list', { account_id: other }))[0]?.active).toBe(true);
  });
});

describe('the allow-list over IPC', () => {
  it('saves entries in the core’s spelling and refuses one that is no address', async () => {
    const saved = await ok('accounts:update', { id: acme, ip_allowlist: ['127.0.0.1', ' ::FFFF:127.0.0.1', '0:0::1'] });
    expect(saved.ip_allowlist).toEqual(['127.0.0.1', '::1']);
    expect(await refused('accounts:update', { id: acme, ip_allowlist: ['::1', 'localhost'] })).toMatchObject({
      code: 400,
      reason: 'ip_allowlist_entry_invalid',
    });
    expect(await refused('accounts:create', { name: 'new', ip_allowlist: ['1.2.3.4/40'] })).toMatchObject({
      reason: 'ip_allowlist_entry_invalid',
    });
    expect(core.accounts.get(acme).ip_allowlist).toEqual(['127.0.0.1', '::1']);
  });
});
