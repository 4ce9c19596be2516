// fast-check arbitraries from the IPC contracts' zod 4 schemas, for the bridge fuzz: values walked
// from each schema's definition (`_zod.def`, its checks' bounds and patterns), leaning on the edges
// where defects hide (0, negatives, the largest safe integer and beyond, empty, long and unicode
// strings, paths, newlines), with ids mostly small so calls reach the seeded accounts and lines.
// Valid-by-schema is a lean, not a promise: the fuzz classifies each value with the schema itself.
import fc from 'fast-check';
import type { z } from 'zod';

type Def = Record<string, any> & { type: string };
type Arb = fc.Arbitrary<unknown>;
/**
 * Values that reach further for fields of a given name (a seeded line as `sender`, an uploaded
 * file as `file`, ...): offered beside what the field's schema gives, never instead of it.
 */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

interface Bounds {
  min?: number;
  max?: number;
  int: boolean;
  pattern?: RegExp;
  format?: string;
}

function boundsOf(def: Def): Bounds {
  const bounds: Bounds = { int: false };
  for (const check of (def['checks'] ?? []) as Array<{ _zod: { def: Record<string, any> } }>) {
    const c = check._zod.def;
    switch (c['check']) {
      case 'number_format':
        bounds.int = true;
        break;
      case 'greater_than':
        bounds.min = c['inclusive'] ? c['value'] : c['value'] + (bounds.int ? 1 : Number.EPSILON);
        break;
      case 'less_than':
        bounds.max = c['inclusive'] ? c['value'] : c['value'] - 1;
        break;
      case 'min_length':
        bounds.min = c['minimum'];
        break;
      case 'max_length':
        bounds.max = c['maximum'];
        break;
      case 'length_equals':
        bounds.min = bounds.max = c['length'];
        break;
      case 'string_format':
        bounds.format = c['format'];
        if (c['pattern'] instanceof RegExp) bounds.pattern = c['pattern'];
        break;
    }
  }
  return bounds;
}

const BEYOND_SAFE = [
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER,
  2 ** 63,
  1e21,
  1e300,
  Number.MAX_VALUE,
];
const EDGE_NUMBERS = [0, 1, 2, 3, -1, 1000, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 8.64e15, ...BEYOND_SAFE];

function numberArb(def: Def): Arb {
  const { min, max, int } = boundsOf(def);
  const lo = min ?? (int ? -Number.MAX_SAFE_INTEGER : -Number.MAX_VALUE);
  const hi = max ?? (int ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE);
  const edges = [...EDGE_NUMBERS, lo, hi, lo + 1, hi - 1].filter(
    (n) => n >= lo && n <= hi && (!int || Number.isSafeInteger(n)),
  );
  const inRange = int
    ? fc.integer({ min: Math.max(lo, -Number.MAX_SAFE_INTEGER), max: Math.min(hi, Number.MAX_SAFE_INTEGER) })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  const small = int ? fc.integer({ min: Math.max(lo, 1), max: Math.max(Math.min(hi, 6), Math.max(lo, 1)) }) : inRange;
  return fc.oneof(
    { weight: 4, arbitrary: small },
    { weight: 3, arbitrary: edges.length > 0 ? fc.constantFrom(...edges) : inRange },
    { weight: 2, arbitrary: inRange },
  );
}

const SAMPLE_STRINGS = [
  '',
  ' ',
  '0',
  'acme',
  '09121234567',
  '989121234567',
  '+989121234567',
  '30001111',
  'bale_acme_bot',
  'سلام دنیا',
  '۰۹۱۲۱۲۳۴۵۶۷',
  'line\nnext line',
  'ssh-ed25519 AAAA attacker\n',
  '../../../tmp/x',
  '/tmp/chapar-fuzz.db',
  'C:\\Windows\\x',
  '\u0000',
  '\ud800 lone surrogate',
  '__proto__',
  'constructor',
  '\u202ertl',
  '😀👍🏽',
  '%s%n{{name}}',
  '<script>alert(1)</script>',
  "'; DROP TABLE messages; --",
  '2026-01-01',
  'https://example.com/x',
];

