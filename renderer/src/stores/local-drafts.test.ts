import { afterEach, describe, expect, it } from 'vitest';
import { createStores, type Stores } from './index';
import { draftKey, keepDraftsLocally, type DraftStorage } from './local-drafts';
import { CampaignDraftFieldsSchema, type CampaignDraftFields } from '../../../shared/campaigns';
import type { AppSettings } from '../api';
import { fakeApi, line, until } from '../test/fakes';

/** A browser's storage, kept between two "pages" of a test. */
function memoryStorage(): DraftStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** A fake core whose campaign drafts can refuse to be written (the server away). */
function fakeCore() {
  const drafts = new Map<number, CampaignDraftFields>();
  const state = { away: false };
  const fake = fakeApi({
    'lines:list': () => [line({ number: '3000' })],
    'segments:list': () => [],
    'pricing:get': () => ({ sms_page_tomans: 150, messenger_message_tomans: 50 }),
    'campaigns:quote': () => {
      throw { code: 500, message: 'no quote here' };
    },
    'campaigns:draftSave': ({ draft_id, fields }) => {
      if (state.away) throw { code: 503, message: 'away' };
      const id = draft_id ?? drafts.size + 1;
      drafts.set(id, CampaignDraftFieldsSchema.parse(fields));
      return { draft_id: id, account_id: 1, fields: drafts.get(id)!, created_at: 0, updated_at: 0 };
    },
  });
  return { ...fake, drafts, state };
}

/** A page: the stores, signed in to `dataDir`'s account 1, keeping drafts in `storage`. */
function page(core: ReturnType<typeof fakeCore>, storage: DraftStorage, dataDir = '/shop/data'): Stores {
  const stores = createStores(core.api, 'en', null);
  stops.push(keepDraftsLocally(stores, storage));
  stores.session.setState({ settings: { data_dir: dataDir } as AppSettings, accountId: 1 });
  return stores;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe('drafts kept in the browser', () => {
  it('brings back Compose and email drafts in the same workspace and account, and forgets them once emptied', async () => {
    const core = fakeCore();
    const storage = memoryStorage();
    const first = page(core, storage);
    first.compose.getState().setText('Friday sale');
    first.compose.getState().setReceiversText('09121234567');
    first.email.getState().setFields({ subject: 'Spring', html: '<p>Hi</p>' });
    await settle();
    expect(storage.items.has(draftKey('compose', `${encodeURIComponent('/shop/data')}.1`))).toBe(true);

    const second = page(core, storage);
    expect(second.compose.getState().text).toBe('Friday sale');
    expect(second.compose.getState().receiversText).toBe('09121234567');
    expect(second.email.getState().fields).toMatchObject({ subject: 'Spring', html: '<p>Hi</p>' });
    // Another workspace (or account) has its own.
    const elsewhere = page(core, storage, '/other/data');
    expect(elsewhere.compose.getState().text).toBe('');

    // Sent (the composer empties itself): nothing left to bring back.
    second.compose.getState().setText('');
    second.compose.getState().setReceiversText('');
    await settle();
    expect(page(core, storage).compose.getState().text).toBe('');
  });

  it('writes a campaign change the server could not take when the editor opens again', async () => {
    const core = fakeCore();
    const storage = memoryStorage();
    core.state.away = true;
    const first = page(core, storage);
    first.campaignEditor.getState().setAccount(1);
    await first.campaignEditor.getState().open(null);
    first.campaignEditor.getState().update({ name: 'Weekend sale' });
    await until(first.campaignEditor, (s) => s.save === 'failed');
    for (const stop of stops.splice(0)) stop(); // the page goes (its last changes written)
    expect(core.drafts.size).toBe(0);

    core.state.away = false;
    const second = page(core, storage);
    second.campaignEditor.getState().setAccount(1);
    await second.campaignEditor.getState().open(null);
    await until(second.campaignEditor, (s) => s.save === 'saved');
    expect(core.drafts.get(1)?.name).toBe('Weekend sale');
    expect(second.campaignEditor.getState().fields.name).toBe('Weekend sale');
    // Held by the workspace now: the browser keeps nothing of it.
    await settle();
    expect([...storage.items.keys()].filter((key) => key.includes('.campaign.'))).toEqual([]);
  });
});
