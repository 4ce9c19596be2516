// What the HTTP server and its route modules share: the plain 404, the multipart field limit and
// the outbox path. A module of its own so the routes do not import the server that imports them.
import type { FastifyReply } from 'fastify';

/** Spec 7: an unknown path gets the framework's plain text, not the envelope. */
export function sendPlainNotFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('text/plain; charset=utf-8').send('404 page not found');
}

/** Multipart text fields (a campaign's template) may be this long; files have their own limits. */
export const BODY_LIMIT_BYTES = 64 * 1024 * 1024;

export const OUTBOX_PATH = '/v2/sms/outbox';
