// Normal forms and equivalence (RFC 1738 2.1, 2.2, 3.1 and the scheme sections of 3). The
// "safer" and display forms of the drafts are in display.ts, re-exported here.
//
// What the normal form changes, and why each change keeps the meaning:
//   - the scheme in lower case (2.1: "programs interpreting URLs should treat upper case letters
//     as equivalent to lower case in scheme names");
//   - the host in lower case (3.1: a fully qualified domain name, RFC 1034, whose labels compare
//     without regard to case); user and password keep their case;
//   - the port dropped when it is the scheme's default, and an empty port's ":" dropped (3.1:
//     "If the port is omitted, the colon is as well"); leading zeros of a port dropped, and the
//     port otherwise kept as its digits (port = digits, of any length: never read as a number);
//   - in every escape the hex digits in upper case (2.2: "abcdef" "may also be used");
//   - an escape of an unreserved character (alphanumerics and "$-_.+!*'(),") decoded (2.2:
//     "Usually a URL has the same interpretation when an octet is represented by a character and
//     when it encoded"), and never one of a reserved character (";", "/", "?", ":", "@", "=",
//     "&"), whose "encoding ... may change the semantics", nor one of an unsafe or control
//     character or an octet above 7F, which must stay encoded;
//   - a raw unsafe character (space, "<", ">", '"', "#" after the fragment's, "%" that starts no
//     escape, "{", "}", "|", "\", "^", "~", "[", "]", "`"), a control character or a non-ASCII
//     character encoded as %XX (UTF-8 octets for non-ASCII): 2.2 "All unsafe characters must
//     always be encoded within a URL";
//   - a void fragment id dropped (draft 1993-10: "A void fragment-id with or without the hash
//     sign means that the URL refers to the whole object");
//   - the rules of each scheme, in its entry's `normal` (src/schemes/<scheme>.ts).
// What it never changes: a reserved character, raw or encoded, and dot segments ("/./", "/../"):
// RFC 1738 gives them no meaning in an absolute URL (an FTP "CWD .." is not the same as no CWD),
// only partial forms do (see resolve.ts).

import { normalizeEscapes, escapesNormal, DECODE_UNRESERVED } from '../core/escapes.js';
import { parse, entryOf, type NormalForm, type ParseOptions } from '../schemes/registry.js';
export { toSafe, toDisplay } from './display.js';
import { Url, expectUrl } from '../core/url.js';
import { normalAtOnce } from '../core/analyze.js';
import { mustEncode } from '../core/chars.js';

/** The host in normal form: escapes as everywhere, then ASCII letters in lower case (RFC 1738 3.1). */
function normalizeHost(h: string): string {
  // A bracketed IPv6 literal (read by parse(), though not RFC 1738): only the case changes.
  if (h.charCodeAt(0) === 91) return h.toLowerCase();
  let plain = true;
  for (let i = 0; i < h.length; i++) {
    const c = h.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 46 || c === 45)) {
      plain = false;
      break;
    }
  }
  if (plain) return h; // the usual host: lower-case letters, digits, "." and "-"
  const e = normalizeEscapes(h);
  let out = '';
  let run = 0;
  for (let i = 0; i < e.length; i++) {
    const c = e.charCodeAt(i);
    if (c === 37) {
      i += 2; // an escape keeps its upper-case hex digits
      continue;
    }
    if (c >= 65 && c <= 90) {
      out += e.slice(run, i) + String.fromCharCode(c | 32);
      run = i + 1;
    }
  }
  return run === 0 ? e : out + e.slice(run);
}

// ---------------------------------------------------------------------------------------------
// The rules of each scheme.

/** How one scheme's URLs are put in normal form: the scheme entry's `normal` (src/schemes/spec.ts). */
export type SchemeRule = NormalForm;

/** normalizeEscapes(), skipped when the URL is clean (see SchemeRule.path). */
const esc = (raw: string, clean: boolean, decodable: Uint8Array = DECODE_UNRESERVED) =>
  clean ? raw : normalizeEscapes(raw, decodable);

const plainPath = (raw: string | null, clean: boolean) => (raw === null ? null : esc(raw, clean));

// ---------------------------------------------------------------------------------------------

/**
 * The key that tells whether two URLs designate the same object (RFC 1738 2.1-3): the normal
 * form without the fragment (a fragment is not part of the URL's object), or, for a URL whose
 * normal form cannot be made, the URL as written without its fragment. open()'s redirect loop
 * finds loops by it, and the link checker finds duplicates by it.
 */
export function objectKey(u: Url): string {
  try {
    const n = normalize(u);
    const hash = n.indexOf('#');
    return hash < 0 ? n : n.slice(0, hash);
  } catch {
    return u.withoutFragment;
  }
}

/**
 * The normal form of a URL (RFC 1738 2.1, 2.2, 3.1 and the scheme sections; see the top of
 * this file and each scheme entry's `normal`): two URLs with the same normal form denote the same object.
 * Idempotent: normalize(normalize(x)) === normalize(x). A `URL:` prefix and `<...>` wrapper are
 * removed; a URL that cannot be read throws the LocatorError of parse().
 */
