// Ranges of a parsed record's href: the url-path and the scheme-specific part, their segments,
// and checking their characters against a production of the RFC 1738 section 5 grammar.

import type { Url } from '../core/url.js';
import type { Report } from './spec.js';
import { type EncodeSet, hexValue } from '../core/percent.js';
import { checkChars } from '../core/parse.js';
import type { Diagnostic } from '../core/errors.js';

/** A [start, end) range of `url.href`. */
export interface Range {
  start: number;
  end: number;
}

/** The url-path range of a record with a "//" login, or null when there is no "/" path. */
export function pathRange(url: Url): Range | null {
  const start = url.pathStart;
  return start < 0 ? null : { start, end: url.bodyEnd };
}

/** The scheme-specific part range (after "scheme:", before "#"). */
export function schemePartRange(url: Url): Range {
  return { start: url.schemePartStart, end: url.bodyEnd };
}

/**
 * Checks `url.href[start, end)` against an allowed set (a production of the section 5 grammar);
 * escapes are allowed when well formed. Reports with offsets into the input as given; a
 * reserved character outside the set is reported under `code`. Characters the scanner already
 * reported (unsafe, control, non-ASCII, bad escapes) are not reported twice.
 */
export function checkRange(
  url: Url,
  start: number,
  end: number,
  set: EncodeSet,
  report: Report,
  code: string,
  message?: string,
): void {
  const found = { v: null as Diagnostic[] | null, only: code };
  checkChars(url.href, start, end, set.allowed, found, code);
  if (found.v === null) return;
  for (const d of found.v) {
    if (d.code === code) report(code, d.offset + url.inputOffset, message ?? d.message);
  }
}

/** Splits [start, end) of `href` at every "/" into segment ranges (empty segments kept). */
export function splitRanges(href: string, start: number, end: number, sep = 47): Range[] {
  const out: Range[] = [];
  let s = start;
  for (let i = start; i <= end; i++) {
    if (i === end || href.charCodeAt(i) === sep) {
      out.push({ start: s, end: i });
      s = i + 1;
    }
  }
  return out;
}

/** True when s[i] and s[i+1], before `end`, are a UTF-16 surrogate pair (one code point). */
export function isSurrogatePair(s: string, i: number, end: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < end && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}

/** True when s[i, i+3) is a well-formed escape, "%" and two hex digits, before `end` (RFC 1738 2.2). */
export function isEscape(s: string, i: number, end: number): boolean {
  return (
    s.charCodeAt(i) === 37 && i + 2 < end && hexValue(s.charCodeAt(i + 1)) >= 0 && hexValue(s.charCodeAt(i + 2)) >= 0
  );
}
