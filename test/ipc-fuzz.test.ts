// Every IPC channel through the web bridge of the real `serve`, with inputs walked from its
// contract's schema (valid by the schema, leaning on edge values) and inputs with something wrong:
// each answer is 2xx or a 4xx that says what was wrong (or 501 where web mode has no such thing),
// never a 500. An outside probe once found 58 answers of 500 in 1,500 such calls.
//
// Reproducible: the inputs come from a fixed seed (FUZZ_SEED=<n> to run another); a failure
// prints the seed, the calls that answered 500 and the server's log.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, CHANNELS, type Channel } from '../shared/ipc/contracts';
import { uploadSpreadsheet } from '../shared/ipc';
import { eventually, spawnServe, tempDir, testSeed, type ServeProcess } from './helpers/server';
import { arbitraryOf, invalidArbitraryOf, type Hints } from './helpers/zod-arbitrary';

const SEED = Number(process.env['FUZZ_SEED'] ?? 13_2026);
/** FUZZ_SCALE=<n> runs n times as many calls (a longer hunt than `npm test`'s). */
const SCALE = Number(process.env['FUZZ_SCALE'] ?? 1);
const VALID_PER_CHANNEL = 16 * SCALE;
const INVALID_PER_CHANNEL = 8 * SCALE;
const CONCURRENCY = 8;
const TOKEN = 'fuzz-token-0123456789abcdef0123';
/** Calls that replace the workspace (a restore of a real backup) run after everything else. */
const LAST: readonly Channel[] = ['backup:restore'];

interface Call {
  channel: Channel;
  input: unknown;
  valid: boolean;
}

/** JSON's view of a value: what the bridge receives (undefined as the body is sent as null). */
function overTheWire(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** The calls of one channel, the same for the same seed. */
function callsOf(channel: Channel, index: number, hints: Hints): Call[] {
  const schema = contracts[channel].input;
  const seed = SEED + index * 7919;
  const inputs = [
    ...fc.sample(arbitraryOf(schema, 0, hints), { seed, numRuns: VALID_PER_CHANNEL }),
    ...fc.sample(invalidArbitraryOf(schema, hints), { seed: seed + 1, numRuns: INVALID_PER_CHANNEL }),
  ].map(overTheWire);
  return inputs.map((input) => ({ channel, input, valid: schema.safeParse(input).success }));
}

let serve: ServeProcess;

beforeAll(async () => {
  const dataDir = tempDir('chapar-fuzz-');
  const seedFile = path.join(dataDir, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(testSeed()));
  serve = await spawnServe({ dataDir, seedFile, webUi: true, env: { CHAPAR_WEB_TOKEN: TOKEN } });
});
afterAll(async () => {
  await serve?.stop();
});

async function call(channel: Channel, input: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${serve.url}/bridge/invoke/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(input),
  });
  return { status: response.status, body: await response.json() };
}

async function invoke({ channel, input }: Call): Promise<number> {
  return (await call(channel, input)).status;
}

async function value(channel: Channel, input: unknown): Promise<any> {
  const answer = await call(channel, input);
  if (answer.status !== 200) throw new Error(`${channel}: ${JSON.stringify(answer.body)}`);
  return answer.body.value;
}

const PHONES = ['09120000001', '09120000002', '+989120000003', '۰۹۱۲۰۰۰۰۰۰۴', '0912', '9120000005', 'x'];

/**
 * Something for the fuzz to reach: a segment imported from an upload, a send, a campaign and a
 * backup; the fields that name them (and the seeded lines) get these values among the generated.
 */
