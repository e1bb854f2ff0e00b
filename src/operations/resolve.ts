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
////
// The parts live in their own modules: partial.ts (the partial-form reader), dot-segments.ts and
// relativize.ts (the reverse).

import { LocatorError, defineCode } from '../core/errors.js';
import { parse, entryOf, schemeTable } from '../schemes/registry.js';
import { expectString } from '../core/percent.js';
import { Url, expectUrl } from '../core/url.js';
import { checkLogin } from '../core/host.js';
import { removeDotSegments1808, removeDotSegments3986, removeDotSegmentsDraft } from './dot-segments.js';
import { readBase, split, type Parts, type ResolveOptions, type Rules } from './partial.js';

export { removeDotSegments1808, removeDotSegments3986, removeDotSegmentsDraft } from './dot-segments.js';
export { REFERENCE_COLON, type Rules, type ResolveOptions } from './partial.js';

export const NO_BASE = defineCode(
  'no-base',
  'error',
  'RFC 1808 4 (step 1)',
  'there is no base URL, so only an absolute URL can be read here, not a partial form',
);
export const NON_HIERARCHICAL_BASE = defineCode(
  'non-hierarchical-base',
  'error',
  'RFC 1738 2.3',
  'the base URL has no hierarchical path, so this partial form cannot be resolved against it',
);

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
    if (b.auth >= 0 && b.path === b.pathEnd && (r.params >= 0 || r.query >= 0 || b.params >= 0 || b.query >= 0))
      out += '/';
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
  const sameScheme =
    r.scheme >= 0 &&
    !strict &&
    r.scheme - r.start === b.scheme - b.start &&
    rs.slice(r.start, r.scheme).toLowerCase() === bs.slice(b.start, b.scheme).toLowerCase();
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

// The links of a page share one base: the last base read (its record and its components under
// the last rules) is kept and reused for the same string or record. Both are immutable and
// split() depends only on the text and the rules, so the answer is a fresh read's; a new registry
// table reads the string again. Measured: bench/RESULTS.md (Round 4, "resolve(): the base kept").
let kept: { base: string | Url; rules: Rules; table: unknown; url: Url; parts: Parts } | null = null;

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
  const table = schemeTable();
  if (kept === null || kept.base !== base || kept.rules !== rules || kept.table !== table) {
    const url = readBase(base);
    kept = { base, rules, table, url, parts: split(url.href, rules, false) };
  }
  const bu = kept.url;
  const b = kept.parts;

  // RFC 1738 2.3: a relative link needs a hierarchical structure to be based on. An empty or
  // fragment-only reference is not a relative link (RFC 1808 4 step 5, RFC 3986 5.2.2), except
  // in the draft, where it is a relative path like any other.
  const emptyOrFragment = r.start === r.bodyEnd && rules !== 'draft-1993-10';
  if (r.scheme < 0 && !emptyOrFragment) {
    const kind = baseKind(bu);
    const relativePath =
      r.auth < 0 &&
      r.path <= r.pathEnd &&
      partial.charCodeAt(r.path) !== 47 &&
      (r.path < r.pathEnd || rules === 'draft-1993-10');
    if (kind === 'opaque' || (kind === 'flat' && relativePath)) {
      throw new LocatorError(
        NON_HIERARCHICAL_BASE,
        r.start,
        kind === 'opaque'
          ? `a ${bu.scheme}: URL has no path hierarchy and no net_loc: against it only an absolute URL, an empty reference or a "#fragment" can be resolved (RFC 1738 2.3)`
          : `the path of a ${bu.scheme} URL is not hierarchical, so a relative path cannot be resolved against it (RFC 1738 2.3: its scheme entry is not hierarchical); give an absolute path "/..." or the whole URL`,
        { input: partial },
      );
    }
  }
  // A net_loc given in the partial must be readable as host and port (RFC 1738 3.1).
  if (r.scheme < 0 && r.auth >= 0 && r.authEnd > r.auth) {
    const e = checkLogin(partial, r.auth, r.authEnd);
    if (e !== null) throw e;
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
