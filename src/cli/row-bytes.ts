// Batch rows written straight into bytes: the output of the batch loops (batch.ts) as UTF-8 in a
// buffer kept from write to write, with JSON text written by code that knows each row's shape
// (parse.ts) byte by byte, not as strings joined into a rope that is then flattened and encoded.
// A value of printable ASCII but '"' and '\' (nearly every value of nearly every row) is copied
// a character at a time by the same loop that checks it, or copied from the bytes of a value
// of the same row written before (jsonIn(), jsonCopy(): the href from the input's, its parts from
// the href's); constants are bytes made once (asciiBytes()); any other value goes through
// safeJson(JSON.stringify(s)) as jsonString() does (json-text.ts), so the bytes are equal
// (test/cli/rows.test.ts compares them over the corpora and hostile lines). On the 400,000-line
// profile of `parse --json` the strings' concatenation, the test of each value, the flattening
// and the encoding were about two fifths of the time, and the ropes of output held in the young
// generation were most of what survived its collections (bench/RESULTS.md, the batch, RSS).
import { safeJson } from './safe-text.js';

const INITIAL = 1 << 18;

/**
 * The bytes of `s`, printable ASCII made once (a row's keys and punctuation), for RowBytes.bytes().
 * Copied by the typed array's own set(), a constant costs the same 25 ns at any length on the test
 * VM, where a loop over its characters cost 4 ns each (bench/RESULTS.md, the batch, third session).
 */
export function asciiBytes(s: string): Uint8Array {
  return Buffer.from(s, 'latin1');
}

/**
 * The shortest value that json() looks for in the row's source (jsonIn()) before reading it a
 * character at a time: below it, the loop costs less than a search and a copy.
 */
const MIN_SEARCH = 12;
/**
 * The longest source jsonIn() searches: past it a value is read a character at a time, so that
 * a hostile line of a megabyte costs the loop's linear time, whatever `indexOf` does with it.
 */
const MAX_SEARCH = 1 << 12;
/**
 * The characters jsonIn() may search in one source, in multiples of its length: a row whose
 * values are not in its source (a path of decoded segments) would otherwise cost a search of the
 * whole source per value, quadratic up to MAX_SEARCH (2.9 ms for a row of 4,096 characters, 72 us
 * at 4,097). A usual row's searches take 1 to 6 times its length.
 */
const SEARCH_BUDGET = 16;

const NULL = /* @__PURE__ */ asciiBytes('null');

