// Who an exported file is for: the UI's language (headers, status labels; a right-to-left sheet
// in Persian) and this person's time zone, the one the UI shows times in (the browser's or the
// system's), so the file's times read as the screen's do.
import type { Language } from './format';

export interface ExportLocale {
  language: Language;
  /** IANA name, e.g. Asia/Tehran. */
  time_zone: string;
}

/** Where the product's customers are: the zone when the runtime names none. */
const FALLBACK_TIME_ZONE = 'Asia/Tehran';

export function userTimeZone(): string {
  try {
    return new Intl.DateTimeFormat().resolvedOptions().timeZone || FALLBACK_TIME_ZONE;
  } catch {
    return FALLBACK_TIME_ZONE;
  }
}

export function exportLocale(language: Language): ExportLocale {
  return { language, time_zone: userTimeZone() };
}
