// The composer: the draft (line, text, receivers or a segment), what the preview needs (lines,
// pricing, segments), the core's quote of the draft, and the send with its result. The instant
// per-keystroke preview is computed from the shared pricing in lib/preview.ts; the quote is the
// core's dry run of the very send (sender line, receivers deduplicated against the segment,
// personalized texts, total cost against the credit) and has the last word. The result lists the
// send's messages with their statuses as they move (pushes), plus the rejected receivers.
//
// The pasted receivers are parsed once per change of their field, after it settles, never on a
// keystroke in the text: 20,000 pasted numbers must not slow down typing the message.
import { createStore, type StateCreator } from 'zustand/vanilla';
import {
  IpcCallError,
  type Api,
  type ComposePreview,
  type Line,
  type MessageRow,
  type Pricing,
  type SegmentSummary,
} from '../api';
import { errorMessage } from './errors';
import { analyzeReceivers, type ReceiversAnalysis } from '../lib/receivers';
import { RecentStatuses, newerStatus } from './status-merge';
import { latestAnswer } from './latest-answer';
import { ApiCode } from '../../../shared/status';
import type { InputOf, OutputOf } from '../../../shared/ipc';

/** Rows of a send shown under the composer; the full list is in Messages. */
export const RESULT_ROWS = 200;

/** How long after the last change of the draft the core is asked for its quote. */
export const QUOTE_AFTER_MS = 200;

/** How long after the last change of the receivers field they are parsed for the instant counts. */
export const ANALYZE_AFTER_MS = 120;

const NO_RECEIVERS: ReceiversAnalysis = analyzeReceivers('');

/** The answer of a send (one send_id, however many receivers). */
export type SendSummary = OutputOf<'messages:send'>;

/** The draft as the core takes it: the send, and its quote. */
export type Draft = InputOf<'compose:preview'>;

export interface DraftSlice {
  lineNumber: string | null;
  text: string;
  receiversText: string;
  segmentId: number | null;
  setLine(number: string | null): void;
  setText(text: string): void;
  setReceiversText(text: string): void;
  setSegment(id: number | null): void;
  /** The pasted receivers parsed (as of `analyzedText`): the counts shown until the core's quote answers. */
  analysis: ReceiversAnalysis;
  analyzedText: string;
}

export interface ContextSlice {
  accountId: number | null;
  lines: Line[];
  segments: SegmentSummary[];
  pricing: Pricing | null;
  loading: boolean;
  /** Loads what the composer needs for an account; keeps the draft text. */
  load(accountId: number | null): Promise<void>;
  /** Re-reads the segments (an import finished, or the page opened). */
  refreshSegments(): Promise<void>;
}

export interface SendSlice {
  sending: boolean;
  result: SendSummary | null;
  resultRows: MessageRow[];
  error: string | null;
  /**
   * Sends the draft as it is (the page asks for confirmation first). Once sent, the text, the
   * receivers and the segment are cleared (the line stays) so the same send cannot go twice by
   * accident; the result stays on screen.
   */
  send(): Promise<SendSummary | null>;
  applyStatusChanges(changes: ReadonlyArray<{ id: number; status: number }>): void;
  clearResult(): void;
}

export interface QuoteSlice {
  /** The core's dry run of the draft as it would be sent, or null before the first answer. */
  quote: ComposePreview | null;
  /** The draft `quote` answers: the quote is current while the draft still equals it. */
  quotedDraft: Draft | null;
  /** The core refused the draft's line (412: not the panel's, or inactive). */
  lineRefused: boolean;
  /** Why the core refused to quote the draft otherwise (a segment still importing, …), said before sending. */
  quoteError: string | null;
  /** Asks the core now; of answers that cross, the one to the latest question wins. */
  refreshQuote(): Promise<void>;
  /** Asks the core once the draft has not changed for QUOTE_AFTER_MS (typing paused). */
  scheduleQuote(): void;
}

export type ComposeState = DraftSlice & ContextSlice & SendSlice & QuoteSlice;

