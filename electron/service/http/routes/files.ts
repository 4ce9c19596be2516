// POST /upload-file/{provider} (spec 4.5): multipart field `file`, answers 201 with return.status
// 200 and `{file_id}`, a UUID a send from a line of the same provider may attach.
import type { FastifyInstance } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import type { Core } from '../../core';
import { bearerAuth } from '../auth';
import { fileBytes } from '../multipart-file';
import { sendError, sendOk } from '../envelope';
import { ApiCode } from '../../../../shared/status';
import { MAX_FILE_BYTES, MESSENGER_PROVIDERS, type MessengerProvider } from '../../files/files';

export async function fileRoutes(app: FastifyInstance, { core }: { core: Core }) {
  await app.register(async (authed) => {
    authed.addHook('onRequest', bearerAuth(core));
    for (const provider of MESSENGER_PROVIDERS) {
      authed.post(`/upload-file/${provider}`, { config: { upload: true } }, async (request, reply) => {
        if (!request.isMultipart()) return sendError(reply, ApiCode.BadRequest);
        let part: MultipartFile | undefined;
        let data: Buffer;
        try {
          part = await request.file({ limits: { fileSize: MAX_FILE_BYTES, files: 1 } });
          if (!part) return sendError(reply, ApiCode.BadRequest);
          data = await fileBytes(part, 'messenger file');
        } catch (error) {
          // The multipart parser reports a malformed body (no boundary, data cut off) with plain
          // errors that carry no code: the caller's fault, 400, not a 500. Coded errors (file too
          // large) go on to the error handler, which knows their codes.
          if (error instanceof Error && 'code' in error) throw error;
          return sendError(reply, ApiCode.BadRequest);
        }
        const record = core.files.save(request.account.id, provider as MessengerProvider, {
          name: part.filename,
          mime: part.mimetype,
          data,
        });
        return sendOk(reply, { file_id: record.id }, 201);
      });
    }
  });
}
