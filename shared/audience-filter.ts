// Targeting by column (our extension of a campaign's audience): conditions on the columns of the
// segments' rows, all of which a member must meet. Values are compared folded (digits of any script
// as ASCII, Arabic ي/ك as Persian ی/ک, spaces trimmed and collapsed, letter case ignored), so a
// sheet typed on a Persian keyboard and one exported from an Arabic one meet the same filter.
//
// `anniversary` is not offered in the editor's filter: it is what a date-triggered campaign adds to
// each occurrence (the members whose date in `column` falls on `on`'s month and day, read in the
// calendar the date was written in: a Jalali ۱۳۷۰/۰۵/۱۲ on 12 Mordad, a Gregorian or Excel date on
// its Gregorian day).
import { z } from 'zod';

/** A column's name as the segment's header has it (matched folded, as values are). */
const column = z.string().trim().min(1).max(200);
/** A local calendar day, Gregorian, `YYYY-MM-DD`. */
export const LocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const ColumnCondition = z.discriminatedUnion('op', [
  z.object({ column, op: z.literal('equals'), value: z.string().max(500) }),
  z.object({ column, op: z.literal('contains'), value: z.string().min(1).max(500) }),
  z.object({ column, op: z.literal('in'), values: z.array(z.string().max(500)).min(1).max(1_000) }),
  /** Inclusive; an end left null is open. Dates in any form a cell may hold (Jalali, Gregorian, Excel). */
  z.object({
    column,
    op: z.literal('between'),
    kind: z.enum(['number', 'date']),
    from: z.string().max(100).nullable(),
    to: z.string().max(100).nullable(),
  }),
  /** The anniversary on `on`, or within the `days` days from `on` on (a month's estimate counts one window). */
  z.object({ column, op: z.literal('anniversary'), on: LocalDate, days: z.number().int().min(1).max(366).optional() }),
]);
export type ColumnCondition = z.infer<typeof ColumnCondition>;
export type FilterOp = ColumnCondition['op'];

/** The operators the editor offers (anniversary belongs to date triggers). */
export const EDITOR_FILTER_OPS = ['equals', 'contains', 'in', 'between'] as const satisfies readonly FilterOp[];

/** All conditions must hold. */
export const AudienceFilter = z.object({ all: z.array(ColumnCondition).min(1).max(10) });
export type AudienceFilter = z.infer<typeof AudienceFilter>;
