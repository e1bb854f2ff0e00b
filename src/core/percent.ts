// The "%" codec of RFC 1738 section 2.2, at the octet level.
//
// "Octets may be encoded by a character triplet consisting of the character "%" followed by the
// two hexadecimal digits ... (The characters "abcdef" may also be used in hexadecimal
// encodings.)" Decoding yields octets; turning octets into text is a separate step whose charset
// the caller chooses, because RFC 1738 says nothing of the charset behind the octets.

import { CHAR_CLASS, UNRESERVED, RESERVED } from './charclass.js';
import { LocatorError, INVALID_ESCAPE } from './errors.js';

/**
 * Memory (bench/RESULTS-hostile.md): a text built by `out += piece` once per escape is a
 * rope of one cons string per piece until something reads it, about 60 bytes per piece: a line of
 * megabytes of escapes took over 100 times its size to encode or normalize. The builders call
 * this every FLAT_EVERY pieces: reading a character of a rope makes the engine flatten it (V8,
 * SpiderMonkey and JavaScriptCore all do), so the pieces are copied once into a flat string and
 * the rope's cells are freed. The builder then starts a new rope and joins the flat parts at the
 * end: linear time, memory about the size of the output (measured: 4 M pieces, heap 228 -> 18 MB,
 * 4.4 -> 1.0 s).
 */
export const FLAT_EVERY = 2048;
/** `rope`, read once so that the engine flattens it (see FLAT_EVERY). */
export function flattened(rope: string): string {
  rope.charCodeAt(0);
  return rope;
}

/** How a value is named in a TypeError: its type, and its text when short. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `${typeof v} ${String(v)}`;
  if (typeof v === 'object')
    return Array.isArray(v) ? 'an array' : `an object (${Object.prototype.toString.call(v).slice(8, -1)})`;
  return typeof v;
}

/**
 * API misuse is a TypeError, not a finding about a URL: throws one that names the argument when
 * `value` is not a string (RFC 1738 2.1: a URL is a string of characters).
 */
