import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  QUOTE_AFTER_MS,
  SAVE_AFTER_MS,
  campaignEditorSelectors,
  createCampaignEditorStore,
  createInput,
  emptyFields,
} from './campaignEditor';
import { fakeApi, line, until } from '../test/fakes';
import { CampaignDraftFieldsSchema, type CampaignDraftFields, type CampaignQuote } from '../../../shared/campaigns';
import type { FakeHandlers, InputOf } from '../../../shared/ipc';

const quoteOf = (overrides: Partial<CampaignQuote> = {}): CampaignQuote => ({
  audience: { segments: [], included: 3, duplicates: 0, excluded: 0, opted_out: 0, filtered_out: 0, recipients: 3 },
  columns: ['PHONE_NUMBER'],
  placeholders: [],
  links: [],
  provider: 'sms',
  samples: [],
  total_pages: 3,
  total_cost_rials: 4500,
  credit_rials: 1_000_000,
  enough_credit: true,
  send_at: 0,
  estimated_last_message_at: null,
  problem: null,
  track_links: true,
  monthly: null,
  ...overrides,
});

/** A fake core for the editor: drafts in a map, quotes from `quote`, every call recorded. */
function fakeCore(
  quote: (input: InputOf<'campaigns:quote'>) => CampaignQuote | Promise<CampaignQuote> = () => quoteOf(),
  handlers: FakeHandlers = {},
) {
  const drafts = new Map<number, CampaignDraftFields>();
  let nextId = 1;
  const draft = (id: number) => ({
    draft_id: id,
    account_id: 1,
    fields: drafts.get(id)!,
    created_at: 0,
    updated_at: 0,
  });
  const fake = fakeApi({
    'lines:list': () => [line({ number: 'api_only', can_send_panel_campaign: false }), line({ id: 2, number: '3000' })],
    'segments:list': () => [],
    'campaigns:draftSave': ({ draft_id, fields }) => {
      const id = draft_id ?? nextId++;
      drafts.set(id, CampaignDraftFieldsSchema.parse(fields));
      return draft(id);
    },
    'campaigns:draftGet': ({ draft_id }) => {
      if (!drafts.has(draft_id))
        throw { code: 400, message: 'پارامترها ناقص هستند', detail: `draft ${draft_id} unknown` };
      return draft(draft_id);
    },
    'campaigns:draftDelete': ({ draft_id }) => ({ deleted: drafts.delete(draft_id) }),
    'campaigns:quote': quote,
    'campaigns:create': () => ({ campaign_id: 7, execution_id: 70, execution_status: 'SCHEDULED' as const }),
    ...handlers,
  });
  const calls = (channel: string) => fake.transport.calls.filter((c) => c.channel === channel);
  return { ...fake, drafts, calls };
}

async function openedEditor(core: ReturnType<typeof fakeCore>, draftId: number | null = null) {
  const store = createCampaignEditorStore(core.api);
  store.getState().setAccount(1);
  await until(store, (s) => s.lines.length > 0);
  await store.getState().open(draftId);
  return store;
}

