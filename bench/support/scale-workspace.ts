// A workspace of a busy shop's year (issue 16's scale benchmark): by default 10,000,000 messages
// over the twelve months before now, 1,000,000 distinct receivers and 2,000,000 contacts in four
// segments, that `npm run serve -- --data DIR` opens as it would a real one.
//
// The accounts, keys, lines and settings are made by the real core (a seed, as `serve --seed`
// applies it), so keys are hashed with the workspace's own secret and the API answers the test
// KEY. Everything else is written directly with SQL on one connection, in large statements: going
// through POST /v2/sms/send and the simulator takes the better part of an hour for 10 million.
// What it writes follows the product's own rules so every read sees consistent data:
// - sends in creation order, ids ascending; each send's messages have consecutive ids and its
//   created_at; message_count and total_rials are its messages' count and costs;
// - ~20% of messages are single API sends (transactional texts, a send row each), the rest bulk
//   sends of 500-20,000 receivers (panel and API) and four campaign executions, one per segment,
//   recorded in batches of RECORD_BATCH as the execution does (campaign_recipients in phone order,
//   the n-th recipient's message being the batch's first id + n);
// - statuses in the simulator's default shares (settings.ts DEFAULT_SIMULATOR), all final except
//   the last minutes' messages (handed to the carrier, their report due in simulator_due);
//   handed_at / final_at a handoff and a delivery after creation;
// - costs from shared/pricing.ts (the final text with the opt-out phrase, pages x price);
// - the credit ledger as the core writes it: a 'send' row per send, a 'refund' row per refunded
//   message (13, at its final time), monthly top-ups, the balance equal to the ledger's sum;
// - the message aggregates rebuilt by migration 0017's own statements, the message states and
//   sources filled by their fill (0023, 0025), the send tallies kept by 0024's triggers as the sends go in, and the receiver index
//   (0019) and the send-text index (0021) filled by their own indexAll.
// The folder's scale-workspace.json records the facts a benchmark asks by (ids, words, the build's
// now) and the migrations it was built with: edit an applied migration and the workspace is stale.
// Busier daytime hours (Tehran time), quieter Fridays, and a business that grows over the year.
//
// `npx tsx bench/support/scale-workspace.ts --out DIR [--messages N] [--contacts N] [--seed N] [--force]`
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Core } from '../../electron/service/core';
import { applySeed, type Seed } from '../../electron/service/seed';
import { DEFAULT_PRICING, DEFAULT_SIMULATOR } from '../../electron/service/settings/settings';
import { REBUILD_MESSAGE_COUNTS } from '../../electron/service/db/migrations/0017-message-counts';
import { STATES_FILL } from '../../electron/service/messaging/message-states';
import { migrations } from '../../electron/service/db/migrations';
import { systemClock } from '../../electron/service/clock';
import { mulberry32 } from '../../electron/service/seeded-random';
import { ReceiverIndex } from '../../electron/service/messaging/receivers';
import { SendTextIndex } from '../../electron/service/messaging/send-texts';
import type { ReaderPool } from '../../electron/service/db/readers';
import { RECORD_BATCH } from '../../electron/service/campaigns/execution';
import { FINAL_STATUSES, MessageStatus } from '../../shared/lifecycle';
import { priceText } from '../../shared/pricing';
import type { Provider } from '../../shared/status';
import { FIELD_SEPARATOR } from '../../electron/service/contacts/fields';

/** The acme account's API key (the tests' KEY) and the second account's. */
export const SCALE_KEY = 'k-acme-1';
export const SCALE_OTHER_KEY = 'k-other-1';
/** A word of the biggest campaign's text, and one of a transactional template: text searches. */
export const CAMPAIGN_WORD = 'یلدا';
export const TRANSACTIONAL_WORD = 'shipped';
/** What the workspace's folder says about itself (what a benchmark needs to ask it). */
export const META_FILE = 'scale-workspace.json';

export interface ScaleOptions {
  messages?: number;
  contacts?: number;
  /** Distinct receivers; default messages / 10. */
  receivers?: number;
  seed?: number;
  /** The build's "now" (ms); default Date.now(). */
  now?: number;
  log?: (line: string) => void;
}

