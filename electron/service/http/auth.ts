// Bearer authentication of version 2 and file upload (spec 5): an unknown key is 403, a key of an
// inactive account 401. Runs on onRequest, before the body is read, so a refused caller cannot
// make the server parse a large body.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../core';
import type { ApiAccount } from '../accounts/accounts';
import { sendError } from './envelope';

declare module 'fastify' {
  interface FastifyRequest {
    account: ApiAccount;
  }
}

export function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The onRequest hook (a callback, not a promise: it runs at every call). */
export function bearerAuth(core: Core) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const result = core.accounts.authenticate(bearerKey(request.headers.authorization));
    // Answered here: a hook that answers does not go on.
    if (!result.ok) return void sendError(reply, result.code);
    request.account = result.account;
    done();
  };
}
