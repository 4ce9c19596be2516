// The HTTP statuses the email provider's API answers and its client reads, by name: the provider
// speaks HTTP codes where the SMS API speaks its own (shared/status.ts), and a bare number here
// would read like one of the message statuses of shared/lifecycle.ts.
export const HttpStatus = {
  Ok: 200,
  Created: 201,
  Accepted: 202,
  Unauthorized: 401,
  Forbidden: 403,
  RequestTimeout: 408,
  Conflict: 409,
  PreconditionFailed: 412,
  TooManyRequests: 429,
  InternalServerError: 500,
} as const;

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The key is missing, unknown, or without access: no retry will change that. */
export function isKeyRefused(status: number): boolean {
  return status === HttpStatus.Unauthorized || status === HttpStatus.Forbidden;
}