describe('campaign editor store, drafts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('presets the first campaign line without saving, creates the draft on the first change, then updates it', async () => {
    const core = fakeCore();
    const store = await openedEditor(core);
    expect(store.getState().fields.sender).toBe('3000');
    await vi.advanceTimersByTimeAsync(SAVE_AFTER_MS * 2);
    expect(core.calls('campaigns:draftSave')).toHaveLength(0);
    expect(store.getState().save).toBe('idle');

    store.getState().update({ name: 'N' });
    // The first change is written at once: a reload finds the draft.
    await until(store, (s) => s.draftId !== null);
    expect(core.calls('campaigns:draftSave')[0]!.input).toMatchObject({ account_id: 1, fields: { name: 'N' } });
    expect(core.calls('campaigns:draftSave')[0]!.input).not.toHaveProperty('draft_id');
    expect(store.getState().save).toBe('saved');

    for (const name of ['No', 'Now', 'Nowr', 'Nowruz']) {
      store.getState().update({ name });
      await vi.advanceTimersByTimeAsync(SAVE_AFTER_MS / 2);
    }
    expect(core.calls('campaigns:draftSave')).toHaveLength(1);
    expect(store.getState().save).toBe('pending');
    await vi.advanceTimersByTimeAsync(SAVE_AFTER_MS);
    expect(core.calls('campaigns:draftSave')).toHaveLength(2);
    expect(core.calls('campaigns:draftSave')[1]!.input).toMatchObject({ draft_id: 1, fields: { name: 'Nowruz' } });
    expect(core.drafts.get(1)?.name).toBe('Nowruz');
    expect(store.getState().save).toBe('saved');
  });

  it('writes changes typed while the draft is being created into that draft, not a second one', async () => {
    let answer: () => void = () => {};
    const core = fakeCore();
    const store = await openedEditor(core);
    const created = new Promise<void>((resolve) => (answer = resolve));
    const save = core.api.invoke.bind(core.api);
    // The first write is slow.
    vi.spyOn(core.api, 'invoke').mockImplementation(async (channel, ...args) => {
      if (channel === 'campaigns:draftSave' && core.calls('campaigns:draftSave').length === 0) await created;
      return save(channel, ...(args as [never]));
    });
    store.getState().update({ name: 'a' });
    store.getState().update({ template_body: 'hello' });
    await vi.advanceTimersByTimeAsync(SAVE_AFTER_MS * 2);
    answer();
    await until(store, (s) => s.draftId !== null);
    await vi.advanceTimersByTimeAsync(SAVE_AFTER_MS * 2);
    const saves = core.calls('campaigns:draftSave');
    expect(saves).toHaveLength(2);
    expect(saves[1]!.input).toMatchObject({ draft_id: 1, fields: { name: 'a', template_body: 'hello' } });
    expect(core.drafts.size).toBe(1);
  });

  it('opens a saved draft and keeps the one it just created when the route names it', async () => {
    const core = fakeCore();
    core.drafts.set(5, { ...emptyFields(), name: 'saved', sender: '3000' });
    const store = await openedEditor(core, 5);
    expect(store.getState()).toMatchObject({ draftId: 5, status: 'ready', save: 'saved' });
    expect(store.getState().fields.name).toBe('saved');

    const fresh = await openedEditor(core);
    fresh.getState().update({ name: 'new' });
    await until(fresh, (s) => s.draftId !== null);
    const id = fresh.getState().draftId!;
    fresh.getState().update({ name: 'newer' });
    // The page moves to #/campaigns/draft/<id> and opens it: what is typed stays.
    await fresh.getState().open(id);
    expect(fresh.getState().fields.name).toBe('newer');
    expect(core.calls('campaigns:draftGet')).toHaveLength(1);
  });

  it('says a draft is missing when it cannot be read', async () => {
    const core = fakeCore();
    const store = await openedEditor(core, 99);
    expect(store.getState().status).toBe('missing');
    expect(store.getState().saveError?.detail).toBe('draft 99 unknown');
    store.getState().update({ name: 'x' });
    expect(core.calls('campaigns:draftSave')).toHaveLength(0);
  });

  it('deletes the draft, waiting for its creation if still out', async () => {
    const core = fakeCore();
    const store = await openedEditor(core);
    store.getState().update({ name: 'gone' });
    expect(await store.getState().deleteDraft()).toBe(true);
    expect(core.drafts.size).toBe(0);
    store.getState().update({ name: 'gone again' });
    await vi.advanceTimersByTimeAsync(SAVE_AFTER_MS * 2);
    expect(core.calls('campaigns:draftSave')).toHaveLength(1);
  });
});

