// Version 1's sends and what follows them (reference/kavenegar-v1.md §1.1–1.4, 1.9): sms/send,
// sms/sendarray, sms/status, sms/statuslocalmessageid and sms/cancel. Each maps the provider's
// parameters onto the core: sends go through the one acceptance path as items (Accept.acceptItems:
// local ids, repeats, origin api-v1 and the strict receiver rule), statuses
// through the status lookup, cancels through the lifecycle's guarded moves. No rule is written here.
import type { Core } from '../../core';
import type { V1Call, V1Methods } from './routes';
import type { V1Params } from './params';
import { ServiceError } from '../../errors';
import { ApiCode } from '../../../../shared/status';
import { itemInfos } from '../message-entries';
import type { MessageInfo } from '../../../../shared/api';
import type { Repeats, SendItem } from '../../messaging/item-groups';

/** The reference's limits: 200 receptors a send, 500 ids a status or cancel (else 414). */
export const V1_MAX_RECEPTORS = 200;
export const V1_MAX_IDS = 500;

/** The provider's message entry (reference §1) is spec 2.2's. */
export type V1MessageEntry = MessageInfo;

/** Sends a call's items, all or nothing (Accept.acceptItems); entries in submitted order. */
async function sendItems(
  core: Core,
  accountId: number,
  items: readonly SendItem[],
  dueAt: number | null,
  repeats: Repeats,
): Promise<V1MessageEntry[]> {
  return itemInfos(
    await core.messaging.accept.acceptItemsInGroup({ accountId, origin: 'api-v1', items, repeats, dueAt }),
  );
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

function send({ core, account, params }: V1Call): Promise<V1MessageEntry[]> {
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

function sendArray({ core, account, params }: V1Call): Promise<V1MessageEntry[]> {
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
