// The direction of a message text for the box or the display that shows it: the text's own
// (shared/text-direction.ts), or the UI's when the text has no word to tell (an empty editor).
import { useMemo } from 'react';
import { textDirection, type TextDirection } from '../../../shared/text-direction';
import { useLanguage } from '../i18n/useLanguage';
import { directionOf, type Language } from './format';

export function useTextDirection(text: string | null | undefined): TextDirection {
  const language = useLanguage();
  const own = useMemo(() => textDirection(text ?? ''), [text]);
  return own ?? directionOf(language);
}

/** The same, outside a component (rows drawn in a loop). */
export function directionFor(text: string, language: Language): TextDirection {
  return textDirection(text) ?? directionOf(language);
}
