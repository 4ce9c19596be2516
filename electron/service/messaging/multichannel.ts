// One text over several channels at once (version 3, spec 1 and 9): an SMS line, a Bale line and
// a Rubika line, each a command of the one acceptance path (accept.ts), all accepted or none.
// Every channel's rules (sender line, file, receivers, final text, price) are Accept's; what is
// this module's own is only what "several channels in one call" adds: each channel's line is of
// that channel's provider, a file rides only on a messenger channel, and the credit is checked
// for the whole call. That last one needs no arithmetic here: the commands run one after the
// other inside one transaction, so each one's credit check sees what the earlier ones debited,
// and a refusal of a later one (418, 412, 400, 411) rolls the earlier ones back. Everything an
// acceptance writes — the send, its messages, the ledger's debit, the lifecycle's due ranges
// (due-ranges.ts keeps them as rows) — is in the database, so a rollback leaves nothing behind;
// in a group commit, what the group writes once at its end (counts, states, due ranges) is taken
// back by the batch Accept.inGroup runs each request in.
import type { Db } from '../db/database';
import type { Accounts } from '../accounts/accounts';
import type { Accept, Recorded } from './accept';
import { ServiceError } from '../errors';
import { ApiCode, PROVIDERS, type Provider } from '../../../shared/status';
import type { Origin } from '../../../shared/lines';
import type { ReceiverRule } from '../../../shared/receivers';
import { MESSENGER_PROVIDERS, type MessengerProvider } from '../files/files';

export type Channel = Provider;
/** The order channels are accepted in and answered in. */
export const CHANNELS: readonly Channel[] = PROVIDERS;

function isMessengerChannel(channel: string): channel is MessengerProvider {
  return (MESSENGER_PROVIDERS as readonly string[]).includes(channel);
}

export interface MultichannelCommand {
  accountId: number;
  origin: Origin;
  /** The same text on every channel; Accept makes each channel's final text (the phrase on SMS only). */
  text: string;
  /** In submitted order, the same on every channel. */
  receivers: readonly string[];
  rule: ReceiverRule;
  /** The sender line of each channel sent on (at least one), by the line's number. */
  senders: Partial<Record<Channel, string | null>>;
  /** A file per messenger channel (POST /upload-file/{provider}); spec 4.1 rule 7 holds for each. */
  files?: Partial<Record<MessengerProvider, string | null>> | undefined;
}

export interface ChannelAcceptance {
  channel: Channel;
  recorded: Recorded;
}

export class Multichannel {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly accept: Accept,
  ) {}

  /** send() for one of many requests in flight (the API): committed with them (Accept.inGroup). */
  sendInGroup(command: MultichannelCommand): Promise<ChannelAcceptance[]> {
    return this.accept.inGroup(() => this.send(command));
  }

  /** Records one send per channel, in CHANNELS order, or throws the first refusal with nothing recorded. */
  send(command: MultichannelCommand): ChannelAcceptance[] {
    const channels = CHANNELS.filter((channel) => command.senders[channel] != null);
    if (channels.length === 0) throw new ServiceError(ApiCode.BadRequest, 'no channel to send on');
    for (const [channel, fileId] of Object.entries(command.files ?? {}))
      if (fileId != null && !(isMessengerChannel(channel) && channels.includes(channel)))
        throw new ServiceError(ApiCode.BadRequest, `a file for ${channel}, which is not a messenger channel sent on`);

    return this.db.transaction(() =>
      channels.map((channel) => {
        const sender = command.senders[channel]!;
        // The line's own checks (owned, active, permitted: 412) come first, as Accept makes them;
        // then that it is a line of this channel, before its file is judged against it.
        const line = this.accounts.senderLine(command.accountId, sender, command.origin);
        if (line.provider !== channel)
          throw new ServiceError(ApiCode.InvalidSender, `${sender} is a ${line.provider} line, not ${channel}`);
        const recorded = this.accept.accept({
          accountId: command.accountId,
          origin: command.origin,
          sender,
          text: command.text,
          receivers: command.receivers,
          rule: command.rule,
          fileId: isMessengerChannel(channel) ? (command.files?.[channel] ?? null) : null,
        });
        return { channel, recorded };
      }),
    )();
  }
}
