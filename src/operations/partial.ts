// The partial-form reader: a URL or partial (relative) form read into its components as offsets,
// under each edition of the rules (RFC 1808 2.4, RFC 3986 3 and appendix B, the October 1993
// draft's partial form), and the options and arguments that resolve() and relativize() share.
//
// A partial form is not a URL by RFC 1738 (parse() refuses it: missing-scheme), so it is read
// here with its own small scanner (RFC 1808 2.4, RFC 3986 3 and appendix B) over char codes,
// which records offsets and slices only to build the result.

import { CHAR_CLASS, ALPHA, SCHEME } from '../core/charclass.js';
import {
  LocatorError,
  defineCode,
  EMPTY_INPUT,
  INVALID_SCHEME,
  MISSING_SCHEME,
  UNCLOSED_WRAPPER,
} from '../core/errors.js';
import { tryParse } from '../schemes/registry.js';
import { describe } from '../core/chars.js';
import { Url, expectUrl } from '../core/url.js';

export const REFERENCE_COLON = defineCode(
  'reference-colon',
  'error',
  'RFC 3986 4.2',
  'the first segment of a relative-path reference cannot contain ":" (it would be read as a scheme); write "./" before it',
);
export const UNREACHABLE_TARGET = defineCode(
  'unreachable-target',
  'error',
  'RFC 3986 5.2.2',
  'no partial form resolves to this target under these rules',
);

/**
 * The edition of the partial-form rules: RFC 1808 (default), RFC 3986 section 5, or the
 * October 1993 draft ("PARTIAL FORM").
 */
export type Rules = 1808 | 3986 | 'draft-1993-10';

export interface ResolveOptions {
  /** Which rules resolve the partial form; RFC 1808 by default. */
  rfc?: Rules;
  /**
   * RFC 3986 5.2.2 only: `false` reads a reference whose scheme equals the base's as a relative
   * one ("http:g" gives "http://a/b/c/g"), for backward compatibility; strict by default.
   */
  strict?: boolean;
}

// ---------------------------------------------------------------------------------------------
// The scanner: the components of a URL or partial form as offsets (-1: absent).

export interface Parts {
  readonly s: string;
  /** [start, end): the text, without a "<...>" wrapper and "URL:" prefix. */
  start: number;
  end: number;
  /** Offset of the ":" after the scheme, or -1. */
  scheme: number;
  /** Offset just after "//", or -1; the net_loc (authority) runs to authEnd. */
  auth: number;
  authEnd: number;
  /** The path, with its leading "/" if any: [path, pathEnd). */
  path: number;
  pathEnd: number;
  /** RFC 1808 only: offset just after the first ";" of the path part, or -1. */
  params: number;
  /** Offset just after "?", or -1. */
  query: number;
  /** Offset of "#" (or end): the end of the query, and of everything but the fragment. */
  bodyEnd: number;
  /** Offset just after "#", or -1. */
  frag: number;
}

const isSchemeChar = (c: number) => c < 128 && (CHAR_CLASS[c] & SCHEME) !== 0;

/**
 * Reads a URL or partial form into its components.
 * RFC 1808 2.4: the fragment (from the first "#"), the scheme (a ":" after the first character,
 * before any character not allowed in a scheme name), the net_loc (after "//", up to the next
 * "/"), the query (from the first "?"), the params (from the first ";"), and the path.
 * RFC 3986 3 and appendix B: the same without params; the scheme starts with a letter, and the
 * authority also ends at "?".
 * Draft 1993-10: "a full form must have a colon and that colon must occur before any slash
 * characters"; everything after the host is the path (the search included).
 * The "<...>" wrapper and "URL:" prefix (RFC 1738 appendix) are removed first.
 */
