// Partial forms: resolving a partial (relative) URL against the absolute URL of its context, and
// the reverse, the shortest partial form of a target.
//
// Three editions of the rules are implemented, each as its text says:
//   - RFC 1808 (June 1995), "Relative Uniform Resource Locators", the companion of RFC 1738
//     (section 2.3 defers relative links to it): the default;
//   - RFC 3986 (January 2005) section 5, its successor: `{ rfc: 3986 }`;
//   - the October 1993 draft, section "PARTIAL FORM": `{ rfc: 'draft-1993-10' }`, for callers who
//     ask for the earlier edition explicitly.
// docs/resolve.md lists every case where they disagree.
//
// A partial form is not a URL by RFC 1738 (parse() refuses it: missing-scheme), so it is read
// here with its own small scanner (RFC 1808 2.4, RFC 3986 3 and appendix B) over char codes,
// which records offsets and slices only to build the result.

import { CHAR_CLASS, ALPHA, SCHEME } from './core/charclass.js';
import {
  LocatorError, defineCode, EMPTY_INPUT, INVALID_SCHEME, MISSING_SCHEME, UNCLOSED_WRAPPER,
} from './core/errors.js';
import { parse, tryParse } from './schemes/registry.js';
import { describeValue, expectString } from './core/percent.js';
import { Url } from './core/url.js';
import { entryOf } from './schemes/registry.js';

export const NO_BASE = defineCode('no-base', 'error', 'RFC 1808 4 (step 1)',
  'there is no base URL, so only an absolute URL can be read here, not a partial form');
export const NON_HIERARCHICAL_BASE = defineCode('non-hierarchical-base', 'error', 'RFC 1738 2.3',
  'the base URL has no hierarchical path, so this partial form cannot be resolved against it');
export const REFERENCE_COLON = defineCode('reference-colon', 'error', 'RFC 3986 4.2',
  'the first segment of a relative-path reference cannot contain ":" (it would be read as a scheme); write "./" before it');
export const UNREACHABLE_TARGET = defineCode('unreachable-target', 'error', 'RFC 3986 5.2.2',
  'no partial form resolves to this target under these rules');

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
// Which schemes are hierarchical (RFC 1738 2.3: "Some URL schemes (such as the ftp, http, and
// file schemes) contain names that can be considered hierarchical; the components of the
// hierarchy are separated by "/"." ... "the use of relative links depends on the original URL
// containing a hierarchical structure against which the relative link is based.")

/** How a base URL takes partial forms: merging relative paths, replacing the path only, or not at all. */
type BaseKind = 'hierarchical' | 'flat' | 'opaque';

/**
 * Whether a relative path merges into the base path: the scheme entry says (`hierarchical`,
 * RFC 1738 2.3). An entry that leaves it out counts as hierarchical when it has the common
 * Internet syntax (the October 1993 draft: "when it contains slashes, these must imply a
 * hierarchical structure"), an opaque one does not, and an unregistered scheme is hierarchical
 * when its base URL has a "//" login or a scheme part that starts with "/". A non-hierarchical
 * base with a "//" login is `flat`: absolute paths replace its path, relative ones are an error.
 */
function baseKind(u: Url): BaseKind {
  const spec = entryOf(u);
  if (spec !== undefined) {
    const known = spec.hierarchical ?? spec.syntax === 'internet';
    if (known) return 'hierarchical';
    return u.hasLogin ? 'flat' : 'opaque';
  }
  return u.hasLogin || u.href.charCodeAt(u.schemePartStart) === 47 ? 'hierarchical' : 'opaque';
}

/** True when relative paths can be resolved against this URL (RFC 1738 2.3; the entry's `hierarchical`). */
export function isHierarchical(url: string | Url): boolean {
  expectUrl(url, 'isHierarchical: the URL');
  return baseKind(typeof url === 'string' ? parse(url) : url) === 'hierarchical';
}

// ---------------------------------------------------------------------------------------------
// The scanner: the components of a URL or partial form as offsets (-1: absent).

