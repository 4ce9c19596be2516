// The building blocks every domain's contracts share: ids, times, money, the line's provider and
// permissions, and the inputs of operations that take nothing or only an account. Times are
// milliseconds since the Unix epoch everywhere in the contracts (the HTTP API keeps its own unix
// seconds); money is whole rials.
import { z } from 'zod';
import { LINE_PERMISSIONS, PROVIDERS } from '../status';
import { toPersianLetters } from '../persian-letters';

export const Id = z.number().int().positive();
export const EpochMs = z.number().int().nonnegative();
export const Rials = z.number().int();
export const ProviderSchema = z.enum(PROVIDERS as readonly ['sms', 'bale', 'rubika']);
export const LinePermissionSchema = z.enum(LINE_PERMISSIONS);
/** Contracts without input take nothing (`undefined`); `null` is accepted as the same. */
export const NoInput = z.union([z.undefined(), z.null()]).transform(() => undefined);
export const Empty = z.null();
/** The input of an operation on one account's data. */
export const byAccount = z.object({ account_id: Id });
/**
 * A name the user typed in the app (a campaign's, a segment's): Arabic ي/ك arrive as Persian ی/ک
 * before the core stores it. The HTTP API keeps what other programs send; only the panel's
 * contracts use this.
 */
export function typedName<T extends z.ZodString>(schema: T) {
  return schema.transform(toPersianLetters);
}
