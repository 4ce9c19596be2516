// The `smtp` transport: any SMTP server, through nodemailer's pooled SMTP transport. Each
// recipient gets their own message (they alone in To), rendered here with the same
// `{{ variable }}` rule the provider applies (shared/email-template.ts). SMTP says only whether the
// server took a message: accepted is 'sent'; a permanent (5xx) refusal is that recipient's
// 'error'; a refused login fails the send; anything else (no connection, a 4xx "try later") is
// retried by the send job.
import { createTransport } from 'nodemailer';
import { renderEmailTemplate, type Substitutions } from '../../../../../shared/email-template';
import { NetworkError } from './relay-api';

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string | null;
}

export interface SmtpMessage {
  from: { email: string; name?: string };
  replyTo: { email: string; name?: string } | null;
  to: { email: string; name: string };
  subject: string;
  text: string | null;
  html: string | null;
  substitutions: Substitutions;
  /** Names the send in the message's headers (X-Chapar-Send). */
  sendUuid: string;
}

export type SmtpOutcome =
  { kind: 'sent' } | { kind: 'rejected'; message: string } | { kind: 'unauthorized'; message: string };

export interface SmtpConnection {
  send(message: SmtpMessage): Promise<SmtpOutcome>;
  /** The server's greeting and login, without sending. */
  verify(): Promise<void>;
  close(): void;
}

const address = (party: { email: string; name?: string }) =>
  party.name ? { name: party.name, address: party.email } : party.email;

export function smtpConnection(settings: SmtpSettings): SmtpConnection {
  const transport = createTransport({
    pool: true,
    maxConnections: 1,
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return {
    async send(message) {
      const values = { recipient: message.substitutions };
      try {
        await transport.sendMail({
          from: address(message.from),
          to: address(message.to),
          replyTo: message.replyTo ? address(message.replyTo) : undefined,
          subject: renderEmailTemplate(message.subject, values),
          text: message.text === null ? undefined : renderEmailTemplate(message.text, values),
          html: message.html === null ? undefined : renderEmailTemplate(message.html, values, { html: true }),
          headers: { 'X-Chapar-Send': message.sendUuid },
        });
        return { kind: 'sent' };
      } catch (error) {
        return classify(error);
      }
    },
    async verify() {
      try {
        await transport.verify();
      } catch (error) {
        const outcome = classify(error);
        throw new Error(outcome.kind === 'sent' ? 'SMTP server not reachable' : outcome.message);
      }
    },
    close: () => transport.close(),
  };
}

/** An SMTP failure as an outcome; what may go better later is thrown as a NetworkError. */
function classify(error: unknown): SmtpOutcome {
  const { code, responseCode, response, message } = error as {
    code?: string;
    responseCode?: number;
    response?: string;
    message?: string;
  };
  const text = (response ?? message ?? String(error)).trim();
  if (code === 'EAUTH') return { kind: 'unauthorized', message: `the SMTP server refused the login: ${text}` };
  if (typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600)
    return { kind: 'rejected', message: text };
  throw new NetworkError(`SMTP ${code ?? 'error'}: ${text}`);
}