describe('campaign editor store, the quote', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks once changes pause, with one key for the editor, and moves the random sample on demand', async () => {
    const core = fakeCore();
    const store = await openedEditor(core);
    await vi.advanceTimersByTimeAsync(QUOTE_AFTER_MS * 2);
    const before = core.calls('campaigns:quote').length;
    for (const template_body of ['h', 'he', 'hel']) {
      store.getState().update({ template_body });
      await vi.advanceTimersByTimeAsync(QUOTE_AFTER_MS / 2);
    }
    await vi.advanceTimersByTimeAsync(QUOTE_AFTER_MS);
    const asked = core.calls('campaigns:quote').slice(before) as Array<{ input: InputOf<'campaigns:quote'> }>;
    expect(asked.map((c) => c.input.fields.template_body)).toEqual(['hel']);
    expect(campaignEditorSelectors.currentQuote(store.getState())).not.toBeNull();

    store.getState().anotherSample();
    await vi.advanceTimersByTimeAsync(QUOTE_AFTER_MS * 2);
    const all = core.calls('campaigns:quote') as Array<{ input: InputOf<'campaigns:quote'> }>;
    expect(all.at(-1)!.input.seed).toBe(2);
    expect(new Set(all.map((c) => c.input.quote_key)).size).toBe(1);
  });

  it('ignores a quote superseded by a newer one (409) and keeps the newer answer', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const core = fakeCore(async (input) => {
      if (input.fields.name === 'old') {
        await held;
        throw { code: 409, message: 'superseded' };
      }
      return quoteOf({ total_cost_rials: (input.fields.name ?? '').length });
    });
    const store = await openedEditor(core);
    store.getState().update({ name: 'old' });
    const old = store.getState().refreshQuote();
    store.getState().update({ name: 'newest' });
    await store.getState().refreshQuote();
    release();
    await old;
    expect(store.getState().quoteError).toBeNull();
    expect(store.getState().quote?.total_cost_rials).toBe('newest'.length);
    expect(campaignEditorSelectors.currentQuote(store.getState())).not.toBeNull();

    // Even as the last answer, 409 is no error to show: the quote shown stays until the next one.
    store.getState().update({ name: 'old' });
    const last = store.getState().refreshQuote();
    await last;
    expect(store.getState().quoteError).toBeNull();
    expect(store.getState().quote?.total_cost_rials).toBe('newest'.length);
  });

  it('shows other refusals of the quote', async () => {
    const core = fakeCore(() => {
      throw { code: 401, message: 'حساب کاربری غیرفعال شده است' };
    });
    const store = await openedEditor(core);
    await store.getState().refreshQuote();
    expect(store.getState().quoteError).toMatchObject({ code: 401 });
  });

  it('lists what stands before scheduling and allows it only on a current quote without them', async () => {
    let quote = quoteOf({ problem: { code: 400, field: 'name', detail: 'name is required' } });
    const core = fakeCore(() => quote);
    const store = await openedEditor(core);
    await store.getState().refreshQuote();
    const kinds = () => campaignEditorSelectors.blocks(store.getState()).map((b) => b.kind);
    // The editor says all it sees missing at once; the core's first refusal is not said twice.
    expect(kinds()).toEqual(['noName', 'noText', 'noSegments']);
    expect(campaignEditorSelectors.canSchedule(store.getState())).toBe(false);

    quote = quoteOf({ problem: { code: 412, field: 'sender', detail: 'ارسال کننده نامعتبر است' } });
    store.getState().update({ links: [{ actual_url: ' ', has_utm: false }] });
    await store.getState().refreshQuote();
    expect(campaignEditorSelectors.blocks(store.getState())).toEqual([
      { kind: 'noName' },
      { kind: 'noText' },
      { kind: 'linkEmpty', n: 1 },
      { kind: 'problem', problem: quote.problem },
      { kind: 'noSegments' },
    ]);

    quote = quoteOf({ enough_credit: false, credit_rials: 10, total_cost_rials: 4500 });
    store.getState().update({ name: 'n', template_body: 'hi', inclusion_segments: [3], links: [] });
    await store.getState().refreshQuote();
    expect(campaignEditorSelectors.blocks(store.getState())).toEqual([{ kind: 'noCredit', cost: 4500, credit: 10 }]);

    quote = quoteOf({ audience: { ...quoteOf().audience, recipients: 0 } });
    store.getState().update({ name: 'n2' });
    await store.getState().refreshQuote();
    expect(kinds()).toEqual(['noRecipients']);

    quote = quoteOf();
    store.getState().update({ name: 'n3' });
    await store.getState().refreshQuote();
    expect(campaignEditorSelectors.canSchedule(store.getState())).toBe(true);
    // A change not quoted yet: the button waits for the core's word on it.
    store.getState().update({ name: 'n4' });
    expect(campaignEditorSelectors.canSchedule(store.getState())).toBe(false);
  });
});

