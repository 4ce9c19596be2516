// The import wizard: a file (dropped, picked, or chosen in the desktop's dialog) → its preview
// (sheet, encoding, delimiter, header row: each change previews again) → the column mapping (the
// phone column, {{NAME}} fields, skipped columns; the mapping last used for the same layout comes
// back) → where to (a new segment or an existing one) → the run (progress pushes, rows per
// second, time left, cancel) → the review (counts, rejected rows by reason, the report).
import { createStore } from 'zustand/vanilla';
import { IpcCallError, type Api } from '../api';
import type { InputOf, OutputOf, PayloadOf } from '../../../shared/ipc';
import { importErrorCode, type ImportFileErrorCode } from '../../../shared/contacts';
import { errorMessage } from './errors';

export type ImportPreview = OutputOf<'imports:preview'>;
export type ImportJob = OutputOf<'imports:get'>;
export type Rejections = OutputOf<'imports:rejections'>;
export type RejectionReason = 'invalid' | 'duplicate' | 'opted_out';
export type Step = 'file' | 'layout' | 'mapping' | 'target' | 'running' | 'review';
export type Role = 'phone' | 'field' | 'skip';
export type ReadChoices = Pick<InputOf<'imports:preview'>, 'sheet' | 'header_row' | 'delimiter' | 'encoding'>;
export type Target = { kind: 'new'; name: string } | { kind: 'existing'; segmentId: number | null };

/** A refusal the wizard explains: a known file problem (translated) or the service's message. */
export interface WizardError {
  code: ImportFileErrorCode | null;
  message: string;
}

/** What is wrong with the mapping, if anything (Next stays disabled). */
export interface MappingProblems {
  noPhone: boolean;
  /** Column indexes whose name is empty or not a NAME (letters, digits, underscore). */
  badNames: number[];
  /** Column indexes whose name another kept column has too. */
  clashes: number[];
}

/** A placeholder name: upper case; Latin or Persian letters, digits and underscores. */
export function cleanFieldName(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_')
    .replace(/[^\p{L}\p{N}_]/gu, '');
}

export function mappingProblems(roles: readonly Role[], names: readonly string[]): MappingProblems {
  const kept = roles.map((role, i) => (role === 'field' ? i : -1)).filter((i) => i >= 0);
  const badNames = kept.filter((i) => !/^[\p{L}\p{N}_]+$/u.test(names[i] ?? ''));
  const clashes = kept.filter((i) => kept.some((j) => j !== i && names[j] === names[i] && names[i] !== ''));
  return { noPhone: !roles.includes('phone'), badNames, clashes };
}

/** Rows per second over the last few seconds of progress, and the time left at that pace. */
export function pace(samples: ReadonlyArray<{ at: number; rows: number; fraction: number }>): {
  rowsPerSecond: number | null;
  secondsLeft: number | null;
} {
  if (samples.length < 2) return { rowsPerSecond: null, secondsLeft: null };
  const last = samples[samples.length - 1]!;
  const first = samples.find((sample) => last.at - sample.at <= 5_000) ?? samples[0]!;
  const seconds = (last.at - first.at) / 1000;
  if (seconds <= 0) return { rowsPerSecond: null, secondsLeft: null };
  const rowsPerSecond = (last.rows - first.rows) / seconds;
  const fractionPerSecond = (last.fraction - first.fraction) / seconds;
  return {
    rowsPerSecond,
    secondsLeft: fractionPerSecond > 0 ? Math.max(0, (1 - last.fraction) / fractionPerSecond) : null,
  };
}

export interface ImportsState {
  accountId: number | null;
  step: Step;
  /** The file being read: `file` as the contracts take it, `name` as the user knows it. */
  source: { file: string; name: string; bytes: number } | null;
  /** The browser is streaming the file to the service (web mode). */
  uploading: boolean;
  previewing: boolean;
  choices: ReadChoices;
  preview: ImportPreview | null;
  roles: Role[];
  names: string[];
  /** The mapping came from the last import of the same layout. */
  remembered: boolean;
  target: Target;
  starting: boolean;
  /** Cancel was asked; the service is undoing what the run wrote. */
  cancelling: boolean;
  job: ImportJob | null;
  samples: Array<{ at: number; rows: number; fraction: number }>;
  error: WizardError | null;

