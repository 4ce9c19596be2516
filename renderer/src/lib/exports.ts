// Who an exported file is for: the UI's language (headers, status labels; a right-to-left sheet
// in Persian) and this person's time zone, the one the UI shows times in (the browser's or the
// system's; Tehran when the runtime names none: shared/time-zone.ts), so the file's times read as
// the screen's do.
import { runtimeTimeZone } from '../../../shared/time-zone';
import type { Language } from './format';

export interface ExportLocale {
  language: Language;
  /** IANA name, e.g. Asia/Tehran. */
  time_zone: string;
}

export function exportLocale(language: Language): ExportLocale {
  return { language, time_zone: runtimeTimeZone() };
}
