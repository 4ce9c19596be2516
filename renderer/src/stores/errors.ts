// Errors as one line for the UI, in the UI's language. The core gives a code (spec 7) and, where
// the code alone would mislead, a reason; the UI says what happened and what to do
// (`errors.reasons.<reason>`, else `errors.codes.<code>`). The core's own message (Persian, as the
// API answers) is the last resort, for errors that carry neither.
import { IpcCallError, OFFLINE_REASON } from '../../../shared/ipc';
import { i18n } from '../i18n';

/** What the UI knows of a refusal: an IpcCallError, or a store's copy of one (the campaign editor's faults). */
export interface Refusal {
  code: number | null;
  detail?: string | null;
  reason?: string | null;
}

export function errorMessage(error: unknown): string {
  if (error instanceof IpcCallError) {
    const translated = refusalText(error);
    if (translated !== null) return translated;
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return JSON.stringify(error);
}

/**
 * The sentence for a refusal: its reason's, else its code's (with the detail, which names a field
 * or an id in English, in the English UI only); null when neither has a translation.
 */
export function refusalText(refusal: Refusal): string | null {
  if (!i18n.isInitialized) return null;
  const reasonKey = `errors.reasons.${refusal.reason ?? ''}`;
  if (refusal.reason && i18n.exists(reasonKey)) return i18n.t(reasonKey);
  const codeKey = `errors.codes.${refusal.code ?? ''}`;
  if (refusal.code === null || !i18n.exists(codeKey)) return null;
  const detail = refusal.detail && i18n.language === 'en' ? ` (${refusal.detail})` : '';
  return i18n.t(codeKey) + detail;
}

/** The call never reached the core (web mode: the server stopped): the shell's banner says so already. */
export function isOffline(error: unknown): boolean {
  return error instanceof IpcCallError && error.reason === OFFLINE_REASON;
}

/** What errorMessage() says of such a call, so a notifier can leave it to the banner. */
export function offlineMessage(): string {
  return i18n.isInitialized ? i18n.t(`errors.reasons.${OFFLINE_REASON}`) : OFFLINE_REASON;
}

/**
 * A failed call as a patch of a store's `error`: its sentence, or nothing when the core was only
 * out of reach (the shell's banner says that, once, for every page; the store keeps its data).
 */
export function reported(error: unknown): { error?: string } {
  return isOffline(error) ? {} : { error: errorMessage(error) };
}
