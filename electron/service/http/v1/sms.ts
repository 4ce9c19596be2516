// Version 1's sends and what follows them (reference/kavenegar-v1.md §1.1–1.4, 1.9): sms/send,
// sms/sendarray, sms/status, sms/statuslocalmessageid and sms/cancel. Each maps the provider's
// parameters onto the core: sends go through the one acceptance path (origin api-v1, the strict
// receiver rule), local ids through its LocalIds, statuses through the status lookup, cancels
// through the lifecycle's guarded moves. No rule is written here.
import type { Core } from '../../core';
import type { V1Call, V1Methods } from './routes';
import type { V1Params } from './params';
import { ServiceError } from '../../errors';
import { ApiCode } from '../../../../shared/status';
import { messageStatusText } from '../../../../shared/lifecycle';
import { classifyReceivers } from '../../../../shared/receivers';
import { messageInfos, rejectedInfo } from '../message-entries';
import { normalizeReceiver } from '../../../../shared/phone';
import { unixSeconds } from '../../clock';
import type { Recorded } from '../../messaging/accept';
import type { MessageInfo } from '../../../../shared/api';
import type { EarlierMessage } from '../../messaging/local-ids';

/** The reference's limits: 200 receptors a send, 500 ids a status or cancel (else 414). */
export const V1_MAX_RECEPTORS = 200;
export const V1_MAX_IDS = 500;

/** The provider's message entry (reference §1) is spec 2.2's. */
export type V1MessageEntry = MessageInfo;

/** One (sender, receptor, text) of a call, with its caller's local id. */
interface Item {
  sender: string;
  receptor: string;
  text: string;
  localId: string | undefined;
}

/**
 * Sends a call's items, all or nothing: items whose local id named a message before answer with
 * that message; the others go out grouped by sender, one acceptance each, in one transaction, so a
 * refusal of a later group (418) leaves no trace of the earlier ones. Entries in submitted order.
 */
function sendItems(
  core: Core,
  accountId: number,
  items: readonly Item[],
  dueAt: number | null,
  repeats: 'duplicate' | 'send',
): V1MessageEntry[] {
  const { accept } = core.messaging;
  const { earlier, fresh } = accept.localIds.split(
    accountId,
    items.map((item) => item.localId),
  );
  const entries: (V1MessageEntry | undefined)[] = earlier.map((message) =>
    message === undefined ? undefined : earlierEntry(message),
  );
  const groups = groupsOf(items, fresh, repeats);
  core.db.transaction(() => {
    for (const indexes of groups) {
      const first = items[indexes[0]!]!;
      const command = {
        accountId,
        origin: 'api-v1' as const,
        sender: first.sender,
        text: first.text,
        receivers: indexes.map((i) => items[i]!.receptor),
        texts: indexes.map((i) => (items[i]!.text === first.text ? undefined : items[i]!.text)),
        rule: 'strict' as const,
        dueAt,
        localIds: indexes.map((i) => items[i]!.localId),
      };
      let recorded: Recorded | null = null;
      try {
        recorded = accept.accept(command);
      } catch (error) {
        // A group without one valid receptor answers with its rejected entries; the call is 411
        // only when nothing in it was valid (below).
        if (!(error instanceof ServiceError && error.code === ApiCode.InvalidReceiver)) throw error;
      }
      groupEntries(recorded, command.receivers).forEach((entry, n) => (entries[indexes[n]!] = entry));
    }
    if (!entries.some((entry) => entry!.messageid > 0)) throw new ServiceError(ApiCode.InvalidReceiver);
  })();
  return entries as V1MessageEntry[];
}

/**
 * The items to send, grouped by sender in order of first appearance. With `repeats: 'send'`
 * (sendarray, whose triples may send one receptor two texts) a receptor repeated with one sender
 * starts a further group of that sender, where the acceptance path would take it for a duplicate
 * (15), as it does in sms/send's one list.
 */
function groupsOf(items: readonly Item[], fresh: readonly number[], repeats: 'duplicate' | 'send'): number[][] {
  const groups: { sender: string; receptors: Set<string>; indexes: number[] }[] = [];
  for (const i of fresh) {
    const { sender, receptor } = items[i]!;
    const key = normalizeReceiver(receptor) ?? receptor;
    let group = groups.find((one) => one.sender === sender && (repeats === 'duplicate' || !one.receptors.has(key)));
    if (!group) groups.push((group = { sender, receptors: new Set(), indexes: [] }));
    group.receptors.add(key);
    group.indexes.push(i);
  }
  return groups.map((group) => group.indexes);
}

/** One entry per submitted receptor of a group: its message, or 0 (invalid) / 15 (duplicate) without one. */
function groupEntries(recorded: Recorded | null, receptors: readonly string[]): V1MessageEntry[] {
  if (recorded) return messageInfos(recorded);
  const classified = classifyReceivers(receptors, 'strict');
  return classified.kinds.map((kind, i) => rejectedInfo(kind, classified.receptors[i]!));
}