export function normalize(url: string | Url, options?: ParseOptions): string {
  expectUrl(url, 'normalize: the URL');
  return normalForm(typeof url === 'string' ? parse(url, options) : url, true);
}

/**
 * normalize() of a record (RFC 1738 2.1, 2.2, 3.1). @internal `shortcut` false always builds the
 * string, for the test that the shortcut (`href` itself when nothing changes) gives the same.
 */
export function normalForm(u: Url, shortcut: boolean): string {
  const rule = entryOf(u)?.normal;
  const h = u.href;
  // Speed: the usual URL (a user info, a lower-case host, a port, a path and fragment of
  // characters that need no work, found in one search) is its own normal form, or one cut or
  // insertion away from it: the scheme's default port dropped, the "/" and path the scheme's
  // rule writes where there is none.
  const stop = shortcut ? normalAtOnce(u) : -1;
  if (stop === h.length && lowerScheme(h, u.schemePartStart - 1)) {
    const fast = usualForm(u, rule, h);
    if (fast !== null) return fast;
  }
  // Every component goes through normalizeEscapes() (or its scheme's rule), which first finds in
  // one native search how much of it is in normal form already (the usual case: all of it, and
  // then it is returned as it is): no list of violations is needed to know that nothing changes.
  const out = formOf(u, rule, shortcut, false, stop);
  // A URL without "%" whose components changed: a character that must be encoded (RFC 1738 2.2)
  // was encoded. The components are taken as they stand instead when the list of violations
  // reports no such character (it lists the first 100 only): the normal form has always been
  // made so, and stays so.
  if (!rawChanged || h.indexOf('%') >= 0 || !cleanAsListed(u)) return out;
  return formOf(u, rule, shortcut, true, stop);
}

/**
 * The normal form of a URL that normalAtOnce() accepts (RFC 1738 2.2, 3.1): href itself, or href
 * without its default port, or with the path the scheme's rule writes; null when the port has
 * leading zeros or the rule changes the host or a path that is there (the long way does it).
 */
function usualForm(u: Url, rule: NormalForm | undefined, h: string): string | null {
  if (rule?.host !== undefined) {
    const kept = rule.hostKeptAt;
    if (kept !== undefined) {
      if (!kept(h, u.hostStart, u.hostEnd)) return null;
    } else {
      const host = u.host!;
      if (rule.host(host) !== host) return null;
    }
  }
  // The path is read (a slice) only for a scheme whose rule may change it: without a rule, or
  // with one that keeps a clean path that is there, it stays as written.
  const pathRule = rule?.path;
  let rawPath: string | null = null;
  let path: string | null = null;
  if (pathRule !== undefined && (rule!.keepsCleanPath !== true || u.pathStart < 0)) {
    rawPath = u.path;
    path = pathRule(rawPath, true);
    if (path !== rawPath && rawPath !== null) return null;
  }
  let cut = -1;
  const ps = u.portStart;
  if (ps >= 0) {
    const le = u.loginEnd;
    if (h.charCodeAt(ps) === 48 && le - ps > 1) return null; // leading zeros
    // The written port is the scheme's default (no leading zero: compared as a number).
    const d = u.spec?.defaultPort;
    if (typeof d === 'number' && u.port === d) cut = ps - 1;
  }
  if (cut < 0 && path === rawPath) return h;
  const le = u.loginEnd;
  if (path === rawPath) return h.slice(0, cut) + h.slice(le); // only the default port cut
  let out = h.slice(0, cut < 0 ? le : cut);
  if (path !== null) out += '/' + path;
  return out + h.slice(rawPath === null ? le : u.bodyEnd);
}

// Whether the last formOf() changed a component through normalizeEscapes() or its scheme's rule
// (set as it returns, after every rule it called has run).
let rawChanged = false;

/**
 * The normal form of a record (RFC 1738 2.1, 2.2, 3.1) with the components' escapes put in normal
 * form, or, when `clean`, taken as they stand (a scheme's rules still apply). `stop` is where
 * normalAtOnce() stopped (-1 when not asked).
 */
