// API return codes with their Persian texts (spec 7), providers and line permissions: defined once,
// used by the service core, the HTTP API and the UI alike. Message statuses live in lifecycle.ts.

export { MessageStatus, messageStatusText, FINAL_STATUSES, isFinalStatus, isMessageStatus } from './lifecycle';

/** `return.status` codes the service answers with (spec 7). */
export const ApiCode = {
  Ok: 200,
  BadRequest: 400,
  AccountInactive: 401,
  InvalidApiKey: 403,
  NotFound: 404,
  InvalidReceiver: 411,
  InvalidSender: 412,
  TooLarge: 414,
  IpMismatch: 416,
  /** Version 1: select/outbox reads need an IP allow-list on the account. */
  IpNotConfigured: 407,
  /** Version 1 sendarray: the arrays differ in length. */
  ArrayLengthMismatch: 419,
  /** Version 1 verify/lookup: a voice call needs a numeric token. */
  CallNotPossible: 428,
  /** Version 1 verify/lookup: a token's structure (spaces, newline, underscore). */
  TokenStructure: 431,
  /** Version 1 verify/lookup: a token given has no place in the template's text. */
  TokenNotInTemplate: 432,
  /** Not of the spec: the app's own calls, when a newer call of the same kind replaced this one. */
  Superseded: 409,
  BadDate: 417,
  NoCredit: 418,
  Unprocessable: 422,
  TemplateNotApproved: 424,
  Internal: 500,
  NotImplemented: 501,
} as const;
export type ApiCode = (typeof ApiCode)[keyof typeof ApiCode];

/** return.message of each code: the previous provider's Persian table (reference/kavenegar-v1.md §2). */
export const apiCodeMessage: Record<ApiCode, string> = {
  200: 'تایید شد',
  400: 'پارامترها ناقص هستند',
  401: 'حساب کاربری غیرفعال شده است',
  403: 'کد شناسائی API-Key معتبر نمی‌باشد',
  404: 'مورد درخواستی یافت نشد',
  411: 'دریافت کننده نامعتبر است',
  412: 'ارسال کننده نامعتبر است',
  414: 'حجم درخواست بیشتر از حد مجاز است',
  416: 'IP سرویس مبدا با تنظیمات مطابقت ندارد',
  407: 'دسترسی به اطلاعات مورد نظر برای شما امکان پذیر نیست',
  419: 'طول آرایه متن و گیرنده و فرستنده هم اندازه نیست',
  428: 'ارسال کد از طریق تماس تلفنی امکان پذیر نیست',
  431: 'ساختار کد صحیح نمی‌باشد',
  432: 'پارامتر کد در متن پیام پیدا نشد',
  409: 'درخواست جدیدتری جای این درخواست را گرفت',
  417: 'تاریخ ارسال اشتباه است و فرمت آن صحیح نمی باشد.',
  418: 'اعتبار شما کافی نمی‌باشد',
  422: 'داده ها به دلیل وجود کاراکتر نامناسب قابل پردازش نیست',
  424: 'الگوی مورد نظر پیدا نشد',
  500: 'خطای داخلی سرور؛ لطفا بعدا دوباره تلاش کنید',
  501: 'پیاده‌سازی نشده است',
};

export type Provider = 'sms' | 'bale' | 'rubika';
export const PROVIDERS: readonly Provider[] = ['sms', 'bale', 'rubika'];
export function isMessengerProvider(provider: Provider): boolean {
  return provider !== 'sms';
}

export const LINE_PERMISSIONS = ['can_send_api_campaign', 'can_send_panel_campaign'] as const;
export type LinePermission = (typeof LINE_PERMISSIONS)[number];
