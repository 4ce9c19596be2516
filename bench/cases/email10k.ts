// email10k: a 10,000-recipient segment (EMAIL, NAME, CITY columns) sent through the embedded
// sandbox, from the confirmed send until every recipient is handed over and picked up by the
// provider (the send and its recipients written, 20 batches of 500 each one request with its own
// substitutions, every per-recipient result recorded, through the persisted send job; the
// sandbox, in the same process, takes each message from queued to processed meanwhile). Next to
// the floor measured in the same run: the same 20 requests called straight into the provider,
// until it picked every message up (what any relay client must at least cause). Also reported:
// the time until every recipient is delivered and polled, which includes the sandbox's one second
// between a message's pick-up and its outcome.
import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { eventually, tempDir, testSeed } from '../../test/helpers/server';
import { draft, importSegment, settled } from '../../test/email-client/support';
import { median, type BenchCase } from '../case';

const N = 10_000;
const BATCH = 500;
const RUNS = 3;

const email10k: BenchCase = {
  name: 'email10k',
  async run() {
    const dir = tempDir('chapar-bench-email-');
    fs.mkdirSync(path.join(dir, 'data'));
    const core = new Core({ dataDir: path.join(dir, 'data') });
    try {
      applySeed(core, testSeed());
      const account = core.accounts.findByName('acme')!.id;
      const members = Array.from({ length: N }, (_, i) => ({
        email: `r${i}@example.com`,
        name: `Name ${i}`,
        city: `c${i}`,
      }));
      const segment = await importSegment(core, account, dir, members);
      const queued = core.db.prepare("SELECT count(*) FROM email_relay_messages WHERE status = 'queued'").pluck();
      const queuedAtProvider = () => queued.get() as number;
      const template = draft(account, segment, { subject: 'For {{NAME}} in {{ city }}' });
      const handovers: number[] = [];
      const deliveries: number[] = [];
      const floors: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const send = core.email.send({ ...template, expected_count: N, request_id: `bench-email-${run}` });
        await settled(core, account, send.id, 120_000, (s) => s.counts.pending === 0);
        await eventually(() => (queuedAtProvider() === 0 ? true : undefined), 120_000);
        handovers.push(performance.now() - started);
        const done = await settled(core, account, send.id, 120_000);
        deliveries.push(performance.now() - started);
        if (done.counts.delivered !== N) throw new Error(`delivered ${done.counts.delivered}`);

        // The floor: the same 20 requests, each recipient with its own substitutions, straight
        // into the provider (no send, no job, no recording), one turn of the event loop apart as
        // requests arrive.
        const local = core.emailRelay.localAccountId();
        const floorStarted = performance.now();
        for (let from = 0; from < N; from += BATCH) {
          const answer = await core.emailRelay.send(local, {
            from: { email: 'news@shop.example', name: 'Shop' },
            subject: 'For {{NAME}} in {{ city }}',
            text_content: 'Dear {{Name}} of {{ CITY }}, your number is {{PHONE_NUMBER}}.',
            tags: [`floor-${run}`],
            recipients: members.slice(from, from + BATCH).map((member, i) => ({
              email: member.email,
              name: member.name,
              substitutions: {
                NAME: member.name,
                city: member.city,
                Name: member.name,
                CITY: member.city,
                PHONE_NUMBER: `0912${from + i}`,
              },
            })),
          });
          if (answer.status !== 202) throw new Error(`floor answered ${answer.status}`);
          await new Promise((resolve) => setImmediate(resolve));
        }
        await eventually(() => (queuedAtProvider() === 0 ? true : undefined), 120_000);
        floors.push(performance.now() - floorStarted);
      }
      const ms = median(handovers);
      const floorMs = median(floors);
      return {
        name: 'email10k',
        ms,
        floorMs,
        ratio: ms / floorMs,
        target: '≤ 2 (the client adds its send, jobs and per-recipient records to the provider’s work)',
        extra: {
          recipients: N,
          perSecond: Math.round(N / (ms / 1000)),
          deliveredAndPolledMs: Math.round(median(deliveries)),
        },
      };
    } finally {
      await core.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default email10k;
