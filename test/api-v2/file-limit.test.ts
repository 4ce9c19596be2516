// The messenger file upload (POST /upload-file/{provider}) refuses a file over its 15 MB as it
// arrives (issue 30), as the campaign form does with the same reading (http/multipart-file.ts): a
// file that never ends is answered 414 soon after its limit, not read whole first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../electron/service/files/files';
import { ApiCode } from '../../shared/status';
import { startServer, type TestServer } from '../helpers/server';
import { ENDLESS_BOUNDARY, postEndlessFile as postEndless } from '../helpers/endless-file';
import { expectError } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const fileCount = () => (server.core.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;

/** POST /upload-file/bale as multipart whose `file` part never ends. */
function postEndlessFile(giveUpAfter: number) {
  const head = `--${ENDLESS_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
  return postEndless(`${server.url}/upload-file/bale`, head, giveUpAfter);
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
