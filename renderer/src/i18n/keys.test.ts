import { describe, expect, it } from 'vitest';
import { en } from './en';
import { fa } from './fa';
import { GATEWAY_KINDS, GATEWAY_TEMPLATE_FIELDS, HANDOVER_STATES } from '../../../shared/gateways';

// Every component and store, as text (Vite's glob import: no file system access needed).
const sources = import.meta.glob(['../**/*.tsx', '../**/*.ts', '!../**/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

function lookup(texts: object, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
      texts,
    );
}

/** A key's text, or its plural forms (`_one` and `_other`, which i18next picks by `count`). */
function hasText(texts: object, key: string): boolean {
  return (
    typeof lookup(texts, key) === 'string' ||
    (typeof lookup(texts, `${key}_one`) === 'string' && typeof lookup(texts, `${key}_other`) === 'string')
  );
}

describe('translation keys used in the code', () => {
  it('all exist in both languages', () => {
    const missing: string[] = [];
    let found = 0;
    for (const [file, text] of Object.entries(sources)) {
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) {
        found++;
        const key = match[1]!;
        if (!hasText(en, key)) missing.push(`en ${key} (${file})`);
        if (!hasText(fa, key)) missing.push(`fa ${key} (${file})`);
      }
    }
    expect(found).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('cover the keys built from names (nav, providers, settings tabs, ledger kinds, periods)', () => {
    for (const texts of [en, fa]) {
      for (const page of ['dashboard', 'compose', 'messages', 'settings'])
        expect(typeof lookup(texts, `nav.${page}`)).toBe('string');
      for (const provider of ['sms', 'bale', 'rubika'])
        expect(typeof lookup(texts, `provider.${provider}`)).toBe('string');
      for (const kind of ['topup', 'send', 'refund', 'adjust'])
        expect(typeof lookup(texts, `settings.credit.kinds.${kind}`)).toBe('string');
      for (const period of ['all', 'today', 'week', 'month'])
        expect(typeof lookup(texts, `messages.periods.${period}`)).toBe('string');
      for (const tab of [
        'general',
        'accounts',
        'apiKeys',
        'lines',
        'credit',
        'pricing',
        'simulator',
        'email',
        'backup',
      ])
        expect(typeof lookup(texts, `settings.tabs.${tab}`)).toBe('string');
      // The gateways: each kind's hint, each hand-over state's name and hint, each explained code.
      for (const kind of GATEWAY_KINDS) expect(typeof lookup(texts, `gateways.kindHint.${kind}`)).toBe('string');
      // The HTTP gateway's placeholders (their chips) and body types.
      for (const field of GATEWAY_TEMPLATE_FIELDS)
        expect(typeof lookup(texts, `gateways.placeholders.${field}`)).toBe('string');
      for (const choice of ['form', 'json', 'text', 'custom'])
        expect(typeof lookup(texts, `gateways.request.contentTypes.${choice}`)).toBe('string');
      for (const state of HANDOVER_STATES) {
        expect(typeof lookup(texts, `gateways.states.${state}`)).toBe('string');
        expect(typeof lookup(texts, `gateways.stateHints.${state}`)).toBe('string');
      }
      for (const code of ['401', '403', '407', '416', '418', '501', 'retry', 'other']) {
        expect(typeof lookup(texts, `gateways.explain.${code}`)).toBe('string');
        expect(typeof lookup(texts, `gateways.short.${code}`)).toBe('string');
      }
      // The workspace tab's label lives in its own block.
      expect(typeof lookup(texts, 'workspace.tab')).toBe('string');
      for (const part of ['database', 'free', 'wal', 'files', 'archive', 'backups', 'exports', 'other'])
        expect(typeof lookup(texts, `workspace.size.parts.${part}`)).toBe('string');
    }
  });
});
