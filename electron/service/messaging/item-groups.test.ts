// How a call of messages given one by one becomes acceptances (item-groups.ts): by sender in order
// of first appearance; a repeated receptor under each Repeats rule (a duplicate in sms/send, sent
// again in sendarray, sent again with another text only in send-p2p); invalid receptors reported
// in their sender's first group; and a long run of repeats grouped in linear time.
import { describe, expect, it } from 'vitest';
import { groupsOf, type Repeats, type SendItem } from './item-groups';

const A = '30001111';
const B = '30002222';
const item = (receptor: string, text = 'hi', sender = A): SendItem => ({ sender, receptor, text });
const all = (items: readonly SendItem[]) => items.map((_, i) => i);
const groups = (items: readonly SendItem[], repeats: Repeats) => groupsOf(items, all(items), repeats);

describe('groupsOf', () => {
  it('keeps one sender’s items together and makes a group per sender, in order of first appearance', () => {
    const items = [item('09120000001'), item('09120000002', 'x', B), item('09120000003'), item('09120000004', 'y', B)];
    for (const repeats of ['duplicate', 'send', 'new-text'] as const)
      expect(groups(items, repeats), repeats).toEqual([
        [0, 2],
        [1, 3],
      ]);
  });

  it('duplicate: a receptor named again, in any accepted form, stays in the group that reports it (15)', () => {
    const items = [item('09120000001', 'a'), item('+989120000001', 'b'), item('9120000001', 'a')];
    expect(groups(items, 'duplicate')).toEqual([[0, 1, 2]]);
  });

  it('send: every repeat starts a further group of its sender, whatever its text', () => {
    const items = [item('09120000001', 'a'), item('09120000001', 'a'), item('09120000002'), item('989120000001', 'b')];
    expect(groups(items, 'send')).toEqual([[0, 2], [1], [3]]);
  });

  it('new-text: another text to the receptor is sent in a further group, the same text joins its first (15)', () => {
    const items = [
      item('09120000001', 'a'),
      item('09120000001', 'b'),
      item('+989120000001', 'a'),
      item('09120000001', 'c'),
      item('09120000001', 'b'),
      item('09120000002', 'a'),
    ];
    // "a" twice: the second beside the first, where the acceptance takes it for a duplicate.
    expect(groups(items, 'new-text')).toEqual([[0, 2, 5], [1, 4], [3]]);
  });

  it('new-text: texts are per sender, so the same pair from another line is a message of its own', () => {
    const items = [item('09120000001', 'a'), item('09120000001', 'a', B)];
    expect(groups(items, 'new-text')).toEqual([[0], [1]]);
  });

  it('puts invalid receptors in their sender’s first group, repeated or not, and skips items not asked for', () => {
    const items = [item('09120000001'), item('0912'), item('09120000001', 'b'), item('0912', 'b'), item('abc')];
    expect(groups(items, 'send')).toEqual([[0, 1, 3, 4], [2]]);
    expect(groupsOf(items, [1, 2, 4], 'new-text')).toEqual([[1, 2, 4]]);
  });

  it('groups 10,000 texts to one receptor in linear time, one group each', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => item('09120000001', `text ${i}`));
    const started = performance.now();
    const made = groups(items, 'new-text');
    expect(performance.now() - started).toBeLessThan(500);
    expect(made).toHaveLength(10_000);
    expect(made.every((group, n) => group.length === 1 && group[0] === n)).toBe(true);
  });
});
