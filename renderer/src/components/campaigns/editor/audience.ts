// The audience explained in one sentence, from the core's count of it: "1,204 in A, 380 of them
// also in B, 120 opted out, 300 left out by the conditions → 404 will receive". Pure: parts as i18n keys under
// campaignEditor.audience with their values, numbers and names already in the language's form.
import type { CampaignQuote } from '../../../../../shared/campaigns';
import { formatNumber, isolate, type Language } from '../../../lib/format';

export interface AudiencePart {
  /** Under campaignEditor.audience, or campaignEditor.filter for the filter's own words. */
  section?: 'filter';
  key: string;
  values: Record<string, string>;
}

export function listOf(names: readonly string[], language: Language): string {
  return new Intl.ListFormat(language, { type: 'conjunction' }).format(names.map(isolate));
}

export function audienceParts(audience: CampaignQuote['audience'], language: Language): AudiencePart[] {
  const n = (value: number) => formatNumber(value, language);
  const named = (role: 'include' | 'exclude') =>
    audience.segments.filter((s) => s.role === role && s.ready).map((s) => s.name);
  const include = named('include');
  const exclude = named('exclude');
  const parts: AudiencePart[] = [];
  if (include.length === 1)
    parts.push({ key: 'inOne', values: { n: n(audience.included), name: listOf(include, language) } });
  else if (include.length > 1) {
    parts.push({ key: 'inMany', values: { n: n(audience.included), names: listOf(include, language) } });
    if (audience.duplicates > 0) parts.push({ key: 'duplicates', values: { n: n(audience.duplicates) } });
  }
  if (exclude.length > 0)
    parts.push({ key: 'excluded', values: { n: n(audience.excluded), names: listOf(exclude, language) } });
  if (audience.opted_out > 0) parts.push({ key: 'optedOut', values: { n: n(audience.opted_out) } });
  if (audience.filtered_out > 0)
    parts.push({ section: 'filter', key: 'filteredOut', values: { n: n(audience.filtered_out) } });
  const waiting = audience.segments.filter((s) => !s.ready).map((s) => s.name);
  if (waiting.length > 0) parts.push({ key: 'notReady', values: { names: listOf(waiting, language) } });
  return parts;
}
