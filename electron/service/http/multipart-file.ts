// A multipart file part read whole within its limit (the parts' `fileSize`), refused (414) the
// moment it passes it. The parser's own toBuffer notices only once the part ends: it would read
// (and drop) all the rest first, and a file that never ends would never be answered. The campaign
// form and the messenger file upload both read their file so.
import type { MultipartFile } from '@fastify/multipart';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';

/** The part's bytes; a file over its limit rejects with TooLarge (414) as soon as it passes it. */
export function fileBytes(part: MultipartFile, what: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    part.file.on('data', (chunk: Buffer) => chunks.push(chunk));
    part.file.once('end', () => resolve(Buffer.concat(chunks)));
    part.file.once('error', reject);
    part.file.once('limit', () => {
      chunks.length = 0;
      reject(new ServiceError(ApiCode.TooLarge, `${what} over its limit`));
      // The parser stops reading the request once its part is destroyed.
      part.file.destroy();
    });
  });
}