export function expectString(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, not ${describeValue(value)}`);
}

/** Value of a hex digit code unit, or -1. */
export function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

const HEX_UPPER = '0123456789ABCDEF';

/**
 * A set of characters that may stand unencoded; every other octet is written as `%XX`.
 * Built by composing character classes of RFC 1738 section 5 with single characters
 * (the way rust-url composes its encode sets).
 */
export class EncodeSet {
  /** 1 where the US-ASCII code unit may stand unencoded. */
  readonly allowed: Uint8Array;

  constructor(allowed: Uint8Array) {
    this.allowed = allowed;
  }

  /** Characters whose class bits intersect `classMask`, plus `also`, minus `except`. */
  static of(classMask: number, also = '', except = ''): EncodeSet {
    const allowed = new Uint8Array(128);
    for (let c = 0; c < 128; c++) if (CHAR_CLASS[c] & classMask) allowed[c] = 1;
    for (let i = 0; i < also.length; i++) allowed[also.charCodeAt(i)] = 1;
    for (let i = 0; i < except.length; i++) allowed[except.charCodeAt(i)] = 0;
    return new EncodeSet(allowed);
  }

  /** This set plus `chars`. */
  with(chars: string): EncodeSet {
    const allowed = this.allowed.slice();
    for (let i = 0; i < chars.length; i++) allowed[chars.charCodeAt(i)] = 1;
    return new EncodeSet(allowed);
  }

  /** This set minus `chars`. */
  without(chars: string): EncodeSet {
    const allowed = this.allowed.slice();
    for (let i = 0; i < chars.length; i++) allowed[chars.charCodeAt(i)] = 0;
    return new EncodeSet(allowed);
  }

  has(c: number): boolean {
    return c < 128 && this.allowed[c] === 1;
  }
}

/** uchar without escape: only unreserved characters stand unencoded (RFC 1738 5). */
export const UCHAR_SET = EncodeSet.of(UNRESERVED);
/** xchar without escape: unreserved and reserved characters stand unencoded (RFC 1738 5). */
export const XCHAR_SET = EncodeSet.of(UNRESERVED | RESERVED);
/** user and password: uchar | ";" | "?" | "&" | "=" (RFC 1738 5). */
export const USER_SET = UCHAR_SET.with(';?&=');
/** fsegment and psegment: uchar | "?" | ":" | "@" | "&" | "=" (RFC 1738 5). */
export const SEGMENT_SET = UCHAR_SET.with('?:@&=');
/** hsegment and search: uchar | ";" | ":" | "@" | "&" | "=" (RFC 1738 5). */
export const HSEGMENT_SET = UCHAR_SET.with(';:@&=');

export interface DecodeOptions {
  /** Throw `invalid-escape` on a "%" not followed by two hex digits (default); else keep it. */
  strict?: boolean;
}

function utf8Length(s: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * Decodes `%XX` escapes to octets (RFC 1738 2.2). Characters that are not escapes stand for
 * their own octets: US-ASCII as one octet, anything else (which a valid URL never holds) as its
 * UTF-8 octets. A "%" that does not start an escape throws `invalid-escape` with its offset,
 * unless `strict: false`, which keeps it as the octet 25.
 */
export function decode(s: string, options?: DecodeOptions, start = 0, end = s.length): Uint8Array {
  expectString(s, 'decode: the text');
  const strict = options?.strict ?? true;
  const out = new Uint8Array(utf8Length(s, start, end));
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      const h = i + 2 < end ? hexValue(s.charCodeAt(i + 1)) : -1;
      const l = h >= 0 ? hexValue(s.charCodeAt(i + 2)) : -1;
      if (l >= 0) {
        out[n++] = (h << 4) | l;
        i += 2;
        continue;
      }
      if (strict) throw new LocatorError(INVALID_ESCAPE, i, undefined, { input: s });
      out[n++] = 37;
    } else if (c < 0x80) {
      out[n++] = c;
    } else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[n++] = 0xf0 | (cp >> 18);
      out[n++] = 0x80 | ((cp >> 12) & 63);
      out[n++] = 0x80 | ((cp >> 6) & 63);
      out[n++] = 0x80 | (cp & 63);
    } else {
      const u = c >= 0xd800 && c <= 0xdfff ? 0xfffd : c; // a lone surrogate has no UTF-8 form
      out[n++] = 0xe0 | (u >> 12);
      out[n++] = 0x80 | ((u >> 6) & 63);
      out[n++] = 0x80 | (u & 63);
    }
  }
  return n === out.length ? out : out.subarray(0, n);
}

export type Charset = 'utf-8' | 'latin1';

export interface DecodeTextOptions extends DecodeOptions {
  /**
   * How octets become characters: `utf-8` (default; an octet sequence that is not UTF-8 becomes
   * U+FFFD) or `latin1` (each octet is the character of that code, ISO 8859-1).
   */
  charset?: Charset;
}

let utf8Decoder: TextDecoder | undefined;

/** Octets to text in the given charset. */
export function octetsToText(bytes: Uint8Array, charset: Charset = 'utf-8'): string {
  if (charset === 'latin1') {
    let s = '';
    for (let i = 0; i < bytes.length; i += 4096) {
      s += String.fromCharCode.apply(null, bytes.subarray(i, i + 4096) as unknown as number[]);
    }
    return s;
  }
  utf8Decoder ??= new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  return utf8Decoder.decode(bytes);
}

/**
 * Decodes escapes and reads the octets as text (RFC 1738 2.2). With no "%" in the range, the
 * text is returned as it stands, with no copy of octets.
 */
export function decodeText(s: string, options?: DecodeTextOptions, start = 0, end = s.length): string {
  expectString(s, 'decodeText: the text');
  // The search for "%" stops at `end`: a search to the end of `s` would make decoding every
  // segment of a long path quadratic in its length.
  let i = start;
  while (i < end && s.charCodeAt(i) !== 37) i++;
  if (i === end) return start === 0 && end === s.length ? s : s.slice(start, end);
  if (options?.strict === false && options.charset !== 'latin1') return decodeLenient(s, start, end);
  return octetsToText(decode(s, options, start, end), options?.charset ?? 'utf-8');
}

/**
 * decodeText(s, { strict: false }, start, end): escapes decoded, the octets read as UTF-8, a "%"
 * that starts no escape kept (RFC 1738 2.2). What the records' getters and the schemes' fields
 * call for every component and segment.
 * Speed: when the range and its escapes are all US-ASCII (most escapes in the
 * corpora are %20, %7E, %2F...), UTF-8 decoding is the identity on each octet, so the text is
 * built from slices and one character per escape, with no octet array and no call into the
 * platform's TextDecoder. Anything
 * else (a non-ASCII character, an escape of an octet over 7F) goes the octet way.
 */
export function decodeLenient(s: string, start: number, end: number): string {
  let out = '';
  let run = start;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c !== 37) {
      if (c >= 0x80) return octetsToText(decode(s, LENIENT, start, end), 'utf-8');
      continue;
    }
    if (i + 2 >= end) continue; // kept: "%" starts no escape
    const h = hexValue(s.charCodeAt(i + 1));
    const l = h >= 0 ? hexValue(s.charCodeAt(i + 2)) : -1;
    if (l < 0) continue;
    const b = (h << 4) | l;
    if (b >= 0x80) return octetsToText(decode(s, LENIENT, start, end), 'utf-8');
    out += s.slice(run, i) + String.fromCharCode(b);
    i += 2;
    run = i + 1;
  }
  return run === start ? s.slice(start, end) : out + s.slice(run, end);
}

const LENIENT: DecodeOptions = { strict: false };

/**
 * s[start, end) decoded like decodeLenient(); with no "%" in it, the slice itself (RFC 1738 2.2).
 * The one call of the record's getters and the schemes' fields (no options object per call).
 */
export function decodeSlice(s: string, start: number, end: number): string {
  const pc = s.indexOf('%', start);
  return pc >= 0 && pc < end ? decodeLenient(s, start, end) : s.slice(start, end);
}

let utf8Encoder: TextEncoder | undefined;

/** Text to octets: UTF-8 by default, or ISO 8859-1 (a character over U+00FF throws). */
export function textToOctets(text: string, charset: Charset = 'utf-8'): Uint8Array {
  if (charset === 'latin1') {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0xff)
        throw new RangeError(
          `character U+${c.toString(16).toUpperCase().padStart(4, '0')} at ${i} is not in ISO 8859-1`,
        );
      out[i] = c;
    }
    return out;
  }
  utf8Encoder ??= new TextEncoder();
  return utf8Encoder.encode(text);
}

export interface EncodeOptions {
  /** Charset for text input (default utf-8). */
  charset?: Charset;
}

/**
 * Encodes octets for use in a URL (RFC 1738 2.2): each octet whose character is in `set` stands
 * as itself, every other octet becomes `%XX` with upper-case hex digits. Text is first turned
 * into octets (UTF-8 unless `charset` says otherwise). The default set is uchar (only
 * unreserved characters unencoded), which is safe in every component of every scheme.
 */
export function encode(input: string | Uint8Array, set: EncodeSet = UCHAR_SET, options?: EncodeOptions): string {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) {
    throw new TypeError(`encode: the input must be a string or a Uint8Array, not ${describeValue(input)}`);
  }
  const allowed = set.allowed;
  if (typeof input === 'string') {
    let plain = true;
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      if (c >= 128 || allowed[c] !== 1) {
        plain = false;
        break;
      }
    }
    if (plain) return input;
    input = textToOctets(input, options?.charset);
  }
  let out = '';
  let done: string[] | null = null;
  let pieces = 0;
  let runStart = 0;
  for (let i = 0; i < input.length; i++) {
    const b = input[i];
    if (b < 128 && allowed[b] === 1) continue;
    if (i > runStart) out += octetsToText(input.subarray(runStart, i), 'latin1');
    out += '%' + HEX_UPPER[b >> 4] + HEX_UPPER[b & 15];
    runStart = i + 1;
    if (++pieces === FLAT_EVERY) {
      (done ??= []).push(flattened(out));
      out = '';
      pieces = 0;
    }
  }
  if (runStart < input.length) out += octetsToText(input.subarray(runStart), 'latin1');
  return done === null ? out : done.join('') + out;
}
