// The campaign editor: one campaign being written, kept as a draft saved as the user types (the
// first change creates the draft, later ones replace its fields a moment after typing pauses), the
// core's quote of it (audience, sample texts, cost against credit, what creation would refuse),
// "send a test to my number", and the creation itself, which deletes the draft in the same step.
// Everything the editor shows is computed by the core; this store only holds and sequences it.
import { createStore, type StateCreator } from 'zustand/vanilla';
import { IpcCallError, type Api, type Line, type SegmentSummary } from '../api';
import { errorMessage } from './errors';
import { latestAnswer } from './latest-answer';
import { ApiCode } from '../../../shared/status';
import {
  CampaignDraftFieldsSchema,
  type CampaignDraftFields,
  type CampaignQuote,
  type CreateCampaignResult,
} from '../../../shared/campaigns';
import type { InputOf, OutputOf } from '../../../shared/ipc';

/** How long after the last change the draft is written. */
export const SAVE_AFTER_MS = 500;
/** How long after the last change the core is asked for its quote. */
export const QUOTE_AFTER_MS = 400;

/** A refusal of the service: its code and detail, so the UI can say it in the user's language. */
export interface EditorFault {
  code: number | null;
  detail: string | null;
  /** The core's reason (errors.reasons), when it gave one. */
  reason?: string | null;
  message: string;
}

export function faultOf(error: unknown): EditorFault {
  if (error instanceof IpcCallError)
    return { code: error.code, detail: error.detail ?? null, reason: error.reason ?? null, message: error.message };
  return { code: null, detail: null, message: errorMessage(error) };
}

/** idle: nothing typed yet; pending: a change waits for its save; then saving, saved, or failed. */
export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'failed';

export type SendTestResult = OutputOf<'campaigns:sendTest'>;
export type LinkSettings = OutputOf<'campaigns:linkSettings'>;

/** The core's refusal of short links no phone could open (campaigns/link-reach.ts). */
export const UNREACHABLE_LINKS = 'short_link_base_unreachable';

export const emptyFields = (): CampaignDraftFields => CampaignDraftFieldsSchema.parse({});

/** Lines a campaign may go out from in the app: active, with the panel's permission. */
export function campaignLines(lines: readonly Line[]): Line[] {
  return lines.filter((line) => line.active && line.can_send_panel_campaign);
}

export interface ContextSlice {
  accountId: number | null;
  lines: Line[];
  segments: SegmentSummary[];
  /** The account the editor works in (the session's); another account starts a new editor. */
  setAccount(accountId: number | null): void;
  /** Re-reads the account's segments (an import may have finished). */
  refreshSegments(): Promise<void>;
}

export interface DraftSlice {
  /** The draft being edited; null until the first change of a new campaign creates it. */
  draftId: number | null;
  /** loading: the draft is being read; missing: it could not be (deleted, another account's). */
  status: 'ready' | 'loading' | 'missing';
  fields: CampaignDraftFields;
  save: SaveState;
  saveError: EditorFault | null;
  /** Starts the editor on a draft, or on a new campaign (null). The draft just created here stays. */
  open(draftId: number | null): Promise<void>;
  /** A change by the user: shown at once, saved and quoted once typing pauses. */
  update(changes: Partial<CampaignDraftFields>): void;
  /** Writes a waiting change now (leaving the editor). */
  flushSave(): Promise<void>;
  deleteDraft(): Promise<boolean>;
}

export interface QuoteSlice {
  quote: CampaignQuote | null;
  /** The fields the quote answers (the quote is current while they are the editor's fields). */
  quotedFields: CampaignDraftFields | null;
  quoteError: EditorFault | null;
  /** The random sample's seed: "another random" moves it. */
  seed: number;
  refreshQuote(): Promise<void>;
  scheduleQuote(): void;
  anotherSample(): void;
}

export interface TestSlice {
  testing: boolean;
  testResult: SendTestResult | null;
  testError: EditorFault | null;
  sendTest(receptor: string): Promise<SendTestResult | null>;
}

