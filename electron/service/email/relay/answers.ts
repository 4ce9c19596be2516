// What the embedded provider answers, as data: the HTTP routes write it as it is, and the app's
// in-process 'sandbox' transport reads it as it would read the provider's HTTP answer. Every
// refusal is the provider's bare `{"message": "..."}`, never the SMS API's envelope.
import { HttpStatus } from '../http-status';

/** The provider's HTTP status for a send it took; any other is a refusal. */
export const SEND_ACCEPTED = 202;

export interface RelayAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The body already as JSON text (a large list, serialized a chunk at a time): sent as it is. */
  json?: string;
}

/** An answer whose body is JSON text; `body` parses it only for a caller that asks (in process). */
export function jsonAnswer(status: number, json: string, headers?: Record<string, string>): RelayAnswer {
  let body: unknown;
  return {
    status,
    json,
    ...(headers ? { headers } : {}),
    get body() {
      return (body ??= JSON.parse(json));
    },
  };
}

export function refusal(status: number, message: string): RelayAnswer {
  return { status, body: { message } };
}

export const ok = (body: unknown, status: number = HttpStatus.Ok): RelayAnswer => ({ status, body });

/** ms → ISO 8601 in UTC (what the provider's timestamps look like); null stays null. */
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
