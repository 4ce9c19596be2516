// Why an import left a row out, and the Persian text of each reason. Apart from shared/contacts
// (which needs zod) because the import worker reads it: zod would add a quarter second to every
// import thread's start. A row left out as 'invalid' also says what is wrong with its value
// (shared/phone.ts phoneProblem: empty, letters, landline, foreign, too short, too long).
import { phoneProblem, type PhoneProblem } from './phone';

export type RejectionReason = 'invalid' | 'duplicate' | 'opted_out';

export const rejectionReasonText: Record<RejectionReason, string> = {
  invalid: 'شماره موبایل نامعتبر است',
  duplicate: 'شماره تکراری',
  opted_out: 'شماره در فهرست لغو دریافت است',
};

/** The reasons in each language of the window (rejection reports are written in the window's). */
export const rejectionReasonTexts: Record<'fa' | 'en', Record<RejectionReason, string>> = {
  fa: rejectionReasonText,
  en: {
    invalid: 'Not a valid mobile number',
    duplicate: 'Duplicate number',
    opted_out: 'On the opt-out list',
  },
};

/** What is wrong with a rejected value, in each language ('invalid': nothing more precise). */
export const phoneProblemTexts: Record<'fa' | 'en', Record<PhoneProblem, string>> = {
  fa: {
    empty: 'خانه شماره خالی است',
    letters: 'حرف یا نشانه دارد',
    landline: 'تلفن ثابت است، نه موبایل',
    foreign: 'شماره خارج از ایران است',
    too_short: 'برای شماره موبایل کوتاه است',
    too_long: 'برای شماره موبایل بلند است',
    invalid: rejectionReasonText.invalid,
  },
  en: {
    empty: 'Empty cell',
    letters: 'Contains letters or signs',
    landline: 'A landline, not a mobile',
    foreign: 'A number outside Iran',
    too_short: 'Too short for a mobile number',
    too_long: 'Too long for a mobile number',
    invalid: rejectionReasonTexts.en.invalid,
  },
};

/** A rejected row's problem: what is wrong with the value of an 'invalid' row, else nothing. */
export function rejectionProblem(reason: RejectionReason, value: string): PhoneProblem | undefined {
  return reason === 'invalid' ? (phoneProblem(value) ?? 'invalid') : undefined;
}

/** A rejected row's reason as a person reads it: an invalid row's own problem, else the reason. */
export function rejectionText(reason: RejectionReason, value: string, language: 'fa' | 'en'): string {
  const problem = rejectionProblem(reason, value);
  return problem === undefined ? rejectionReasonTexts[language][reason] : phoneProblemTexts[language][problem];
}
