// The parameters of a version 1 call, as that provider's clients send them
// (reference/kavenegar-v1.md §0): GET query or POST form (or JSON) body, the two merged; a key
// repeated (Go and Node clients send lists that way) read as a comma list would be; an empty value
// (`token2=`, `localid=`) or the text `null` (`type=null`) the same as an absent one; `date=0`
// meaning now.
import { ServiceError } from '../../errors';
import { ApiCode } from '../../../../shared/status';
import { toAsciiDigits } from '../../../../shared/digits';

type Raw = Record<string, unknown> | null | undefined;

export class V1Params {
  /** Per lower-cased name, its values in the order they came (query first), absent ones left out. */
  private constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  /** The query and the body of a request, merged: a key in both has both values, query first. */
  static from(query: unknown, body: unknown): V1Params {
    const values = new Map<string, string[]>();
    for (const source of [query, body] as Raw[]) {
      if (source === null || typeof source !== 'object' || Array.isArray(source)) continue;
      for (const [key, value] of Object.entries(source)) {
        const name = key.toLowerCase();
        // Repeated keys (a parsed form's array) and a JSON body's array are kept as one JSON array,
        // the form sendarray's fields take: a member may hold a comma itself (a sendarray text),
        // which a comma list would cut in two, and an empty member keeps its place.
        const text = Array.isArray(value)
          ? value.length === 0
            ? undefined
            : JSON.stringify(value.map((one) => scalar(one) ?? ''))
          : scalar(value);
        if (text === undefined || meansAbsent(text)) continue;
        const list = values.get(name);
        if (list) list.push(text);
        else values.set(name, [text]);
      }
    }
    return new V1Params(values);
  }

  /** The value (repeated ones joined with commas), or undefined when absent or empty. Names are case-insensitive. */
  string(name: string): string | undefined {
    return this.values.get(name.toLowerCase())?.join(',');
  }

  /** A value the method cannot do without: 400 when absent. */
  required(name: string): string {
    const value = this.string(name);
    if (value === undefined) throw new ServiceError(ApiCode.BadRequest, `${name} is required`);
    return value;
  }

  /**
   * A comma list (`receptor=0912…,0935…`), repeated keys (each maybe a comma list itself, as the
   * provider's server joins them), or a JSON array; trimmed, empty members dropped.
   */
  list(name: string): string[] | undefined {
    return this.parts(name)
      ?.flatMap((part) => part.split(','))
      .map((part) => part.trim())
      .filter((part) => part !== '');
  }

  /**
   * A list parallel to another (`localid` beside `receptor`): as array(), with empty members kept
   * as undefined, so that the n-th member stays the n-th receptor's.
   */
  members(name: string): (string | undefined)[] | undefined {
    return this.parts(name)?.map((part) => part.trim() || undefined);
  }

  /** A whole number (Persian or Arabic digits too); 400 when it is something else. */
  int(name: string): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const latin = toAsciiDigits(value.trim());
    if (!/^-?\d{1,15}$/.test(latin)) throw new ServiceError(ApiCode.BadRequest, `${name} is not a whole number`);
    return Number(latin);
  }

  /** A list of whole numbers (message ids); 400 when a member is not one. */
  ints(name: string): number[] | undefined {
    const list = this.list(name);
    if (list === undefined) return undefined;
    return list.map((part) => {
      const latin = toAsciiDigits(part);
      if (!/^\d{1,15}$/.test(latin))
        throw new ServiceError(ApiCode.BadRequest, `${name} has a member that is not an id`);
      return Number(latin);
    });
  }

  /**
   * sendarray's arrays: a JSON array in one field (what every official client sends; repeated keys
   * arrive so too), else a comma list. 400 when it is JSON but not an array. Members of a JSON array
   * are as sent; those of a comma list trimmed.
   */
  array(name: string): string[] | undefined {
    return this.parts(name);
  }

  /** The members of every value of the name: a JSON array's one by one, a comma list's split. */
  private parts(name: string): string[] | undefined {
    const values = this.values.get(name.toLowerCase());
    if (values === undefined) return undefined;
    return values.flatMap((value) =>
      value.trimStart().startsWith('[') ? jsonArray(name, value) : value.split(',').map((part) => part.trim()),
    );
  }

  /**
   * A send time in Unix seconds: absent or 0 is now (null); in the past or not a time is 417.
   * `now` in ms.
   */
  sendDate(name: string, now: number): number | null {
    const value = this.string(name);
    if (value === undefined) return null;
    const latin = toAsciiDigits(value.trim());
    if (!/^\d{1,12}$/.test(latin)) throw new ServiceError(ApiCode.BadDate, `${name} is not a Unix time`);
    const seconds = Number(latin);
    if (seconds === 0) return null;
    const at = seconds * 1000;
    // A minute of grace: the caller's clock and ours need not agree to the second.
    if (at < now - 60_000) throw new ServiceError(ApiCode.BadDate, `${name} is in the past`);
    return at;
  }

  /** A time in Unix seconds (a range's start or end), as ms; 400 when it is not one. */
  time(name: string): number | undefined {
    const value = this.int(name);
    if (value === undefined) return undefined;
    if (value < 0) throw new ServiceError(ApiCode.BadRequest, `${name} is not a Unix time`);
    return value * 1000;
  }
}

/** A JSON array's members as text (null as ''); 400 when the text is not a JSON array. */
function jsonArray(name: string, value: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ServiceError(ApiCode.BadRequest, `${name} is not a JSON array`);
  }
  if (!Array.isArray(parsed)) throw new ServiceError(ApiCode.BadRequest, `${name} is not a JSON array`);
  return parsed.map((member) => (member === null || member === undefined ? '' : String(member)));
}

/**
 * A value that stands for none. Empty: Node's querystring and .NET send `key=` for a null. The text
 * `null`: PHP's sendarray sends `json_encode(null)` for the arguments left at their default
 * (`type=null&localmessageid=null`). Only JSON's own spelling, lowercase, which is what every client
 * that writes it produces. It holds for every parameter, required ones included: `message=null` is
 * no text (400), not an SMS reading "null"; a member "null" inside a JSON array is a text as sent.
 */
function meansAbsent(text: string): boolean {
  return text === '' || text === 'null';
}

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // A JSON body may carry an array or object where a form carries its JSON text (sendarray).
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return undefined;
}
