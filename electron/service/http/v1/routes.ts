// Version 1 (spec 9, reference/kavenegar-v1.md): `/v1/{apiKey}/{scope}/{method}.json`, compatible
// with the previous provider's REST API so that its official clients work unchanged. This file is
// the transport's frame: the key in the path (403, 401), the caller's IP against the account's
// allow-list (416; 407 for the outbox reads when the list is empty), the parameters merged from
// query and body (params.ts) and the provider's envelope (envelope.ts). The methods themselves
// (sms.ts, reads.ts, account.ts, verify.ts) only map parameters onto the core and entries back.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../core';
import type { ApiAccount } from '../../accounts/accounts';
import { ipAllowed } from '../../accounts/ip-allowlist';
import { ServiceError } from '../../errors';
import { ApiCode } from '../../../../shared/status';
import { V1Params } from './params';
import { v1Error, v1Ok } from './envelope';
import { refusalCode, sendInternalError } from '../envelope';

export interface V1Call {
  core: Core;
  /** The key's account; methods that take key `0` (utils/getdate) get none. */
  account: ApiAccount;
  params: V1Params;
  request: FastifyRequest;
}

export interface V1Method {
  /**
   * The entries of the answer (an array, or an object for account/* and utils/getdate), or a
   * V1Paged with its metadata.
   */
  handler: (call: V1Call) => unknown;
  /** POST only (sms/sendarray); the others take GET and POST. */
  postOnly?: boolean;
  /** Reads the previous provider allowed only once an IP was registered (407 when none is). */
  needsConfiguredIp?: boolean;
  /** No key needed: the path's key may be anything (`0`). */
  public?: boolean;
}

/** `scope/method` → its handler; filled by the method modules. */
export type V1Methods = Record<string, V1Method>;

/** Requests of 200 receptors with a long text, or 500 ids, fit in a fraction of it. */
export const V1_BODY_LIMIT_BYTES = 1024 * 1024;

/** A path with the key hidden, for the log: keys never reach a log line. */
export function redactedPath(url: string): string {
  return url.replace(/^(\/v1\/)[^/?]+/, '$1***');
}

function authenticate(
  core: Core,
  request: FastifyRequest<{ Params: { apiKey: string } }>,
  method: V1Method,
): ApiAccount {
  const result = core.accounts.authenticate(request.params.apiKey);
  if (!result.ok) throw new ServiceError(result.code);
  const account = result.account;
  if (account.ip_allowlist.length === 0 && method.needsConfiguredIp) throw new ServiceError(ApiCode.IpNotConfigured);
  if (!ipAllowed(account.ip_allowlist, request.ip)) throw new ServiceError(ApiCode.IpMismatch);
  return account;
}

export function v1Routes(methods: V1Methods) {
  return async (app: FastifyInstance, { core }: { core: Core }) => {
    app.setErrorHandler((error: Error & { code?: unknown; statusCode?: number }, request, reply: FastifyReply) => {
      const code = refusalCode(error);
      if (code !== null) return v1Error(reply, code);
      request.log.error({ err: error, url: redactedPath(request.url), reqId: request.id }, 'unexpected error');
      return sendInternalError(reply);
    });

    for (const [name, method] of Object.entries(methods)) {
      const route = {
        url: `/v1/:apiKey/${name}.json`,
        bodyLimit: V1_BODY_LIMIT_BYTES,
        // The key is checked before the body is read, as version 2's bearer key is.
        // (A callback, not a promise: it runs at every call.)
        onRequest: (
          request: FastifyRequest<{ Params: { apiKey: string } }>,
          _reply: FastifyReply,
          done: (error?: Error) => void,
        ) => {
          try {
            if (!method.public) request.account = authenticate(core, request, method);
          } catch (error) {
            return done(error as Error);
          }
          done();
        },
        handler: async (request: FastifyRequest<{ Params: { apiKey: string } }>, reply: FastifyReply) => {
          const params = V1Params.from(request.query, request.body);
          const entries = await method.handler({ core, account: request.account, params, request });
          return v1Ok(reply, entries);
        },
      };
      app.route({ ...route, method: method.postOnly ? ['POST'] : ['GET', 'POST'] });
    }
  };
}
