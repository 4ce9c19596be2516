// verify/lookup (reference/kavenegar-v1.md §1.13): a one-time code sent in the words of one of the
// account's templates (messaging/templates.ts). The rules of the call are here, in the order they
// are checked: one receptor (411), an active template (424), the tokens' length (422) and form
// (431), each given token named by the template and each placeholder given (432, 400), a call only
// for a numeric token (428). The filled text then goes through Accept like any send (origin
// api-v1, the strict receiver rule), so its line, price, credit and opt-out phrase are Accept's:
// an SMS line's text gets the phrase as every SMS does.
import type { Accounts, Line } from '../accounts/accounts';
import type { Accept, Recorded } from './accept';
import type { Templates } from './templates';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { fillTemplate, placeholdersOf, TEMPLATE_TOKENS, type TemplateToken } from '../../../shared/verify-templates';

/** The longest token (§1.13: "≤100 chars"); longer is 422. */
export const TOKEN_MAX_LENGTH = 100;
/** Spaces token10 and token20 may hold (§1.13); more is 431. */
export const TOKEN_SPACES: Partial<Record<TemplateToken, number>> = { token10: 5, token20: 8 };

export type VerifyType = 'sms' | 'call';

export interface VerifyRequest {
  /** The receptors as given: exactly one is accepted. */
  receptors: readonly string[];
  template: string;
  tokens: Partial<Record<TemplateToken, string>>;
  /** `sms` (default) or `call`, any case (the .NET client sends `Sms`/`Call`). */
  type?: string | undefined;
}

/** Whatever breaks a token's form: 422 for its length or a control character, 431 for its structure. */
export function tokenFault(
  name: TemplateToken,
  value: string,
): typeof ApiCode.Unprocessable | typeof ApiCode.TokenStructure | null {
  if (value.length > TOKEN_MAX_LENGTH) return ApiCode.Unprocessable;
  // Newlines and tabs are structure (431, "no newline"); other control characters cannot be sent at all.
  if (/[\n\r\t_]/.test(value)) return ApiCode.TokenStructure;
  if (/\p{Cc}/u.test(value)) return ApiCode.Unprocessable;
  const spaces = TOKEN_SPACES[name];
  const count = (value.match(/\s/g) ?? []).length;
  if (count > (spaces ?? 0)) return ApiCode.TokenStructure;
  return null;
}

/** `sms` or `call` in any case; anything else is 400. */
export function verifyType(typed: string | undefined): VerifyType {
  if (typed === undefined) return 'sms';
  const type = typed.trim().toLowerCase();
  if (type === 'sms' || type === 'call') return type;
  throw new ServiceError(ApiCode.BadRequest, `type ${typed} is neither sms nor call`);
}

export class Verify {
  constructor(
    private readonly accounts: Accounts,
    private readonly templates: Pick<Templates, 'find'>,
    private readonly accept: Pick<Accept, 'accept' | 'inGroup'>,
  ) {}

  /** lookup() for one of many requests in flight (the API): committed with them (Accept.inGroup). */
  lookupInGroup(accountId: number, request: VerifyRequest): Promise<Recorded> {
    return this.accept.inGroup(() => this.lookup(accountId, request));
  }

  /**
   * Sends the template filled with the tokens to the one receptor, through Accept; its refusals
   * (411 for an invalid number, 412 for the line, 418 for credit) are Accept's.
   */
  lookup(accountId: number, request: VerifyRequest): Recorded {
    const receptor = request.receptors[0];
    if (receptor === undefined) throw new ServiceError(ApiCode.BadRequest, 'receptor is required');
    if (request.receptors.length > 1)
      throw new ServiceError(ApiCode.InvalidReceiver, 'verify/lookup takes one receptor');
    const template = this.templates.find(accountId, request.template.trim());
    if (!template || !template.active)
      throw new ServiceError(ApiCode.TemplateNotApproved, `template ${request.template} is unknown or inactive`);
    if (request.tokens.token === undefined) throw new ServiceError(ApiCode.BadRequest, 'token is required');

    const given = TEMPLATE_TOKENS.filter((name) => request.tokens[name] !== undefined);
    for (const name of given) {
      const fault = tokenFault(name, request.tokens[name]!);
      if (fault !== null) throw new ServiceError(fault, `${name} is malformed`);
    }
    const placeholders = placeholdersOf(template.body);
    const unplaced = given.find((name) => !placeholders.includes(name));
    if (unplaced) throw new ServiceError(ApiCode.TokenNotInTemplate, `the template has no %${unplaced}`);
    // A placeholder without its token would reach the receiver as "%token2": refused instead.
    const missing = placeholders.find((name) => request.tokens[name as TemplateToken] === undefined);
    if (missing) throw new ServiceError(ApiCode.BadRequest, `the template needs ${missing}`);

    const type = verifyType(request.type);
    // A code read out by a call is digits; the simulator's carrier stands in for the call itself.
    if (type === 'call' && !/^[0-9]+$/.test(request.tokens.token))
      throw new ServiceError(ApiCode.CallNotPossible, 'a call reads out digits only');

    return this.accept.accept({
      accountId,
      origin: 'api-v1',
      sender: template.sender ?? this.defaultLine(accountId).number,
      text: fillTemplate(template.body, request.tokens),
      receivers: [receptor],
      rule: 'strict',
    });
  }

  /** A template without its own line goes out on the account's first SMS line that may send by API (412 when none). */
  private defaultLine(accountId: number): Line {
    const line = this.accounts.firstSmsLine(accountId, 'api-v1');
    if (!line) throw new ServiceError(ApiCode.InvalidSender, 'no SMS line of the account may send by API');
    return line;
  }
}