export interface ScaleWorkspace {
  dataDir: string;
  now: number;
  messages: number;
  sends: number;
  receivers: number;
  contacts: number;
  accountId: number;
  otherAccountId: number;
  lines: string[];
  segments: Array<{ id: number; name: string; members: number }>;
  executions: Array<{ id: number; campaignId: number; segmentId: number; audience: number; text: string }>;
  campaignWord: string;
  transactionalWord: string;
  /** Messages created in the last hour before `now`. */
  lastHour: number;
  /** The migrations the workspace was built with, by name and a digest of their SQL (see staleMigrations). */
  migrations: Array<{ name: string; sha: string }>;
  buildMs: number;
  /** Each step's milliseconds. */
  steps: Record<string, number>;
  fileBytes: number;
  bytesPerMessage: number;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Tehran is UTC+3:30 all year (no daylight saving since 2022). */
const TEHRAN_OFFSET = 210 * 60_000;
/** Messages of the last minutes are not final yet: handed to the carrier, their report due. */
const RECENT_MS = 2 * 60_000;
const HANDOFF_MS = DEFAULT_SIMULATOR.handoff_ms;
const DELIVERY_MS = DEFAULT_SIMULATOR.delivery_ms;

/** Mobile prefixes the receivers are spread over (a receiver r gets PREFIXES[r % 8]). */
const PREFIXES = ['0912', '0935', '0919', '0936', '0901', '0990', '0915', '0917'];
/** Bijective on r < 8 * 10^7: 7919 is prime to 10^7. */
const PHONE_STRIDE = 7919;
const PHONE_OFFSET = 1_234_567;

/** Receiver number r (0 <= r < receivers), as every table stores it. */
export function receiverPhone(r: number): string {
  const tail = (Math.floor(r / 8) * PHONE_STRIDE + PHONE_OFFSET) % 10_000_000;
  return PREFIXES[r % 8]! + String(tail).padStart(7, '0');
}

/** The same in SQL, for an integer expression r. */
function phoneSql(r: string): string {
  return `substr('${PREFIXES.join('')}', ((${r}) % 8) * 4 + 1, 4) || printf('%07d', (((${r}) / 8) * ${PHONE_STRIDE} + ${PHONE_OFFSET}) % 10000000)`;
}

// Hour weights in Tehran time: quiet nights, busy days and evenings.
const HOUR_WEIGHTS = [
  0.3, 0.15, 0.1, 0.08, 0.08, 0.12, 0.3, 0.6, 1.0, 1.4, 1.6, 1.7, 1.6, 1.4, 1.4, 1.5, 1.5, 1.6, 1.7, 1.8, 1.7, 1.4, 1.0,
  0.6,
];
// Bulk sends go out in office hours.
const BULK_HOUR_WEIGHTS = HOUR_WEIGHTS.map((w, h) => (h >= 9 && h <= 20 ? w : 0));

interface Template {
  /** '#' marks are filled with digits. */
  text: string;
  weight: number;
}
const TRANSACTIONAL: Template[] = [
  { text: 'Order ###### shipped. Track it in your account.', weight: 3 },
  { text: 'سفارش ###### شما ارسال شد. از خرید شما سپاسگزاریم.', weight: 3 },
  { text: 'کد تایید شما: #####', weight: 4 },
  { text: 'Your verification code is #####', weight: 2 },
  { text: 'پرداخت شما به مبلغ #######0 ریال با موفقیت انجام شد. کد پیگیری: ########', weight: 2 },
  { text: 'Your appointment #### is confirmed. Reply 1 to cancel.', weight: 1 },
];
const BULK_TEXTS = [
  'حراج آخر فصل! تا ۵۰٪ تخفیف روی همه محصولات فقط تا جمعه.',
  'New arrivals are in: visit our store this week for 20% off.',
  'مشتری گرامی، کارت هدیه ۱۰۰ هزار تومانی شما تا پایان ماه اعتبار دارد.',
  'ارسال رایگان برای خریدهای بالای ۵۰۰ هزار تومان، همین امروز سفارش دهید.',
  'Flash sale today only: buy one, get one free on all accessories.',
  'جشنواره تابستانه شروع شد! با کد SUMMER ده درصد تخفیف بیشتر بگیرید.',
  'فروشگاه ما از این هفته جمعه‌ها هم از ساعت ۱۰ تا ۱۸ باز است.',
  'Your loyalty points double this weekend. Come and use them!',
  'محصولات جدید پاییزه رسید. برای دیدن مجموعه کامل به وب‌سایت ما سر بزنید. ارسال به سراسر کشور با بسته‌بندی ویژه و امکان پرداخت در محل.',
  'بلیت‌های رویداد ویژه مشتریان وفادار محدود است؛ برای رزرو پاسخ دهید.',
];
/** One campaign per segment; the biggest segment's is the most recent and carries CAMPAIGN_WORD. */
const CAMPAIGNS = [
  {
    name: 'Yalda night',
    text: 'شب یلدا مبارک! با کد YALDA بیست درصد تخفیف بگیرید، فقط تا فردا شب.',
    daysAgo: 45,
  },
  { name: 'Loyal customers', text: 'مشتری عزیز، امتیاز وفاداری شما این ماه دو برابر شد.', daysAgo: 120 },
  {
    name: 'Tehran store opening',
    text: 'Our new Tehran store opens on Thursday: 30% off on opening day!',
    daysAgo: 200,
  },
  { name: 'Newsletter', text: 'خبرنامه ماهانه: پرفروش‌ترین‌های ماه و پیشنهادهای ویژه در وب‌سایت.', daysAgo: 300 },
];
const SEGMENTS = [
  { name: 'All customers', share: 0.5 },
  { name: 'Loyal customers', share: 0.25 },
  { name: 'Tehran', share: 0.15 },
  { name: 'Newsletter', share: 0.1 },
];
const COLUMNS = ['name', 'city'];
const NAMES = ['علی', 'زهرا', 'محمد', 'فاطمه', 'رضا', 'مریم', 'حسین', 'سارا', 'مهدی', 'نرگس', 'امیر', 'لیلا'];
const CITIES = ['تهران', 'مشهد', 'اصفهان', 'شیراز', 'تبریز', 'کرج', 'اهواز', 'قم', 'رشت', 'یزد'];

/** The seed the core applies: acme (three lines, the tests' key) and a small second account. */
export function scaleSeed(): Seed {
  return {
    accounts: [
      {
        name: 'acme',
        active: true,
        credit_rials: 0,
        api_keys: [SCALE_KEY],
        ip_allowlist: ['127.0.0.1'],
        lines: [
          { number: '30001111', provider: 'sms', permissions: ['can_send_api_campaign', 'can_send_panel_campaign'] },
          { number: '30002222', provider: 'sms', permissions: ['can_send_panel_campaign'] },
          { number: 'bale_acme_bot', provider: 'bale', permissions: ['can_send_api_campaign'] },
        ],
      },
      {
        name: 'other',
        credit_rials: 0,
        api_keys: [SCALE_OTHER_KEY],
        ip_allowlist: ['127.0.0.1'],
        lines: [
          { number: '30009999', provider: 'sms', permissions: ['can_send_api_campaign', 'can_send_panel_campaign'] },
        ],
      },
    ],
    pricing: DEFAULT_PRICING,
    simulator: DEFAULT_SIMULATOR,
  };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** A stride prime to n near `near`, so r = start + i * stride (mod n) visits distinct receivers. */
function strideFor(n: number, near: number): number {
  let s = Math.max(1, near % n);
  while (gcd(s, n) !== 1) s++;
  return s;
}

interface Line {
  id: number;
  accountId: number;
  number: string;
  provider: Provider;
}

/** A send the plan makes; transactional sends are kept apart in typed arrays (millions). */
interface BigSend {
  at: number;
  account: number;
  line: Line;
  origin: 'api' | 'panel' | 'campaign';
  text: string;
  pages: number;
  cost: number;
  n: number;
  start: number;
  stride: number;
  execution: number | null;
  firstSeq: number;
}

export async function buildScaleWorkspace(dataDir: string, options: ScaleOptions = {}): Promise<ScaleWorkspace> {
  const log = options.log ?? ((line: string) => console.log(line));
  const totalMessages = options.messages ?? 10_000_000;
  const contacts = options.contacts ?? Math.round(totalMessages / 5);
  const receivers = options.receivers ?? Math.max(1_000, Math.round(totalMessages / 10));
  const now = options.now ?? Date.now();
  const rand = mulberry32(options.seed ?? 16);
  const started = performance.now();
  const steps: Record<string, number> = {};
  let stepStart = performance.now();
  const step = (name: string) => {
    const t = performance.now();
    steps[name] = Math.round(t - stepStart);
    log(`  ${name}: ${((t - stepStart) / 1000).toFixed(1)} s`);
    stepStart = t;
  };

  // ---- the real core: schema, accounts, hashed keys, lines, settings
  const dbFile = path.join(dataDir, 'chapar.db');
  if (fs.existsSync(dbFile)) throw new Error(`${dbFile} exists: build into an empty folder`);
  fs.mkdirSync(dataDir, { recursive: true });
  const core = new Core({ dataDir, startScheduler: false });
  applySeed(core, scaleSeed(), { warn: () => undefined });
  await core.close();
  step('core');

  const db = new Database(dbFile);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -2000000');
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = OFF');

  const accountId = (db.prepare("SELECT id FROM accounts WHERE name = 'acme'").pluck().get() as number) ?? 0;
  const otherAccountId = db.prepare("SELECT id FROM accounts WHERE name = 'other'").pluck().get() as number;
  const lineRows = db
    .prepare<[], { id: number; account_id: number; number: string; provider: Provider }>(
      'SELECT id, account_id, number, provider FROM lines ORDER BY id',
    )
    .all();
  const line = (number: string): Line => {
    const row = lineRows.find((l) => l.number === number)!;
    return { id: row.id, accountId: row.account_id, number: row.number, provider: row.provider };
  };
  const apiLine = line('30001111');
  const panelLine = line('30002222');
  const baleLine = line('bale_acme_bot');
  const otherLine = line('30009999');
  const firstDay = now - 365 * DAY;
  // Accounts, keys and lines existed before the year began.
  db.prepare('UPDATE accounts SET created_at = ?').run(firstDay - DAY);
  db.prepare('UPDATE lines SET created_at = ?').run(firstDay - DAY);
  db.prepare('UPDATE api_keys SET created_at = ?').run(firstDay - DAY);

  const price = (text: string, provider: Provider) => priceText(text, provider, DEFAULT_PRICING);

  db.exec('BEGIN');
  // ---- counting numbers, the generator of every INSERT … SELECT below
  const seqSize = Math.max(receivers, 20_000, RECORD_BATCH);
  db.exec(`CREATE TEMP TABLE seq (i INTEGER PRIMARY KEY)`);
  db.prepare(
    `INSERT INTO seq (i) WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?) SELECT i FROM k`,
  ).run(seqSize);
  db.exec(`CREATE TEMP TABLE names (i INTEGER PRIMARY KEY, name TEXT)`);
  db.exec(`CREATE TEMP TABLE cities (i INTEGER PRIMARY KEY, city TEXT)`);
  NAMES.forEach((name, i) => db.prepare('INSERT INTO names VALUES (?, ?)').run(i, name));
  CITIES.forEach((city, i) => db.prepare('INSERT INTO cities VALUES (?, ?)').run(i, city));

  // ---- segments: distinct receivers each, in number order (the primary key's)
  const segments: ScaleWorkspace['segments'] = [];
  const insertSegment = db.prepare(
    `INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at, source_kind, source_label)
     VALUES (?, ?, ?, 'ready', ?, 'import', ?, ?, 'file', ?)`,
  );
  for (const [index, spec] of SEGMENTS.entries()) {
    const members = Math.min(receivers, Math.round(contacts * spec.share));
    const created = firstDay + (index + 1) * 7 * DAY;
    const id = Number(
      insertSegment.run(accountId, spec.name, JSON.stringify(COLUMNS), members, created, created, `${spec.name}.xlsx`)
        .lastInsertRowid,
    );
    const start = Math.floor(rand() * receivers);
    const stride = index === 0 ? 1 : strideFor(receivers, 7919 * (index + 1));
    db.prepare(
      `INSERT INTO segment_members (segment_id, phone, fields)
       SELECT ?, phone, fields FROM (
         SELECT ${phoneSql('r')} AS phone,
           (SELECT name FROM names WHERE i = r % ${NAMES.length}) || char(${FIELD_SEPARATOR.charCodeAt(0)}) ||
           (SELECT city FROM cities WHERE i = (r / 7) % ${CITIES.length}) AS fields
         FROM (SELECT CAST((? + i * ?) % ? AS INTEGER) AS r FROM seq WHERE i < ?)
       ) ORDER BY phone`,
    ).run(id, start, stride, receivers, members);
    segments.push({ id, name: spec.name, members });
  }
  step('segments');

  // ---- campaigns and their executions: one per segment, recipients frozen in number order
  const executions: ScaleWorkspace['executions'] = [];
  const bigSends: BigSend[] = [];
  for (const [index, spec] of CAMPAIGNS.entries()) {
    const segment = segments[index]!;
    const priced = price(spec.text, panelLine.provider);
    const startAt = tehranDayStart(now - spec.daysAgo * DAY) + 10 * HOUR;
    const campaignId = Number(
      db
        .prepare(
          `INSERT INTO campaigns (account_id, name, sender, template_body, inclusion_segments, exclusion_segments,
             utm_source, utm_medium, utm_campaign, created_at)
           VALUES (?, ?, ?, ?, ?, '[]', 'chapar', 'sms', 'campaign-{id}', ?)`,
        )
        .run(accountId, spec.name, panelLine.number, spec.text, JSON.stringify([segment.id]), startAt - DAY)
        .lastInsertRowid,
    );
    const audience = segment.members;
    const batches = Math.ceil(audience / RECORD_BATCH);
    // The execution records a batch every 200 ms; each is delivered a handoff and a delivery later.
    const lastAt = startAt + (batches - 1) * 200;
    const executionId = Number(
      db
        .prepare(
          `INSERT INTO campaign_executions (campaign_id, account_id, status, send_datetime, send_at, segment_columns,
             frozen, audience, priced_rials, recorded, reserved_rials, last_due_at, created_at, started_at, finished_at)
           VALUES (?, ?, 'COMPLETED', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          campaignId,
          accountId,
          tehranIso(startAt),
          startAt,
          JSON.stringify({ [segment.id]: COLUMNS }),
          audience,
          audience,
          audience * priced.costRials,
          audience,
          audience * priced.costRials,
          lastAt + HANDOFF_MS,
          startAt - DAY,
          startAt,
          lastAt + HANDOFF_MS + DELIVERY_MS + 1_000,
        ).lastInsertRowid,
    );
    db.prepare(
      `INSERT INTO campaign_recipients (execution_id, seq, phone, segment_id, fields, cost_rials)
       SELECT ?, row_number() OVER (ORDER BY phone) - 1, phone, segment_id, fields, ? FROM segment_members WHERE segment_id = ?`,
    ).run(executionId, priced.costRials, segment.id);
    for (let b = 0; b < batches; b++) {
      const n = Math.min(RECORD_BATCH, audience - b * RECORD_BATCH);
      bigSends.push({
        at: startAt + b * 200,
        account: accountId,
        line: panelLine,
        origin: 'campaign',
        text: priced.text,
        pages: priced.pages,
        cost: priced.costRials,
        n,
        start: 0,
        stride: 0,
        execution: executionId,
        firstSeq: b * RECORD_BATCH,
      });
    }
    executions.push({ id: executionId, campaignId, segmentId: segment.id, audience, text: spec.text });
  }
  step('campaigns');

  // ---- the year's calendar: a weight per hour (growth over the year, quieter Fridays)
  const firstHour = Math.floor(firstDay / HOUR) * HOUR;
  const hours = Math.ceil((now - firstHour) / HOUR);
  const dayWeight = (t: number) => {
    const local = new Date(t + TEHRAN_OFFSET);
    const weekday = local.getUTCDay(); // 5 = Friday, 4 = Thursday
    const growth = 0.6 + (0.8 * (t - firstDay)) / (365 * DAY);
    return growth * (weekday === 5 ? 0.55 : weekday === 4 ? 0.85 : 1);
  };
  const hourWeights = (table: number[]) => {
    const w = new Float64Array(hours);
    for (let h = 0; h < hours; h++) {
      const t = firstHour + h * HOUR;
      const from = Math.max(t, firstDay);
      const to = Math.min(t + HOUR, now);
      if (to <= from) continue;
      const localHour = new Date(t + TEHRAN_OFFSET).getUTCHours();
      w[h] = table[localHour]! * dayWeight(t) * ((to - from) / HOUR);
    }
    return w;
  };
  /** A time drawn from the weights: an hour by its weight, a uniform moment in it (within the year). */
  const drawTime = (weights: Float64Array, cumulative: Float64Array) => {
    const x = rand() * cumulative[cumulative.length - 1]!;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    const t = firstHour + lo * HOUR;
    const from = Math.max(t, firstDay);
    const to = Math.min(t + HOUR, now);
    return Math.floor(from + rand() * (to - from));
  };
  const cumulate = (w: Float64Array) => {
    const c = new Float64Array(w.length);
    let sum = 0;
    for (let i = 0; i < w.length; i++) c[i] = sum += w[i]!;
    return c;
  };

  // ---- bulk sends of 500-20,000 receivers (panel and API), sizes log-uniform
  const campaignMessages = bigSends.reduce((n, s) => n + s.n, 0);
  const transactional = Math.round(totalMessages * 0.2);
  let bulkLeft = Math.max(0, totalMessages - transactional - campaignMessages);
  const bulkWeights = hourWeights(BULK_HOUR_WEIGHTS);
  const bulkCumulative = cumulate(bulkWeights);
  const bulkPrices = new Map<string, ReturnType<typeof price>>();
  while (bulkLeft > 0) {
    let n = Math.round(500 * Math.exp(rand() * Math.log(40)));
    if (bulkLeft - n < 500) n = bulkLeft;
    n = Math.min(n, bulkLeft);
    bulkLeft -= n;
    const other = rand() < 0.05;
    const panel = !other && rand() < 0.6;
    const l = other ? otherLine : panel ? (rand() < 0.7 ? panelLine : apiLine) : apiLine;
    const text = BULK_TEXTS[Math.floor(rand() * BULK_TEXTS.length)]!;
    const key = `${l.provider}:${text}`;
    let p = bulkPrices.get(key);
    if (!p) bulkPrices.set(key, (p = price(text, l.provider)));
    bigSends.push({
      at: drawTime(bulkWeights, bulkCumulative),
      account: l.accountId,
      line: l,
      origin: panel ? 'panel' : 'api',
      text: p.text,
      pages: p.pages,
      cost: p.costRials,
      n,
      start: Math.floor(rand() * receivers),
      stride: strideFor(receivers, Math.floor(rand() * receivers)),
      execution: null,
      firstSeq: 0,
    });
  }
  bigSends.sort((a, b) => a.at - b.at);

  // ---- single API sends (transactional), generated hour by hour in time order
  const weights = hourWeights(HOUR_WEIGHTS);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const tAt = new Float64Array(transactional);
  {
    let made = 0;
    let cumulative = 0;
    for (let h = 0; h < hours; h++) {
      cumulative += weights[h]!;
      const until = h === hours - 1 ? transactional : Math.round((transactional * cumulative) / weightSum);
      const t = firstHour + h * HOUR;
      const from = Math.max(t, firstDay);
      const to = Math.min(t + HOUR, now);
      const times: number[] = [];
      for (; made + times.length < until;) times.push(Math.floor(from + rand() * (to - from)));
      times.sort((a, b) => a - b);
      for (const time of times) tAt[made++] = time;
    }
  }
  // Templates priced once each: digits of a fixed width never change a text's pages.
  const templateWeights = TRANSACTIONAL.reduce((a, t) => a + t.weight, 0);
  const templatePrices = TRANSACTIONAL.map((template) => ({
    sms: price(template.text.replaceAll('#', '0'), 'sms'),
    bale: price(template.text.replaceAll('#', '0'), 'bale'),
  }));
  for (const [i, template] of TRANSACTIONAL.entries()) {
    // The final text is the typed one plus the opt-out phrase (SMS); filled digits keep it so.
    const sample = template.text.replaceAll('#', '9');
    const check = price(sample, 'sms');
    if (check.text !== sample + templatePrices[i]!.sms.text.slice(template.text.length))
      throw new Error(`template ${i} is not priced by concatenation`);
    if (check.pages !== templatePrices[i]!.sms.pages) throw new Error(`template ${i} changes pages with its digits`);
  }
  const pickTemplate = () => {
    let x = rand() * templateWeights;
    for (let i = 0; i < TRANSACTIONAL.length; i++) if ((x -= TRANSACTIONAL[i]!.weight) < 0) return i;
    return 0;
  };
  const fill = (text: string) => text.replace(/#/g, () => String(Math.floor(rand() * 10)));
  step('plan');

  // ---- sends, in time order (the two sorted lists merged), ids ascending
  const insertSendStmt = db.prepare(
    `INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, api_version, file_id,
       message_count, total_rials, idempotency_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, NULL, ?)`,
  );
  db.exec(
    'CREATE TEMP TABLE bulk (send_id INTEGER PRIMARY KEY, start INTEGER, stride INTEGER, execution_id INTEGER, first_seq INTEGER)',
  );
  const insertBulk = db.prepare(
    'INSERT INTO bulk (send_id, start, stride, execution_id, first_seq) VALUES (?, ?, ?, ?, ?)',
  );
  const insertBatch = db.prepare(
    `INSERT INTO campaign_batches (execution_id, first_seq, count, send_id, first_message_id, due_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const firstSendId = ((db.prepare('SELECT max(id) FROM sends').pluck().get() as number | null) ?? 0) + 1;
  const firstMessageId = ((db.prepare('SELECT max(id) FROM messages').pluck().get() as number | null) ?? 0) + 1;
  let sendId = firstSendId;
  let messageId = firstMessageId;
  // Spending per account per 30 days: what the monthly top-ups cover.
  const spending = new Map<string, number>();
  const spend = (account: number, at: number, rials: number) => {
    const key = `${account}:${Math.floor((at - firstDay) / (30 * DAY))}`;
    spending.set(key, (spending.get(key) ?? 0) + rials);
  };
  let b = 0;
  for (let t = 0; t <= transactional; t++) {
    const at = t < transactional ? tAt[t]! : Infinity;
    while (b < bigSends.length && bigSends[b]!.at <= at) {
      const s = bigSends[b++]!;
      insertSendStmt.run(
        sendId,
        s.account,
        s.line.id,
        s.line.number,
        s.line.provider,
        s.text,
        s.pages,
        s.origin,
        s.origin === 'api' ? 2 : null,
        s.n,
        s.n * s.cost,
        s.at,
      );
      insertBulk.run(sendId, s.start, s.stride, s.execution, s.execution === null ? null : s.firstSeq);
      if (s.execution !== null) insertBatch.run(s.execution, s.firstSeq, s.n, sendId, messageId, s.at + HANDOFF_MS);
      spend(s.account, s.at, s.n * s.cost);
      sendId++;
      messageId += s.n;
    }
    if (t === transactional) break;
    const other = rand() < 0.1;
    const l = other ? otherLine : rand() < 0.15 ? baleLine : apiLine;
    const template = pickTemplate();
    const p = l.provider === 'sms' ? templatePrices[template]!.sms : templatePrices[template]!.bale;
    const typed = fill(TRANSACTIONAL[template]!.text);
    const text = typed + p.text.slice(TRANSACTIONAL[template]!.text.length);
    insertSendStmt.run(sendId, l.accountId, l.id, l.number, l.provider, text, p.pages, 'api', 2, 1, p.costRials, at);
    spend(l.accountId, at, p.costRials);
    sendId++;
    messageId++;
  }
  const messages = messageId - firstMessageId;
  step(`sends (${sendId - firstSendId})`);

  // ---- messages, one statement over the plan: ids in send order, statuses by a hash of the id
  db.exec(`CREATE TEMP TABLE plan (id INTEGER PRIMARY KEY, account_id INTEGER, n INTEGER, cost INTEGER,
    created_at INTEGER, first_id INTEGER, start INTEGER, stride INTEGER, execution_id INTEGER, first_seq INTEGER,
    recent INTEGER)`);
  db.prepare(
    `INSERT INTO plan SELECT s.id, s.account_id, s.message_count, s.total_rials / s.message_count, s.created_at,
       ? + sum(s.message_count) OVER (ORDER BY s.id ROWS UNBOUNDED PRECEDING) - s.message_count,
       COALESCE(b.start, ((s.id * 2654435761) % 4294967296) % ?), COALESCE(b.stride, 0), b.execution_id, b.first_seq,
       s.created_at > ?
     FROM sends s LEFT JOIN bulk b ON b.send_id = s.id WHERE s.id >= ? ORDER BY s.id`,
  ).run(firstMessageId, receivers, now - RECENT_MS, firstSendId);
  // The outcome of each per-mille of the hash, in the simulator's shares (FINAL_STATUSES' order).
  const outcomes = FINAL_STATUSES.map((s) =>
    Math.max(0, DEFAULT_SIMULATOR.outcomes[String(s) as keyof typeof DEFAULT_SIMULATOR.outcomes] ?? 0),
  );
  const outcomeTotal = outcomes.reduce((a, x) => a + x, 0);
  let codes = '';
  let acc = 0;
  for (let i = 0; i < FINAL_STATUSES.length; i++) {
    acc += outcomes[i]!;
    const upTo = i === FINAL_STATUSES.length - 1 ? 1000 : Math.round((acc / outcomeTotal) * 1000);
    while (codes.length / 3 < upTo) codes += String(FINAL_STATUSES[i]!).padStart(3, '0');
  }
  // A well-mixed 32-bit hash of the id (multiply, xor-shift, multiply), then its per-mille.
  const x = '((m.id * 2654435761 + 40503) % 4294967296)';
  const mixed = `(((${x} | (${x} / 32768)) - (${x} & (${x} / 32768))) * 73244475 % 4294967296)`;
  const insertMessages = db.prepare(
    `INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at, handed_at, final_at)
     SELECT m.id, m.send_id, m.account_id, m.receptor,
       CASE WHEN m.recent THEN ${MessageStatus.HandedToCarrier}
            ELSE CAST(substr('${codes}', (${mixed} / 1024 % 1000) * 3 + 1, 3) AS INTEGER) END,
       m.cost, m.created_at, m.handed, CASE WHEN m.recent THEN NULL ELSE m.handed + ${DELIVERY_MS} + (m.i * 37) % 700 END
     FROM (
       SELECT p.first_id + k.i AS id, p.id AS send_id, p.account_id, k.i AS i, p.recent, p.cost, p.created_at,
         p.created_at + ${HANDOFF_MS} + (k.i / 500) * 25 AS handed,
         CASE WHEN p.execution_id IS NULL THEN ${phoneSql(`(p.start + k.i * p.stride) % ${receivers}`)}
           ELSE (SELECT r.phone FROM campaign_recipients r WHERE r.execution_id = p.execution_id AND r.seq = p.first_seq + k.i)
         END AS receptor
       FROM plan p CROSS JOIN seq k WHERE p.id BETWEEN ? AND ? AND k.i < p.n
     ) m`,
  );
  const chunk = Math.ceil((sendId - firstSendId) / 10);
  for (let from = firstSendId; from < sendId; from += chunk) {
    insertMessages.run(from, Math.min(sendId - 1, from + chunk - 1));
    log(`    messages: sends ${from - firstSendId + chunk} of ${sendId - firstSendId}`);
  }
  step(`messages (${messages})`);

  // The last minutes' messages: handed over, the simulator's report due.
  db.prepare(
    `INSERT INTO simulator_due (due_at, first_id, last_id)
     SELECT created_at + ${HANDOFF_MS + DELIVERY_MS}, first_id, first_id + n - 1 FROM plan WHERE recent`,
  ).run();

  // ---- the credit ledger in time order: monthly top-ups, sends, refunds at their final time
  db.exec('CREATE TEMP TABLE topups (account_id INTEGER, amount INTEGER, created_at INTEGER)');
  const insertTopup = db.prepare('INSERT INTO topups VALUES (?, ?, ?)');
  for (const [key, rials] of spending) {
    const [account, month] = key.split(':').map(Number) as [number, number];
    // What the month costs, rounded up to a million rials, and a tenth more.
    insertTopup.run(account, Math.ceil((rials * 1.1) / 1e6) * 1e6, firstDay + month * 30 * DAY - HOUR);
  }
  // Enough credit left for the benchmark's own sends.
  insertTopup.run(accountId, 1_000_000_000_000, now - 30 * DAY);
  db.prepare(
    `INSERT INTO credit_ledger (account_id, amount_rials, kind, send_id, message_id, note, created_at)
     SELECT account_id, amount, kind, send_id, message_id, note, created_at FROM (
       SELECT account_id, amount, 'topup' AS kind, NULL AS send_id, NULL AS message_id, 'top-up' AS note, created_at, 0 AS o, 0 AS k
         FROM topups
       UNION ALL
       SELECT account_id, -total_rials, 'send', id, NULL, '', created_at, 1, id FROM sends WHERE id >= ?
       UNION ALL
       SELECT account_id, cost_rials, 'refund', NULL, id, '', final_at, 2, id FROM messages
         WHERE status = ${MessageStatus.Cancelled} AND id >= ?
     ) ORDER BY created_at, o, k`,
  ).run(firstSendId, firstMessageId);
  db.exec(
    'UPDATE accounts SET credit_rials = (SELECT COALESCE(sum(amount_rials), 0) FROM credit_ledger l WHERE l.account_id = accounts.id)',
  );
  step('ledger');

  // ---- the aggregates, by the migration's own statements
  db.exec(REBUILD_MESSAGE_COUNTS);
  step('message counts');
  db.exec(STATES_FILL);
  step('message states');
  db.exec('COMMIT');
  db.exec('DROP TABLE temp.plan; DROP TABLE temp.bulk; DROP TABLE temp.seq; DROP TABLE temp.topups');

  const lastHour = db
    .prepare<[number, number], number>('SELECT count(*) FROM messages WHERE id >= ? AND created_at >= ?')
    .pluck()
    .get(lastHourFirstId(db, now - HOUR), now - HOUR)!;
  fillSearchIndexes(db);
  step('search indexes');
  db.pragma('optimize');
  db.pragma('journal_mode = WAL');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  step('optimize and checkpoint');

  const fileBytes = ['chapar.db', 'chapar.db-wal']
    .map((name) => path.join(dataDir, name))
    .filter((file) => fs.existsSync(file))
    .reduce((sum, file) => sum + fs.statSync(file).size, 0);
  const result: ScaleWorkspace = {
    dataDir,
    now,
    messages,
    sends: sendId - firstSendId,
    receivers,
    contacts: segments.reduce((n, s) => n + s.members, 0),
    accountId,
    otherAccountId,
    lines: lineRows.map((l) => l.number),
    segments,
    executions,
    campaignWord: CAMPAIGN_WORD,
    transactionalWord: TRANSACTIONAL_WORD,
    lastHour,
    buildMs: Math.round(performance.now() - started),
    steps,
    fileBytes,
    bytesPerMessage: Math.round((fileBytes / Math.max(1, messages)) * 10) / 10,
    migrations: migrations.map(({ name, sql }) => ({ name, sha: digest(sql) })),
  };
  fs.writeFileSync(path.join(dataDir, META_FILE), JSON.stringify(result, null, 2) + '\n');
  return result;
}

const digest = (sql: string) => createHash('sha256').update(sql).digest('hex').slice(0, 16);

/**
 * The migrations of this build that differ from those a workspace was built with (edited since,
 * or missing): such a workspace no longer has the schema the code expects, since a database runs
 * each numbered migration once. Migrations added after the build are not listed: serve applies
 * them on its first start.
 */
export function staleMigrations(workspace: Pick<ScaleWorkspace, 'migrations'>): string[] {
  const built = workspace.migrations ?? [];
  return built
    .filter((m, i) => migrations[i]?.name !== m.name || digest(migrations[i]!.sql) !== m.sha)
    .map((m) => m.name);
}

/**
 * The search indexes (the receivers', migration 0019; the send texts', 0021) filled whole by their
 * own indexAll, as their background workers would after a while: the workspace opens with every
 * search answered by them. indexAll reads and writes on the connection alone, without readers.
 */
function fillSearchIndexes(db: Database.Database): void {
  const noReaders = null as unknown as ReaderPool;
  new ReceiverIndex(db, noReaders, systemClock).indexAll();
  new SendTextIndex(db, noReaders, systemClock).indexAll();
}

/** The first message id created at or after `at` (ids follow creation time): a binary search. */
function lastHourFirstId(db: Database.Database, at: number): number {
  const createdOf = db.prepare<[number], number>('SELECT created_at FROM messages WHERE id >= ? ORDER BY id LIMIT 1');
  createdOf.pluck();
  let lo = 1;
  let hi = (db.prepare('SELECT max(id) FROM messages').pluck().get() as number | null) ?? 0;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const created = createdOf.get(mid);
    if (created !== undefined && created < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Midnight in Tehran of the day of `t`. */
function tehranDayStart(t: number): number {
  return Math.floor((t + TEHRAN_OFFSET) / DAY) * DAY - TEHRAN_OFFSET;
}

/** RFC 3339 in Tehran time, as campaigns store their send time. */
function tehranIso(t: number): string {
  return new Date(t + TEHRAN_OFFSET).toISOString().replace(/\.\d{3}Z$/, '+03:30');
}

/** Reads what a built workspace says about itself (null when the folder has none). */
export function readScaleWorkspace(dataDir: string): ScaleWorkspace | null {
  const file = path.join(dataDir, META_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as ScaleWorkspace) : null;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      messages: { type: 'string' },
      contacts: { type: 'string' },
      seed: { type: 'string' },
      force: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.out)
    throw new Error(
      'usage: npx tsx bench/support/scale-workspace.ts --out DIR [--messages N] [--contacts N] [--seed N] [--force]',
    );
  const out = path.resolve(values.out);
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) {
    if (!values.force) throw new Error(`${out} is not empty (--force replaces it)`);
    fs.rmSync(out, { recursive: true, force: true });
  }
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value.replaceAll('_', '')));
  console.log(`building ${out} ...`);
  const built = await buildScaleWorkspace(out, {
    messages: number(values.messages),
    contacts: number(values.contacts),
    seed: number(values.seed),
  });
  const { steps, migrations: _migrations, segments, executions, ...facts } = built;
  console.log(JSON.stringify({ ...facts, steps }));
  for (const s of segments) console.log(`segment ${s.id} ${JSON.stringify(s.name)}: ${s.members} members`);
  for (const e of executions)
    console.log(`execution ${e.id} (campaign ${e.campaignId}, segment ${e.segmentId}): ${e.audience} recipients`);
  console.log(
    `built in ${(built.buildMs / 1000).toFixed(1)} s: ${built.messages} messages, ${(built.fileBytes / 1e6).toFixed(0)} MB, ${built.bytesPerMessage} B/message`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