const draftSlice: StateCreator<ComposeState, [], [], DraftSlice> = (set, get) => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const analyze = () => {
    timer = null;
    const text = get().receiversText;
    if (text !== get().analyzedText) set({ analysis: analyzeReceivers(text), analyzedText: text });
  };
  return {
    lineNumber: null,
    text: '',
    receiversText: '',
    segmentId: null,
    analysis: NO_RECEIVERS,
    analyzedText: '',
    setLine: (lineNumber) => set({ lineNumber }),
    setText: (text) => set({ text }),
    setReceiversText(receiversText) {
      set({ receiversText });
      if (timer !== null) clearTimeout(timer);
      // An emptied field is said at once; a pasted or typed list once it settles.
      if (receiversText.trim() === '') analyze();
      else timer = setTimeout(analyze, ANALYZE_AFTER_MS);
    },
    setSegment: (segmentId) => set({ segmentId }),
  };
};

/** The draft as the core takes it, or null without an account and a line. */
function draftOf(s: ComposeState): Draft | null {
  if (s.accountId === null || s.lineNumber === null) return null;
  return {
    account_id: s.accountId,
    sender: s.lineNumber,
    message: s.text,
    receivers_text: s.receiversText,
    ...(s.segmentId === null ? {} : { segment_id: s.segmentId }),
  };
}

/** The fields of the state the core's quote depends on (besides the credit). */
function sameDraft(a: ComposeState, b: ComposeState): boolean {
  return (
    a.accountId === b.accountId &&
    a.lineNumber === b.lineNumber &&
    a.text === b.text &&
    a.receiversText === b.receiversText &&
    a.segmentId === b.segmentId
  );
}

function quotes(draft: Draft | null, s: ComposeState): boolean {
  return (
    draft !== null &&
    draft.account_id === s.accountId &&
    draft.sender === s.lineNumber &&
    draft.message === s.text &&
    draft.receivers_text === s.receiversText &&
    (draft.segment_id ?? null) === s.segmentId
  );
}

/** Lines the panel sends from: active, with the panel permission (the service checks too). */
export function sendableLines(lines: readonly Line[]): Line[] {
  return lines.filter((line) => line.active && line.can_send_panel_campaign);
}

const contextSlice =
  (api: Api): StateCreator<ComposeState, [], [], ContextSlice> =>
  (set, get) => ({
    accountId: null,
    lines: [],
    segments: [],
    pricing: null,
    loading: false,
    async load(accountId) {
      set({ accountId, loading: true, error: null });
      if (accountId === null) return set({ lines: [], segments: [], loading: false });
      try {
        const [lines, segments, pricing] = await Promise.all([
          api.invoke('lines:list', { account_id: accountId }),
          // Segments come with contacts; the composer works without them.
          api.invoke('segments:list', { account_id: accountId }).catch(() => [] as SegmentSummary[]),
          api.invoke('pricing:get'),
        ]);
        if (get().accountId !== accountId) return; // the user switched account meanwhile
        const usable = sendableLines(lines);
        const current = get().lineNumber;
        const lineNumber = usable.some((l) => l.number === current) ? current : (usable[0]?.number ?? null);
        set({ lines, segments, pricing, lineNumber, loading: false });
      } catch (error) {
        set({ loading: false, error: errorMessage(error) });
      }
    },
    async refreshSegments() {
      const accountId = get().accountId;
      if (accountId === null) return;
      try {
        const segments = await api.invoke('segments:list', { account_id: accountId });
        if (get().accountId !== accountId) return;
        // A segment that went away cannot stay picked.
        const segmentId = segments.some((s) => s.id === get().segmentId) ? get().segmentId : null;
        set({ segments, segmentId });
      } catch {
        // Segments are optional for the composer: keep the list it has.
      }
    },
  });

