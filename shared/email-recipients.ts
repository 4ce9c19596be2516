// A segment's members as an email's recipients: the EMAIL column gives the address, a NAME column
// the display name (both matched without regard to case, as campaigns' `{{COLUMN}}` are); members
// without an address, with one that is not an address, or with one seen on an earlier row are
// skipped and reported by row and phone. A member's row is that of the file the segment was
// imported from, as a spreadsheet shows it (header = 1), when the segment knows it; else the
// member's place in the segment's order, from 1.
// Each recipient's substitutions are their values of the template's variables, keyed by the names
// as the template writes them, so the provider's `{{ name }}` finds `NAME`'s value whatever the case.
// The core's preview and send read members with it (email/client/recipients.ts), and the
// renderer's fake of the email channels does too, so a store test sees the core's rule.
import { normalizeEmail } from './email';
import { templateVariables } from './email-template';
import type { EmailSkipped } from './ipc/contracts/email';

/** `{{PHONE_NUMBER}}`: the member's number, when the segment has no such column (campaigns' rule). */
export const PHONE_VARIABLE = 'PHONE_NUMBER';
const EMAIL_COLUMN = 'EMAIL';
const NAME_COLUMN = 'NAME';

export interface Recipient {
  /** The member's row in the file the segment came from (else in the segment, from 1). */
  row: number;
  phone: string;
  email: string;
  name: string;
  substitutions: Record<string, string>;
}

export interface TemplateParts {
  subject: string;
  text?: string | null;
  html?: string | null;
}

/** How the template's variables read a member: a column's index, the phone, or nothing. */
export interface VariableMap {
  variables: Array<{ name: string; column: number | 'phone' }>;
  /** Variables that match no column (they render empty). */
  unknown: string[];
}

export function mapVariables(template: TemplateParts, columns: readonly string[]): VariableMap {
  const names = new Set([
    ...templateVariables(template.subject),
    ...templateVariables(template.text ?? ''),
    ...templateVariables(template.html ?? ''),
  ]);
  const byUpper = new Map<string, number>();
  columns.forEach((column, i) => {
    if (!byUpper.has(column.toUpperCase())) byUpper.set(column.toUpperCase(), i);
  });
  const variables: VariableMap['variables'] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const column = byUpper.get(name.toUpperCase());
    if (column !== undefined) variables.push({ name, column });
    else if (name.toUpperCase() === PHONE_VARIABLE) variables.push({ name, column: 'phone' });
    else unknown.push(name);
  }
  return { variables, unknown };
}

export function findColumn(columns: readonly string[], name: string): number | null {
  const i = columns.findIndex((column) => column.toUpperCase() === name);
  return i < 0 ? null : i;
}

/** The segment's column the addresses are read from, as the segment writes it; null without one. */
export function emailColumn(columns: readonly string[]): string | null {
  const i = findColumn(columns, EMAIL_COLUMN);
  return i === null ? null : columns[i]!;
}

/** A member with an address, as read from the segment: their column values kept for the variables. */
export interface AddressedMember {
  row: number;
  phone: string;
  email: string;
  name: string;
  values: string[];
}

/**
 * A segment's members sorted into who gets an email and who is skipped. It depends on the
 * segment alone (not the template), so a preview can keep it while the segment is unchanged.
 */
export interface ClassifiedMembers {
  total: number;
  members: AddressedMember[];
  skipped: EmailSkipped[];
}

/**
 * The members (their numbers in the segment's order, `valuesOf(i)` the i-th one's column values,
 * `rowOf(i)` its row in the file it was imported from, null when not known) as addressed members
 * and skipped rows, those in row order. The segment must have an EMAIL column (the caller refuses
 * one without).
 */
export function classifyMembers(
  phones: readonly string[],
  valuesOf: (i: number) => string[],
  columns: readonly string[],
  rowOf?: (i: number) => number | null,
): ClassifiedMembers {
  const emailAt = findColumn(columns, EMAIL_COLUMN);
  if (emailAt === null) throw new Error('the segment has no EMAIL column');
  const nameAt = findColumn(columns, NAME_COLUMN);
  const seen = new Set<string>();
  const addressed: AddressedMember[] = [];
  const skipped: EmailSkipped[] = [];
  for (let i = 0; i < phones.length; i++) {
    const phone = phones[i]!;
    const values = valuesOf(i);
    const written = (values[emailAt] ?? '').trim();
    const row = rowOf?.(i) ?? i + 1;
    if (written === '') {
      skipped.push({ row, phone, email: '', reason: 'missing' });
      continue;
    }
    const email = normalizeEmail(written);
    if (email === null) {
      skipped.push({ row, phone, email: written, reason: 'invalid' });
      continue;
    }
    // Providers treat addresses without regard to case: one person, one message.
    const key = email.toLowerCase();
    if (seen.has(key)) {
      skipped.push({ row, phone, email: written, reason: 'duplicate' });
      continue;
    }
    seen.add(key);
    addressed.push({ row, phone, email, name: nameAt === null ? '' : (values[nameAt] ?? '').trim(), values });
  }
  if (rowOf) skipped.sort((a, b) => a.row - b.row);
  return { total: phones.length, members: addressed, skipped };
}

/** A member as a recipient of this template: their values of its variables. */
export function toRecipient(member: AddressedMember, map: VariableMap): Recipient {
  const substitutions: Record<string, string> = {};
  for (const variable of map.variables)
    substitutions[variable.name] = variable.column === 'phone' ? member.phone : (member.values[variable.column] ?? '');
  return { row: member.row, phone: member.phone, email: member.email, name: member.name, substitutions };
}
