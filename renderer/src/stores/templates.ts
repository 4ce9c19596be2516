// The current account's verify/lookup templates (API version 1), as Settings lists and edits them.
// The rules are the core's (name, placeholders, the line); a form's action answers the refusal's
// sentence for the form to show, anything else goes to `error`.
import { createStore } from 'zustand/vanilla';
import type { Api } from '../api';
import type { VerifyTemplate } from '../../../shared/ipc/contracts/templates';
import { errorMessage, reported } from './errors';

export type { VerifyTemplate };

export interface TemplateDraft {
  name: string;
  body: string;
  /** null: the account's default line. */
  sender: string | null;
  active?: boolean;
}

export interface TemplatesState {
  accountId: number | null;
  templates: VerifyTemplate[];
  loading: boolean;
  error: string | null;
  load(accountId: number | null): Promise<void>;
  /** Null when created, else why not. */
  create(draft: TemplateDraft): Promise<string | null>;
  /** Null when saved, else why not. */
  update(id: number, changes: Partial<TemplateDraft>): Promise<string | null>;
  /** Null when deleted, else why not. */
  remove(id: number): Promise<string | null>;
}

/** Listed as the core lists them: by name. */
function byName(templates: VerifyTemplate[]): VerifyTemplate[] {
  return [...templates].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function createTemplatesStore(api: Api) {
  return createStore<TemplatesState>()((set, get) => {
    /** Runs a form's action for the current account: null when done, else the refusal's sentence. */
    const submitted = async (action: (accountId: number) => Promise<void>): Promise<string | null> => {
      const accountId = get().accountId;
      if (accountId === null) return null;
      try {
        await action(accountId);
        return null;
      } catch (error) {
        return errorMessage(error);
      }
    };
    return {
      accountId: null,
      templates: [],
      loading: false,
      error: null,
      async load(accountId) {
        set({ accountId, templates: [], error: null, loading: accountId !== null });
        if (accountId === null) return;
        try {
          const templates = await api.invoke('templates:list', { account_id: accountId });
          // Another account was chosen meanwhile: its own load answers.
          if (get().accountId === accountId) set({ templates, loading: false });
        } catch (error) {
          if (get().accountId === accountId) set({ loading: false, ...reported(error) });
        }
      },
      create: (draft) =>
        submitted(async (accountId) => {
          const made = await api.invoke('templates:create', { account_id: accountId, ...draft });
          if (get().accountId === accountId) set({ templates: byName([...get().templates, made]) });
        }),
      update: (id, changes) =>
        submitted(async (accountId) => {
          const saved = await api.invoke('templates:update', { account_id: accountId, id, ...changes });
          if (get().accountId === accountId)
            set({ templates: byName(get().templates.map((t) => (t.id === id ? saved : t))) });
        }),
      remove: (id) =>
        submitted(async (accountId) => {
          await api.invoke('templates:remove', { account_id: accountId, id });
          if (get().accountId === accountId) set({ templates: get().templates.filter((t) => t.id !== id) });
        }),
    };
  });
}

export type TemplatesStore = ReturnType<typeof createTemplatesStore>;