function formOf(u: Url, rule: NormalForm | undefined, shortcut: boolean, clean: boolean, stop: number): string {
  const h = u.href;
  // Speed: each component's normal form is made first and compared with the same component as
  // written; when none changed (the usual URL: lower case, no default port, escapes in normal
  // form), the normal form is `href` itself, and no new string is built. `same` follows that.
  let same = shortcut && lowerScheme(h, u.schemePartStart - 1);
  let changed = false;
  const fragment = u.fragment;
  let frag: string | null = null;
  if (fragment !== null && fragment !== '') {
    frag = esc(fragment, clean);
    if (frag !== fragment) changed = true;
  } else if (fragment === '') same = false; // a void fragment id is dropped
  if (u.hasLogin) {
    const rawHost = u.host ?? '';
    // A host of lower-case letters, digits, "." and "-" only (as normalAtOnce()'s search passed,
    // or as the scanner noted) is its own normal form; any other goes through normalizeHost().
    let host = shortcut && (stop >= u.hostEnd || u.hostIsPlain()) ? rawHost : normalizeHost(rawHost);
    if (rule?.host) host = rule.host(host);
    if (host !== rawHost) same = false;
    // The port as digits, never through a number: 3.1 port = digits, of any length.
    const digits = u.portDigits;
    const defaultPort = u.spec?.defaultPort ?? null;
    const keepPort = digits !== null && (defaultPort === null || digits !== String(defaultPort));
    if (u.portStart >= 0 && (!keepPort || digits.length !== u.loginEnd - u.portStart)) same = false;
    const rawUser = u.rawUser;
    let user: string | null = null;
    let password: string | null = null;
    if (rawUser !== null) {
      user = esc(rawUser, clean);
      if (user !== rawUser) changed = true;
      const rawPassword = u.rawPassword;
      if (rawPassword !== null) {
        password = esc(rawPassword, clean);
        if (password !== rawPassword) changed = true;
      }
    }
    const rawPath = u.path;
    const path = rule?.path ? rule.path(rawPath, clean) : plainPath(rawPath, clean);
    if (path !== rawPath) {
      same = false;
      // Changed by its escapes, or only by the scheme's rule (e.g. ftp's type in lower case)?
      if (rawPath !== null && !clean && !escapesNormal(rawPath)) changed = true;
    }
    rawChanged = changed;
    if (same && !changed) return h;
    let out = u.scheme + '://';
    if (user !== null) {
      out += user;
      if (password !== null) out += ':' + password;
      out += '@';
    }
    out += host;
    if (keepPort) out += ':' + digits;
    if (path !== null) out += '/' + path;
    if (frag !== null) out += '#' + frag;
    return out;
  }
  // Speed: a scheme part without a rule that one search finds in normal form (or that is taken
  // as it stands) is not sliced, nor compared: `part` stays null.
  let part: string | null = null;
  const sps = u.schemePartStart;
  const be = u.bodyEnd;
  if (rule?.part !== undefined || !(clean || escapesNormal(h, DECODE_UNRESERVED, sps, be))) {
    const rawPart = u.schemePart;
    part = rule?.part ? rule.part(rawPart, clean) : clean ? rawPart : normalizeEscapes(h, DECODE_UNRESERVED, sps, be);
    if (part !== rawPart) {
      same = false;
      // Changed by its escapes, or only by the scheme's rule (e.g. mailto's domain in lower case)?
      if (rule?.part === undefined || (!clean && !escapesNormal(rawPart))) changed = true;
    }
  }
  rawChanged = changed;
  // An opaque URL whose scheme part and fragment are their own normal forms (the rules and
  // normalizeEscapes() return the string they were given when nothing changes) is `href` itself.
  if (same && !changed) return h;
  let out = u.scheme + ':' + (part ?? u.schemePart);
  if (frag !== null) out += '#' + frag;
  return out;
}

/** True when href[0, n), the scheme name, holds no upper-case letter (it is its own normal form). */
function lowerScheme(h: string, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const c = h.charCodeAt(i);
    if (c <= 90 && c >= 65) return false;
  }
  return true;
}

/** The codes by which the scanner reports a character that must be encoded, or a bad escape. */
const CHARACTER_CODES: ReadonlySet<string> = new Set(['unsafe-char', 'control-char', 'non-ascii', 'invalid-escape']);

/**
 * For a URL without "%": true when its list of violations (RFC 1738 2.2, 5) reports no character
 * that must be encoded.
 */
function cleanAsListed(u: Url): boolean {
  const h = u.href;
  // The scheme's usual form up to a character of the url-path or fragment that must be encoded:
  // the list reports that character, and no more than a few violations before it (its cap of
  // 100 keeps it), so the answer is known without the list.
  const k = u.hostStart >= 0 ? u.usualEnd() : -1;
  if (k > u.loginEnd && k < h.length && mustEncode(h.charCodeAt(k))) return false;
  if (u.charsClean()) return true; // nothing to report about a character: no need of the list
  const v = u.violations;
  for (let i = 0; i < v.length; i++) if (CHARACTER_CODES.has(v[i].code)) return false;
  return true;
}

/** normalize(), parsed. */
export function normalizeUrl(url: string | Url, options?: ParseOptions): Url {
  return parse(normalize(url, options));
}

export interface EquivalentOptions extends ParseOptions {
  /** Compare without the fragment ids (the URLs then name the same whole object). */
  ignoreFragment?: boolean;
}

/**
 * True when two URLs denote the same object under their scheme's rules: their normal forms are
 * equal (RFC 1738 2.2 and 3; see normalize()). Throws the LocatorError of parse() for a URL that
 * cannot be read.
 */
export function equivalent(a: string | Url, b: string | Url, options?: EquivalentOptions): boolean {
  expectUrl(a, 'equivalent: the first URL');
  expectUrl(b, 'equivalent: the second URL');
  let na = normalize(a, options);
  let nb = normalize(b, options);
  if (options?.ignoreFragment) {
    const ia = na.indexOf('#');
    const ib = nb.indexOf('#');
    if (ia >= 0) na = na.slice(0, ia);
    if (ib >= 0) nb = nb.slice(0, ib);
  }
  return na === nb;
}