const sendSlice =
  (api: Api): StateCreator<ComposeState, [], [], SendSlice> =>
  (set, get) => {
    // Pushes that arrive while the result rows are still being read would otherwise be lost
    // (the rows are not there to take them): they are kept and merged into the rows.
    const recent = new RecentStatuses();
    return {
      sending: false,
      result: null,
      resultRows: [],
      error: null,
      async send() {
        const draft = draftOf(get());
        if (get().sending || draft === null) return null;
        set({ sending: true, error: null, result: null, resultRows: [] });
        try {
          const result = await api.invoke('messages:send', draft);
          set({ sending: false, result });
          // What was typed meanwhile is kept; the draft that went out is not left to go again.
          if (quotes(draft, get())) {
            get().setReceiversText('');
            set({ text: '', segmentId: null });
          }
          const page = await api.invoke('messages:list', {
            account_id: draft.account_id,
            send_id: result.send_id,
            limit: RESULT_ROWS,
          });
          // Oldest first reads like the pasted list.
          if (get().result === result) set({ resultRows: recent.merge([...page.rows].reverse()) });
          return result;
        } catch (error) {
          set({ sending: false, error: errorMessage(error) });
          return null;
        }
      },
      applyStatusChanges(changes) {
        recent.record(changes);
        const rows = get().resultRows;
        if (rows.length === 0) return;
        const byId = new Map(changes.map((c) => [c.id, c.status]));
        let changed = false;
        const next = rows.map((row) => {
          const pushed = byId.get(row.id);
          if (pushed === undefined) return row;
          const status = newerStatus(row.status, pushed);
          if (status === row.status) return row;
          changed = true;
          return { ...row, status };
        });
        if (changed) set({ resultRows: next });
      },
      clearResult: () => set({ result: null, resultRows: [], error: null }),
    };
  };

const quoteSlice =
  (api: Api): StateCreator<ComposeState, [], [], QuoteSlice> =>
  (set, get) => {
    const quoting = latestAnswer(() => get().refreshQuote(), QUOTE_AFTER_MS);
    return {
      quote: null,
      quotedDraft: null,
      lineRefused: false,
      quoteError: null,
      async refreshQuote() {
        const latest = quoting.ask();
        const draft = draftOf(get());
        if (draft === null) return set({ quote: null, quotedDraft: null, lineRefused: false, quoteError: null });
        try {
          const quote = await api.invoke('compose:preview', draft);
          if (latest()) set({ quote, quotedDraft: draft, lineRefused: false, quoteError: null });
        } catch (error) {
          if (!latest()) return;
          const lineRefused = error instanceof IpcCallError && error.code === ApiCode.InvalidSender;
          // Nothing can be confirmed without the figures: the reason is said instead.
          set({ quote: null, quotedDraft: draft, lineRefused, quoteError: lineRefused ? null : errorMessage(error) });
        }
      },
      scheduleQuote: quoting.schedule,
    };
  };

export function createComposeStore(api: Api) {
  const store = createStore<ComposeState>()((...a) => ({
    ...draftSlice(...a),
    ...contextSlice(api)(...a),
    ...sendSlice(api)(...a),
    ...quoteSlice(api)(...a),
  }));
  // Whatever changed the draft (typing, a line or segment picked, an account loaded), the core is
  // asked again once it settles.
  store.subscribe((state, previous) => {
    if (!sameDraft(state, previous)) state.scheduleQuote();
  });
  return store;
}
export type ComposeStore = ReturnType<typeof createComposeStore>;

export const composeSelectors = {
  line: (s: ComposeState): Line | undefined => s.lines.find((l) => l.number === s.lineNumber),
  /** The core's quote when it answers the draft as it is now, else null (the draft changed since). */
  currentQuote: (s: ComposeState): ComposePreview | null => (quotes(s.quotedDraft, s) ? s.quote : null),
  /** The core's refusal of the draft as it is now (not the line's), or null. */
  currentQuoteError: (s: ComposeState): string | null => (quotes(s.quotedDraft, s) ? s.quoteError : null),
  /** The parsed receivers answer the field as it is now. */
  analyzed: (s: ComposeState): boolean => s.analyzedText === s.receiversText,
  canSend: (s: ComposeState): boolean =>
    !s.sending &&
    !s.lineRefused &&
    s.lineNumber !== null &&
    s.text.trim().length > 0 &&
    (s.receiversText.trim().length > 0 || s.segmentId !== null),
};
