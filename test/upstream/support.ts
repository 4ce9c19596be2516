// Shared steps of the delivery tests over two `npm run serve` processes: a segment uploaded to the
// app and a campaign on it (the v2 HTTP API, as a website would), direct API sends, and the check
// that matters: every local message of a line against the provider's record of it (exactly one
// each, same receptor, status and cost), read from both databases read-only.
import { expect } from 'vitest';
import { isSendCall, type FaultProxy, type Match, type ProxiedRequest } from '../helpers/fault-proxy';
import {
  APP_KEY,
  appMessages,
  providerMessages,
  until,
  type LocalMessage,
  type ProviderMessage,
  type Service,
} from '../helpers/two-services';

/** Hand-over states after which nothing more happens to a message. */
export const SETTLED_STATES = ['final', 'rejected', 'expired'];

/** `count` distinct valid mobile numbers from 0912 000 0000 + offset. */
export function phones(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => '0912' + String(offset + i).padStart(7, '0'));
}

async function api(
  url: string,
  init: { method?: string; json?: unknown; form?: URLSearchParams } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${APP_KEY}` };
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = init.form.toString();
  }
  const response = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}

/** A segment of these numbers (a NAME column each) through POST /v2/sms/campaigns/contacts, processed. */
export async function uploadSegment(app: Service, numbers: string[], name: (i: number) => string): Promise<number> {
  const created = await api(`${app.url}/v2/sms/campaigns/contacts`, {
    json: numbers.map((phone_number, i) => ({ phone_number, NAME: name(i) })),
  });
  expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
  const { segment_id, upload_data_id } = created.body.entries as { segment_id: number; upload_data_id: number };
  const done = await until(
    'segment processed',
    async () => (await api(`${app.url}/v2/sms/campaigns/contacts/${upload_data_id}`)).body.entries,
    (entries: any) => entries?.status === 'COMPLETED' || entries?.status === 'FAILED',
    120_000,
    250,
  );
  expect(done.status).toBe('COMPLETED');
  expect(done.valid).toBe(numbers.length);
  return segment_id;
}

/** A campaign on `sender` to the segment, due now; its execution id. */
export async function startCampaign(
  app: Service,
  sender: string,
  segmentId: number,
  template: string,
): Promise<number> {
  const form = new URLSearchParams({
    sender,
    name: `delivery ${sender}`,
    template_body: template,
    send_datetime: new Date(Date.now() - 1_000).toISOString(),
    inclusion_segments: String(segmentId),
  });
  const created = await api(`${app.url}/v2/sms/campaigns`, { form });
  expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
  return created.body.entries.execution_id as number;
}

export async function execution(app: Service, executionId: number): Promise<any> {
  return (await api(`${app.url}/v2/sms/campaigns/executions/${executionId}`)).body.entries;
}

/** POST /v2/sms/send of one text to these receivers from `sender`; every entry queued (1). */
export async function apiSend(app: Service, sender: string, receivers: string[], message: string): Promise<number[]> {
  const sent = await api(`${app.url}/v2/sms/send`, { json: { sender, receivers, message } });
  expect(sent.status, JSON.stringify(sent.body).slice(0, 300)).toBe(200);
  const entries = sent.body.entries as { messageid: number; status: number }[];
  expect(entries.filter((entry) => entry.status !== 1)).toEqual([]);
  return entries.map((entry) => entry.messageid);
}

/** A version 1 sms/sendarray to the app (a text each), as the official clients post it. */
export async function apiSendArray(app: Service, sender: string, receivers: string[], texts: string[]): Promise<void> {
  const form = new URLSearchParams({
    receptor: JSON.stringify(receivers),
    sender: JSON.stringify(receivers.map(() => sender)),
    message: JSON.stringify(texts),
  });
  const response = await fetch(`${app.url}/v1/${APP_KEY}/sms/sendarray.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const body = (await response.json()) as any;
  expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  expect((body.entries as { status: number }[]).filter((entry) => entry.status !== 1)).toEqual([]);
}

/** The app's messages sent from one of its lines. */
export function lineMessages(app: Service, line: string): LocalMessage[] {
  const ids = new Set(
    app.read(
      (db) =>
        db
          .prepare('SELECT m.id FROM messages m JOIN sends s ON s.id = m.send_id WHERE s.sender = ?')
          .pluck()
          .all(line) as number[],
    ),
  );
  return appMessages(app).filter((message) => ids.has(message.id));
}

/** The provider's messages sent from the business's line there. */
export function providerLineMessages(provider: Service, line: string): ProviderMessage[] {
  return providerMessages(provider).filter((message) => message.sender === line);
}

