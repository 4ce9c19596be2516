// A segment's members as an email's recipients. The rule (the EMAIL and NAME columns, who is
// skipped and why, the template's variables) is shared/email-recipients.ts's, which the renderer's
// fake of these channels reads too; here the members come as segments.phonesWithFields reads them.
import { FIELD_SEPARATOR } from '../../contacts/fields';
import { classifyMembers as classifyRows, type ClassifiedMembers } from '../../../../shared/email-recipients';

export {
  emailColumn,
  mapVariables,
  toRecipient,
  type ClassifiedMembers,
  type VariableMap,
} from '../../../../shared/email-recipients';

/**
 * The members (as segments.phonesWithFields reads them) as addressed members and skipped rows.
 * The segment must have an EMAIL column (the caller refuses one without).
 */
export function classifyMembers(
  members: { phones: readonly string[]; fields: readonly string[]; rows?: ReadonlyArray<number | null> },
  columns: readonly string[],
): ClassifiedMembers {
  const { phones, fields, rows } = members;
  return classifyRows(
    phones,
    (i) => (columns.length > 0 ? fields[i]!.split(FIELD_SEPARATOR) : []),
    columns,
    rows ? (i) => rows[i] ?? null : undefined,
  );
}
