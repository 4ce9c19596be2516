// Calls of messages given one by one (API v1's sms/send and sms/sendarray, v2's send-p2p): each
// item names its sender line, receptor and text. They are sent as acceptances of the one path
// (Accept.acceptItems), and this module holds the rule of how the items become those acceptances:
// items that share a sender go out as one, and since an acceptance takes a receptor named twice
// for a duplicate (15), a repeat that is a message of its own starts a further acceptance of that
// sender. Which repeats are messages of their own is the call's Repeats.
import { normalizeReceiver } from '../../../shared/phone';

/** One message of a call. */
export interface SendItem {
  /** The sender line's number. */
  sender: string;
  /** As submitted. */
  receptor: string;
  text: string;
  /** The caller's own id of the message (version 1's localid); undefined: none. */
  localId?: string | undefined;
}

/**
 * What a receptor named again under the same sender in one call is:
 *   'duplicate'  not sent (15): one text to a list (sms/send), as spec 4.1's receivers.
 *   'send'       sent again, whatever it repeats: sendarray's triples are each a message.
 *   'new-text'   sent when its text differs from every earlier one of the call to that receptor,
 *                else not sent (15): send-p2p, whose messages are each their own, but where the
 *                same text to the same number twice in one call is the mistake spec 4.1's
 *                duplicate rule guards against. Texts are compared as submitted.
 */
export type Repeats = 'duplicate' | 'send' | 'new-text';

/**
 * The acceptances the items `indexes` go out as (indexes into `items`, in order): grouped by
 * sender in order of first appearance, a repeat that `repeats` sends starting a further group of
 * its sender. A repeat that is a duplicate goes where its receptor was first, for the acceptance
 * to report it (15); an invalid receptor is never sent, so it is reported in its sender's first.
 */
export function groupsOf(items: readonly SendItem[], indexes: readonly number[], repeats: Repeats): number[][] {
  const groups: number[][] = [];
  // Per sender: its groups (indexes into `groups`), in order of creation.
  const bySender = new Map<string, number[]>();
  // Per receptor and sender: how many of the sender's groups hold it. Those are always its first
  // ones (a repeat goes to the first that does not), so the count is the next one's position.
  const holding = new Map<string, number>();
  // 'new-text': per receptor and sender, the position of the group each text went to first.
  const firstByText = new Map<string, Map<string, number>>();
  for (const i of indexes) {
    const { sender, receptor, text } = items[i]!;
    let own = bySender.get(sender);
    if (!own) bySender.set(sender, (own = []));
    const normalized = normalizeReceiver(receptor);
    let position = 0;
    if (normalized !== null && repeats !== 'duplicate') {
      // A valid receptor is 11 digits, so the pair cannot be read two ways.
      const key = normalized + sender;
      let texts = firstByText.get(key);
      const earlier = texts?.get(text);
      if (earlier !== undefined) position = earlier;
      else {
        position = holding.get(key) ?? 0;
        holding.set(key, position + 1);
        if (repeats === 'new-text') {
          if (!texts) firstByText.set(key, (texts = new Map()));
          texts.set(text, position);
        }
      }
    }
    if (position === own.length) {
      own.push(groups.length);
      groups.push([]);
    }
    groups[own[position]!]!.push(i);
  }
  return groups;
}
