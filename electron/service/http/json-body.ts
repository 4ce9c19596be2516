// JSON bodies whose parse cannot hold the event loop for long. JSON.parse costs about 60 ms per MB
// of tiny objects (`[{},{},…]`: a 60 MB body took 20 s and 1.7 GB) against about 5 ms per MB of
// real contacts, so a size limit alone does not bound it: the number of values does. A scan counts
// containers, values and depth as the body arrives, chunk by chunk (a fraction of a ms each), and
// refuses it at the first excess, before the rest is read; only a body within its route's shape
// is parsed.
import type { Readable } from 'node:stream';

export interface JsonShape {
  /** Objects and arrays. */
  maxContainers: number;
  /** Every value: containers, strings, numbers, literals (counted by separators). */
  maxValues: number;
  maxDepth: number;
}

/** Everything but the contact upload: the bridge's calls, a send of 10,000 receivers, a campaign. */
export const DEFAULT_JSON_SHAPE: JsonShape = { maxContainers: 20_000, maxValues: 250_000, maxDepth: 64 };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The JSON shape this route accepts (DEFAULT_JSON_SHAPE when absent). */
    json?: JsonShape;
    /**
     * The route parses large bodies itself, off the main thread: a body longer than
     * OFF_THREAD_JSON_BYTES reaches its handler as an UnparsedJson instead of parsed.
     */
    jsonOffThread?: boolean;
  }
}

/** Longer JSON bodies (about 20 ms of parsing and more) go to a worker on routes that allow it. */
export const OFF_THREAD_JSON_BYTES = 256 * 1024;

/**
 * A JSON body within its route's size and shape, left for a worker thread to decode and parse: as
 * its bytes (decoding 35 MB of Persian text alone held the main thread about 150 ms), or as text
 * when the framework already decoded it (a form content type).
 */
export class UnparsedJson {
  constructor(readonly source: string | Uint8Array) {}
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const CLOSE_BRACE = 125;
const CLOSE_BRACKET = 93;

export type ShapeVerdict = 'ok' | 'too_deep' | 'too_many';

/**
 * Counts a JSON text fed in pieces (bytes or characters: every sign it looks at is ASCII, and no
 * byte of a multi-byte UTF-8 character is one). Too deep is a malformed body (400), too many
 * values one too large (414). Malformed JSON may pass: JSON.parse refuses it after.
 */
export class ShapeScanner {
  private depth = 0;
  private containers = 0;
  private values = 1;
  private inString = false;
  private escaped = false;
  constructor(private readonly shape: JsonShape) {}

  feed(chunk: Buffer | string): ShapeVerdict {
    const byte = typeof chunk === 'string' ? (i: number) => chunk.charCodeAt(i) : (i: number) => chunk[i]!;
    const { shape } = this;
    for (let i = 0; i < chunk.length; i++) {
      const c = byte(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) this.inString = true;
      else if (c === COMMA) {
        if (++this.values > shape.maxValues) return 'too_many';
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++this.depth > shape.maxDepth) return 'too_deep';
        if (++this.containers > shape.maxContainers || ++this.values > shape.maxValues) return 'too_many';
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) this.depth--;
    }
    return 'ok';
  }
}

export function checkShape(text: string, shape: JsonShape): ShapeVerdict {
  return new ShapeScanner(shape).feed(text);
}

export type BodyRefusal = 'too_large' | 'too_deep' | 'too_many' | 'wrong_length' | 'broken';

/**
 * Reads a body to be parsed as JSON: refused as soon as it passes `maxBytes` or leaves `shape`
 * (the rest is not kept), else its bytes once complete, undecoded (the route may decode them off
 * the main thread). Listens itself rather than through a stream in between, so no refusal can
 * fire before anyone hears it.
 */
export function readJsonBytes(
  payload: Readable,
  declaredLength: number,
  limits: { maxBytes: number; shape: JsonShape },
  callback: (refusal: BodyRefusal | null, bytes?: Buffer) => void,
): void {
  if (declaredLength > limits.maxBytes) return callback('too_large');
  const scanner = new ShapeScanner(limits.shape);
  const chunks: Buffer[] = [];
  let received = 0;
  const finish = (refusal: BodyRefusal | null) => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    if (refusal) return callback(refusal);
    if (!Number.isNaN(declaredLength) && received !== declaredLength) return callback('wrong_length');
    callback(null, Buffer.concat(chunks, received));
  };
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.length;
    if (received > limits.maxBytes) return finish('too_large');
    const verdict = scanner.feed(bytes);
    if (verdict !== 'ok') return finish(verdict);
    chunks.push(bytes);
  };
  const onEnd = () => finish(null);
  const onError = () => finish('broken');
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
