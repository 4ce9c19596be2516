// Errors as one line for the UI, in the UI's language. The core gives a code (spec 7) and, where
// the code alone would mislead, a reason; the UI says what happened and what to do
// (`errors.reasons.<reason>`, else `errors.codes.<code>`). The core's own message (Persian, as the
// API answers) is the last resort, for errors that carry neither.
import { IpcCallError } from '../../../shared/ipc/client';
import { i18n } from '../i18n';

export function errorMessage(error: unknown): string {
  if (error instanceof IpcCallError) {
    const translated = translatedError(error);
    if (translated !== null) return translated;
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return JSON.stringify(error);
}

function translatedError(error: IpcCallError): string | null {
  if (!i18n.isInitialized) return null;
  const reasonKey = `errors.reasons.${error.reason ?? ''}`;
  if (error.reason && i18n.exists(reasonKey)) return i18n.t(reasonKey);
  const codeKey = `errors.codes.${error.code}`;
  if (!i18n.exists(codeKey)) return null;
  // The detail names the field or id in English: useful in the English UI, noise in the Persian.
  const detail = error.detail && i18n.language === 'en' ? ` (${error.detail})` : '';
  return i18n.t(codeKey) + detail;
}
