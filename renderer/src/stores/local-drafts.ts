// What was typed and not yet sent or saved, kept in this browser's storage so that nothing is lost
// to a reload, a server that restarted, or a sign-in: the Compose page's draft, the email
// composer's, and the campaign editor's changes its server-side draft does not hold yet. Kept per
// workspace (its data folder) and account; a draft that went out (sent, scheduled) or was saved
// in the workspace is removed from here.
import type { StoreApi } from 'zustand/vanilla';
import { CampaignDraftFieldsSchema, type CampaignDraftFields } from '../../../shared/campaigns';
import { sendableLines, type ComposeState } from './compose';
import type { DraftFields, EmailState } from './email';
import type { CampaignEditorState } from './campaignEditor';
import type { Stores } from './index';

/** How long after the last keystroke the draft is written (and at once when the page goes away). */
export const KEEP_AFTER_MS = 300;

export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const PREFIX = 'chapar.draft';

/** The key of one kind of draft of one account of one workspace. */
export function draftKey(kind: string, scope: string): string {
  return `${PREFIX}.${kind}.${scope}`;
}

interface ComposeDraft {
  lineNumber: string | null;
  text: string;
  receiversText: string;
  segmentId: number | null;
}

interface EditorDraft {
  draftId: number | null;
  fields: CampaignDraftFields;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isId = (value: unknown): value is number | null =>
  value === null || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0);

function composeDraftOf(value: unknown): ComposeDraft | null {
  if (!isObject(value)) return null;
  const { lineNumber, text, receiversText, segmentId } = value;
  if (lineNumber !== null && typeof lineNumber !== 'string') return null;
  if (typeof text !== 'string' || typeof receiversText !== 'string' || !isId(segmentId)) return null;
  return { lineNumber, text, receiversText, segmentId };
}

const EMAIL_TEXTS = ['fromEmail', 'fromName', 'replyTo', 'subject', 'text', 'html'] as const;
function emailDraftOf(value: unknown): DraftFields | null {
  if (!isObject(value) || !isId(value.segmentId)) return null;
  if (!EMAIL_TEXTS.every((name) => typeof value[name] === 'string')) return null;
  return value as unknown as DraftFields;
}

function editorDraftOf(value: unknown): EditorDraft | null {
  if (!isObject(value) || !isId(value.draftId)) return null;
  const fields = CampaignDraftFieldsSchema.safeParse(value.fields);
  return fields.success ? { draftId: value.draftId, fields: fields.data } : null;
}

/**
 * One kind of draft: written a moment after it changes, under the scope it was typed in (an
 * account switched meanwhile does not take it), removed when there is nothing left to keep.
 */
class Keeper<T> {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiting: { scope: string; value: T | null } | null = null;

  constructor(
    private readonly storage: DraftStorage,
    private readonly kind: string,
    private readonly parse: (value: unknown) => T | null,
  ) {}

  read(scope: string): T | null {
    if (this.waiting?.scope === scope) return this.waiting.value;
    try {
      const text = this.storage.getItem(draftKey(this.kind, scope));
      return text === null ? null : this.parse(JSON.parse(text));
    } catch {
      return null; // damaged or denied: nothing kept
    }
  }

  /** Whether a write is still to happen (the storage is not yet what the screen shows). */
  get pending(): boolean {
    return this.waiting !== null;
  }

  keep(scope: string, value: T | null): void {
    if (this.waiting && this.waiting.scope !== scope) this.flush();
    this.waiting = { scope, value };
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), KEEP_AFTER_MS);
  }

  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const waiting = this.waiting;
    this.waiting = null;
    if (!waiting) return;
    const key = draftKey(this.kind, waiting.scope);
    try {
      if (waiting.value === null) this.storage.removeItem(key);
      else this.storage.setItem(key, JSON.stringify(waiting.value));
    } catch {
      // storage full or denied: the draft stays on screen, as before
    }
  }
}

/** The workspace and account a draft belongs to, once both are known. */
function scopeOf(stores: Stores): string | null {
  const { settings, accountId } = stores.session.getState();
  if (settings === null || accountId === null) return null;
  return `${encodeURIComponent(settings.data_dir)}.${accountId}`;
}

/**
 * Follows one store: what `pick` says is kept under the current scope (null: nothing; undefined:
 * leave what is kept as it is); a newly known scope (a reload, another account) brings back what
 * was kept for it.
 */
