// The shape count that bounds what JSON.parse may be asked to do: what it counts, what it skips,
// and the same verdict however the body is cut into chunks.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkShape, readJsonBytes, ShapeScanner, type JsonShape } from './json-body';

const roomy: JsonShape = { maxContainers: 1_000, maxValues: 1_000, maxDepth: 10 };

describe('checkShape', () => {
  it('counts containers, values and depth, not signs inside strings', () => {
    expect(checkShape('[{},{},{}]', { ...roomy, maxContainers: 4 })).toBe('ok');
    expect(checkShape('[{},{},{},{}]', { ...roomy, maxContainers: 4 })).toBe('too_many');
    expect(checkShape('[1,2,3]', { ...roomy, maxValues: 4 })).toBe('ok');
    expect(checkShape('[1,2,3,4]', { ...roomy, maxValues: 4 })).toBe('too_many');
    expect(checkShape('[[[[1]]]]', { ...roomy, maxDepth: 4 })).toBe('ok');
    expect(checkShape('[[[[[1]]]]]', { ...roomy, maxDepth: 4 })).toBe('too_deep');
    const tight = { maxContainers: 1, maxValues: 2, maxDepth: 1 };
    expect(checkShape('{"a":"[[[{{{,,,,\\"]]]"}', tight)).toBe('ok');
    // An escaped backslash does not escape the quote after it: the comma counts.
    expect(checkShape('["\\\\",1]', { ...tight, maxValues: 3 })).toBe('ok');
    expect(checkShape('["\\\\",1,2]', { ...tight, maxValues: 3 })).toBe('too_many');
  });

  it('gives the same verdict however the text is cut', () => {
    fc.assert(
      fc.property(fc.json(), fc.array(fc.nat(), { maxLength: 5 }), (json, cuts) => {
        const bytes = Buffer.from(json);
        const shape = { maxContainers: 5, maxValues: 8, maxDepth: 3 };
        const scanner = new ShapeScanner(shape);
        let verdict = 'ok';
        let from = 0;
        for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
          if (verdict === 'ok') verdict = scanner.feed(bytes.subarray(from, cut));
          from = Math.max(from, cut);
        }
        expect(verdict).toBe(checkShape(json, shape));
      }),
    );
  });
});

describe('readJsonBytes', () => {
  const read = (chunks: string[], declared: number, shape = roomy, maxBytes = 1_000) =>
    new Promise<[string | null, string | undefined]>((resolve) =>
      readJsonBytes(Readable.from(chunks.map((c) => Buffer.from(c))), declared, { maxBytes, shape }, (refusal, bytes) =>
        resolve([refusal, bytes?.toString('utf8')]),
      ),
    );

  it('answers the text of a body within its limits, multi-byte characters split across chunks intact', async () => {
    const text = '{"message":"سلام"}';
    const bytes = Buffer.from(text);
    const chunks = [bytes.subarray(0, 14).toString('latin1'), bytes.subarray(14).toString('latin1')];
    const answer = await new Promise<[string | null, string | undefined]>((resolve) =>
      readJsonBytes(
        Readable.from(chunks.map((c) => Buffer.from(c, 'latin1'))),
        bytes.length,
        { maxBytes: 100, shape: roomy },
        (refusal, got) => resolve([refusal, got?.toString('utf8')]),
      ),
    );
    expect(answer).toEqual([null, text]);
  });

  it('refuses too large (declared or received), too many, too deep, and a length that does not match', async () => {
    expect(await read(['[]'], 5_000)).toEqual(['too_large', undefined]);
    expect(await read(['[1,', '2]'], NaN, roomy, 4)).toEqual(['too_large', undefined]);
    expect(await read(['[{},', '{}]'], 7, { ...roomy, maxContainers: 2 })).toEqual(['too_many', undefined]);
    expect(await read(['[[', ']]'], 4, { ...roomy, maxDepth: 1 })).toEqual(['too_deep', undefined]);
    expect(await read(['[1]'], 4)).toEqual(['wrong_length', undefined]);
  });
});
