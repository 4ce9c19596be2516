import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './list';

describe('cursors', () => {
  it('round-trip a message position and refuse anything else', () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(encodeCursor(42)).not.toContain('42');
    for (const bad of [
      '',
      'abc',
      encodeCursor(0),
      Buffer.from('m:-1').toString('base64url'),
      Buffer.from('x:5').toString('base64url'),
    ])
      expect(decodeCursor(bad)).toBeNull();
  });
});
