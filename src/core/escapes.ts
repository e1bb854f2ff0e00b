// The normal form of escapes (RFC 1738 2.2), shared by normalize() and the schemes' own
// normal-form rules (src/schemes/*: `normal`): which escapes are decoded, which keep their octet
// with upper-case hex digits, and which raw characters are encoded.

import { CHAR_CLASS, UNRESERVED, RESERVED, HEX } from './charclass.js';
import { hexValue, FLAT_EVERY, flattened } from './percent.js';

const HEX_UPPER = '0123456789ABCDEF';

/** For each US-ASCII code unit, 1 when an escape of it may be decoded: the unreserved characters. */
export const DECODE_UNRESERVED: Uint8Array = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) if ((CHAR_CLASS[c] & UNRESERVED) !== 0) t[c] = 1;
  return t;
})();

/** Unreserved and reserved: for the parts of schemes that reserve no character. */
export const DECODE_ALL_GRAPHIC_SAFE: Uint8Array = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) if ((CHAR_CLASS[c] & (UNRESERVED | RESERVED)) !== 0) t[c] = 1;
  return t;
})();

/** Unreserved but "+": the http search, where "+" separates keywords (draft 1993-07 search). */
export const DECODE_BUT_PLUS: Uint8Array = /* @__PURE__ */ (() => {
  const t = DECODE_UNRESERVED.slice();
  t[43] = 0;
  return t;
})();

/**
 * For each UTF-16 code unit: 1 when it may stand raw in a URL (unreserved or reserved, RFC 1738
 * 2.2) and is not "%": one load and one compare per character in the hot loops.
 */
export const RAW_OK: Uint8Array = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  t.set(DECODE_ALL_GRAPHIC_SAFE);
  return t;
})();

export const isHex = (c: number) => c < 128 && (CHAR_CLASS[c] & HEX) !== 0;

function pushOctet(out: string, b: number): string {
  return out + '%' + HEX_UPPER[b >> 4] + HEX_UPPER[b & 15];
}

/** Appends the UTF-8 octets of the code point at s[i] (a surrogate pair counts as one) as %XX. */
export function encodeCodePoint(out: string, s: string, i: number, end: number): [string, number] {
  let c = s.charCodeAt(i);
  let used = 1;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < end && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
    c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
    used = 2;
  } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate has no UTF-8 form
  if (c < 0x80) out = pushOctet(out, c);
  else if (c < 0x800) out = pushOctet(pushOctet(out, 0xc0 | (c >> 6)), 0x80 | (c & 63));
  else if (c < 0x10000) {
    out = pushOctet(pushOctet(pushOctet(out, 0xe0 | (c >> 12)), 0x80 | ((c >> 6) & 63)), 0x80 | (c & 63));
  } else {
    out = pushOctet(
      pushOctet(pushOctet(pushOctet(out, 0xf0 | (c >> 18)), 0x80 | ((c >> 12) & 63)), 0x80 | ((c >> 6) & 63)),
      0x80 | (c & 63),
    );
  }
  return [out, used];
}

/**
 * A sticky expression that matches, from where it starts, what normalizeEscapes() with
 * `decodable` leaves as it is (RFC 1738 2.2): characters that may stand raw (unreserved and
 * reserved, not "%") and escapes whose octet is not decoded, written with upper-case hex digits.
 */
function normalRun(decodable: Uint8Array): RegExp {
  let raw = '';
  for (let c = 0; c < 128; c++) if (RAW_OK[c] === 1) raw += '\\u' + c.toString(16).padStart(4, '0');
  let escape = '';
  for (let hi = 0; hi < 16; hi++) {
    let lo = '';
    for (let l = 0; l < 16; l++) {
      const v = hi * 16 + l;
      if (v >= 128 || decodable[v] !== 1) lo += HEX_UPPER[l];
    }
    if (lo !== '') escape += (escape === '' ? '' : '|') + HEX_UPPER[hi] + '[' + lo + ']';
  }
  return new RegExp(`[${raw}]*(?:%(?:${escape})[${raw}]*)*`, 'y');
}

// The expressions of normalRun() for the tables the normal forms use, made on first use.
const RUNS: Array<[Uint8Array, RegExp]> = [];

