// Batch rows written straight into bytes: the output of the batch loops (batch.ts) as UTF-8 in a
// buffer kept from write to write, with JSON text written by code that knows each row's shape
// (parse.ts) byte by byte, not as strings joined into a rope that is then flattened and encoded.
// A value of printable ASCII but '"' and '\' (nearly every value of nearly every row) is copied
// a character at a time by the same loop that checks it; any other goes through
// safeJson(JSON.stringify(s)) as jsonString() does (json-text.ts), so the bytes are equal
// (test/cli/rows.test.ts compares them over the corpora and hostile lines). On the 400,000-line
// profile of `parse --json` the strings' concatenation, the test of each value, the flattening
// and the encoding were about two fifths of the time, and the ropes of output held in the young
// generation were most of what survived its collections (bench/RESULTS.md, the batch, RSS).
import { safeJson } from './safe-text.js';

const INITIAL = 1 << 18;

/** UTF-8 bytes of batch rows, written into one growing buffer (see the head of this file). */
export class RowBytes {
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

  /** The JSON string literal of `s` as jsonString() writes it (RFC 8259 7; safeJson). */
  json(s: string): void {
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
        return;
      }
      b[at++] = c;
    }
    b[at++] = 34;
    this.at = at;
  }

  /** json(s), or `null` for null. */
  jsonNullable(s: string | null): void {
    if (s === null) this.ascii('null');
    else this.json(s);
  }

  /** jsonValue(v) of json-text.ts, as bytes: plain data, as safeJson(JSON.stringify(v)) writes it. */
  value(v: unknown): void {
    switch (typeof v) {
      case 'string':
        return this.json(v);
      case 'number':
        return this.ascii(Number.isFinite(v) ? String(v) : 'null');
      case 'boolean':
        return this.ascii(v ? 'true' : 'false');
      case 'object':
        break;
      default:
        return this.text(safeJson(JSON.stringify(v) ?? 'null'));
    }
    if (v === null) return this.ascii('null');
    if (Array.isArray(v)) {
      this.ascii('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) this.ascii(',');
        const e = v[i] as unknown;
        const t = typeof e;
        if (t === 'undefined' || t === 'function' || t === 'symbol') this.ascii('null');
        else this.value(e);
      }
      return this.ascii(']');
    }
    const p = Object.getPrototypeOf(v) as unknown;
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function' || (p !== Object.prototype && p !== null)) {
      return this.text(safeJson(JSON.stringify(v)));
    }
    this.ascii('{');
    let first = true;
    for (const k of Object.keys(v)) {
      const e = (v as Record<string, unknown>)[k];
      const t = typeof e;
      if (t === 'undefined' || t === 'function' || t === 'symbol') continue;
      if (!first) this.ascii(',');
      this.json(k);
      this.ascii(':');
      this.value(e);
      first = false;
    }
    this.ascii('}');
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
