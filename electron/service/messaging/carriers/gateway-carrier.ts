// Who delivers each message: its sender line's gateway (shared/gateways.ts). Lines on the
// simulator go to the simulator, lines on a provider account to the upstream carrier; the
// lifecycle sees one carrier. Both record what they must do in the hand-over's transaction, and
// both keep per-message rows that retention's forget drops.
import type { Worker } from '../../jobs/scheduler';
import type { Accounts, Line } from '../../accounts/accounts';
import { isUpstream } from '../../../../shared/gateways';
import type { Carrier, Handover } from './carrier';
import type { UpstreamCarrier } from './upstream/upstream-carrier';

export class GatewayCarrier implements Carrier {
  readonly name = 'gateways';
  readonly worker: Worker;

  constructor(
    readonly simulator: Carrier,
    readonly upstream: UpstreamCarrier,
    private readonly accounts: Accounts,
  ) {
    this.worker = {
      name: 'carriers',
      nextDueAt: () => {
        const a = simulator.worker?.nextDueAt() ?? null;
        const b = upstream.worker.nextDueAt();
        return a === null ? b : b === null ? a : Math.min(a, b);
      },
      // Both every round: a busy simulator never starves a provider's calls, nor the other way.
      runDue: () => {
        const simulated = (simulator.worker?.runDue() ?? false) as boolean;
        const handed = upstream.worker.runDue() as boolean;
        return simulated || handed;
      },
    };
  }

  accept(batch: readonly Handover[], now: number): void {
    const lines = new Map<string, Line | undefined>();
    const simulated: Handover[] = [];
    const upstream: { id: number; account_id: number; line_id: number }[] = [];
    for (const message of batch) {
      const key = `${message.account_id}\u0000${message.sender}`;
      if (!lines.has(key)) lines.set(key, this.accounts.findLine(message.account_id, message.sender));
      const line = lines.get(key);
      // The line found here is the one the upstream carrier records: it is looked up once a batch.
      if (line && isUpstream(line.gateway.kind))
        upstream.push({ id: message.id, account_id: message.account_id, line_id: line.id });
      else simulated.push(message);
    }
    if (simulated.length > 0) this.simulator.accept(simulated, now);
    if (upstream.length > 0) this.upstream.accept(upstream, now);
  }

  forget(firstId: number, lastId: number): void {
    this.simulator.forget?.(firstId, lastId);
    this.upstream.forget(firstId, lastId);
  }

  stop(): Promise<void> {
    return this.upstream.stop();
  }

  /** No call to a provider starts until release(); resolves once those in flight are recorded. */
  hold(): Promise<void> {
    return this.upstream.hold();
  }

  /** After the database was replaced (a restore): calls it caught half-way are unknown; calls go on. */
  release(): void {
    this.upstream.release();
  }
}