export interface CreateSlice {
  creating: boolean;
  created: CreateCampaignResult | null;
  createError: EditorFault | null;
  /** Schedules the campaign (once: a second call while one is in flight does nothing). */
  create(): Promise<CreateCampaignResult | null>;
}

/**
 * The short links' base address (one setting of the workspace): read when the editor has to say
 * where its links would point, and set from the editor when the user gives a public one.
 */
export interface LinkBaseSlice {
  linkSettings: LinkSettings | null;
  savingLinkBase: boolean;
  linkBaseError: EditorFault | null;
  loadLinkSettings(): Promise<void>;
  /** Sets the public base (null: the local server's own); the quote is asked again. True when saved. */
  setLinkBase(base: string | null): Promise<boolean>;
}

export type CampaignEditorState = ContextSlice & DraftSlice & QuoteSlice & TestSlice & CreateSlice & LinkBaseSlice;

/** A fresh editor's state (the account's lines and segments are kept). */
const FRESH = {
  draftId: null,
  status: 'ready' as const,
  save: 'idle' as SaveState,
  saveError: null,
  quote: null,
  quotedFields: null,
  quoteError: null,
  seed: 1,
  testing: false,
  testResult: null,
  testError: null,
  creating: false,
  created: null,
  createError: null,
};

/**
 * The editor's life that outlives single actions: which editor is open (answers for an older one
 * are dropped), its quote key, and the save machinery (timer, the write in flight, changes since).
 */
interface Session {
  generation: number;
  quoteKey: string;
  timer: ReturnType<typeof setTimeout> | null;
  inFlight: Promise<void> | null;
  dirty: boolean;
  /** Created or deleted: nothing more is written. */
  closed: boolean;
}

let editors = 0;
const newQuoteKey = () => `campaign-editor-${Date.now().toString(36)}-${++editors}`;