/** UTF-8 bytes of batch rows, written into one growing buffer (see the head of this file). */
export class RowBytes {
  /** The characters jsonIn() may still search in `searching`, the source it last searched. */
  private budget = 0;
  private searching = '';
  private searchingAt = -1;
  /** The bytes written so far are buf[0, at). */
  buf: Buffer;
  at = 0;
  /** Buffers of earlier take()s given back (spare()), for later rows. */
  #spare: ArrayBuffer[] = [];
  constructor(size = INITIAL) {
    this.buf = Buffer.allocUnsafeSlow(size);
  }

  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.buf.length, this.at + n));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }

  /** Bytes made with asciiBytes(), as they are. */
  bytes(u: Uint8Array): void {
    const n = u.length;
    if (this.at + n > this.buf.length) this.room(n);
    this.buf.set(u, this.at);
    this.at += n;
  }

  /** One byte of printable ASCII (punctuation). */
  byte(c: number): void {
    if (this.at === this.buf.length) this.room(1);
    this.buf[this.at++] = c;
  }

  /** `s`, known to be printable ASCII (keys, punctuation, numbers), as it is. */
  ascii(s: string): void {
    const n = s.length;
    if (this.at + n > this.buf.length) this.room(n);
    const b = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) b[at++] = s.charCodeAt(i);
    this.at = at;
  }

  /** Any text, as UTF-8 (a lone surrogate as U+FFFD, as a stream writes it). */
  text(s: string): void {
    const n = s.length;
    if (this.at + 3 * n > this.buf.length) this.room(3 * n);
    const b = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.at = at + b.write(i === 0 ? s : s.slice(i), at, 'utf8');
        return;
      }
      b[at++] = c;
    }
    this.at = at;
  }

  /**
   * The JSON string literal of `s` as jsonString() writes it (RFC 8259 7; safeJson). Returns where
   * the characters of `s` are in `buf`, each as its own byte (no character needed an escape), else
   * -1: the place jsonIn() copies a part of `s` from.
   */
  json(s: string): number {
    const n = s.length;
    if (this.at + n + 2 > this.buf.length) this.room(n + 2);
    const b = this.buf;
    let at = this.at;
    b[at++] = 34;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 34 || c === 92) {
        // Written again from the start, the whole string through JSON.stringify and safeJson.
        this.text(safeJson(JSON.stringify(s)));
        return -1;
      }
      b[at++] = c;
    }
    b[at++] = 34;
    this.at = at;
    return at - n - 1;
  }

  /**
   * json(s), where `src` is a string of the same row that json() wrote at `from` (its return
   * value): when `s` occurs in `src`, its characters are copied from there, the bytes of a string
   * that needed no escape; else (or at `from` -1, or for a short `s`) read as json() reads them.
   * Most of a parsed row's values are parts of its input (href, host, path, the fields that need
   * no decoding), and a search and a copy cost about half of the loop for a value of 40 characters
   * (bench/RESULTS.md, the batch rows, third session).
   * Returns as json() does.
   */
  jsonIn(s: string, src: string, from: number): number {
    const n = s.length;
    if (n >= MIN_SEARCH && from >= 0 && src.length <= MAX_SEARCH) {
      if (from !== this.searchingAt || src !== this.searching) {
        this.searching = src;
        this.searchingAt = from;
        this.budget = SEARCH_BUDGET * src.length;
      }
      if (this.budget > 0) {
        const i = src.indexOf(s);
        this.budget -= i >= 0 ? i + n : src.length;
        if (i >= 0) {
          this.jsonCopy(from, i, n);
          return this.at - n - 1;
        }
      }
    }
    return this.json(s);
  }

  /**
   * The JSON string literal of the `n` characters that json() wrote at `from` (its return value,
   * not -1) plus `start`: copied from there.
   */
  jsonCopy(from: number, start: number, n: number): void {
    if (this.at + n + 2 > this.buf.length) this.room(n + 2);
    const b = this.buf;
    let at = this.at;
    b[at++] = 34;
    b.copyWithin(at, from + start, from + start + n);
    at += n;
    b[at++] = 34;
    this.at = at;
  }

  /** json(s), or `null` for null. */
  jsonNullable(s: string | null): void {
    if (s === null) this.bytes(NULL);
    else this.json(s);
  }

  /** jsonIn(s, src, from), or `null` for null. */
  jsonNullableIn(s: string | null, src: string, from: number): void {
    if (s === null) this.bytes(NULL);
    else this.jsonIn(s, src, from);
  }

  /**
   * jsonValue(v) of json-text.ts, as bytes: plain data, as safeJson(JSON.stringify(v)) writes it.
   * Its strings through jsonIn(s, src, from) when a source is given.
   */
  value(v: unknown, src = '', from = -1): void {
    switch (typeof v) {
      case 'string':
        this.jsonIn(v, src, from);
        return;
      case 'number':
        return this.ascii(Number.isFinite(v) ? String(v) : 'null');
      case 'boolean':
        return this.ascii(v ? 'true' : 'false');
      case 'object':
        break;
      default:
        return this.text(safeJson(JSON.stringify(v) ?? 'null'));
    }
    if (v === null) return this.bytes(NULL);
    if (Array.isArray(v)) {
      this.byte(91);
      for (let i = 0; i < v.length; i++) {
        if (i > 0) this.byte(44);
        const e = v[i] as unknown;
        const t = typeof e;
        if (t === 'string') this.jsonIn(e as string, src, from);
        else if (t === 'undefined' || t === 'function' || t === 'symbol') this.bytes(NULL);
        else this.value(e, src, from);
      }
      return this.byte(93);
    }
    const p = Object.getPrototypeOf(v) as unknown;
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function' || (p !== Object.prototype && p !== null)) {
      return this.text(safeJson(JSON.stringify(v)));
    }
    this.byte(123);
    let first = true;
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const e = (v as Record<string, unknown>)[k];
      const t = typeof e;
      if (t === 'undefined' || t === 'function' || t === 'symbol') continue;
      if (!first) this.byte(44);
      this.json(k);
      this.byte(58);
      this.value(e, src, from);
      first = false;
    }
    this.byte(125);
  }

  /**
   * The bytes written since the last take(), in a buffer of their own (to be moved or written):
   * the buffer itself, its place taken by a spare one given back, else a new one.
   */
  take(): Buffer {
    const out = this.buf.subarray(0, this.at);
    this.at = 0;
    const spare = this.#spare.pop();
    this.buf = spare === undefined ? Buffer.allocUnsafeSlow(this.buf.length) : Buffer.from(spare);
    return out;
  }

  /** The bytes written so far, then empty again, the same buffer kept (the caller is done with them first). */
  flushed(): Buffer {
    const out = this.buf.subarray(0, this.at);
    this.at = 0;
    return out;
  }

  /** A buffer of an earlier take(), written out and handed back: reused for later rows. */
  spare(b: ArrayBuffer): void {
    if (this.#spare.length < 4) this.#spare.push(b);
  }
}