  setAccount(accountId: number | null): void;
  /** A File from a drop or a file input. */
  openFile(file: File): Promise<void>;
  /** A path the desktop's dialog gave. */
  openPath(path: string): Promise<void>;
  setChoice(changes: ReadChoices): Promise<void>;
  setRole(index: number, role: Role): void;
  setName(index: number, name: string): void;
  setTarget(target: Target): void;
  goTo(step: Step): void;
  start(): Promise<void>;
  cancel(): Promise<void>;
  /** A push of import:progress (the job of this wizard's run, or ignored). */
  follow(progress: PayloadOf<'import:progress'>): void;
  /** Back to the first step, for another file. */
  reset(): void;
  /** A new import asked for (a button): the first step, unless one is running (then it is shown). */
  begin(): void;
  /** After a reload: the running import of the account, if any, is shown again. */
  resume(): Promise<void>;
  rejections(reason: RejectionReason, offset: number, limit: number): Promise<Rejections | null>;
  exportReport(format: 'csv' | 'xlsx', language: 'fa' | 'en'): Promise<OutputOf<'imports:exportRejections'> | null>;
}

/** A file problem keeps its code (import.errors.<code>); any other refusal is said in the UI's language. */
function wizardError(error: unknown): WizardError {
  const detail = error instanceof IpcCallError ? error.detail : undefined;
  return { code: importErrorCode(detail), message: errorMessage(error) };
}

const FRESH = {
  step: 'file' as Step,
  source: null,
  uploading: false,
  previewing: false,
  choices: {},
  preview: null,
  roles: [],
  names: [],
  remembered: false,
  starting: false,
  cancelling: false,
  job: null,
  samples: [],
  error: null,
};

/** At most this often the run's progress reaches the screen (the last push of a burst wins). */
export const PROGRESS_INTERVAL_MS = 100;
/** A run with no push for this long is asked for its state once (a push lost on a reconnect). */
export const STALL_MS = 5_000;

const ended = (status: ImportJob['status']) => status === 'done' || status === 'failed' || status === 'cancelled';

