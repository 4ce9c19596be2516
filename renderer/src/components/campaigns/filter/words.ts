// A campaign's column conditions said in words ("CITY is تهران", "AGE between 20 and 30"), the same
// way wherever a filter is shown: the editor, the confirmation, the report. Pure: each condition
// as an i18n key under campaignEditor.filter.words with its values already in the language's form
// (names and values isolated, numbers in its digits, dates in its calendar).
import type { TFunction } from 'i18next';
import type { AudienceFilter, ColumnCondition } from '../../../../../shared/audience-filter';
import { digits, isolate, type Language } from '../../../lib/format';
import { formatDay } from '../editor/when';

export interface ConditionWords {
  key: string;
  values: Record<string, string>;
}

/** `YYYY-MM-DD` (Gregorian) as a day of the language's calendar; any other text as written. */
export function dayWords(value: string, language: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return isolate(digits(value, language));
  return formatDay({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }, language);
}

export function listWords(items: readonly string[], language: Language, type: 'conjunction' | 'disjunction'): string {
  return new Intl.ListFormat(language, { type }).format(items);
}

export function conditionWords(condition: ColumnCondition, language: Language): ConditionWords {
  const column = isolate(condition.column);
  const value = (text: string) => isolate(text);
  switch (condition.op) {
    case 'equals':
      return condition.value.trim() === ''
        ? { key: 'empty', values: { column } }
        : { key: 'equals', values: { column, value: value(condition.value) } };
    case 'contains':
      return { key: 'contains', values: { column, value: value(condition.value) } };
    case 'in':
      return {
        key: condition.values.length === 1 ? 'equals' : 'in',
        values:
          condition.values.length === 1
            ? { column, value: value(condition.values[0]!) }
            : { column, values: listWords(condition.values.map(value), language, 'disjunction') },
      };
    case 'between': {
      const end = (text: string) =>
        condition.kind === 'date' ? dayWords(text, language) : isolate(digits(text, language));
      const { from, to } = condition;
      if (from !== null && to !== null) return { key: 'between', values: { column, from: end(from), to: end(to) } };
      if (from !== null)
        return { key: condition.kind === 'date' ? 'since' : 'atLeast', values: { column, from: end(from) } };
      if (to !== null) return { key: condition.kind === 'date' ? 'until' : 'atMost', values: { column, to: end(to) } };
      return { key: 'any', values: { column } };
    }
    case 'anniversary':
      return { key: 'anniversary', values: { column, day: dayWords(condition.on, language) } };
  }
}

/** Every condition in words, joined by "and" (all must hold); null without a filter. */
export function filterWords(
  filter: AudienceFilter | null | undefined,
  language: Language,
  t: TFunction,
): string | null {
  if (!filter || filter.all.length === 0) return null;
  const said = filter.all.map((condition) => {
    const words = conditionWords(condition, language);
    return t(`campaignEditor.filter.words.${words.key}`, words.values);
  });
  return listWords(said, language, 'conjunction');
}
