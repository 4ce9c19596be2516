// Version 1 as the previous provider's official clients call it with their default arguments
// (issue 30, reference/kavenegar-v1.md §0): PHP's SendArray posts `type=null&localmessageid=null`
// (json_encode(null)) and the text null counts as absent for every parameter; Java's overloads post
// `enddate=0`, `status=0`, and Go's zero `pagesize` is 0, where 0 names nothing and counts as absent.
// Plain form posts byte for byte as PHP and Java send them, and the real npm client.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { KEY, startServer, testSeed, type TestServer } from '../helpers/server';
import { expectV1Error, expectV1Ok, v1, type V1Result } from './calls';
import { call, dialServer } from './kavenegar';

const START = Date.UTC(2026, 2, 1, 8);
const HOUR = 3_600_000;
const seconds = (ms: number) => Math.floor(ms / 1000);

let server: TestServer;
let restoreAgent: (() => void) | undefined;
beforeAll(async () => {
  server = await startServer({ seed: testSeed(), clock: new ManualClock(START), startScheduler: false });
  restoreAgent = dialServer(server.url);
  const acme = server.core.accounts.findByName('acme')!.id;
  server.core.messaging.accept.accept({
    accountId: acme,
    origin: 'api-v1',
    sender: '30001111',
    text: 'sent before the calls',
    receivers: ['09120000001', '09120000002'],
    rule: 'strict',
  });
  (server.core.clock as ManualClock).advance(HOUR);
});
afterAll(async () => {
  restoreAgent?.();
  await server?.close();
});

/** PHP's urlencode: letters, digits and -_. as they are, a space as +, every other byte %XX. */
function phpUrlencode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      if (/[A-Za-z0-9_.-]/.test(char)) return char;
      return byte === 0x20 ? '+' : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/** PHP's json_encode with its default flags: non-ASCII as \uXXXX, slashes escaped. */
function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value)
    .replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
}

/** http_build_query: a null value is left out. */
function phpForm(fields: Record<string, string | number | null>): string {
  return Object.entries(fields)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${phpUrlencode(key)}=${phpUrlencode(String(value))}`)
    .join('&');
}

/** A POST as kavenegar-php's execute() makes it: its path with the trailing slash, its three headers. */
function phpPost(method: string, body: string): Promise<V1Result> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.url}/v1/${KEY}/${method}.json/`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        charset: 'utf-8',
        'content-length': Buffer.byteLength(body),
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({
          status: response.statusCode!,
          body: parsed,
          text,
          contentType: response.headers['content-type'] ?? null,
        });
      });
    });
    request.end(body);
  });
}

/** KavenegarApi::SendArray($sender, $receptor, $message) with $date, $type, $localmessageid left null. */
function phpSendArray(senders: string[], receptors: string[], messages: string[]): Promise<V1Result> {
  return phpPost(
    'sms/sendarray',
    phpForm({
      receptor: phpJsonEncode(receptors),
      sender: phpJsonEncode(senders),
      message: phpJsonEncode(messages),
      date: null,
      type: phpJsonEncode(null),
      localmessageid: phpJsonEncode(null),
    }),
  );
}