export function createImportsStore(api: Api) {
  return createStore<ImportsState>()((set, get) => {
    let previewTicket = 0;
    // Progress pushes coalesced: one arriving sooner than PROGRESS_INTERVAL_MS after the last shown
    // one waits (replaced by any newer one); an ending (done, failed, cancelled) shows at once.
    let shownAt = 0;
    let waiting: PayloadOf<'import:progress'> | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    // Pushes of jobs not (yet) followed: the first ones of a run can arrive before imports:start
    // has answered its job id.
    const early = new Map<number, PayloadOf<'import:progress'>>();
    let watchdog: ReturnType<typeof setTimeout> | null = null;
    const stopWaiting = () => {
      if (timer !== null) clearTimeout(timer);
      if (watchdog !== null) clearTimeout(watchdog);
      timer = null;
      watchdog = null;
      waiting = null;
    };
    const armWatchdog = () => {
      if (watchdog !== null) clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        watchdog = null;
        void checkStalled();
      }, STALL_MS);
    };
    const show = (progress: PayloadOf<'import:progress'>) => {
      const { job, samples } = get();
      if (job === null || progress.job_id !== job.job_id) return;
      shownAt = Date.now();
      if (!ended(progress.status)) armWatchdog();
      set({
        job: {
          ...job,
          status: progress.status,
          rows: progress.rows,
          fraction: progress.fraction,
          valid: progress.valid,
          invalid: progress.invalid,
          duplicates: progress.duplicates,
          opted_out: progress.opted_out,
          error: progress.error,
        },
        samples: [...samples.slice(-40), { at: shownAt, rows: progress.rows, fraction: progress.fraction }],
      });
    };
    /** A new file keeps an existing segment chosen as the destination (its "add rows"). */
    const keptTarget = (): Target => (get().target.kind === 'existing' ? get().target : { kind: 'new', name: '' });
    const readPreview = async () => {
      const { accountId, source, choices } = get();
      if (accountId === null || source === null) return;
      const ticket = ++previewTicket;
      set({ previewing: true, error: null });
      try {
        const preview = await api.invoke('imports:preview', { account_id: accountId, file: source.file, ...choices });
        if (ticket !== previewTicket) return;
        const mapping = preview.remembered;
        const width = preview.columns.length;
        const roles: Role[] = Array.from({ length: width }, (_, i) =>
          mapping
            ? i === mapping.phone
              ? 'phone'
              : mapping.columns.some((c) => c.index === i)
                ? 'field'
                : 'skip'
            : i === preview.phone_column
              ? 'phone'
              : 'field',
        );
        const names = preview.columns.map(
          (name, i) => mapping?.columns.find((c) => c.index === i)?.name ?? cleanFieldName(name),
        );
        set({
          preview,
          roles,
          names,
          remembered: mapping !== null,
          previewing: false,
          step: get().step === 'file' ? 'layout' : get().step,
          target:
            get().target.kind === 'new'
              ? { kind: 'new', name: source.name.replace(/\.[^.]+$/, '') || source.name }
              : get().target,
        });
      } catch (error) {
        if (ticket === previewTicket) set({ previewing: false, error: wizardError(error) });
      }
    };
    return {
      accountId: null,
      ...FRESH,
      target: { kind: 'new', name: '' },
      setAccount(accountId) {
        if (accountId === get().accountId) return;
        stopWaiting();
        set({ accountId, ...FRESH, target: { kind: 'new', name: '' } });
      },
      async openFile(file) {
        set({ ...FRESH, uploading: true, step: 'file', target: keptTarget() });
        try {
          const source = await api.openSpreadsheet(file);
          set({ source, uploading: false });
        } catch (error) {
          set({ uploading: false, error: wizardError(error) });
          return;
        }
        await readPreview();
      },
      async openPath(path) {
        const name = path.split(/[\\/]/).pop() ?? path;
        set({ ...FRESH, source: { file: path, name, bytes: 0 }, target: keptTarget() });
        await readPreview();
      },
      async setChoice(changes) {
        // A new sheet has its own header: let the service find it again.
        const sheetChanged = changes.sheet !== undefined && changes.sheet !== get().choices.sheet;
        const choices = { ...get().choices, ...changes };
        if (sheetChanged && !('header_row' in changes)) delete choices.header_row;
        set({ choices });
        await readPreview();
      },
      setRole(index, role) {
        // One phone column: choosing another makes the old one a field.
        const roles = get().roles.map((current, i) =>
          i === index ? role : role === 'phone' && current === 'phone' ? 'field' : current,
        );
        set({ roles, remembered: false });
      },
      setName(index, name) {
        // As typed: a space becomes _ at once (trimming would swallow it before the next letter).
        const typed = cleanFieldName(name.replace(/\s/g, '_'));
        set({ names: get().names.map((current, i) => (i === index ? typed : current)) });
      },
      setTarget(target) {
        set({ target });
      },
      goTo(step) {
        set({ step, error: null });
      },
      async start() {
        const { accountId, source, choices, roles, names, target } = get();
        if (accountId === null || source === null) return;
        const phone = roles.indexOf('phone');
        if (phone < 0) return;
        const mapping = {
          phone,
          columns: roles.flatMap((role, index) => (role === 'field' ? [{ index, name: names[index]! }] : [])),
        };
        set({ starting: true, error: null });
        try {
          const started = await api.invoke('imports:start', {
            account_id: accountId,
            file: source.file,
            mapping,
            ...choices,
            ...(target.kind === 'new'
              ? { name: target.name.trim() || source.name }
              : target.segmentId !== null
                ? { segment_id: target.segmentId }
                : {}),
          });
          const job = await api.invoke('imports:get', { account_id: accountId, job_id: started.job_id });
          set({ starting: false });
          await adopt(job);
        } catch (error) {
          set({ starting: false, error: wizardError(error) });
        }
      },
      async cancel() {
        const { accountId, job } = get();
        if (accountId === null || job === null) return;
        try {
          set({ cancelling: true });
          const { cancelled } = await api.invoke('imports:cancel', { account_id: accountId, job_id: job.job_id });
          // Too late to cancel (it had just ended): its ending push brings the review.
          if (!cancelled) set({ cancelling: false });
        } catch (error) {
          set({ cancelling: false, error: wizardError(error) });
        }
      },
      follow(progress) {
        const job = get().job;
        if (job === null || progress.job_id !== job.job_id) {
          if (progress.kind !== 'import') return;
          early.delete(progress.job_id);
          early.set(progress.job_id, progress);
          if (early.size > 20) early.delete(early.keys().next().value!);
          return;
        }
        if (ended(progress.status)) {
          stopWaiting();
          show(progress);
          void finish(job.job_id);
          return;
        }
        const wait = shownAt + PROGRESS_INTERVAL_MS - Date.now();
        if (wait <= 0 && timer === null) {
          show(progress);
          return;
        }
        waiting = progress;
        timer ??= setTimeout(
          () => {
            const latest = waiting;
            timer = null;
            waiting = null;
            if (latest) show(latest);
          },
          Math.max(0, wait),
        );
      },
      reset() {
        stopWaiting();
        set({ ...FRESH, target: { kind: 'new', name: '' } });
      },
      begin() {
        if (get().step !== 'running') get().reset();
      },
      async resume() {
        const { accountId, job } = get();
        if (accountId === null || job !== null) return;
        try {
          const jobs = await api.invoke('imports:list', { account_id: accountId });
          const open = jobs.find((j) => j.kind === 'import' && (j.status === 'queued' || j.status === 'running'));
          if (open && get().job === null && get().source === null) {
            set({ source: { file: '', name: open.file_name ?? '', bytes: 0 } });
            await adopt(open);
          }
        } catch {
          // Nothing to resume: the wizard starts empty.
        }
      },
      async rejections(reason, offset, limit) {
        const { accountId, job } = get();
        if (accountId === null || job === null) return null;
        try {
          return await api.invoke('imports:rejections', {
            account_id: accountId,
            job_id: job.job_id,
            reason,
            offset,
            limit,
          });
        } catch (error) {
          set({ error: wizardError(error) });
          return null;
        }
      },
      async exportReport(format, language) {
        const { accountId, job } = get();
        if (accountId === null || job === null) return null;
        try {
          return await api.invoke('imports:exportRejections', {
            account_id: accountId,
            job_id: job.job_id,
            format,
            language,
          });
        } catch (error) {
          set({ error: wizardError(error) });
          return null;
        }
      },
    };

    /** The run to follow: shown at once, with any push of it that came before its id was known. */
    async function adopt(job: ImportJob) {
      set({ step: 'running', job, samples: [{ at: Date.now(), rows: job.rows, fraction: job.fraction }] });
      const pushed = early.get(job.job_id);
      early.clear();
      if (ended(job.status)) return finish(job.job_id);
      armWatchdog();
      if (pushed && (ended(pushed.status) || pushed.rows > job.rows)) get().follow(pushed);
    }

    /** No push for STALL_MS: the job's record says whether it still runs (or ended unheard). */
    async function checkStalled() {
      const { accountId, job, step } = get();
      if (accountId === null || job === null || step !== 'running' || ended(job.status)) return;
      try {
        const current = await api.invoke('imports:get', { account_id: accountId, job_id: job.job_id });
        if (get().job?.job_id !== job.job_id) return;
        if (ended(current.status)) return finish(job.job_id);
        if (current.rows > (get().job?.rows ?? 0)) set({ job: { ...get().job!, ...current } });
        armWatchdog();
      } catch {
        armWatchdog();
      }
    }

    /** The job ended: its final counts (from the record, not the last push) and the review. */
    async function finish(jobId: number) {
      const accountId = get().accountId;
      if (accountId === null) return;
      if (watchdog !== null) clearTimeout(watchdog);
      watchdog = null;
      try {
        const job = await api.invoke('imports:get', { account_id: accountId, job_id: jobId });
        if (get().job?.job_id === jobId) set({ job, step: 'review', cancelling: false });
      } catch (error) {
        set({ error: wizardError(error) });
      }
    }
  });
}

export type ImportsStore = ReturnType<typeof createImportsStore>;