/** Hand-over states of a line's messages, counted. */
export function lineStates(app: Service, line: string): Record<string, number> {
  const rows = app.read(
    (db) =>
      db
        .prepare(
          `SELECT h.state, COUNT(*) AS n FROM upstream_handovers h JOIN lines l ON l.id = h.line_id
           WHERE l.number = ? GROUP BY h.state`,
        )
        .all(line) as { state: string; n: number }[],
  );
  return Object.fromEntries(rows.map((row) => [row.state, row.n]));
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0);
const settledOf = (counts: Record<string, number>) =>
  SETTLED_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);

/** Waits until `expected` messages of the line are settled at their provider. */
export function untilSettled(
  app: Service,
  line: string,
  expected: number,
  timeoutMs: number,
): Promise<Record<string, number>> {
  return until(
    `${line}: ${expected} messages settled`,
    () => lineStates(app, line),
    (counts) => total(counts) === expected && settledOf(counts) === expected,
    timeoutMs,
    500,
  );
}

export interface Comparison {
  local: number;
  remote: number;
  states: Record<string, number>;
  statuses: Record<number, number>;
}

/**
 * Every local message of `appLine` against the provider's messages of `providerLine`: exactly one
 * provider message each (as many, each named by one local message, the same receptor), the same
 * status and the same cost on both sides, and (Kavenegar v1) our local id as the provider's.
 * Messages the provider refused (rejected) have no provider message.
 */
export function expectSameOnBothSides(
  app: Service,
  appLine: string,
  provider: Service,
  providerLine: string,
  options: { localIds?: boolean; allowedStates?: string[] } = {},
): Comparison {
  const allowed = options.allowedStates ?? ['final'];
  const local = lineMessages(app, appLine);
  const remote = providerLineMessages(provider, providerLine);
  const states: Record<string, number> = {};
  for (const message of local) states[message.state ?? 'none'] = (states[message.state ?? 'none'] ?? 0) + 1;
  expect(Object.keys(states).filter((state) => !allowed.includes(state))).toEqual([]);

  const held = local.filter((message) => message.state !== 'rejected');
  // Exactly one provider message per local one.
  expect(remote.length).toBe(held.length);
  const byUpstreamId = new Map(remote.map((message) => [String(message.id), message]));
  // Messages whose answer was lost and that the provider cannot be asked about (review) have no
  // provider id here: each must be one of the provider's messages no other local message names.
  const known = held.filter((message) => message.upstream_id !== null);
  const inDoubt = held.filter((message) => message.upstream_id === null);
  expect(inDoubt.filter((message) => message.state !== 'review' && message.state !== 'unknown')).toEqual([]);
  expect(new Set(known.map((message) => message.upstream_id)).size).toBe(known.length);
  const mismatches: string[] = [];
  // Costs apart, checked softly: a wrong cost is reported beside the rest of the test's findings.
  const costs: string[] = [];
  for (const mine of known) {
    const theirs = byUpstreamId.get(mine.upstream_id!);
    if (!theirs) {
      mismatches.push(`local ${mine.id}: no provider message ${mine.upstream_id}`);
      continue;
    }
    byUpstreamId.delete(mine.upstream_id!);
    if (theirs.receptor !== mine.receptor)
      mismatches.push(`local ${mine.id}: receptor ${mine.receptor} vs ${theirs.receptor}`);
    if (theirs.status !== mine.status)
      mismatches.push(`local ${mine.id}: status ${mine.status} vs provider ${theirs.status}`);
    if (theirs.cost_rials !== mine.cost_rials || mine.handover_cost !== theirs.cost_rials)
      costs.push(
        `local ${mine.id}: cost ${mine.cost_rials} (hand-over ${mine.handover_cost}) vs provider ${theirs.cost_rials}`,
      );
    if (options.localIds && theirs.local_id !== mine.local_id)
      mismatches.push(`local ${mine.id}: provider's local id ${theirs.local_id}, ours ${mine.local_id}`);
  }
  const unnamed = [...byUpstreamId.values()];
  for (const mine of inDoubt) {
    const at = unnamed.findIndex((theirs) => theirs.receptor === mine.receptor);
    if (at < 0) mismatches.push(`local ${mine.id} (${mine.state}): no provider message to ${mine.receptor}`);
    else unnamed.splice(at, 1);
  }
  expect(mismatches.slice(0, 20), `${mismatches.length} mismatches`).toEqual([]);
  expect.soft(costs.slice(0, 10), `${costs.length} of ${known.length} costs differ from the provider's`).toEqual([]);
  const statuses: Record<number, number> = {};
  for (const message of local) statuses[message.status] = (statuses[message.status] ?? 0) + 1;
  return { local: local.length, remote: remote.length, states, statuses };
}

