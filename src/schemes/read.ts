// Reading the fields of a parsed record (decoded text of a range) and of a build() input (typed
// fields, refused with an `invalid-field` LocatorError).

import type { Url } from '../core/url.js';
import { decodeLenient, decodeSlice } from '../core/percent.js';
import { LocatorError } from '../core/errors.js';
import { INVALID_FIELD } from './codes.js';
import type { Range } from './ranges.js';

/**
 * The empty list of a record's fields (no segments, no keywords), one frozen array shared by
 * all records: nothing to make or freeze per URL (Url's fields are frozen whole).
 */
export const NONE: readonly string[] = Object.freeze([]);

/**
 * h[start, end) decoded as UTF-8 text (RFC 1738 2.2), given `pc`, the offset of a "%" at or
 * before the first one at or after `start` (-1: none from there on). Parts read in order share
 * one search for "%": a part before the first "%" is its slice.
 */
export function decodeFrom(h: string, start: number, end: number, pc: number): string {
  if (pc >= 0 && pc < start) pc = h.indexOf('%', start);
  return pc >= 0 && pc < end ? decodeLenient(h, start, end) : h.slice(start, end);
}

/** Decodes a range of href as UTF-8 text (RFC 1738 2.2). */
export function text(url: Url, r: Range): string {
  return decodeSlice(url.href, r.start, r.end);
}

/**
 * The segments of href[start, end) between `sep` characters ("/" by default), each decoded
 * (RFC 1738 2.2, 3.2.2, 3.3), as a frozen array. The separators and the escapes are found with
 * indexOf(): a segment without "%" is its slice.
 */
export function textSegments(url: Url, start: number, end: number, sep = '/'): readonly string[] {
  const h = url.href;
  return splitSegments(h, start, end, sep.charCodeAt(0), h.indexOf('%', start), null);
}

/**
 * textSegments() of h[start, end) split at the character `sep`, given `pc`, the offset of the
 * first "%" at or after `start` (-1 or anything past `end` for none), and `whole`, the slice
 * h[start, end) when the caller has made it (else null): a single segment without "%" is that
 * string. Speed: no search for "%" past the first, and an array of the exact length for up to
 * three segments.
 */
export function splitSegments(
  h: string,
  start: number,
  end: number,
  sep: number,
  pc: number,
  whole: string | null,
): readonly string[] {
  if (pc >= 0 && pc < end) return Object.freeze(segmentList(h, start, end, sep, pc));
  const ch = String.fromCharCode(sep);
  const i = h.indexOf(ch, start);
  if (i < 0 || i > end) return Object.freeze([whole ?? h.slice(start, end)]);
  const j = h.indexOf(ch, i + 1);
  if (j < 0 || j > end) return Object.freeze([h.slice(start, i), h.slice(i + 1, end)]);
  const k = h.indexOf(ch, j + 1);
  if (k < 0 || k > end) return Object.freeze([h.slice(start, i), h.slice(i + 1, j), h.slice(j + 1, end)]);
  return Object.freeze(segmentList(h, start, end, sep, end));
}

/**
 * The segments of h[start, end) split at the character `sep`, each decoded (RFC 1738 2.2), as a
 * new array that is not frozen yet; `pc` as for splitSegments().
 */
export function segmentList(h: string, start: number, end: number, sep: number, pc: number): string[] {
  if (pc < 0 || pc > end) pc = end;
  const ch = String.fromCharCode(sep);
  const out: string[] = [];
  let s = start;
  for (;;) {
    let i = h.indexOf(ch, s);
    if (i < 0 || i > end) i = end;
    if (pc < i) {
      out.push(decodeLenient(h, s, i));
      pc = i < end ? h.indexOf('%', i + 1) : end;
      if (pc < 0 || pc > end) pc = end;
    } else out.push(h.slice(s, i));
    if (i === end) return out;
    s = i + 1;
  }
}

/** Refuses a build() input with an `invalid-field` LocatorError. */
export function refuse(message: string): never {
  throw new LocatorError(INVALID_FIELD, -1, message);
}

/** Reads an optional string field, refusing other types with a LocatorError. */
export function stringField(fields: Record<string, unknown>, name: string): string | null {
  const v = fields[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') refuse(`${name} must be a string`);
  return v;
}

/** Reads an optional field that is an array of strings, refusing anything else with a LocatorError. */
export function stringListField(fields: Record<string, unknown>, name: string): string[] | null {
  const v = fields[name];
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) refuse(`${name} must be an array of strings`);
  return v as string[];
}