export function createCampaignEditorStore(api: Api) {
  const session: Session = {
    generation: 0,
    quoteKey: newQuoteKey(),
    timer: null,
    inFlight: null,
    dirty: false,
    closed: false,
  };

  /** Forgets the current editor: its pending save (already flushed by the caller) and late answers. */
  const restart = () => {
    if (session.timer !== null) clearTimeout(session.timer);
    session.generation++;
    session.quoteKey = newQuoteKey();
    session.timer = null;
    session.inFlight = null;
    session.dirty = false;
    session.closed = false;
  };

  const contextSlice: StateCreator<CampaignEditorState, [], [], ContextSlice> = (set, get) => ({
    accountId: null,
    lines: [],
    segments: [],
    setAccount(accountId) {
      const previous = get().accountId;
      if (accountId === previous) return;
      // A draft belongs to its account: another account's editor starts anew (a route naming a
      // draft reopens it there, where it is missing).
      if (previous !== null) {
        void get().flushSave();
        restart();
        set({ ...FRESH, fields: emptyFields() });
      }
      set({ accountId, lines: [], segments: [] });
      if (accountId === null) return;
      void (async () => {
        try {
          const [lines, segments] = await Promise.all([
            api.invoke('lines:list', { account_id: accountId }),
            api.invoke('segments:list', { account_id: accountId }),
          ]);
          if (get().accountId !== accountId) return;
          set({ lines, segments });
          presetSender();
          get().scheduleQuote();
        } catch (error) {
          // Shown where the quote's troubles are: without lines and segments nothing can be quoted.
          if (get().accountId === accountId) set({ quoteError: faultOf(error) });
        }
      })();
    },
    async refreshSegments() {
      const accountId = get().accountId;
      if (accountId === null) return;
      try {
        const segments = await api.invoke('segments:list', { account_id: accountId });
        if (get().accountId === accountId) set({ segments });
      } catch {
        // The list shown stays; the quote names what it cannot find.
      }
    },
  });

  /**
   * A new campaign starts on the account's first campaign line, as a default, not a change: nothing
   * is saved until the user changes something.
   */
  const presetSender = () => {
    const s = store.getState();
    if (s.draftId !== null || s.status !== 'ready' || s.save !== 'idle' || s.fields.sender !== '') return;
    const first = campaignLines(s.lines)[0];
    if (first) store.setState({ fields: { ...s.fields, sender: first.number } });
  };

  /** Writes the fields now (creating the draft the first time); one write at a time. */
  const saveNow = async (): Promise<void> => {
    if (session.timer !== null) clearTimeout(session.timer);
    session.timer = null;
    if (session.inFlight || session.closed || !session.dirty) return session.inFlight ?? undefined;
    const { accountId, draftId, fields } = store.getState();
    if (accountId === null) return;
    const generation = session.generation;
    session.dirty = false;
    store.setState({ save: 'saving' });
    const write = (async () => {
      try {
        const draft = await api.invoke('campaigns:draftSave', {
          account_id: accountId,
          ...(draftId === null ? {} : { draft_id: draftId }),
          fields,
        });
        if (generation !== session.generation) return;
        store.setState({ draftId: draft.draft_id, saveError: null, save: session.dirty ? 'pending' : 'saved' });
      } catch (error) {
        if (generation !== session.generation || session.closed) return;
        // The change stays to be written with the next one.
        session.dirty = true;
        store.setState({ save: 'failed', saveError: faultOf(error) });
      } finally {
        if (generation === session.generation) session.inFlight = null;
      }
    })();
    session.inFlight = write;
    await write;
    // Changes typed while the write was out go in the next one.
    if (generation === session.generation && session.dirty && store.getState().save === 'pending') scheduleSave();
  };

  const scheduleSave = () => {
    if (session.timer !== null) clearTimeout(session.timer);
    session.timer = setTimeout(() => void saveNow(), SAVE_AFTER_MS);
  };

  const draftSlice: StateCreator<CampaignEditorState, [], [], DraftSlice> = (set, get) => ({
    draftId: null,
    status: 'ready',
    fields: emptyFields(),
    save: 'idle',
    saveError: null,
    async open(draftId) {
      const s = get();
      if (draftId !== null && draftId === s.draftId && s.status === 'ready' && !session.closed) return;
      // The previous editor's waiting change is written (its answer is not awaited: it is no longer shown).
      void get().flushSave();
      restart();
      const generation = session.generation;
      set({ ...FRESH, fields: emptyFields(), draftId, status: draftId === null ? 'ready' : 'loading' });
      if (draftId === null) {
        presetSender();
        return get().refreshQuote();
      }
      const accountId = get().accountId;
      // Without an account yet, the draft is read when setAccount brings one (the page opens it again).
      if (accountId === null) return;
      try {
        const draft = await api.invoke('campaigns:draftGet', { account_id: accountId, draft_id: draftId });
        if (generation !== session.generation) return;
        set({ fields: draft.fields, status: 'ready', save: 'saved' });
        await get().refreshQuote();
      } catch (error) {
        if (generation === session.generation) set({ status: 'missing', saveError: faultOf(error) });
      }
    },
    update(changes) {
      if (session.closed || get().status !== 'ready') return;
      set({ fields: { ...get().fields, ...changes }, save: 'pending' });
      session.dirty = true;
      // The first change creates the draft at once, so a reload a moment later already finds it.
      if (get().draftId === null) void saveNow();
      else scheduleSave();
    },
    async flushSave() {
      if (session.timer !== null) await saveNow();
      else if (session.inFlight) await session.inFlight;
    },
    async deleteDraft() {
      const { accountId } = get();
      if (accountId === null) return false;
      // A creation still out would otherwise leave a draft behind.
      if (session.inFlight) await session.inFlight;
      if (session.timer !== null) clearTimeout(session.timer);
      session.timer = null;
      session.closed = true;
      const draftId = get().draftId;
      if (draftId === null) return true;
      try {
        await api.invoke('campaigns:draftDelete', { account_id: accountId, draft_id: draftId });
        return true;
      } catch (error) {
        session.closed = false;
        set({ saveError: faultOf(error) });
        return false;
      }
    },
  });

  const quoteSlice: StateCreator<CampaignEditorState, [], [], QuoteSlice> = (set, get) => {
    const quoting = latestAnswer(() => get().refreshQuote(), QUOTE_AFTER_MS);
    return {
      quote: null,
      quotedFields: null,
      quoteError: null,
      seed: 1,
      async refreshQuote() {
        const latest = quoting.ask();
        const { accountId, fields, seed } = get();
        if (accountId === null || get().status !== 'ready') return;
        try {
          const quote = await api.invoke('campaigns:quote', {
            account_id: accountId,
            fields,
            seed,
            quote_key: session.quoteKey,
          });
          if (latest()) set({ quote, quotedFields: fields, quoteError: null });
        } catch (error) {
          // 409: a newer quote of this editor replaced this one; its answer is the one to show.
          if (error instanceof IpcCallError && error.code === ApiCode.Superseded) return;
          if (latest()) set({ quoteError: faultOf(error) });
        }
      },
      scheduleQuote: quoting.schedule,
      anotherSample() {
        set({ seed: get().seed + 1 });
      },
    };
  };

  const testSlice: StateCreator<CampaignEditorState, [], [], TestSlice> = (set, get) => ({
    testing: false,
    testResult: null,
    testError: null,
    async sendTest(receptor) {
      const { accountId, fields, testing } = get();
      if (accountId === null || testing) return null;
      const generation = session.generation;
      set({ testing: true, testResult: null, testError: null });
      try {
        const testResult = await api.invoke('campaigns:sendTest', { account_id: accountId, fields, receptor });
        if (generation === session.generation) set({ testing: false, testResult });
        // The test was charged: the quote's word on the credit is asked again.
        get().scheduleQuote();
        return testResult;
      } catch (error) {
        if (generation === session.generation) set({ testing: false, testError: faultOf(error) });
        return null;
      }
    },
  });

  const createSlice: StateCreator<CampaignEditorState, [], [], CreateSlice> = (set, get) => ({
    creating: false,
    created: null,
    createError: null,
    async create() {
      if (get().creating || session.closed || get().accountId === null) return null;
      set({ creating: true, createError: null });
      const generation = session.generation;
      // The draft's id is known once its creation (if out) answers; a later save is not needed:
      // creation takes the fields and deletes the draft.
      if (session.timer !== null) clearTimeout(session.timer);
      session.timer = null;
      if (session.inFlight) await session.inFlight;
      // Another editor opened meanwhile (its fresh state has creating false).
      if (generation !== session.generation) return null;
      const { accountId, draftId, fields } = get();
      try {
        const created = await api.invoke('campaigns:create', createInput(accountId!, draftId, fields, new Date()));
        if (generation === session.generation) {
          session.closed = true;
          set({ creating: false, created });
        }
        return created;
      } catch (error) {
        if (generation !== session.generation) return null;
        set({ creating: false, createError: faultOf(error) });
        // Still a draft: what was typed meanwhile is written.
        if (session.dirty) scheduleSave();
        return null;
      }
    },
  });

  const linkBaseSlice: StateCreator<CampaignEditorState, [], [], LinkBaseSlice> = (set, get) => ({
    linkSettings: null,
    savingLinkBase: false,
    linkBaseError: null,
    async loadLinkSettings() {
      try {
        set({ linkSettings: await api.invoke('campaigns:linkSettings') });
      } catch {
        // Only an address shown in a sentence: the refusal itself still says what to do.
      }
    },
    async setLinkBase(base) {
      if (get().savingLinkBase) return false;
      set({ savingLinkBase: true, linkBaseError: null });
      try {
        const linkSettings = await api.invoke('campaigns:setLinkSettings', { short_link_base: base });
        set({ linkSettings, savingLinkBase: false });
        // The refusal and the sample texts depend on the base: the core is asked again.
        void get().refreshQuote();
        return true;
      } catch (error) {
        set({ savingLinkBase: false, linkBaseError: faultOf(error) });
        return false;
      }
    },
  });

  const store = createStore<CampaignEditorState>()((...a) => ({
    ...contextSlice(...a),
    ...draftSlice(...a),
    ...quoteSlice(...a),
    ...testSlice(...a),
    ...createSlice(...a),
    ...linkBaseSlice(...a),
  }));
  // Whatever changed what the quote reads (a change, a draft loaded, another sample asked), the
  // core is asked again once it settles.
  store.subscribe((state, previous) => {
    if (state.status !== 'ready') return;
    if (state.fields !== previous.fields || state.seed !== previous.seed || state.status !== previous.status)
      state.scheduleQuote();
  });
  return store;
}
export type CampaignEditorStore = ReturnType<typeof createCampaignEditorStore>;

