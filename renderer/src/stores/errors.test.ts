// errorMessage() in both languages: the reason's sentence first, then the code's (the English
// detail in the English UI only), then the error's own words; and every reason the core gives has
// its sentence in both languages.
import { beforeAll, describe, expect, it } from 'vitest';
import { IpcCallError, OFFLINE_CODE, OFFLINE_REASON } from '../../../shared/ipc';
import { i18n, resources } from '../i18n';
import { en } from '../i18n/en';
import { fa } from '../i18n/fa';
import { errorMessage, isOffline, offlineMessage, refusalText } from './errors';

// The core's sources, as text (Vite's glob import), for the reasons they give.
const coreSources = import.meta.glob(['../../../electron/service/**/*.ts', '!../../../electron/service/**/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

beforeAll(async () => {
  // i18n without the document (initI18n also sets <html lang dir>).
  await i18n.init({ resources, lng: 'en', fallbackLng: false, interpolation: { escapeValue: false } });
});

const refused = (error: { code: number; detail?: string; reason?: string }) =>
  new IpcCallError('segments:rename', { message: 'پارامترها ناقص هستند', ...error });

describe('errorMessage', () => {
  it('says the reason’s sentence in the UI’s language', async () => {
    const error = refused({ code: 400, detail: 'a segment name is required', reason: 'segment_name_required' });
    await i18n.changeLanguage('en');
    expect(errorMessage(error)).toBe(en.errors.reasons.segment_name_required);
    await i18n.changeLanguage('fa');
    expect(errorMessage(error)).toBe(fa.errors.reasons.segment_name_required);
  });

  it('falls back to the code’s sentence, with the English detail in English only', async () => {
    const error = refused({ code: 404, detail: 'segment 12 not found', reason: 'no_such_reason_here' });
    await i18n.changeLanguage('en');
    expect(errorMessage(error)).toBe(`${en.errors.codes['404']} (segment 12 not found)`);
    await i18n.changeLanguage('fa');
    expect(errorMessage(error)).toBe(fa.errors.codes['404']);
    expect(errorMessage(error)).not.toMatch(/[A-Za-z]/);
  });

  it('keeps the error’s own words when neither is known, and says the same of a store’s copy', async () => {
    await i18n.changeLanguage('en');
    expect(errorMessage(refused({ code: 999 }))).toBe('پارامترها ناقص هستند');
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(refusalText({ code: 418, detail: null, reason: null })).toBe(en.errors.codes['418']);
    expect(refusalText({ code: null, reason: 'campaign_link_empty' })).toBe(en.errors.reasons.campaign_link_empty);
  });

  it('says "offline" as the banner does, never "Failed to fetch"', async () => {
    const error = refused({ code: OFFLINE_CODE, reason: OFFLINE_REASON });
    for (const language of ['en', 'fa'] as const) {
      await i18n.changeLanguage(language);
      expect(errorMessage(error)).toBe(resources[language].translation.errors.reasons.offline);
      expect(offlineMessage()).toBe(errorMessage(error));
    }
    expect(isOffline(error)).toBe(true);
    expect(isOffline(refused({ code: 400 }))).toBe(false);
  });
});

/** The reasons given as the last argument of `new ServiceError(...)`, and `import_<code>` of the files' errors. */
function coreReasons(): Map<string, string> {
  const found = new Map<string, string>();
  for (const [file, text] of Object.entries(coreSources)) {
    for (let at = text.indexOf('ServiceError('); at !== -1; at = text.indexOf('ServiceError(', at + 1)) {
      // The call's arguments: up to the parenthesis that closes it.
      let depth = 0;
      let end = at + 'ServiceError'.length;
      for (; end < text.length; end++) {
        if (text[end] === '(') depth++;
        else if (text[end] === ')' && --depth === 0) break;
      }
      const last = /,\s*'([a-z]+(?:_[a-z0-9]+)+)'\s*,?\s*$/.exec(text.slice(at, end));
      if (last) found.set(last[1]!, file);
    }
    if (text.includes('`import_${error.code}`')) {
      const codes = /readonly code:\s*((?:\s*\|\s*'[a-z_]+')+)/.exec(
        coreSources[file.replace(/[^/]+$/, 'sources.ts')] ?? '',
      );
      for (const code of codes?.[1]?.match(/'([a-z_]+)'/g) ?? []) found.set(`import_${code.slice(1, -1)}`, file);
    }
  }
  return found;
}

describe('reasons of the core', () => {
  it('each has its sentence in both languages', () => {
    const reasons = coreReasons();
    expect(reasons.size).toBeGreaterThan(30);
    expect(reasons.has('import_binary')).toBe(true);
    const missing = [...reasons]
      .filter(([reason]) => !(reason in en.errors.reasons) || !(reason in fa.errors.reasons))
      .map(([reason, file]) => `${reason} (${file})`);
    expect(missing).toEqual([]);
  });
});
