// The messenger file upload (POST /upload-file/{provider}) refuses a file over its 15 MB as it
// arrives (issue 30), as the campaign form does with the same reading (http/multipart-file.ts): a
// file that never ends is answered 414 soon after its limit, not read whole first.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../electron/service/files/files';
import { ApiCode } from '../../shared/status';
import { KEY, startServer, type TestServer } from '../helpers/server';
import { expectError, type HttpResult } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const fileCount = () => (server.core.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;

/**
 * POST /upload-file/bale as multipart whose `file` part never ends: 1 MB chunks are written, each
 * once the one before has left, until an answer arrives. Returns the answer and the file bytes
 * written by then; gives up past `giveUpAfter` bytes.
 */
function postEndlessFile(giveUpAfter: number): Promise<HttpResult & { written: number }> {
  const boundary = 'chapar-endless-file';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const post = http.request(`${server.url}/upload-file/bale`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
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

describe('the messenger file upload’s limit', () => {
  it('refuses a file that never ends with 414 soon after its 15 MB, nothing kept', async () => {
    const before = fileCount();
    const answer = await postEndlessFile(MAX_FILE_BYTES * 4);
    expectError(answer, ApiCode.TooLarge);
    // Socket buffers let some megabytes more through before the answer is read, not the rest.
    expect(answer.written).toBeLessThan(MAX_FILE_BYTES * 2);
    expect(fileCount()).toBe(before);
  }, 60_000);
});