describe('PHP: the text null is no value', () => {
  it('sends a sendarray posted with type=null&localmessageid=null (PHP’s defaults), one message a triple', async () => {
    const body = phpForm({ type: phpJsonEncode(null), localmessageid: phpJsonEncode(null) });
    expect(body).toBe('type=null&localmessageid=null');
    const entries = expectV1Ok(
      await phpSendArray(['30001111', '30001111'], ['09121160001', '09121160002'], ['سلام علی', 'hello/there']),
    );
    expect(entries.map((entry: { receptor: string }) => entry.receptor)).toEqual(['09121160001', '09121160002']);
    expect(entries.every((entry: { messageid: number }) => entry.messageid > 0)).toBe(true);
    expect(entries[0].message).toContain('سلام علی');
    expect(entries[1].message).toContain('hello/there');
  });

  it('takes localmessageid=null for no local id: the same call again sends again', async () => {
    const first = expectV1Ok(await phpSendArray(['30001111'], ['09121160011'], ['again']));
    const second = expectV1Ok(await phpSendArray(['30001111'], ['09121160011'], ['again']));
    expect(second[0].messageid).toBeGreaterThan(first[0].messageid);
    const named = server.core.db.prepare("SELECT count(*) AS n FROM local_ids WHERE local_id = 'null'").get() as {
      n: number;
    };
    expect(named.n).toBe(0);
  });

  it('takes a required parameter given as null for absent: 400, nothing sent (not an SMS reading "null")', async () => {
    const count = () => (server.core.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    const before = count();
    const send = { sender: '30001111', receptor: '09121160021', message: 'hi' };
    expectV1Error(await phpPost('sms/send', phpForm({ ...send, message: 'null' })), 400);
    expectV1Error(await phpPost('sms/send', phpForm({ ...send, receptor: 'null' })), 400);
    expectV1Error(
      await phpPost(
        'sms/sendarray',
        phpForm({ receptor: 'null', sender: phpJsonEncode(['30001111']), message: phpJsonEncode(['x']) }),
      ),
      400,
    );
    expect(count()).toBe(before);
  });

  it('reads only JSON’s lowercase literal so: a member "null" of an array is a text, NULL a value', async () => {
    const [entry] = expectV1Ok(await phpSendArray(['30001111'], ['09121160031'], ['null']));
    expect(entry.message.startsWith('null')).toBe(true);
    // A sender named NULL is a sender, not the account's default: not a line of the account.
    expectV1Error(await phpPost('sms/send', phpForm({ sender: 'NULL', receptor: '09121160032', message: 'x' })), 412);
  });
});

describe('Java and Go: 0 where no value can be 0 is no value', () => {
  const startdate = seconds(START);

  it('countoutbox with enddate=0&status=0 (Java’s countOutbox(startdate)) counts every status to now', async () => {
    const asked = expectV1Ok(await v1(server.url, KEY, 'sms/countoutbox', { startdate, enddate: 0, status: 0 }));
    const plain = expectV1Ok(await v1(server.url, KEY, 'sms/countoutbox', { startdate }));
    expect(asked).toEqual(plain);
    expect(asked[0].sumcount).toBeGreaterThanOrEqual(2);
    // A real status among zeros still filters.
    const queued = expectV1Ok(await v1(server.url, KEY, 'sms/countoutbox', { startdate, status: '0,1' }));
    expect(queued[0].sumcount).toBe(plain[0].sumcount);
    const delivered = expectV1Ok(await v1(server.url, KEY, 'sms/countoutbox', { startdate, status: '0,10' }));
    expect(delivered[0].sumcount).toBe(0);
  });

  it('selectoutbox with enddate=0&sender= (Java’s selectOutbox(startdate)) answers the period to now', async () => {
    const asked = expectV1Ok(await v1(server.url, KEY, 'sms/selectoutbox', { startdate, enddate: 0, sender: '' }));
    const plain = expectV1Ok(await v1(server.url, KEY, 'sms/selectoutbox', { startdate }));
    expect(asked).toEqual(plain);
    expect(asked.length).toBeGreaterThanOrEqual(2);
  });

  it('latestoutbox with pagesize=0 (Go’s zero value) answers the default page, not 400', async () => {
    const asked = expectV1Ok(await v1(server.url, KEY, 'sms/latestoutbox', { pagesize: 0 }));
    const plain = expectV1Ok(await v1(server.url, KEY, 'sms/latestoutbox'));
    expect(asked).toEqual(plain);
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expectV1Error(await v1(server.url, KEY, 'sms/latestoutbox', { pagesize: -1 }), 400);
  });
});

describe('the official Node client with defaults', () => {
  it('CountOutbox with status 0 counts what it counts without a status', async () => {
    const range = { startdate: seconds(START), enddate: seconds(START + HOUR) };
    const withZero = await call(KEY, 'CountOutbox', { ...range, status: 0 });
    const without = await call(KEY, 'CountOutbox', range);
    expect(withZero.status).toBe(200);
    expect(withZero.entries).toEqual(without.entries);
    expect(withZero.entries[0].sumcount).toBeGreaterThanOrEqual(2);
  });

  it('LatestOutbox with pagesize 0 answers the latest messages', async () => {
    const latest = await call(KEY, 'LatestOutbox', { pagesize: 0 });
    expect(latest.status).toBe(200);
    expect(latest.entries.length).toBeGreaterThanOrEqual(2);
  });

  it('SendArray with its optional fields written as PHP writes them (JSON null) sends', async () => {
    const sent = await call(KEY, 'SendArray', {
      receptor: JSON.stringify(['09121160041', '09121160042']),
      sender: JSON.stringify(['30001111', '30001111']),
      message: JSON.stringify(['one', 'two']),
      type: JSON.stringify(null),
      localmessageid: JSON.stringify(null),
    });
    expect(sent.status).toBe(200);
    expect(sent.entries.map((entry: { receptor: string }) => entry.receptor)).toEqual(['09121160041', '09121160042']);
  });
});
