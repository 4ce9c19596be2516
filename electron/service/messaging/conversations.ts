// A number's thread: the messages we sent it (any origin: the panel, a campaign, the API; each
// with its status) and the replies it sent us, in time order, newest first and paged. Bounded
// whatever the number's history: each side is read a page at a time on its own index (our
// messages through the receiver index, messaging/receivers.ts, on the message queries; the
// replies through inbound_sender, migration 0036), and the two pages are merged.
//
// Public API (core.conversations):
//   thread(accountId, phone, {before?, limit?}) -> Promise<ThreadPage>
import { normalizePhone } from '../../../shared/phone';
import type { ThreadCursor, ThreadEntry, ThreadPage } from '../../../shared/ipc/contracts/inbox';
import type { Inbox } from './inbox';
import type { MessageQueries } from './queries';

/** Entries a page holds when the caller names no limit. */
export const THREAD_PAGE = 50;
const MAX_PAGE = 200;

export class Conversations {
  constructor(
    private readonly inbox: Inbox,
    private readonly queries: MessageQueries,
  ) {}

  /**
   * The page of `phone`'s thread after `before` (the previous page's `next`), newest first. Each
   * side gives limit + 1 of its own rows below its cursor; the merge takes the newest `limit`, and
   * the next cursor says where each side stopped, so no entry is skipped or repeated between pages.
   */
  async thread(
    accountId: number,
    phone: string,
    { before, limit = THREAD_PAGE }: { before?: ThreadCursor | undefined; limit?: number | undefined } = {},
  ): Promise<ThreadPage> {
    const number = normalizePhone(phone) ?? phone.trim();
    const take = Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE);
    const sentBefore = before === undefined ? Number.MAX_SAFE_INTEGER : before.sent_before;
    const receivedBefore = before === undefined ? Number.MAX_SAFE_INTEGER : before.received_before;
    const [sent, received] = await Promise.all([
      sentBefore === null
        ? Promise.resolve([])
        : this.queries
            .list({
              account_id: accountId,
              receptor: number,
              limit: take + 1,
              ...(sentBefore === Number.MAX_SAFE_INTEGER ? {} : { cursor: sentBefore }),
            })
            .then(({ rows }) =>
              // The receiver filter matches a part of a number too: the thread is this number's alone.
              rows
                .filter((row) => row.receptor === number)
                .map((row): ThreadEntry => ({
                  kind: 'sent',
                  id: row.id,
                  line_number: row.sender,
                  text: row.text,
                  status: row.status,
                  status_text: row.status_text,
                  origin: row.origin,
                  pages: row.pages,
                  cost_rials: row.cost_rials,
                  at: row.created_at,
                })),
            ),
      Promise.resolve(
        receivedBefore === null
          ? []
          : this.inbox.fromSender(accountId, number, receivedBefore, take + 1).map((reply): ThreadEntry => ({
              kind: 'received',
              id: reply.id,
              line_number: reply.line_number,
              text: reply.text,
              read: reply.read_at !== null,
              opt_out: reply.opt_out,
              at: reply.received_at,
            })),
      ),
    ]);
    // Newest first; at the same millisecond a reply comes after the message it answers.
    const merged = [...sent, ...received].sort(
      (a, b) => b.at - a.at || (a.kind === b.kind ? b.id - a.id : a.kind === 'received' ? -1 : 1),
    );
    const entries = merged.slice(0, take);
    const more = merged.length > take;
    if (!more) return { phone: number, entries, next: null };
    const lastOf = (kind: ThreadEntry['kind'], from: number | null, all: ThreadEntry[]) => {
      const taken = entries.filter((entry) => entry.kind === kind);
      // This side had rows past the page: continue below the last one taken, else from where it was.
      if (taken.length > 0) return taken[taken.length - 1]!.id;
      return all.length === 0 ? null : from;
    };
    return {
      phone: number,
      entries,
      next: {
        sent_before: lastOf('sent', sentBefore, sent),
        received_before: lastOf('received', receivedBefore, received),
      },
    };
  }
}