interface Parts {
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

function describe(c: number): string {
  return c >= 33 && c < 127 ? `"${String.fromCharCode(c)}"` : `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

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
function split(s: string, rules: Rules, isPartial: boolean): Parts {
  let start = 0;
  let end = s.length;
  if (end > 0 && s.charCodeAt(0) === 60) {
    if (s.charCodeAt(end - 1) !== 62) throw new LocatorError(UNCLOSED_WRAPPER, 0, undefined, { input: s });
    start++;
    end--;
  }
  if (end - start >= 4 && (s.charCodeAt(start) | 32) === 117 && (s.charCodeAt(start + 1) | 32) === 114
    && (s.charCodeAt(start + 2) | 32) === 108 && s.charCodeAt(start + 3) === 58) {
    start += 4;
  }
  let bodyEnd = end;
  let frag = -1;
  for (let i = start; i < end; i++) {
    if (s.charCodeAt(i) === 35) {
      bodyEnd = i;
      frag = i + 1;
      break;
    }
  }

  let scheme = -1;
  if (rules === 'draft-1993-10') {
    for (let i = start; i < bodyEnd; i++) {
      const c = s.charCodeAt(i);
      if (c === 47) break;
      if (c !== 58) continue;
      // A full form: its scheme must be readable.
      if (i === start) throw new LocatorError(MISSING_SCHEME, i, 'the scheme name before ":" is empty', { input: s });
      for (let k = start; k < i; k++) {
        if (!isSchemeChar(s.charCodeAt(k))) {
          throw new LocatorError(INVALID_SCHEME, k,
            `a ":" before any "/" makes this a full URL (draft 1993-10, partial form), and ${describe(s.charCodeAt(k))} cannot be part of a scheme name`,
            { input: s });
        }
      }
      scheme = i;
      break;
    }
  } else {
    let i = start;
    if (rules === 3986 && i < bodyEnd) {
      const c = s.charCodeAt(i);
      if (c >= 128 || (CHAR_CLASS[c] & ALPHA) === 0) i = bodyEnd; // RFC 3986 3.1: starts with a letter
    }
    while (i < bodyEnd && isSchemeChar(s.charCodeAt(i))) i++;
    if (i > start && i < bodyEnd && s.charCodeAt(i) === 58) scheme = i;
  }

  let p = scheme >= 0 ? scheme + 1 : start;
  let auth = -1;
  let authEnd = -1;
  if (p + 1 < bodyEnd && s.charCodeAt(p) === 47 && s.charCodeAt(p + 1) === 47) {
    auth = p + 2;
    let i = auth;
    for (; i < bodyEnd; i++) {
      const c = s.charCodeAt(i);
      if (c === 47 || (c === 63 && rules === 3986)) break;
    }
    authEnd = i;
    p = i;
  }

  let query = -1;
  let pathEnd = bodyEnd;
  let params = -1;
  if (rules !== 'draft-1993-10') {
    for (let i = p; i < bodyEnd; i++) {
      if (s.charCodeAt(i) === 63) {
        query = i + 1;
        pathEnd = i;
        break;
      }
    }
    if (rules === 1808) {
      for (let i = p; i < pathEnd; i++) {
        if (s.charCodeAt(i) === 59) {
          params = i + 1;
          pathEnd = i;
          break;
        }
      }
    } else if (isPartial && scheme < 0 && auth < 0) {
      // RFC 3986 4.2: in a relative-path reference the first segment holds no ":".
      for (let i = p; i < pathEnd; i++) {
        const c = s.charCodeAt(i);
        if (c === 47) break;
        if (c === 58) throw new LocatorError(REFERENCE_COLON, i, undefined, { input: s });
      }
    }
  }
  return { s, start, end, scheme, auth, authEnd, path: p, pathEnd, params, query, bodyEnd, frag };
}

// ---------------------------------------------------------------------------------------------
// Dot segments.

/**
 * RFC 1808 4, step 6 a-d, on a path without its leading "/" ("the initial slash is not part of
 * the URL path"): "./" and a final "." removed; "<segment>/../" and a final "<segment>/.."
 * removed, leftmost first, where <segment> is not "..". Done as a stack of segments, which the
 * RFC allows ("some systems may find it more efficient to implement Step 6 as a pair of segment
 * stacks being merged"): each ".." pops the segment before it unless that is "..", and a final
 * "." or a popping final ".." leaves the path ending in "/".
 */
export function removeDotSegments1808(path: string): string {
  if (!hasDotSegment(path)) return path;
  const out: string[] = [];
  const n = path.length;
  let s = 0;
  for (let i = 0; i <= n; i++) {
    if (i < n && path.charCodeAt(i) !== 47) continue;
    const len = i - s;
    const last = i === n;
    if (len === 1 && path.charCodeAt(s) === 46) {
      if (last) out.push('');
    } else if (len === 2 && path.charCodeAt(s) === 46 && path.charCodeAt(s + 1) === 46) {
      if (out.length > 0 && out[out.length - 1] !== '..') {
        out.pop();
        if (last) out.push('');
      } else out.push('..');
    } else out.push(path.slice(s, i));
    s = i + 1;
  }
  return out.join('/');
}

/** True when some complete segment of the path is "." or "..": only then is there work to do. */
function hasDotSegment(path: string): boolean {
  const n = path.length;
  for (let i = path.indexOf('.'); i >= 0; i = path.indexOf('.', i + 1)) {
    if (i > 0 && path.charCodeAt(i - 1) !== 47) continue;
    let j = i + 1;
    if (j < n && path.charCodeAt(j) === 46) j++;
    if (j === n || path.charCodeAt(j) === 47) return true;
  }
  return false;
}

function startsAt(s: string, i: number, prefix: string): boolean {
  return s.startsWith(prefix, i);
}

/**
 * RFC 3986 5.2.4 remove_dot_segments, as written: an input buffer (here an offset into `input`)
 * and an output buffer, and rules A to E applied until the input is empty.
 */
export function removeDotSegments3986(input: string): string {
  if (!hasDotSegment(input)) return input; // rules A to D never apply: E moves every segment
  // The output buffer is a stack of the segments rule E moved, each with its leading "/" (only
  // the first may have none): "remove the last segment and its preceding '/'" is a pop, where a
  // string buffer would be searched and copied once per "/.." (quadratic, issue 10).
  const out: string[] = [];
  let i = 0;
  const n = input.length;
  while (i < n) {
    // A. a prefix "../" or "./" is removed
    if (startsAt(input, i, '../')) {
      i += 3;
      continue;
    }
    if (startsAt(input, i, './')) {
      i += 2;
      continue;
    }
    // B. a prefix "/./" or "/." (complete) is replaced by "/"
    if (startsAt(input, i, '/./')) {
      i += 2;
      continue;
    }
    if (i + 2 === n && startsAt(input, i, '/.')) {
      out.push('/');
      break;
    }
    // C. a prefix "/../" or "/.." (complete) is replaced by "/", and the last output segment goes
    if (startsAt(input, i, '/../')) {
      i += 3;
      out.pop();
      continue;
    }
    if (i + 3 === n && startsAt(input, i, '/..')) {
      out.pop();
      out.push('/');
      break;
    }
    // D. an input of only "." or ".." is removed
    if ((i + 1 === n && input.charCodeAt(i) === 46) || (i + 2 === n && startsAt(input, i, '..'))) break;
    // E. the first segment, with its leading "/" if any, moves to the output
    let j = input.charCodeAt(i) === 47 ? i + 1 : i;
    while (j < n && input.charCodeAt(j) !== 47) j++;
    out.push(input.slice(i, j));
    i = j;
  }
  return out.join('');
}

/**
 * The October 1993 draft, partial form: "Within the result, all occurrences of "/xxx/.." or "/."
 * are recursively removed, where xxx, ".." and "." are complete path elements." Read literally:
 * each round removes every complete "/." and then the leftmost "/xxx/.." (xxx may be any
 * complete element, ".." and the empty one included, as the text excludes none), until nothing
 * matches. A final "/." or "/xxx/.." leaves no "/" behind.
 *
 * Computed in one pass: no round creates a "/." (elements are only removed), so every "."
 * element (after a "/") goes first; the leftmost-first removal of "/xxx/.." is then a stack of
 * elements, where a ".." pops the element before it (the text before the first "/" is no
 * element: nothing pops it). Rounds that each restart from the beginning would be quadratic.
 */
export function removeDotSegmentsDraft(path: string): string {
  const parts = path.split('/');
  const out = [parts[0]];
  for (let k = 1; k < parts.length; k++) {
    const e = parts[k];
    if (e === '.') continue;
    if (e === '..' && out.length > 1) out.pop();
    else out.push(e);
  }
  return out.join('/');
}

// ---------------------------------------------------------------------------------------------
// Resolution.

/** RFC 1808 4, steps 2 to 7 (step 1, an empty base, is handled by the caller). */
function resolve1808(b: Parts, r: Parts): string {
  const rs = r.s;
  const bs = b.s;
  // Step 2a: "If the embedded URL is entirely empty, it inherits the entire base URL".
  if (r.start === r.end) return bs.slice(b.start, b.end);
  // Step 2b: "If the embedded URL starts with a scheme name, it is interpreted as an absolute URL".
  if (r.scheme >= 0) return rs.slice(r.start, r.end);
  // Step 2c: it inherits the scheme of the base URL.
  let out = bs.slice(b.start, b.scheme + 1);
  // Step 3: a non-empty net_loc: skip to step 7. Otherwise the net_loc (if any) of the base.
  if (r.auth >= 0 && r.authEnd > r.auth) return out + rs.slice(r.auth - 2, r.end);
  if (b.auth >= 0) out += bs.slice(b.auth - 2, b.authEnd);
  // Step 4: a path preceded by "/" is not relative: skip to step 7.
  if (r.path < r.pathEnd && rs.charCodeAt(r.path) === 47) return out + rs.slice(r.path, r.end);
  // Step 5: an empty path inherits the base path, then the params and query unless non-empty.
  if (r.path === r.pathEnd) {
    out += bs.slice(b.path, b.pathEnd);
    // DEVIATION: after a net_loc and an empty path, params or a query are preceded by "/"
    // ("http://a" and "?y" give "http://a/?y", not "http://a?y"): RFC 1808 2.4.3 (and RFC 1738
    // 3.1) read everything up to the next "/" as the net_loc, so without it the query would be
    // read back as part of the host.
    if (b.auth >= 0 && b.path === b.pathEnd && (r.params >= 0 || r.query >= 0 || b.params >= 0 || b.query >= 0)) out += '/';
    const rParamsEnd = r.query >= 0 ? r.query - 1 : r.bodyEnd;
    if (r.params >= 0 && rParamsEnd > r.params) return out + rs.slice(r.params - 1, r.end);
    const bParamsEnd = b.query >= 0 ? b.query - 1 : b.bodyEnd;
    if (b.params >= 0) out += bs.slice(b.params - 1, bParamsEnd);
    else if (r.params >= 0) out += ';';
    if (r.query >= 0 && r.bodyEnd > r.query) return out + rs.slice(r.query - 1, r.end);
    if (b.query >= 0) out += bs.slice(b.query - 1, b.bodyEnd);
    else if (r.query >= 0) out += '?';
    return r.frag >= 0 ? out + rs.slice(r.frag - 1, r.end) : out;
  }
  // Step 6: the last segment of the base path is replaced by the embedded path, then a-d.
  const basePath = bs.slice(b.path, b.pathEnd);
  const slash = basePath.lastIndexOf('/');
  const merged = (slash >= 0 ? basePath.slice(0, slash + 1) : '') + rs.slice(r.path, r.pathEnd);
  const lead = merged.charCodeAt(0) === 47;
  const path = removeDotSegments1808(lead ? merged.slice(1) : merged);
  // Step 7: recombined; a path after a net_loc is preceded by "/".
  return out + (lead || b.auth >= 0 ? '/' : '') + path + rs.slice(r.pathEnd, r.end);
}

/** RFC 3986 5.2.2 (transform references), 5.2.3 (merge) and 5.3 (recomposition). */
function resolve3986(b: Parts, r: Parts, strict: boolean): string {
  const rs = r.s;
  const bs = b.s;
  let scheme: string;
  let authority: string | null;
  let path: string;
  let query: string | null;
  const rQuery = r.query >= 0 ? rs.slice(r.query, r.bodyEnd) : null;
  const rPath = rs.slice(r.path, r.pathEnd);
  const sameScheme = r.scheme >= 0 && !strict && r.scheme - r.start === b.scheme - b.start
    && rs.slice(r.start, r.scheme).toLowerCase() === bs.slice(b.start, b.scheme).toLowerCase();
  if (r.scheme >= 0 && !sameScheme) {
    scheme = rs.slice(r.start, r.scheme);
    authority = r.auth >= 0 ? rs.slice(r.auth, r.authEnd) : null;
    path = removeDotSegments3986(rPath);
    query = rQuery;
  } else {
    if (r.auth >= 0) {
      authority = rs.slice(r.auth, r.authEnd);
      path = removeDotSegments3986(rPath);
      query = rQuery;
    } else {
      if (rPath === '') {
        path = bs.slice(b.path, b.pathEnd);
        query = rQuery ?? (b.query >= 0 ? bs.slice(b.query, b.bodyEnd) : null);
      } else {
        if (rPath.charCodeAt(0) === 47) path = removeDotSegments3986(rPath);
        else {
          // 5.2.3 merge
          let merged: string;
          if (b.auth >= 0 && b.path === b.pathEnd) merged = '/' + rPath;
          else {
            const basePath = bs.slice(b.path, b.pathEnd);
            merged = basePath.slice(0, basePath.lastIndexOf('/') + 1) + rPath;
          }
          path = removeDotSegments3986(merged);
        }
        query = rQuery;
      }
      authority = b.auth >= 0 ? bs.slice(b.auth, b.authEnd) : null;
    }
    scheme = bs.slice(b.start, b.scheme);
  }
  // 5.3 recomposition
  let out = scheme + ':';
  if (authority !== null) out += '//' + authority;
  out += path;
  if (query !== null) out += '?' + query;
  if (r.frag >= 0) out += rs.slice(r.frag - 1, r.end);
  return out;
}

/** The October 1993 draft, "PARTIAL FORM", read literally. */
function resolveDraft(b: Parts, r: Parts): string {
  const rs = r.s;
  const bs = b.s;
  // "If the scheme parts are different, the whole absolute locator must be given."
  if (r.scheme >= 0) return rs.slice(r.start, r.end);
  // "Otherwise, the scheme is omitted".
  let out = bs.slice(b.start, b.scheme + 1);
  // "If the host and/or port parts are the different, the host, port name and all the rest of
  // the locator must be given."
  if (r.auth >= 0) return out + rs.slice(r.start, r.end);
  if (b.auth >= 0) out += bs.slice(b.auth - 2, b.authEnd);
  const frag = r.frag >= 0 ? rs.slice(r.frag - 1, r.end) : '';
  // "If a leading slash is present, the path is absolute."
  if (r.start < r.bodyEnd && rs.charCodeAt(r.start) === 47) return out + rs.slice(r.start, r.end);
  // "The last part of the path of the context locator (anything following the rightmost slash)
  // is removed, and the given partial URL appended in its place." The path is "the rest of the
  // locator" after the host: the search is part of it; the fragment id is not.
  const basePath = bs.slice(b.path, b.bodyEnd);
  let merged = basePath.slice(0, basePath.lastIndexOf('/') + 1) + rs.slice(r.start, r.bodyEnd);
  if (b.auth >= 0 && merged.charCodeAt(0) !== 47) merged = '/' + merged;
  return out + removeDotSegmentsDraft(merged) + frag;
}

/** API misuse is a TypeError naming the argument: a URL is a string or a parsed Url record. */
function expectUrl(url: unknown, name: string): void {
  if (typeof url !== 'string' && !(url instanceof Url)) {
    throw new TypeError(`${name} must be a string or a Url record, not ${describeValue(url)}`);
  }
}

/** Reads the base: a parsed URL, or text that must parse as an absolute URL (RFC 1738). */
function readBase(base: string | Url): Url {
  if (base instanceof Url) return base;
  const u = tryParse(base);
  if (u instanceof LocatorError) {
    throw new LocatorError(u.code, u.offset, `the base URL cannot be read: ${u.detail}`, { input: u.input, section: u.section, cause: u });
  }
  return u;
}

function ruleName(rules: Rules): string {
  return rules === 'draft-1993-10' ? 'draft 1993-10, partial form' : `RFC ${rules}`;
}

/**
 * Resolves a partial form against a base URL and returns the absolute URL (RFC 1808 4 by
 * default; RFC 3986 5.2 with `{ rfc: 3986 }`; the October 1993 draft's partial form rules with
 * `{ rfc: 'draft-1993-10' }`). Against a base whose path is not hierarchical (the scheme entry's `hierarchical`)
 * a relative path is refused with `non-hierarchical-base`; against an opaque base (news:,
 * mailto:) only an empty, fragment-only or absolute reference is accepted. An empty base means
 * none (RFC 1808 4, step 1): then the reference must be absolute. Errors are LocatorErrors whose
 * offsets point into `partial` as given (or into the base, for a base that cannot be read).
 */
export function resolve(base: string | Url, partial: string, options?: ResolveOptions): string {
  expectUrl(base, 'resolve: the base URL');
  expectString(partial, 'resolve: the partial form');
  const rules = options?.rfc ?? 1808;
  if (rules !== 1808 && rules !== 3986 && rules !== 'draft-1993-10') {
    throw new RangeError(`unknown rules ${JSON.stringify(rules)}: use 1808, 3986 or 'draft-1993-10'`);
  }
  const r = split(partial, rules, true);
  if (base === '') {
    // RFC 1808 4, step 1: "If the base URL is the empty string (unknown), the embedded URL is
    // interpreted as an absolute URL and we are done."
    if (r.scheme < 0) throw new LocatorError(NO_BASE, r.start, undefined, { input: partial });
    return rules === 3986 ? resolve3986(r, r, true) : partial.slice(r.start, r.end);
  }
  const bu = readBase(base);
  const b = split(bu.href, rules, false);

  // RFC 1738 2.3: a relative link needs a hierarchical structure to be based on. An empty or
  // fragment-only reference is not a relative link (RFC 1808 4 step 5, RFC 3986 5.2.2), except
  // in the draft, where it is a relative path like any other.
  const emptyOrFragment = r.start === r.bodyEnd && rules !== 'draft-1993-10';
  if (r.scheme < 0 && !emptyOrFragment) {
    const kind = baseKind(bu);
    const relativePath = r.auth < 0 && r.path <= r.pathEnd && partial.charCodeAt(r.path) !== 47
      && (r.path < r.pathEnd || rules === 'draft-1993-10');
    if (kind === 'opaque' || (kind === 'flat' && relativePath)) {
      throw new LocatorError(NON_HIERARCHICAL_BASE, r.start, kind === 'opaque'
        ? `a ${bu.scheme}: URL has no path hierarchy and no net_loc: against it only an absolute URL, an empty reference or a "#fragment" can be resolved (RFC 1738 2.3)`
        : `the path of a ${bu.scheme} URL is not hierarchical, so a relative path cannot be resolved against it (RFC 1738 2.3: its scheme entry is not hierarchical); give an absolute path "/..." or the whole URL`,
      { input: partial });
    }
  }
  // A net_loc given in the partial must be readable as host and port (RFC 1738 3.1).
  if (r.scheme < 0 && r.auth >= 0 && r.authEnd > r.auth) {
    const scheme = bu.scheme;
    const probe = tryParse(`${scheme}://${partial.slice(r.auth, r.authEnd)}`);
    if (probe instanceof LocatorError) {
      throw new LocatorError(probe.code, probe.offset - scheme.length - 3 + r.auth, probe.detail, { input: partial, section: probe.section });
    }
  }
  let out: string;
  if (rules === 1808) out = resolve1808(b, r);
  else if (rules === 3986) out = resolve3986(b, r, options?.strict ?? true);
  else out = resolveDraft(b, r);
  return out;
}