export function split(s: string, rules: Rules, isPartial: boolean): Parts {
  let start = 0;
  let end = s.length;
  if (end > 0 && s.charCodeAt(0) === 60) {
    if (s.charCodeAt(end - 1) !== 62) throw new LocatorError(UNCLOSED_WRAPPER, 0, undefined, { input: s });
    start++;
    end--;
  }
  if (
    end - start >= 4 &&
    (s.charCodeAt(start) | 32) === 117 &&
    (s.charCodeAt(start + 1) | 32) === 114 &&
    (s.charCodeAt(start + 2) | 32) === 108 &&
    s.charCodeAt(start + 3) === 58
  ) {
    start += 4;
  }
  // One pass: the scheme and net_loc loops stop at the first "#", which ends the text they read
  // (RFC 1808 2.4.1, RFC 3986 3.5); the "#", "?" and ";" after them are found by indexOf()
  // (figures: bench/RESULTS.md, "History moved from comments").
  let bodyEnd = end;
  let frag = -1;
  let scheme = -1;
  if (rules === 'draft-1993-10') {
    for (let i = start; i < end; i++) {
      const c = s.charCodeAt(i);
      if (c === 47 || c === 35) break;
      if (c !== 58) continue;
      // A full form: its scheme must be readable.
      if (i === start) throw new LocatorError(MISSING_SCHEME, i, 'the scheme name before ":" is empty', { input: s });
      for (let k = start; k < i; k++) {
        if (!isSchemeChar(s.charCodeAt(k))) {
          throw new LocatorError(
            INVALID_SCHEME,
            k,
            `a ":" before any "/" makes this a full URL (draft 1993-10, partial form), and ${describe(s.charCodeAt(k))} cannot be part of a scheme name`,
            { input: s },
          );
        }
      }
      scheme = i;
      break;
    }
  } else {
    let i = start;
    if (rules === 3986 && i < end) {
      const c = s.charCodeAt(i);
      if (c >= 128 || (CHAR_CLASS[c] & ALPHA) === 0) i = end; // RFC 3986 3.1: starts with a letter
    }
    // "#" is no scheme character, so this loop stops at the fragment too.
    while (i < end && isSchemeChar(s.charCodeAt(i))) i++;
    if (i > start && i < end && s.charCodeAt(i) === 58) scheme = i;
  }

  let p = scheme >= 0 ? scheme + 1 : start;
  let auth = -1;
  let authEnd = -1;
  if (p + 1 < end && s.charCodeAt(p) === 47 && s.charCodeAt(p + 1) === 47) {
    auth = p + 2;
    let i = auth;
    for (; i < end; i++) {
      const c = s.charCodeAt(i);
      if (c === 47 || c === 35 || (c === 63 && rules === 3986)) break;
    }
    authEnd = i;
    p = i;
  }

  let query = -1;
  let params = -1;
  const h = s.indexOf('#', p);
  if (h >= 0 && h < end) {
    bodyEnd = h;
    frag = h + 1;
  }
  if (rules !== 'draft-1993-10') {
    const q = s.indexOf('?', p);
    if (q >= 0 && q < bodyEnd) query = q + 1;
    if (rules === 1808) {
      const sc = s.indexOf(';', p);
      if (sc >= 0 && sc < (query >= 0 ? query - 1 : bodyEnd)) params = sc + 1;
    }
  }
  const pathEnd = params >= 0 ? params - 1 : query >= 0 ? query - 1 : bodyEnd;
  if (rules === 3986 && isPartial && scheme < 0 && auth < 0) {
    // RFC 3986 4.2: in a relative-path reference the first segment holds no ":".
    for (let i = p; i < pathEnd; i++) {
      const c = s.charCodeAt(i);
      if (c === 47) break;
      if (c === 58) throw new LocatorError(REFERENCE_COLON, i, undefined, { input: s });
    }
  }
  return { s, start, end, scheme, auth, authEnd, path: p, pathEnd, params, query, bodyEnd, frag };
}

/** Reads the base: a parsed URL, or text that must parse as an absolute URL (RFC 1738). */
export function readBase(base: string | Url): Url {
  if (base instanceof Url) return base;
  const u = tryParse(base);
  if (u instanceof LocatorError) {
    throw new LocatorError(u.code, u.offset, `the base URL cannot be read: ${u.detail}`, {
      input: u.input,
      section: u.section,
      cause: u,
    });
  }
  return u;
}

/** The name of an edition of the rules, for messages (RFC 1808, RFC 3986 5, draft 1993-10). */
export function ruleName(rules: Rules): string {
  return rules === 'draft-1993-10' ? 'draft 1993-10, partial form' : `RFC ${rules}`;
}