/** The receptors of one hand-over call as the proxy saw it (v1 send, sendarray; v2 send, send-p2p). */
export function receptorsOf(call: ProxiedRequest): string[] {
  if (call.path.endsWith('/sms/send.json')) return (new URLSearchParams(call.body).get('receptor') ?? '').split(',');
  if (call.path.endsWith('/sms/sendarray.json'))
    return JSON.parse(new URLSearchParams(call.body).get('receptor') ?? '[]') as string[];
  if (call.path === '/v2/sms/send') return (JSON.parse(call.body) as { receivers: string[] }).receivers;
  if (call.path === '/v2/sms/send-p2p')
    return (JSON.parse(call.body) as { messages: { receiver: string }[] }).messages.map((m) => m.receiver);
  return [];
}

/** The sender line a hand-over call names (v1 `sender`, a JSON list in sendarray; v2 `sender`). */
export function senderOf(call: { path: string; body: string }): string | null {
  try {
    if (call.path.startsWith('/v2/')) return String((JSON.parse(call.body) as { sender?: unknown }).sender ?? '');
    const sender = new URLSearchParams(call.body).get('sender') ?? '';
    return sender.startsWith('[') ? String((JSON.parse(sender) as unknown[])[0]) : sender;
  } catch {
    return null;
  }
}

/** Hand-over calls from one line at the provider. */
export const sendsFrom =
  (providerLine: string): Match =>
  (call) =>
    isSendCall(call) && senderOf(call) === providerLine;

/**
 * What the provider was handed: the send calls the proxy forwarded and the provider answered with
 * success (of one line at the provider, or all), each call's receptors. Their total is how many
 * messages the provider was given.
 */
export function handedOver(proxy: FaultProxy, providerLine?: string): { calls: string[][]; messages: number } {
  const calls = proxy
    .log(providerLine === undefined ? isSendCall : sendsFrom(providerLine))
    .filter((call) => call.forwarded && call.upstreamStatus === 200)
    .map(receptorsOf);
  return { calls, messages: calls.reduce((sum, call) => sum + call.length, 0) };
}

/**
 * A SIGKILL of the app and a start on the same workspace and port (where a gateway's reports are
 * addressed, as the desktop app's port is fixed), logged with the line's hand-over states then.
 */
export function killer(app: Service, number: string, log: string[]): (why: string) => Promise<void> {
  const started = Date.now();
  return async (why) => {
    await app.stop('SIGKILL');
    log.push(`${why} (${Math.round((Date.now() - started) / 1000)} s): ${JSON.stringify(lineStates(app, number))}`);
    await app.start({ samePort: true });
  };
}

/** The provider takes `count` send calls and the connection drops before each answer (one rule a matcher). */
export async function dropAnswers(proxy: FaultProxy, sends: readonly Match[]): Promise<void> {
  const before = proxy.counts().byFault.drop;
  for (const match of sends) proxy.next(1, { kind: 'drop' }, match);
  await until(
    'dropped answers',
    () => proxy.counts().byFault.drop - before,
    (n) => n >= sends.length,
    60_000,
    5,
  );
}

/**
 * The two kills every gateway's delivery test makes in the middle of a call: one while the
 * provider's answer is held on its way (it took the messages; the app never hears it), one as
 * the next send call arrives.
 */
export async function killMidCall(
  proxy: FaultProxy,
  isSend: Match,
  kill: (why: string) => Promise<void>,
  heldOn: Match = isSend,
): Promise<void> {
  proxy.next(1, { kind: 'delay', ms: 1_000 }, heldOn);
  await until(
    'a held answer',
    () => proxy.log(isSend).find((call) => call.fault === 'delay' && call.upstreamStatus !== null),
    (call) => call !== undefined,
    60_000,
    5,
  );
  await kill('killed with an answer on its way');
  await proxy.waitFor(proxy.log(isSend).length + 1, isSend, 60_000);
  await kill('killed as a call arrives');
}

/**
 * A kill while the app looks a lost answer up in the provider's outbox (`isOutboxRead`), if a
 * search comes within `waitMs` (it waits for a token the line's sends leave: often until they end).
 */
export async function killDuringSearch(
  proxy: FaultProxy,
  isOutboxRead: Match,
  kill: (why: string) => Promise<void>,
  waitMs: number,
): Promise<void> {
  const searched = await proxy.waitFor(proxy.log(isOutboxRead).length + 1, isOutboxRead, waitMs).then(
    () => true,
    () => false,
  );
  await kill(searched ? 'killed during the outbox search' : 'killed (no search came)');
}

/** A kill at a moment no fault chose. */
export async function killAnywhere(kill: (why: string) => Promise<void>): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_300));
  await kill('killed at an arbitrary moment');
}

/**
 * Moves a fake provider's delivery clock on (a minute every half second) until the line's
 * messages are settled: the provider's statuses progress while the app polls them.
 */
export async function settleWithClock(
  fake: { advance(ms: number): void },
  app: Service,
  number: string,
  total: number,
  timeoutMs = 300_000,
): Promise<Record<string, number>> {
  const clock = setInterval(() => fake.advance(60_000), 500);
  try {
    return await untilSettled(app, number, total, timeoutMs);
  } finally {
    clearInterval(clock);
  }
}