/** resolve(), parsed: the absolute URL as a record (its violations point into its href). */
export function resolveUrl(base: string | Url, partial: string, options?: ResolveOptions): Url {
  return parse(resolve(base, partial, options));
}

// ---------------------------------------------------------------------------------------------
// The reverse.

function tryResolve(base: Url, partial: string, options: ResolveOptions): string | null {
  try {
    return resolve(base, partial, options);
  } catch (e) {
    if (e instanceof LocatorError) return null;
    throw e;
  }
}

/**
 * The relative path from the directory of `basePath` to `targetPath` (both with a leading "/"),
 * in the forms worth trying: with "../" steps, with a "./" prefix (for a first segment that is
 * empty, holds ":", or would be read otherwise), and "." / ".." for a directory.
 */
function relativePaths(basePath: string, targetPath: string): string[] {
  const bs = basePath.split('/');
  bs.pop(); // the last segment of the base path is replaced (RFC 1808 4 step 6, RFC 3986 5.2.3)
  const ts = targetPath.split('/');
  const last = ts.pop() as string;
  let k = 0;
  while (k < bs.length && k < ts.length && bs[k] === ts[k]) k++;
  if (k === 0) return []; // the leading "" differs: not both absolute
  const ups = bs.length - k;
  const rest = [...ts.slice(k), last].join('/');
  const up = '../'.repeat(ups);
  const out = [up + rest, './' + up + rest];
  if (rest === '') {
    out.push(ups === 0 ? '.' : up.slice(0, -1));
  }
  return out;
}