function fit(value: string, min = 0, max = Infinity): string {
  const padded = value.length >= min ? value : value + 'x'.repeat(min - value.length);
  return padded.length > max ? padded.slice(0, max) : padded;
}

function stringArb(def: Def): Arb {
  const { min, max, pattern } = boundsOf(def);
  if (pattern) return fc.stringMatching(pattern).map((s) => fit(s, 0, max));
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.constantFrom(...SAMPLE_STRINGS) },
      { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
      { weight: 1, arbitrary: fc.integer({ min: 1000, max: 70_000 }).map((n) => 'ب'.repeat(n)) },
    )
    .map((s) => fit(s, min, max));
}

function arrayArb(def: Def, depth: number, hints: Hints): Arb {
  const { min = 0, max } = boundsOf(def);
  const element = arbitraryOf(def['element'], depth + 1, hints);
  const cap = Math.min(max ?? 8, Math.max(min, 8));
  return fc.oneof(
    { weight: 5, arbitrary: fc.array(element, { minLength: min, maxLength: cap }) },
    {
      weight: 1,
      arbitrary: fc.array(element, { minLength: Math.min(max ?? 300, 300), maxLength: Math.min(max ?? 300, 300) }),
    },
  );
}

function objectArb(def: Def, depth: number, hints: Hints): Arb {
  const shape = def['shape'] as Record<string, unknown>;
  const entries = Object.entries(shape).map(([key, schema]) => {
    const own = arbitraryOf(schema, depth + 1, hints);
    const hint = hints[key];
    return [key, hint ? fc.oneof({ weight: 2, arbitrary: hint }, { weight: 1, arbitrary: own }) : own] as const;
  });
  return fc.record(Object.fromEntries(entries), {
    requiredKeys: Object.keys(shape).filter((key) => !isOptional(shape[key])),
  });
}

function isOptional(schema: unknown): boolean {
  const def = defOf(schema);
  return def.type === 'optional' || def.type === 'default' || def.type === 'prefault';
}

/** A value meant to pass `schema` (mostly does; refinements aside). */
export function arbitraryOf(schema: unknown, depth = 0, hints: Hints = {}): Arb {
  const of = (inner: unknown, deeper = 1) => arbitraryOf(inner, depth + deeper, hints);
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return stringArb(def);
    case 'number':
      return numberArb(def);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'literal':
      return fc.constantFrom(...(def['values'] as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def['entries'] as Record<string, unknown>));
    case 'object':
      return objectArb(def, depth, hints);
    case 'array':
      return arrayArb(def, depth, hints);
    case 'record':
      return fc.dictionary(of(def['keyType']) as fc.Arbitrary<string>, of(def['valueType']), { maxKeys: 5 });
    case 'union':
      return fc.oneof(...(def['options'] as unknown[]).map((option) => of(option)));
    case 'optional':
      return fc.option(of(def['innerType']), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(of(def['innerType']), { nil: null, freq: 6 });
    case 'default':
    case 'prefault':
      return fc.option(of(def['innerType']), { nil: undefined, freq: 4 });
    case 'pipe':
      return of(def['in'], 0);
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return of(def['innerType'], 0);
    case 'lazy':
      return depth > 4 ? fc.constant(null) : of(def['getter']());
    default:
      // transform, any, unknown and the like: whatever JSON can carry.
      return junkArb;
  }
}

/** Anything JSON can carry, kept small. */
export const junkArb: Arb = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, 1e300, '', 'x', [], {}),
  fc.string({ maxLength: 10 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), {
    maxKeys: 3,
  }),
);

/** A value with something wrong: a field of the wrong type, a field dropped, or junk outright. */
export function invalidArbitraryOf(schema: z.ZodType, hints: Hints = {}): Arb {
  const valid = arbitraryOf(schema, 0, hints);
  const mutated = fc
    .tuple(valid, fc.nat(), junkArb, fc.constantFrom('wrong', 'drop', 'extra'))
    .map(([value, index, junk, how]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return junk;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(copy);
      if (how === 'extra' || keys.length === 0) copy['__proto_junk__'] = junk;
      else if (how === 'drop') delete copy[keys[index % keys.length]!];
      else copy[keys[index % keys.length]!] = junk;
      return copy;
    });
  return fc.oneof(mutated, junkArb);
}
