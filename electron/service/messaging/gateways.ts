// The lines' gateways as the window and the seed file use them (shared/ipc/contracts/gateways.ts):
// setting one (the key to the secrets store, never the database), testing the connection, each
// line's queue at its provider, and the user's actions on it. The rules live where they belong:
// what may be set in accounts (setGateway), what a message's state means in the upstream carrier.
import type { Accounts, Line } from '../accounts/accounts';
import { lineKeySecret } from '../accounts/accounts';
import type { SecretStore } from '../secrets';
import type { Db } from '../db/database';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { HANDOVER_STATES, isUpstream, type HandoverState } from '../../../shared/gateways';
import type { ConnectionTest, GatewayInput, Handover, LineQueue } from '../../../shared/ipc/contracts/gateways';
import type { UpstreamCarrier } from './carriers/upstream/upstream-carrier';
import type { CarrierMessages } from './carriers/carrier';

export class Gateways {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly secrets: SecretStore,
    private readonly upstream: UpstreamCarrier,
    private readonly messages: CarrierMessages,
  ) {}

  /** Sets a line's gateway; its key, when given, goes to the secrets store at once. */
  set(input: GatewayInput): Line {
    const { account_id, ...gateway } = input;
    const { line, key } = this.db.transaction(() => {
      const before = this.line(account_id, gateway.number);
      // The upstream carrier's own messages on their way count too (a switch would strand them).
      if (gateway.kind !== before.gateway.kind && this.upstream.handovers.inFlight(before.id) > 0)
        throw new ServiceError(
          ApiCode.BadRequest,
          `line ${before.number} has messages on their way`,
          'gateway_in_flight',
        );
      return this.accounts.setGateway(account_id, gateway);
    })();
    const name = lineKeySecret(line.id);
    if (key === 'forget') this.secrets.delete(name);
    else if (key !== 'keep') this.secrets.set(name, key.set);
    const updated = this.accounts.findLine(account_id, line.number)!;
    // New settings are the user's answer to a pause (a key, an address): the line tries again.
    if (this.upstream.handovers.pause(line.id)) this.upstream.resume(updated);
    return updated;
  }

  /** The app's own address, where gateways call back with reports. */
  setLocalAddress(url: string): void {
    this.upstream.setLocalAddress(url);
  }

  /** A report a line's gateway called back with (the HTTP route `/gateway/reports/:line/:token`). */
  reported(lineId: number, token: string, query: Readonly<Record<string, string>>): 'applied' | 'ignored' | 'refused' {
    const line = this.accounts.upstreamLines().find((one) => one.id === lineId);
    if (!line) return 'refused';
    return this.upstream.reported(line, token, query);
  }

  async test(accountId: number, number: string): Promise<ConnectionTest> {
    const line = this.line(accountId, number);
    if (!isUpstream(line.gateway.kind))
      return {
        ok: true,
        credit_rials: null,
        provider_credit: null,
        code: null,
        detail: 'the simulator needs no connection',
      };
    const answer = await this.upstream.test(line);
    if (answer.kind === 'ok')
      return {
        ok: true,
        credit_rials: answer.value.creditRials,
        provider_credit: answer.value.providerCredit ?? null,
        code: null,
        detail: null,
      };
    return {
      ok: false,
      credit_rials: null,
      provider_credit: null,
      code: answer.kind === 'error' ? answer.code : null,
      detail: answer.text,
    };
  }

  queues(accountId: number): LineQueue[] {
    return this.accounts.listLines(accountId).map((line) => this.queue(line));
  }

  queue(line: Line): LineQueue {
    const counts = this.upstream.handovers.counts(line.id);
    return {
      line_id: line.id,
      number: line.number,
      kind: line.gateway.kind,
      paused: this.upstream.handovers.pause(line.id),
      counts: Object.fromEntries(HANDOVER_STATES.map((state) => [state, counts.get(state) ?? 0])) as Record<
        HandoverState,
        number
      >,
      provider_cost_rials: this.upstream.handovers.providerCost(line.id),
    };
  }

  handovers(accountId: number, number: string, state: HandoverState, limit: number): Handover[] {
    const line = this.line(accountId, number);
    const rows = this.upstream.handovers.list(line.id, state, limit);
    const receptors = new Map(this.messages.outgoing(rows.map((row) => row.message_id)).map((m) => [m.id, m.receptor]));
    return rows.map((row) => ({
      message_id: row.message_id,
      receptor: receptors.get(row.message_id) ?? '',
      state: row.state,
      code: row.code,
      detail: row.detail,
      upstream_id: row.upstream_id,
      attempts: row.attempts,
      updated_at: row.updated_at,
    }));
  }

  resume(accountId: number, number: string): LineQueue {
    const line = this.line(accountId, number);
    this.upstream.resume(line);
    return this.queue(line);
  }

  retry(accountId: number, number: string, ids?: readonly number[]): LineQueue {
    const line = this.line(accountId, number);
    this.upstream.retry(line, ids);
    return this.queue(line);
  }

  markFailed(accountId: number, number: string, ids?: readonly number[]): LineQueue {
    const line = this.line(accountId, number);
    this.upstream.markFailed(line, ids);
    return this.queue(line);
  }

  private line(accountId: number, number: string): Line {
    const line = this.accounts.typedLine(accountId, number);
    if (!line) throw new ServiceError(ApiCode.NotFound, `line ${number}`, 'line_not_found');
    return line;
  }
}
