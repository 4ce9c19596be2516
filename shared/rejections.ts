// Why an import left a row out, and the Persian text of each reason. Apart from shared/contacts
// (which needs zod) because the import worker reads it: zod would add a quarter second to every
// import thread's start.

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
