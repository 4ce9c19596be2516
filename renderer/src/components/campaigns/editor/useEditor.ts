// The editor's store for its components (registered as `campaignEditor` in stores/index.ts), and
// the one way text is put into the template at the cursor (columns, a link's address).
import { useCallback, useRef } from 'react';
import { useStore } from 'zustand';
import { useStores } from '../../../stores/context';
import type { CampaignEditorState, CampaignEditorStore } from '../../../stores/campaignEditor';

export function useEditorStore(): CampaignEditorStore {
  return useStores().campaignEditor;
}

export function useEditor<T>(selector: (state: CampaignEditorState) => T): T {
  return useStore(useEditorStore(), selector);
}

export interface BodyInsert {
  ref: React.RefObject<HTMLTextAreaElement | null>;
  /** Puts `text` where the cursor was in the template (its end when it was never there). */
  insert(text: string, options?: { spaced?: boolean }): void;
}

export function useBodyInsert(): BodyInsert {
  const store = useEditorStore();
  const ref = useRef<HTMLTextAreaElement | null>(null);
  const insert = useCallback(
    (text: string, { spaced = false }: { spaced?: boolean } = {}) => {
      const body = store.getState().fields.template_body;
      const element = ref.current;
      // The textarea keeps its selection after losing focus to the button that was clicked.
      const from = Math.min(element?.selectionStart ?? body.length, body.length);
      const to = Math.min(element?.selectionEnd ?? from, body.length);
      const before = body.slice(0, from);
      const after = body.slice(to);
      // An address glued to a word would not be found as itself by a reader; a space sets it apart.
      const lead = spaced && before !== '' && !/\s$/.test(before) ? ' ' : '';
      const trail = spaced && after !== '' && !/^\s/.test(after) ? ' ' : '';
      const inserted = `${lead}${text}${trail}`;
      store.getState().update({ template_body: before + inserted + after });
      const caret = before.length + inserted.length;
      requestAnimationFrame(() => {
        element?.focus();
        element?.setSelectionRange(caret, caret);
      });
    },
    [store],
  );
  return { ref, insert };
}
