// Shared helpers of the fuzz targets (issue 17). A target is `fuzz(data)`: it feeds the bytes to
// one parser and throws when an invariant breaks. An expected refusal (a LocatorError) is no
// failure; anything else thrown is. Every random choice a target makes (a chunking, a scheme)
// comes from the bytes themselves, so an input reproduces its run exactly.

import { LocatorError } from '../../src/core/errors.js';

/** An invariant that does not hold: what the fuzzers report as a crash. */
export class InvariantError extends Error {
  override name = 'InvariantError';
}

/** Throws an InvariantError saying `what` unless `cond` holds. */
export function check(cond: unknown, what: string): asserts cond {
  if (!cond) throw new InvariantError(what);
}

/**
 * Runs `fn`: its value, or the LocatorError it threw (checked: a code, a kind, an offset of -1 or
 * inside `input`). Anything else thrown is passed on: it is what the fuzzing looks for.
 */
export function refusal<T>(fn: () => T, inputLength = Infinity): T | LocatorError {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof LocatorError)) throw e;
    check(typeof e.code === 'string' && e.code.length > 0, `a LocatorError without a code: ${e.message}`);
    check(
      Number.isInteger(e.offset) && e.offset >= -1 && e.offset <= inputLength,
      `the offset ${e.offset} of ${e.code} is outside the input (${inputLength})`,
    );
    return e;
  }
}

/** A deterministic generator of numbers in [0, 1) seeded by the bytes (FNV-1a, then xorshift32). */
export function randomOf(data: Uint8Array): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], 0x01000193);
  let x = h >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

/** Cut points of a sequence of `length` elements: sorted, inside (0, length), some repeated (empty chunks). */
export function cuts(length: number, random: () => number): number[] {
  const n = Math.floor(random() * Math.min(12, length + 1));
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(Math.floor(random() * (length + 1)));
  return out.sort((a, b) => a - b);
}

/** `data` in chunks at the given cut points (one chunk of all when there are none). */
export function chunksOf(data: Uint8Array, at: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of at) {
    out.push(data.slice(from, c));
    from = c;
  }
  out.push(data.slice(from));
  return out;
}

/** The same for text. */
export function textChunksOf(text: string, at: number[]): string[] {
  const out: string[] = [];
  let from = 0;
  for (const c of at) {
    out.push(text.slice(from, c));
    from = c;
  }
  out.push(text.slice(from));
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * The bytes as text: UTF-8 (invalid octets as U+FFFD) or, when the first byte is 0xFF, the rest
 * as UTF-16LE code units, so that lone surrogates and any code unit can be reached.
 */
export function textOf(data: Uint8Array): string {
  if (data.length > 0 && data[0] === 0xff) {
    let s = '';
    for (let i = 1; i + 1 < data.length; i += 2) s += String.fromCharCode(data[i] | (data[i + 1] << 8));
    return s;
  }
  return utf8.decode(data);
}

/** Concatenates byte arrays. */
export function concatAll(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A JSON-like rendering for comparing results (byte arrays as arrays, Maps as entries). */
export function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x instanceof Uint8Array
      ? { bytes: Buffer.from(x.buffer, x.byteOffset, x.length).toString('hex') }
      : x instanceof Map
        ? { map: [...x] }
        : isBufferJson(x)
          ? { bytes: Buffer.from(x.data).toString('hex') }
          : x,
  );
}

/** What JSON.stringify makes of a Node Buffer (its toJSON runs before the replacer). */
function isBufferJson(x: unknown): x is { type: 'Buffer'; data: number[] } {
  return (
    typeof x === 'object' &&
    x !== null &&
    (x as { type?: unknown }).type === 'Buffer' &&
    Array.isArray((x as { data?: unknown }).data)
  );
}

/** The lines of `data` split at `sep` (a byte), for targets that take several inputs. */
export function splitBytes(data: Uint8Array, sep: number, max: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (let i = 0; i < data.length && out.length < max - 1; i++) {
    if (data[i] === sep) {
      out.push(data.subarray(from, i));
      from = i + 1;
    }
  }
  out.push(data.subarray(from));
  return out;
}