/**
 * The shortest partial form that resolves back to `target` against `base` under the same rules
 * (RFC 1808 by default): the empty reference, a fragment, a query or params, a relative path, an
 * absolute path, a net path, or the whole target (the first of these on a tie) (draft 1993-10: "If the scheme parts are
 * different, the whole absolute locator must be given"). Every candidate is checked by
 * resolving it, so the answer always satisfies resolve(base, answer) === target; when no form
 * does (RFC 3986 removes dot segments even from absolute references), `unreachable-target`.
 */
export function relativize(base: string | Url, target: string | Url, options?: ResolveOptions): string {
  expectUrl(base, 'relativize: the base URL');
  expectUrl(target, 'relativize: the target URL');
  const rules = options?.rfc ?? 1808;
  const opts: ResolveOptions = { ...options, rfc: rules };
  const bu = readBase(base);
  const tu = typeof target === 'string' ? parse(target) : target;
  const t = tu.href;
  const b = split(bu.href, rules, false);
  const p = split(t, rules, false);
  const candidates: string[] = [];
  const sameScheme = p.scheme - p.start === b.scheme - b.start && t.slice(0, p.scheme) === bu.href.slice(0, b.scheme);
  if (sameScheme) {
    candidates.push('');
    const frag = p.frag >= 0 ? t.slice(p.frag - 1) : '';
    candidates.push(frag === '' ? '#' : frag);
    const sameAuth = p.auth >= 0 ? b.auth >= 0 && t.slice(p.auth, p.authEnd) === bu.href.slice(b.auth, b.authEnd) : b.auth < 0;
    if (sameAuth) {
      if (p.query >= 0) candidates.push(t.slice(p.query - 1));
      if (p.params >= 0) candidates.push(t.slice(p.params - 1));
      const bPath = bu.href.slice(b.path, b.pathEnd);
      const tPath = t.slice(p.path, p.pathEnd);
      if (rules === 'draft-1993-10') {
        // The draft's path runs to the fragment: compare and append that.
        const bAll = bu.href.slice(b.path, b.bodyEnd);
        const tAll = t.slice(p.path, p.bodyEnd);
        if (bAll.charCodeAt(0) === 47 && tAll.charCodeAt(0) === 47) {
          for (const rel of relativePaths(bAll, tAll)) candidates.push(rel + t.slice(p.bodyEnd));
        }
      } else if (bPath.charCodeAt(0) === 47 && tPath.charCodeAt(0) === 47) {
        const afterPath = t.slice(p.pathEnd); // params, query, fragment (as the rules split them)
        for (const rel of relativePaths(bPath, tPath)) candidates.push(rel + afterPath);
      }
      if (p.path < p.pathEnd && t.charCodeAt(p.path) === 47) candidates.push(t.slice(p.path));
    }
    if (p.auth >= 0) candidates.push(t.slice(p.auth - 2));
  }
  candidates.push(t);
  let best: string | null = null;
  for (const c of candidates) {
    if (best !== null && c.length >= best.length) continue;
    if (tryResolve(bu, c, opts) === t) best = c;
  }
  if (best === null) {
    throw new LocatorError(UNREACHABLE_TARGET, 0,
      `no partial form resolves to ${JSON.stringify(t)} against ${JSON.stringify(bu.href)} under ${ruleName(rules)}${rules === 3986 ? ' (RFC 3986 5.2.2 removes dot segments from every path it does not inherit)' : ''}`,
      { input: t });
  }
  return best;
}
