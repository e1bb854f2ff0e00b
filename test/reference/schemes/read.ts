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

/** Decodes a range of href as UTF-8 text (RFC 1738 2.2). */
export function text(url: Url, r: Range): string {
  return decodeSlice(url.href, r.start, r.end);
}

/**
 * The segments of href[start, end) between `sep` characters ("/" by default), each decoded
 * (RFC 1738 2.2, 3.2.2, 3.3).
 * Speed (issue 16): one pass that cuts the segments and notes whether each holds a "%": a
 * segment without one is its slice, with no range object, no `.map` closure and no second
 * look for "%" (these were most of the schemes' fields() in the profile of parse()).
 */
export function textSegments(url: Url, start: number, end: number, sep = 47): string[] {
  const h = url.href;
  const out: string[] = [];
  let s = start;
  let escaped = false;
  for (let i = start; i < end; i++) {
    const c = h.charCodeAt(i);
    if (c === sep) {
      out.push(escaped ? decodeLenient(h, s, i) : h.slice(s, i));
      s = i + 1;
      escaped = false;
    } else if (c === 37) escaped = true;
  }
  out.push(escaped ? decodeLenient(h, s, end) : h.slice(s, end));
  return out;
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
