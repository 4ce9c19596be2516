// The workspace's upkeep as Settings shows it: its size by part, the retention setting, the preview
// of what applying it removes (exportable first through the Messages export, filtered to before
// the cut-off), the run that applies it, followed while it goes, and "Compact now". The rules are
// the core's (housekeeping.ts); a refusal is the form's sentence.
import { createStore } from 'zustand/vanilla';
import type { Api } from '../api';
import type {
  RetentionAction,
  RetentionPreview,
  RetentionState,
  WorkspaceSize,
} from '../../../shared/ipc/contracts/workspace';
import type { ExportLocale } from '../lib/exports';
import { errorMessage, reported } from './errors';

export type { RetentionAction, RetentionPreview, RetentionState, WorkspaceSize };

/** A running retention run is read again this often (it pushes nothing: it is one row that counts up). */
export const FOLLOW_MS = 1000;

export interface ExportedMessages {
  rows: number;
  file_name: string;
  path: string | null;
  url: string | null;
}

export interface WorkspaceState {
  size: WorkspaceSize | null;
  retention: RetentionState | null;
  /** What applying the form's months would remove; cleared when the form changes or it is applied. */
  preview: RetentionPreview | null;
  previewing: boolean;
  saving: boolean;
  applying: boolean;
  compacting: boolean;
  /** The last "Compact now": what it gave back. */
  compacted: { freed_bytes: number; took_ms: number } | null;
  error: string | null;
  load(): Promise<void>;
  refreshSize(): Promise<void>;
  /** Null when saved, else why not. */
  save(months: number | null, action: RetentionAction): Promise<string | null>;
  /** Null when previewed, else why not. */
  previewRetention(months: number, action: RetentionAction): Promise<string | null>;
  clearPreview(): void;
  /** Applies the preview shown (its cut-off): null when the run started, else why not. */
  apply(): Promise<string | null>;
  /** The preview's messages (every account) written to a file by the Messages export. */
  exportPreviewed(format: 'csv' | 'xlsx', locale: ExportLocale): Promise<ExportedMessages | null>;
  compact(): Promise<string | null>;
  /** Stops following a run (the tab closed). */
  stop(): void;
}

export function createWorkspaceStore(api: Api, followMs = FOLLOW_MS) {
  return createStore<WorkspaceState>()((set, get) => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stopFollowing = () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    };
    /** Reads the run again until it ends; then the size, which it changed. */
    const follow = (retention: RetentionState) => {
      stopFollowing();
      if (retention.run?.state !== 'running') return;
      timer = setTimeout(async () => {
        timer = null;
        try {
          const next = await api.invoke('workspace:retention');
          set({ retention: next });
          if (next.run?.state === 'running') follow(next);
          else await get().refreshSize();
        } catch (error) {
          set(reported(error));
          // Out of reach for a moment: the run goes on in the core; look again.
          follow(retention);
        }
      }, followMs);
    };
    const submitted = async (action: () => Promise<void>): Promise<string | null> => {
      try {
        await action();
        return null;
      } catch (error) {
        return errorMessage(error);
      }
    };
    return {
      size: null,
      retention: null,
      preview: null,
      previewing: false,
      saving: false,
      applying: false,
      compacting: false,
      compacted: null,
      error: null,
      async load() {
        set({ error: null });
        try {
          const [size, retention] = await Promise.all([
            api.invoke('workspace:size'),
            api.invoke('workspace:retention'),
          ]);
          set({ size, retention });
          follow(retention);
        } catch (error) {
          set(reported(error));
        }
      },
      async refreshSize() {
        try {
          set({ size: await api.invoke('workspace:size') });
        } catch (error) {
          set(reported(error));
        }
      },
      save: (months, action) =>
        submitted(async () => {
          set({ saving: true });
          try {
            set({ retention: await api.invoke('workspace:setRetention', { months, action }), preview: null });
          } finally {
            set({ saving: false });
          }
        }),
      previewRetention: (months, action) =>
        submitted(async () => {
          set({ previewing: true, preview: null });
          try {
            set({ preview: await api.invoke('workspace:retentionPreview', { months, action }) });
          } finally {
            set({ previewing: false });
          }
        }),
      clearPreview: () => set({ preview: null }),
      apply: () =>
        submitted(async () => {
          const preview = get().preview;
          if (!preview) return;
          set({ applying: true });
          try {
            const retention = await api.invoke('workspace:applyRetention', {
              months: preview.months,
              action: preview.action,
              cutoff: preview.cutoff,
            });
            set({ retention, preview: null });
            follow(retention);
          } finally {
            set({ applying: false });
          }
        }),
      async exportPreviewed(format, locale) {
        const preview = get().preview;
        if (!preview) return null;
        try {
          // Every account's messages created before the cut-off: what the run would take away.
          return await api.invoke('messages:export', {
            to: preview.cutoff,
            format,
            language: locale.language,
            time_zone: locale.time_zone,
          });
        } catch (error) {
          set({ error: errorMessage(error) });
          return null;
        }
      },
      compact: () =>
        submitted(async () => {
          set({ compacting: true, compacted: null });
          try {
            const { size, freed_bytes, took_ms } = await api.invoke('workspace:compact');
            set({ size, compacted: { freed_bytes, took_ms } });
          } finally {
            set({ compacting: false });
          }
        }),
      stop: stopFollowing,
    };
  });
}
