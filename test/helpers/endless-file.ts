// A multipart POST whose `file` part never ends, for the routes that must refuse a file over their
// limit as it arrives (http/multipart-file.ts) instead of reading it whole first.
import http from 'node:http';
import { KEY } from './server';
import type { HttpResult } from '../api-v2/support';

export const ENDLESS_BOUNDARY = 'chapar-endless-file';

/**
 * POSTs `head` (the form's parts up to and including the file part's headers, with
 * ENDLESS_BOUNDARY) and then 1 MB chunks of the file, each once the one before has left, until an
 * answer arrives. Returns the answer and the file bytes written by then; gives up past
 * `giveUpAfter` bytes.
 */
export function postEndlessFile(
  url: string,
  head: string,
  giveUpAfter: number,
): Promise<HttpResult & { written: number }> {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const post = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${ENDLESS_BOUNDARY}` },
    });
    // Once answered the server may close without reading more: a write error then is expected.
    post.on('error', (error) => (answered ? undefined : reject(error)));
    post.on('response', (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        post.destroy();
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: response.statusCode!, body: JSON.parse(text), text, written });
      });
    });
    post.write(head);
    // The next chunk once the last one has left and the socket's reads had their turn (a loopback
    // write completes at once, and its callback alone would never let the answer in).
    const pump = () => {
      if (answered) return;
      if (written > giveUpAfter) return reject(new Error(`no answer after ${written} bytes of the file`));
      written += chunk.length;
      post.write(chunk, () => setImmediate(pump));
    };
    pump();
  });
}
