// The web UI's access token: random per start (or CHAPAR_WEB_TOKEN, for scripted runs), carried
// by an HttpOnly SameSite=Strict cookie once the printed URL was opened, or by a Bearer header.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export const TOKEN_COOKIE = 'chapar_token';

export function newToken(): string {
  return process.env['CHAPAR_WEB_TOKEN'] || randomBytes(24).toString('base64url');
}

export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True when the request carries the token: the cookie, `Authorization: Bearer`, or (SSE only) ?token=. */
export function hasToken(request: FastifyRequest, token: string, allowQuery = false): boolean {
  if (sameToken(token, request.cookies?.[TOKEN_COOKIE])) return true;
  const auth = request.headers.authorization;
  if (auth?.startsWith('Bearer ') && sameToken(token, auth.slice(7).trim())) return true;
  if (allowQuery) {
    const query = request.query as Record<string, unknown> | undefined;
    if (typeof query?.['token'] === 'string' && sameToken(token, query['token'])) return true;
  }
  return false;
}