function normalRunOf(decodable: Uint8Array): RegExp {
  for (let i = 0; i < RUNS.length; i++) if (RUNS[i][0] === decodable) return RUNS[i][1];
  const re = normalRun(decodable);
  if (RUNS.length < 8) RUNS.push([decodable, re]);
  return re;
}

/**
 * How far s[start, end) is in normal form (RFC 1738 2.2), by one search of `re` (normalRunOf()):
 * `end` when all of it is, else where the search stopped short of `end`, or -1 when it passed
 * `end` inside an escape (a "%" of the slice at end - 1 or end - 2: the slice may then not be
 * normal, and only a walk of it can tell).
 */
function normalUpTo(re: RegExp, s: string, start: number, end: number): number {
  re.lastIndex = start;
  re.test(s);
  const k = re.lastIndex;
  if (k <= end) return k;
  return (end - 1 < start || s.charCodeAt(end - 1) !== 37) && (end - 2 < start || s.charCodeAt(end - 2) !== 37)
    ? end
    : -1;
}

/**
 * True when normalizeEscapes(s, decodable, start, end) returns s[start, end) as it is: every
 * character may stand raw and every escape is in normal form (RFC 1738 2.2). One native search;
 * false too when it passes `end` inside an escape (then the slice may not be normal).
 */
export function escapesNormal(
  s: string,
  decodable: Uint8Array = DECODE_UNRESERVED,
  start = 0,
  end = s.length,
): boolean {
  return normalUpTo(normalRunOf(decodable), s, start, end) === end;
}

/**
 * The escapes of s[start, end) in normal form (RFC 1738 2.2): an escape whose character is
 * marked in `decodable` is decoded, every other keeps its octet with upper-case hex digits; a
 * "%" that starts no escape becomes "%25"; a raw character that is neither unreserved nor
 * reserved (unsafe, control, non-ASCII) is encoded. Returns the slice itself when nothing
 * changes (one scan, no copy).
 */
export function normalizeEscapes(
  s: string,
  decodable: Uint8Array = DECODE_UNRESERVED,
  start = 0,
  end = s.length,
): string {
  // Speed: one native search finds how far the slice is in normal form already (the usual
  // case: all of it); the loop below starts where it stopped, or checks it all when the search
  // may have passed `end` inside an escape (normalUpTo() -1).
  const re = normalRunOf(decodable);
  const upTo = normalUpTo(re, s, start, end);
  if (upTo === end) return start === 0 && end === s.length ? s : s.slice(start, end);
  let skip = upTo >= 0; // false when the loop checks it all
  const from = skip ? upTo : start;
  let out = '';
  // Long outputs are built in flat parts (FLAT_EVERY, src/core/percent.ts): memory linear in the output.
  let done: string[] | null = null;
  let pieces = 0;
  let run = start;
  for (let i = from; i < end; i++) {
    const c = s.charCodeAt(i);
    if (RAW_OK[c] === 1) continue;
    if (++pieces === FLAT_EVERY) {
      (done ??= []).push(flattened(out));
      out = '';
      pieces = 0;
    }
    if (c === 37 && i + 2 < end && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
      const h = s.charCodeAt(i + 1);
      const l = s.charCodeAt(i + 2);
      const v = (hexValue(h) << 4) | hexValue(l);
      if (v < 128 && decodable[v] === 1) {
        out += s.slice(run, i) + String.fromCharCode(v);
      } else if ((h >= 97 && h <= 102) || (l >= 97 && l <= 102)) {
        out = pushOctet(out + s.slice(run, i), v);
      } else {
        i += 2;
        continue; // already in normal form
      }
      i += 2;
    } else {
      out += s.slice(run, i);
      if (c === 37) out += '%25';
      else {
        const [o, used] = encodeCodePoint(out, s, i, end);
        out = o;
        i += used - 1;
      }
    }
    run = i + 1;
    // Speed: the native search passes the next run in normal form (as at the start).
    if (skip) {
      const k = normalUpTo(re, s, run, end);
      if (k >= 0) i = k - 1;
      else skip = false;
    }
  }
  if (run === start) return start === 0 && end === s.length ? s : s.slice(start, end);
  return (done === null ? out : done.join('') + out) + s.slice(run, end);
}
