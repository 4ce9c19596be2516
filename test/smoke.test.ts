import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startServer, type TestServer } from './helpers/server';

describe('smoke', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('sends and looks up', async () => {
    const sent = await post(`${server.url}/v2/sms/send`, {
      message: 'hi',
      sender: '30001111',
      receivers: ['09121234567'],
    });
    expect(sent.status).toBe(200);
    expect(sent.body.entries[0].status).toBe(1);
    const status = await post(`${server.url}/v2/sms/status`, { messageids: [sent.body.entries[0].messageid] });
    expect(status.body.entries[0].messageid).toBe(sent.body.entries[0].messageid);
  });
});