/** The creation request of the drafted fields; a campaign for "now" gets this moment's time. */
export function createInput(
  accountId: number,
  draftId: number | null,
  fields: CampaignDraftFields,
  now: Date,
): InputOf<'campaigns:create'> {
  return {
    account_id: accountId,
    sender: fields.sender,
    name: fields.name,
    template_body: fields.template_body,
    send_datetime: fields.send_datetime ?? now.toISOString(),
    inclusion_segments: fields.inclusion_segments,
    exclusion_segments: fields.exclusion_segments,
    filter: fields.filter,
    links: fields.links,
    utm: fields.utm,
    send_rate: fields.send_rate,
    quiet_hours: fields.quiet_hours,
    track_links: fields.track_links,
    repeat: fields.repeat,
    trigger: fields.trigger,
    ...(draftId === null ? {} : { draft_id: draftId }),
  };
}

/** Why the campaign cannot be scheduled yet (campaignEditor.blocks and .faults in the UI). */
export type Block =
  | { kind: 'problem'; problem: NonNullable<CampaignQuote['problem']> }
  | { kind: 'noName' }
  | { kind: 'noSender' }
  | { kind: 'noText' }
  | { kind: 'linkEmpty'; n: number }
  | { kind: 'noSegments' }
  | { kind: 'noRecipients' }
  | { kind: 'noCredit'; cost: number; credit: number };

