// The one error type the core throws for a request it refuses: it carries the API code of spec 7,
// and the transports (HTTP envelope, IPC result) turn it into their own shape.
import { apiCodeMessage, type ApiCode } from '../../shared/status';

export class ServiceError extends Error {
  readonly code: ApiCode;
  /** Extra detail for logs and the UI; the API's return.message stays the Persian text of the code. */
  readonly detail: string | undefined;
  /** A key the app translates into a message that says what to do (IpcError.reason). */
  readonly reason: string | undefined;

  constructor(code: ApiCode, detail?: string, reason?: string) {
    super(detail ? `${apiCodeMessage[code]} (${detail})` : apiCodeMessage[code]);
    this.code = code;
    this.detail = detail;
    this.reason = reason;
  }
}
