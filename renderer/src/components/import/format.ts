// Sizes and durations as the wizard says them, in the window's language and digits.
import { formatNumber, type Language } from '../../lib/format';
import type { TFunction } from 'i18next';

export function formatBytes(bytes: number, language: Language): string {
  if (bytes >= 1024 * 1024) return `${formatNumber(bytes / (1024 * 1024), language, 1)} MB`;
  return `${formatNumber(Math.max(1, Math.round(bytes / 1024)), language)} KB`;
}

export function formatDuration(seconds: number, language: Language, t: TFunction): string {
  const whole = Math.max(1, Math.round(seconds));
  if (whole < 60) return t('import.seconds', { n: formatNumber(whole, language) });
  return t('import.minutes', {
    m: formatNumber(Math.floor(whole / 60), language),
    s: formatNumber(whole % 60, language),
  });
}