describe('campaign editor store, creation', () => {
  it('creates from the draft, passing its id, once however often it is asked', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const core = fakeCore();
    const store = await openedEditor(core);
    store.getState().update({ name: 'Nowruz', template_body: 'hi {{NAME}}', inclusion_segments: [3] });
    await until(store, (s) => s.draftId !== null);
    const invoke = core.api.invoke.bind(core.api);
    vi.spyOn(core.api, 'invoke').mockImplementation(async (channel, ...args) => {
      if (channel === 'campaigns:create') await held;
      return invoke(channel, ...(args as [never]));
    });
    const first = store.getState().create();
    const second = store.getState().create();
    expect(store.getState().creating).toBe(true);
    release();
    expect(await second).toBeNull();
    expect(await first).toEqual({ campaign_id: 7, execution_id: 70, execution_status: 'SCHEDULED' });
    const creates = core.calls('campaigns:create');
    expect(creates).toHaveLength(1);
    expect(creates[0]!.input).toMatchObject({
      account_id: 1,
      draft_id: 1,
      name: 'Nowruz',
      sender: '3000',
      template_body: 'hi {{NAME}}',
      inclusion_segments: [3],
    });
    // "Now" is this moment, with an offset (UTC's Z).
    expect((creates[0]!.input as { send_datetime: string }).send_datetime).toMatch(/Z$/);
    // Created: a third ask does nothing, and nothing more is saved.
    expect(await store.getState().create()).toBeNull();
    store.getState().update({ name: 'after' });
    expect(core.calls('campaigns:create')).toHaveLength(1);
    expect(core.calls('campaigns:draftSave')).toHaveLength(1);
  });

  it('keeps the draft and says why when creation is refused', async () => {
    const core = fakeCore(undefined, {
      'campaigns:create': () => {
        throw { code: 418, message: 'اعتبار شما کافی نمی‌باشد' };
      },
    });
    const store = await openedEditor(core);
    store.getState().update({ name: 'short of credit' });
    await until(store, (s) => s.draftId !== null);
    expect(await store.getState().create()).toBeNull();
    expect(store.getState()).toMatchObject({ creating: false, createError: { code: 418 } });
    expect(core.drafts.size).toBe(1);
    // Still a draft: changes are saved, and it can be tried again.
    store.getState().update({ name: 'topped up' });
    await store.getState().flushSave();
    expect(core.drafts.get(1)?.name).toBe('topped up');
    await store.getState().create();
    expect(core.calls('campaigns:create')).toHaveLength(2);
  });

  it('maps the fields: a picked time stays, "now" becomes the moment, no draft id for an unsaved one', () => {
    const fields = { ...emptyFields(), send_datetime: '2025-03-21T10:00:00+03:30', time_zone: 'Asia/Tehran' };
    expect(createInput(1, null, fields, new Date(0))).not.toHaveProperty('draft_id');
    expect(createInput(1, 4, fields, new Date(0))).toMatchObject({
      draft_id: 4,
      send_datetime: '2025-03-21T10:00:00+03:30',
    });
    expect(createInput(1, 4, emptyFields(), new Date(0)).send_datetime).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('campaign editor store, short links no phone could open', () => {
  const settings = (base: string | null) => ({
    short_link_base: base,
    effective_base: base ?? 'http://127.0.0.1:8080',
    link_length: (base ?? 'http://127.0.0.1:8080').length + 11,
  });
  const refusal = {
    code: 400,
    field: 'links',
    detail: 'links: short links under http://127.0.0.1:8080 cannot be opened from a phone',
    reason: 'short_link_base_unreachable',
  };

  it('sets a public base and asks the core again; a base the core refuses stays as its fault', async () => {
    let base: string | null = null;
    const core = fakeCore(() => quoteOf({ problem: base === null ? refusal : null }), {
      'campaigns:linkSettings': () => settings(base),
      'campaigns:setLinkSettings': ({ short_link_base }) => {
        if (short_link_base === 'not an address')
          throw { code: 400, message: 'پارامترها ناقص هستند', reason: 'short_link_base' };
        base = short_link_base;
        return settings(base);
      },
    });
    const store = await openedEditor(core);
    await until(store, (s) => s.quote !== null);
    expect(store.getState().quote?.problem?.reason).toBe('short_link_base_unreachable');
    await store.getState().loadLinkSettings();
    expect(store.getState().linkSettings?.effective_base).toBe('http://127.0.0.1:8080');

    expect(await store.getState().setLinkBase('not an address')).toBe(false);
    expect(store.getState().linkBaseError).toMatchObject({ reason: 'short_link_base' });
    expect(await store.getState().setLinkBase('https://links.example.com')).toBe(true);
    expect(store.getState()).toMatchObject({ linkBaseError: null, savingLinkBase: false });
    await until(store, (s) => s.quote?.problem === null);
    expect(store.getState().linkSettings?.effective_base).toBe('https://links.example.com');
  });

  it('creates the campaign with untracked links once the user chooses them', async () => {
    const core = fakeCore();
    const store = await openedEditor(core);
    store.getState().update({ name: 'untracked', track_links: false });
    await store.getState().create();
    expect(core.calls('campaigns:create')[0]!.input).toMatchObject({ name: 'untracked', track_links: false });
    expect(createInput(1, null, emptyFields(), new Date(0)).track_links).toBe(true);
  });
});
