// Version 1's reads (reference/kavenegar-v1.md §1.5–1.8, 1.10, 1.11, 1.18): the outbox by id, by
// range, newest first and counted (messaging/outbox.ts), and the inbox, unread, counted and paged
// (messaging/inbox.ts). Only the mapping of parameters lives here; the limits and ranges are the
// core's.
//   startdate absent: 400; not a Unix time: 400; enddate before startdate or a range wider than a
//   day: 417 (readRange). The Go client's misspelt `endate` is read as `enddate`.
//   0 where no value can be 0 is a client's default for "not given", and read so: Java's
//   countOutbox(startdate) sends a zero `enddate` and `status`, PHP's CountOutbox a zero `status`,
//   Go's LatestOutbox a zero `pagesize`, and a zero `pagenumber` the first page. (isread=0 is a
//   value: unread.)
//   inboxpaged's window is the inbox's own: at most two days, else 400 (Inbox.paged).
import type { V1Call, V1Methods } from './routes';
import type { V1Params } from './params';
import { LATEST_LIMIT, readRange, type TimeRange } from '../../messaging/outbox';
import { ServiceError } from '../../errors';
import { ApiCode } from '../../../../shared/status';
import { unixSeconds } from '../../clock';
import type { InboundMessage } from '../../messaging/inbox';
import { V1Paged } from './envelope';

/** A number that cannot be 0 (an end time, a page size): 0 is a client's default, no value. */
function unlessZero(value: number | undefined): number | undefined {
  return value === 0 ? undefined : value;
}

function range({ core, params }: V1Call): TimeRange {
  const from = params.time('startdate');
  if (from === undefined) throw new ServiceError(ApiCode.BadRequest, 'startdate is required');
  const to = unlessZero(params.time('enddate')) ?? unlessZero(params.time('endate'));
  return readRange(from, to, core.clock.now());
}

/** countoutbox's status filter: no message has status 0, so a 0 (a client's default) filters nothing. */
function statusFilter(params: V1Params): number[] | undefined {
  const statuses = params.ints('status')?.filter((given) => unlessZero(given) !== undefined);
  return statuses?.length ? statuses : undefined;
}

/** A range as the count methods answer it: Unix seconds. */
function rangeSeconds(span: TimeRange): { startdate: number; enddate: number } {
  return { startdate: unixSeconds(span.from), enddate: unixSeconds(span.to) };
}

/** `isread` as receive/countinbox take it: 0 or 1; anything else is 400. */
function isRead(value: number | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 0 && value !== 1) throw new ServiceError(ApiCode.BadRequest, 'isread is 0 or 1');
  return value === 1;
}

/** A received message as receive and inboxpaged answer it. */
function receivedEntry(message: InboundMessage) {
  return {
    messageid: message.id,
    message: message.text,
    sender: message.sender,
    receptor: message.line_number,
    date: unixSeconds(message.received_at),
  };
}

export const readMethods: V1Methods = {
  'sms/select': {
    needsConfiguredIp: true,
    handler: ({ core, account, params }) => {
      const ids = params.ints('messageid');
      if (ids === undefined || ids.length === 0) throw new ServiceError(ApiCode.BadRequest, 'messageid is required');
      return core.messaging.outbox.select(account.id, ids);
    },
  },

  'sms/selectoutbox': {
    needsConfiguredIp: true,
    handler: (call) => call.core.messaging.outbox.between(call.account.id, range(call), call.params.string('sender')),
  },

  'sms/latestoutbox': {
    needsConfiguredIp: true,
    handler: ({ core, account, params }) =>
      core.messaging.outbox.latest(
        account.id,
        unlessZero(params.int('pagesize')) ?? LATEST_LIMIT,
        params.string('sender'),
      ),
  },

  'sms/countoutbox': {
    handler: (call) => {
      const span = range(call);
      const statuses = statusFilter(call.params);
      return [{ ...rangeSeconds(span), ...call.core.messaging.outbox.count(call.account.id, span, statuses) }];
    },
  },

  'sms/receive': {
    handler: ({ core, account, params }) => {
      const line = core.messaging.outbox.ownLine(account.id, params.required('linenumber'));
      const read = isRead(params.int('isread'));
      if (read === undefined) throw new ServiceError(ApiCode.BadRequest, 'isread is required');
      return core.inbox.receive(account.id, line.number, read).map(receivedEntry);
    },
  },

  // The lossless read: nothing is marked read (Inbox.paged).
  'sms/inboxpaged': {
    handler: ({ core, account, params }) => {
      const linenumber = params.required('linenumber');
      const from = params.time('startdate');
      if (from === undefined) throw new ServiceError(ApiCode.BadRequest, 'startdate is required');
      const line = core.messaging.outbox.ownLine(account.id, linenumber);
      const paged = core.inbox.paged(account.id, {
        lineNumber: line.number,
        from,
        to: unlessZero(params.time('enddate')) ?? unlessZero(params.time('endate')),
        isRead: isRead(params.int('isread')),
        page: unlessZero(params.int('pagenumber')) ?? 1,
      });
      return new V1Paged(paged.items.map(receivedEntry), {
        totalCount: paged.total,
        currentPage: paged.page,
        totalPages: paged.pages,
        pageSize: paged.pageSize,
      });
    },
  },

  'sms/countinbox': {
    handler: (call) => {
      const { core, account, params } = call;
      const span = range(call);
      const linenumber = params.string('linenumber');
      const lineNumber =
        linenumber === undefined ? undefined : core.messaging.outbox.ownLine(account.id, linenumber).number;
      const sumcount = core.inbox.count(account.id, {
        from: span.from,
        to: span.to,
        lineNumber,
        isRead: isRead(params.int('isread')),
      });
      return [{ ...rangeSeconds(span), sumcount }];
    },
  },
};