/** The message a local id named, as it is now (its status may have moved on). */
function earlierEntry(message: EarlierMessage): V1MessageEntry {
  return {
    messageid: message.id,
    message: message.text,
    status: message.status,
    statustext: messageStatusText[message.status],
    sender: message.sender,
    receptor: message.receptor,
    date: unixSeconds(message.created_at),
    cost: message.cost_rials,
  };
}

/** A list of ids the method needs (400 when absent), at most V1_MAX_IDS (414). */
function idList(params: V1Params, name: string): number[] {
  const count = params.list(name)?.length ?? 0;
  if (count === 0) throw new ServiceError(ApiCode.BadRequest, `${name} is required`);
  if (count > V1_MAX_IDS) throw new ServiceError(ApiCode.TooLarge, `more than ${V1_MAX_IDS} ${name}s`);
  return params.ints(name)!;
}

/** sendarray's local ids: the current docs' name, the PHP client's and the Go client's. */
function arrayLocalIds(params: V1Params): (string | undefined)[] | undefined {
  for (const name of ['localmessageids', 'localmessageid', 'localid']) {
    const ids = params.members(name);
    if (ids !== undefined) return ids;
  }
  return undefined;
}

function send({ core, account, params }: V1Call): V1MessageEntry[] {
  const receptors = params.list('receptor') ?? [];
  if (receptors.length === 0) throw new ServiceError(ApiCode.BadRequest, 'receptor is required');
  if (receptors.length > V1_MAX_RECEPTORS)
    throw new ServiceError(ApiCode.TooLarge, `more than ${V1_MAX_RECEPTORS} receptors`);
  const text = params.required('message');
  const localIds = params.members('localid');
  if (localIds !== undefined && localIds.length !== receptors.length)
    throw new ServiceError(ApiCode.BadRequest, 'localid and receptor differ in number');
  const dueAt = params.sendDate('date', core.clock.now());
  const sender = params.string('sender') ?? core.accountConfig.defaultSender(account.id, 'api-v1');
  const items = receptors.map((receptor, i) => ({ sender, receptor, text, localId: localIds?.[i] }));
  return sendItems(core, account.id, items, dueAt, 'duplicate');
}

function sendArray({ core, account, params }: V1Call): V1MessageEntry[] {
  const receptors = params.array('receptor');
  const senders = params.array('sender');
  const texts = params.array('message');
  if (receptors === undefined || senders === undefined || texts === undefined || receptors.length === 0)
    throw new ServiceError(ApiCode.BadRequest, 'receptor, sender and message are required');
  if (receptors.length > V1_MAX_RECEPTORS)
    throw new ServiceError(ApiCode.TooLarge, `more than ${V1_MAX_RECEPTORS} receptors`);
  const localIds = arrayLocalIds(params);
  if (
    senders.length !== receptors.length ||
    texts.length !== receptors.length ||
    (localIds !== undefined && localIds.length !== receptors.length)
  )
    throw new ServiceError(ApiCode.ArrayLengthMismatch);
  if (texts.some((text) => text.trim() === '')) throw new ServiceError(ApiCode.BadRequest, 'a message is empty');
  const dueAt = params.sendDate('date', core.clock.now());
  let fallback: string | undefined;
  const items = receptors.map((receptor, i) => ({
    // A member left empty goes out from the account's default sender, as a send without one does.
    sender: senders[i]!.trim() || (fallback ??= core.accountConfig.defaultSender(account.id, 'api-v1')),
    receptor: receptor.trim(),
    text: texts[i]!,
    localId: localIds?.[i],
  }));
  return sendItems(core, account.id, items, dueAt, 'send');
}

export const smsMethods: V1Methods = {
  // `type`, `hide` and `tag` are taken and not acted on: every message is stored the one way, and
  // tags belong to the provider's panel.
  'sms/send': { handler: send },

  'sms/sendarray': { postOnly: true, handler: sendArray },

  'sms/status': {
    handler: ({ core, account, params }) => core.messaging.statusLookup.lookup(account.id, idList(params, 'messageid')),
  },

  'sms/statuslocalmessageid': {
    handler: ({ core, account, params }) => {
      const localIds = params.list('localid') ?? [];
      if (localIds.length === 0) throw new ServiceError(ApiCode.BadRequest, 'localid is required');
      if (localIds.length > V1_MAX_IDS) throw new ServiceError(ApiCode.TooLarge, `more than ${V1_MAX_IDS} localids`);
      return core.messaging.statusLookup.byLocalIds(account.id, localIds);
    },
  },

  // Messages not handed to the carrier yet (scheduled, or still queued) end 13 and are refunded;
  // any other id answers with its status as it is (100 when unknown or another account's).
  'sms/cancel': {
    handler: ({ core, account, params }) => {
      const ids = idList(params, 'messageid');
      core.messaging.lifecycle.cancel(account.id, ids);
      return core.messaging.statusLookup.lookup(account.id, ids);
    },
  },
};