async function setUp(): Promise<Hints> {
  const account = (await value('accounts:list', null)).find((a: { name: string }) => a.name === 'acme').id;
  const rows = Array.from({ length: 30 }, (_, i) => `Sara ${i},0912${String(1_000_000 + i).padStart(7, '0')}`);
  const upload = await uploadSpreadsheet(new TextEncoder().encode(`name,mobile\n${rows.join('\n')}\n`), 'fuzz.csv', {
    baseUrl: serve.url,
    token: TOKEN,
  });
  if (!upload.ok) throw new Error(upload.error.message);
  const mapping = { phone: 1, columns: [{ index: 0, name: 'name' }] };
  const started = await value('imports:start', { account_id: account, file: upload.value.file, mapping });
  await eventually(async () => {
    const job = await value('imports:get', { account_id: account, job_id: started.job_id });
    return job.status === 'done' ? true : undefined;
  });
  // The send is answered (the Inbox's conversations then have replies to reach), then the
  // simulator replies no more, as before.
  const simulator = await value('simulator:get', null);
  await value('simulator:set', { ...simulator, reply_share: 1, optout_share: 0, reply_ms: 50 });
  await value('messages:send', {
    account_id: account,
    sender: '30001111',
    message: 'سلام',
    receivers: PHONES.slice(0, 3),
  });
  await eventually(async () => ((await value('inbox:counts', { account_id: account })).total >= 1 ? true : undefined));
  await value('simulator:set', simulator);
  const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
  const campaign = {
    account_id: account,
    sender: '30002222',
    name: 'fuzz',
    template_body: 'سلام {{name}}',
    send_datetime: inAnHour,
    inclusion_segments: [started.segment_id],
  };
  const oneOff = await value('campaigns:create', campaign);
  // A series too, so its pause, resume and end have one to reach.
  const daily = { every: 'daily', time: '09:00', weekdays: [], day: null, calendar: 'jalali', until: null };
  const series = await value('campaigns:create', { ...campaign, name: 'fuzz daily', repeat: daily });
  const backup = await value('backup:create', {});
  return {
    sender: fc.constantFrom('30001111', '30002222', 'bale_acme_bot', 'rubika_acme', '30009999'),
    file: fc.constantFrom(upload.value.file, 'not-uploaded.csv'),
    receivers: fc.array(fc.constantFrom(...PHONES), { maxLength: 6 }),
    receivers_text: fc.array(fc.constantFrom(...PHONES), { maxLength: 6 }).map((list) => list.join('\n')),
    send_datetime: fc.constantFrom(inAnHour, '2020-01-01T00:00:00+03:30', '2026-13-45T99:99:99Z', 'فردا'),
    message: fc.constantFrom('سلام {{name}}', 'hello', 'لغو۱۱'.repeat(300)),
    template_body: fc.constantFrom('سلام {{name}}', 'hi {{missing}}', 'http://example.com/a'),
    mapping: fc.constant(mapping),
    phone: fc.constantFrom(...PHONES),
    line_number: fc.constantFrom('30001111', '30002222', '30009999'),
    segment_id: fc.constantFrom(started.segment_id, 424_242),
    segment_ids: fc.constant([started.segment_id]),
    include: fc.constant([started.segment_id]),
    inclusion_segments: fc.constant([started.segment_id]),
    campaign_id: fc.constantFrom(oneOff.campaign_id, series.campaign_id),
    execution_id: fc.constantFrom(oneOff.execution_id, series.execution_id),
    path: fc.constantFrom(path.basename(backup.path), backup.path),
  };
}

/** Runs the calls `CONCURRENCY` at a time (in order of start); answers their statuses. */
async function run(calls: Call[]): Promise<number[]> {
  const statuses: number[] = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      statuses[index] = await invoke(calls[index]!);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

describe('the bridge under fuzzed input', () => {
  it('answers every channel 2xx or 4xx (501 where web mode has no such thing), never 500', async () => {
    const hints = await setUp();
    const channels = CHANNELS.filter((channel) => !LAST.includes(channel));
    // Interleaved by channel, so concurrent calls meet on the same data.
    const perChannel = channels.map((channel) => callsOf(channel, CHANNELS.indexOf(channel), hints));
    const calls: Call[] = [];
    for (let i = 0; i < VALID_PER_CHANNEL + INVALID_PER_CHANNEL; i++)
      for (const list of perChannel) if (list[i]) calls.push(list[i]!);
    const lastCalls = LAST.flatMap((channel) => callsOf(channel, CHANNELS.indexOf(channel), hints));

    const started = Date.now();
    const statuses = [...(await run(calls)), ...(await run(lastCalls))];
    const all = [...calls, ...lastCalls];
    const seconds = (Date.now() - started) / 1000;

    const failures = all
      .map((call, index) => ({ ...call, status: statuses[index]! }))
      .filter(({ status }) => status >= 500 && status !== 501);
    const byChannel = new Map<string, number>();
    for (const failure of failures) byChannel.set(failure.channel, (byChannel.get(failure.channel) ?? 0) + 1);
    const report = [
      `FUZZ_SEED=${SEED}: ${failures.length} answers of 500 in ${all.length} calls (${seconds.toFixed(1)} s)`,
      ...[...byChannel].map(([channel, count]) => `  ${channel}: ${count}`),
      ...failures.slice(0, 10).map((f) => `  ${f.channel} ${JSON.stringify(f.input).slice(0, 300)}`),
      '--- serve output (tail):',
      serve.output().slice(-4000),
    ].join('\n');
    expect(failures.length, report).toBe(0);

    // A fuzz that only met refusals would prove little: most channels must also have answered 200.
    expect(all.length).toBeGreaterThan(1500);
    expect(all.filter((call) => call.valid).length).toBeGreaterThan(all.length / 2);
    const answered = new Set(all.filter((_, index) => statuses[index] === 200).map((call) => call.channel));
    console.log(
      `FUZZ_SEED=${SEED}: ${all.length} calls (${all.filter((c) => c.valid).length} valid by schema) in ${seconds.toFixed(1)} s; ` +
        `${answered.size} of ${CHANNELS.length} channels answered 200; missing: ${CHANNELS.filter((c) => !answered.has(c)).join(', ')}`,
    );
    expect(answered.size, `channels that answered 200: ${[...answered].join(', ')}`).toBeGreaterThan(
      CHANNELS.length * 0.6,
    );
  });
});
