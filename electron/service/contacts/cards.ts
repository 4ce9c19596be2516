// A contact's card: who a number is, as the account's segments know it (the Inbox shows it beside
// each reply and atop a conversation). Each segment holding the number gives its columns' values;
// the name is the first NAME-like column's value (NAME, FULL_NAME, FIRST_NAME + LAST_NAME, نام,
// نام و نام خانوادگی…, headers compared case-, separator- and Arabic/Persian-letter-folded).
//
// Public API (core.cards):
//   card(accountId, phone)        -> ContactCard (segments: [] when none holds it)
//   cards(accountId, phones)      -> Map<phone, ContactCard> (one transaction, a few phones)
//
// A segment can hold a million members: segment_members' primary key (segment_id, phone) makes
// the number's lookup one probe per segment of the account, whatever their sizes.
import type { Db } from '../db/database';
import { normalizePhone } from '../../../shared/phone';
import { toPersianLetters } from '../../../shared/persian-letters';
import type { ContactCard, ContactSegment } from '../../../shared/ipc/contracts/inbox';
import { decodeFields } from './fields';

export type { ContactCard, ContactSegment };

/** Segments named on one card at most: an account with hundreds of segments still answers in a glance. */
export const CARD_SEGMENTS = 20;

interface Row {
  id: number;
  name: string;
  columns: string;
  fields: string;
}

/** A header in the form the name columns are compared in: letters and digits only, upper case, Persian letters. */
export function foldHeader(header: string): string {
  return toPersianLetters(header)
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** Whole-name columns, best first (folded). */
const FULL_NAMES = [
  'NAME',
  'FULLNAME',
  'CUSTOMERNAME',
  'CUSTOMER',
  'CONTACTNAME',
  'نام',
  'نامکامل',
  'ناممشتری',
  'مشتری',
];
const FULL_WITH_FAMILY = ['نامونامخانوادگی', 'نامونامفامیل'];
/** A first name and a family name, joined when both are there. */
const FIRST_NAMES = ['FIRSTNAME', 'GIVENNAME', 'FNAME', 'نامکوچک'];
const LAST_NAMES = ['LASTNAME', 'SURNAME', 'FAMILYNAME', 'FAMILY', 'LNAME', 'نامخانوادگی', 'فامیلی', 'فامیل'];

/** The customer's name from one segment's values, or null when no NAME-like column has one. */
export function nameOf(values: Record<string, string>): string | null {
  const byFolded = new Map<string, string>();
  for (const [column, value] of Object.entries(values)) {
    const key = foldHeader(column);
    if (!byFolded.has(key) && value.trim() !== '') byFolded.set(key, value.trim());
  }
  for (const key of [...FULL_WITH_FAMILY, ...FULL_NAMES]) {
    const found = byFolded.get(key);
    if (found !== undefined) return found;
  }
  const first = FIRST_NAMES.map((key) => byFolded.get(key)).find((value) => value !== undefined);
  const last = LAST_NAMES.map((key) => byFolded.get(key)).find((value) => value !== undefined);
  if (first !== undefined || last !== undefined) return [first, last].filter((part) => part !== undefined).join(' ');
  return null;
}

/** Whether a column holds (part of) the name, so a card need not show it twice. */
export function isNameColumn(column: string): boolean {
  const key = foldHeader(column);
  return [...FULL_WITH_FAMILY, ...FULL_NAMES, ...FIRST_NAMES, ...LAST_NAMES].includes(key);
}

export class ContactCards {
  private readonly lookup;
  private readonly count;

  constructor(private readonly db: Db) {
    // Per segment of the account (segments_account), one probe of segment_members' primary key.
    // A segment being deleted or whose import failed is no one's card.
    this.lookup = db.prepare<[string, number, number], Row>(
      `SELECT s.id, s.name, s.columns, m.fields
       FROM segments s JOIN segment_members m ON m.segment_id = s.id AND m.phone = ?
       WHERE s.account_id = ? AND s.status IN ('ready', 'importing')
       ORDER BY s.id LIMIT ?`,
    );
    this.count = db
      .prepare<[string, number], number>(
        `SELECT count(*) FROM segments s JOIN segment_members m ON m.segment_id = s.id AND m.phone = ?
         WHERE s.account_id = ? AND s.status IN ('ready', 'importing')`,
      )
      .pluck();
  }

  card(accountId: number, phone: string): ContactCard {
    const number = normalizePhone(phone) ?? phone.trim();
    const rows = this.lookup.all(number, accountId, CARD_SEGMENTS + 1);
    const segments = rows.slice(0, CARD_SEGMENTS).map((row): ContactSegment => {
      const columns = JSON.parse(row.columns) as string[];
      const values = decodeFields(row.fields, columns);
      return {
        id: row.id,
        name: row.name,
        fields: columns.map((column) => ({ column, value: values[column] ?? '' })).filter((f) => f.value !== ''),
        contact_name: nameOf(values),
      };
    });
    const total = rows.length > CARD_SEGMENTS ? (this.count.get(number, accountId) ?? rows.length) : rows.length;
    const name = segments.map((segment) => segment.contact_name).find((value) => value !== null) ?? null;
    return { phone: number, name, segments, segment_count: total };
  }

  /** Cards of several numbers (a page of the Inbox), read in one snapshot. */
  cards(accountId: number, phones: readonly string[]): Map<string, ContactCard> {
    return this.db.transaction(() => {
      const found = new Map<string, ContactCard>();
      for (const phone of new Set(phones)) found.set(phone, this.card(accountId, phone));
      return found;
    })();
  }
}
