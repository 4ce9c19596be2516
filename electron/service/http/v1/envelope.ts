// The previous provider's envelope (reference/kavenegar-v1.md §0): `{return: {status, message},
// entries}` with `entries: null` on every error and the HTTP status equal to return.status (its Go,
// .NET and Java clients treat any other HTTP status as an error; its Node client reads the body).
import type { FastifyReply } from 'fastify';
import { ApiCode, apiCodeMessage } from '../../../../shared/status';

export function v1Ok(reply: FastifyReply, entries: unknown): FastifyReply {
  return reply.code(200).send({ return: { status: ApiCode.Ok, message: apiCodeMessage[ApiCode.Ok] }, entries });
}

export function v1Envelope(code: ApiCode): { return: { status: number; message: string }; entries: null } {
  return { return: { status: code, message: apiCodeMessage[code] }, entries: null };
}

export function v1Error(reply: FastifyReply, code: ApiCode): FastifyReply {
  return reply.code(code).send(v1Envelope(code));
}