/** Refusals of the core the editor already says itself (it says all of them at once, not the first). */
const SAID_HERE = /^(name is required|sender is required|links\[\d+\]actual_url is required)/;

/**
 * What stands between drafted fields and scheduling: what the editor sees missing itself, then
 * the core's first refusal (the quote's problem) and its audience and credit. A new list each call.
 */
export function blocksOf(quote: CampaignQuote | null, fields: CampaignDraftFields): Block[] {
  const blocks: Block[] = [];
  if (fields.name.trim() === '') blocks.push({ kind: 'noName' });
  if (fields.sender.trim() === '') blocks.push({ kind: 'noSender' });
  if (fields.template_body.trim() === '') blocks.push({ kind: 'noText' });
  fields.links.forEach((link, i) => {
    if (link.actual_url.trim() === '') blocks.push({ kind: 'linkEmpty', n: i + 1 });
  });
  if (quote?.problem && !SAID_HERE.test(quote.problem.detail)) blocks.push({ kind: 'problem', problem: quote.problem });
  if (fields.inclusion_segments.length === 0) blocks.push({ kind: 'noSegments' });
  else if (quote && quote.audience.recipients === 0) blocks.push({ kind: 'noRecipients' });
  if (quote && !quote.enough_credit)
    blocks.push({ kind: 'noCredit', cost: quote.total_cost_rials, credit: quote.credit_rials });
  return blocks;
}

export const campaignEditorSelectors = {
  /** The quote when it answers the fields as they are now, else null (a change is being quoted). */
  currentQuote: (s: CampaignEditorState): CampaignQuote | null => (s.quotedFields === s.fields ? s.quote : null),
  /** What stands between the draft and scheduling, by the last quote (the core's word). */
  blocks: (s: CampaignEditorState): Block[] => blocksOf(s.quote, s.fields),
  canSchedule: (s: CampaignEditorState): boolean =>
    !s.creating &&
    s.created === null &&
    s.status === 'ready' &&
    campaignEditorSelectors.currentQuote(s) !== null &&
    campaignEditorSelectors.blocks(s).length === 0,
};
