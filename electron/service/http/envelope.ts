// The response envelope of spec 2.1 / 7: `{return: {status, message}, entries}`, the HTTP status
// equal to return.status (201 answers keep 200 in the body), and `entries: []` on every error.
import type { FastifyReply } from 'fastify';
import { apiCodeMessage, ApiCode } from '../../../shared/status';
import { ServiceError } from '../errors';

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

/**
 * The code an error thrown while answering maps to, for every generation's envelope: the core's
 * refusals as they are, the framework's body and content errors as 414 or 400; null for an
 * unexpected error (a 500, logged).
 */
export function refusalCode(error: Error & { code?: unknown; statusCode?: number }): ApiCode | null {
  if (error instanceof ServiceError) return error.code;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return ApiCode.TooLarge;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_ERR_VALIDATION':
      return ApiCode.BadRequest;
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return ApiCode.BadRequest;
  return null;
}

/** Spec 7: an unexpected error is a 500 with a bare `{message}`, no envelope. */
export function sendInternalError(reply: FastifyReply): FastifyReply {
  return reply.code(500).send({ message: apiCodeMessage[ApiCode.Internal] });
}
