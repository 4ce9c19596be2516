// quote1m: the campaign editor's dry run over the campaign1m audience (two overlapping 600,000-member
// inclusion segments minus a 200,000-member exclusion segment: 1,000,000 numbers read, 900,000
// recipients), with one column and one tracked link: every recipient's text built and priced, the
// audience explained, samples picked. Next to the floor measured in the same run: the bare
// deduplicated count of the same audience in one SQL statement (what any live count must do).
// Also the longest time the event loop was held while the quote ran (it yields between chunks).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { tempDir, testSeed } from '../../test/helpers/server';
import { writeSegment } from '../../test/helpers/segments';
import { CampaignDraftFieldsSchema } from '../../shared/campaigns';
import { median, type BenchCase } from '../case';

const RUNS = 3;

const quote1m: BenchCase = {
  name: 'quote1m',
  async run() {
    const core = new Core({ dataDir: tempDir('chapar-bench-quote-'), startScheduler: false });
    try {
      applySeed(core, testSeed());
      const account = core.accounts.findByName('acme')!.id;
      const a = writeSegment(core, account, 'A', { from: 0, to: 600_000 });
      const b = writeSegment(core, account, 'B', { from: 400_000, to: 1_000_000 });
      const c = writeSegment(core, account, 'C', { from: 900_000, to: 1_100_000 });
      const fields = CampaignDraftFieldsSchema.parse({
        name: 'bench',
        sender: '30001111',
        template_body: 'سلام {{NAME}}، تخفیف امروز: https://shop.example/sale',
        inclusion_segments: [a, b],
        exclusion_segments: [c],
        links: [{ actual_url: 'https://shop.example/sale', has_utm: true }],
      });
      const times: number[] = [];
      const floors: number[] = [];
      let held = 0;
      for (let run = 0; run < RUNS; run++) {
        const delay = monitorEventLoopDelay({ resolution: 5 });
        delay.enable();
        let started = performance.now();
        const quote = await core.campaigns.quote(account, fields);
        times.push(performance.now() - started);
        delay.disable();
        held = Math.max(held, delay.max / 1e6);
        if (quote.audience.recipients !== 900_000) throw new Error(`quoted ${quote.audience.recipients}`);
        started = performance.now();
        const counted = core.segments.audienceCount(account, { include: [a, b], exclude: [c] });
        floors.push(performance.now() - started);
        if (counted !== 900_000) throw new Error(`counted ${counted}`);
      }
      const ms = median(times);
      const floorMs = median(floors);
      return {
        name: 'quote1m',
        ms,
        floorMs,
        ratio: ms / floorMs,
        target: '≤ 4 (it prices 900,000 texts; the floor only counts)',
        extra: { recipients: 900_000, loopHeldMaxMs: Math.round(held) },
      };
    } finally {
      await core.close();
    }
  },
};

export default quote1m;
