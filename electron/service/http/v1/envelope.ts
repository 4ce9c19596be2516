// The previous provider's envelope (reference/kavenegar-v1.md §0): `{return: {status, message},
// entries}` with `entries: null` on every error and the HTTP status equal to return.status (its Go,
// .NET and Java clients treat any other HTTP status as an error; its Node client reads the body).
// Paged reads add `metadata` beside `entries`.
import type { FastifyReply } from 'fastify';
import { ApiCode, apiCodeMessage } from '../../../../shared/status';

/** The paged reads' `metadata`, beside `entries` (§0: "newer paged endpoints add" it). */
export interface V1PageMetadata {
  totalCount: number;
  currentPage: number;
  totalPages: number;
  pageSize: number;
}

/** A method's answer that carries `metadata` beside its entries. */
export class V1Paged {
  constructor(
    readonly entries: unknown,
    readonly metadata: V1PageMetadata,
  ) {}
}

export function v1Ok(reply: FastifyReply, answer: unknown): FastifyReply {
  const ok = { status: ApiCode.Ok, message: apiCodeMessage[ApiCode.Ok] };
  if (answer instanceof V1Paged)
    return reply.code(200).send({ return: ok, entries: answer.entries, metadata: answer.metadata });
  return reply.code(200).send({ return: ok, entries: answer });
}

export function v1Envelope(code: ApiCode): { return: { status: number; message: string }; entries: null } {
  return { return: { status: code, message: apiCodeMessage[code] }, entries: null };
}

export function v1Error(reply: FastifyReply, code: ApiCode): FastifyReply {
  return reply.code(code).send(v1Envelope(code));
}