function follow<S, T>(
  stores: Stores,
  store: StoreApi<S>,
  keeper: Keeper<T>,
  pick: (state: S, previous: S) => T | null | undefined,
  restore: (draft: T) => void,
): () => void {
  let scope: string | null = null;
  /** What is kept for `scope`, as JSON: a change of the store that keeps the same writes nothing. */
  let last = 'null';
  const rescope = () => {
    const next = scopeOf(stores);
    if (next === scope) return;
    keeper.flush();
    scope = next;
    if (scope === null) return;
    const kept = keeper.read(scope);
    last = JSON.stringify(kept);
    if (kept !== null) restore(kept);
  };
  const stopSession = stores.session.subscribe(rescope);
  const stopStore = store.subscribe((state, previous) => {
    if (scope === null) return;
    const now = pick(state, previous);
    if (now === undefined) return;
    const json = JSON.stringify(now);
    if (json === last) return;
    last = json;
    keeper.keep(scope, now);
  });
  rescope();
  return () => {
    stopSession();
    stopStore();
    keeper.flush();
  };
}

function composePick(s: ComposeState): ComposeDraft | null {
  if (s.text === '' && s.receiversText === '' && s.segmentId === null) return null;
  return { lineNumber: s.lineNumber, text: s.text, receiversText: s.receiversText, segmentId: s.segmentId };
}

function composeRestore(store: StoreApi<ComposeState>, draft: ComposeDraft): void {
  const s = store.getState();
  // The line, when it still sends (before the account's lines are read, load() checks it).
  const usable = s.lines.length === 0 || sendableLines(s.lines).some((line) => line.number === draft.lineNumber);
  if (draft.lineNumber !== null && usable) s.setLine(draft.lineNumber);
  s.setText(draft.text);
  s.setReceiversText(draft.receiversText);
  s.setSegment(draft.segmentId);
}

function emailPick(s: EmailState): DraftFields | null {
  const f = s.fields;
  if (f.segmentId === null && f.subject === '' && f.text === '' && f.html === '') return null;
  return f;
}

function emailRestore(store: StoreApi<EmailState>, draft: DraftFields): void {
  const s = store.getState();
  const known = s.segments.length === 0 || s.segments.some((segment) => segment.id === draft.segmentId);
  s.setFields({ ...draft, segmentId: known ? draft.segmentId : null });
}

/**
 * The editor's changes its server-side draft does not hold yet (being written, or refused); none
 * once a write of them succeeded or the campaign was scheduled. An editor opening (a draft read
 * from the workspace, another one, a new campaign) leaves them kept for when theirs is opened.
 */
function editorPick(s: CampaignEditorState, previous: CampaignEditorState): EditorDraft | null | undefined {
  if (s.created !== null || (s.save === 'saved' && previous.save === 'saving')) return null;
  if (s.status !== 'ready' || (s.save !== 'pending' && s.save !== 'saving' && s.save !== 'failed')) return undefined;
  return { draftId: s.draftId, fields: s.fields };
}

/**
 * An editor opened on the draft the kept changes were typed in (a new campaign: none) takes them
 * back as the user's changes, so they are written to the workspace as typing would have.
 */
function editorRestore(stores: Stores, keeper: Keeper<EditorDraft>): void {
  const scope = scopeOf(stores);
  const s = stores.campaignEditor.getState();
  if (scope === null || keeper.pending || s.status !== 'ready' || s.created !== null) return;
  if (s.save !== 'idle' && s.save !== 'saved') return;
  const kept = keeper.read(scope);
  if (kept === null || kept.draftId !== s.draftId) return;
  // Already what the workspace holds (its write answered after the page went): nothing to do.
  if (JSON.stringify(kept.fields) === JSON.stringify(s.fields)) return;
  s.update(kept.fields);
}

/** Starts keeping the drafts; returns a function that stops it (the last changes written first). */
export function keepDraftsLocally(stores: Stores, storage: DraftStorage | null = browserStorage()): () => void {
  if (storage === null) return () => undefined;
  const compose = new Keeper(storage, 'compose', composeDraftOf);
  const email = new Keeper(storage, 'email', emailDraftOf);
  const editor = new Keeper(storage, 'campaign', editorDraftOf);
  const stops = [
    follow(stores, stores.compose, compose, composePick, (draft) => composeRestore(stores.compose, draft)),
    follow(stores, stores.email, email, emailPick, (draft) => emailRestore(stores.email, draft)),
    follow(stores, stores.campaignEditor, editor, editorPick, () => editorRestore(stores, editor)),
    // The editor opens (or reopens) a draft after the scope is known, too.
    stores.campaignEditor.subscribe((state, previous) => {
      if (state.status !== previous.status || state.draftId !== previous.draftId || state.save !== previous.save)
        editorRestore(stores, editor);
    }),
  ];
  const flushAll = () => {
    compose.flush();
    email.flush();
    editor.flush();
  };
  globalThis.addEventListener?.('pagehide', flushAll);
  return () => {
    globalThis.removeEventListener?.('pagehide', flushAll);
    for (const stop of stops) stop();
  };
}

function browserStorage(): DraftStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // denied (privacy settings)
  }
}
