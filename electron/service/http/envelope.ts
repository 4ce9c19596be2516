// The response envelope of spec 2.1 / 7: `{return: {status, message}, entries}`, the HTTP status
// equal to return.status (201 answers keep 200 in the body), and `entries: []` on every error.
import type { FastifyReply } from 'fastify';
import { apiCodeMessage, ApiCode } from '../../../shared/status';

export interface Envelope<T> {
  return: { status: number; message: string };
  entries: T;
}

export function envelope<T>(status: ApiCode, entries: T): Envelope<T> {
  return { return: { status, message: apiCodeMessage[status] }, entries };
}

export function sendOk<T>(reply: FastifyReply, entries: T, httpStatus: 200 | 201 = 200): FastifyReply {
  return reply.code(httpStatus).send(envelope(ApiCode.Ok, entries));
}

export function sendError(reply: FastifyReply, code: ApiCode): FastifyReply {
  return reply.code(code).send(envelope(code, []));
}
