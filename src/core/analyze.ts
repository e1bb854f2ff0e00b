// The rules of a readable structure (RFC 1738 2.1, 2.2, 3.1 and 5; the October 1993 draft for
// the fragment): what the scanner (parse.ts) leaves for later. It finds the delimiters only; the
// record (url.ts) runs this on the first read of `valid`, `violations` or anything that depends
// on them, then the scheme's own rules, and keeps the list. The checks of each character are
// here: the user info, the host, the port, the url-path or scheme part and the fragment.

import type { Url } from './url.js';
import type { Report, SchemeSyntax } from './scheme.js';
import { CHAR_CLASS, RESERVED, UNRESERVED, XCHAR } from './charclass.js';
import {
  UNENCODED_DELIMITER,
  EMPTY_HOST,
  IPV6_LITERAL,
  EMPTY_PORT,
  PORT_OUT_OF_RANGE,
  INVALID_CHAR,
  RESERVED_SCHEME,
  EXPERIMENTAL_SCHEME,
  UNKNOWN_SCHEME,
  MISSING_SLASHES,
  TRIMMED,
} from './errors.js';
import { USER_SET } from './percent.js';
import { RESERVED_NAMES } from './scheme.js';
import { note, type Findings } from './violations.js';
import { badChar, hex } from './chars.js';
import { HOST_FLAGS, readHost } from './host.js';

const USER_ALLOWED = USER_SET.allowed;

/** A Findings record with the report function that scheme rules write to it with. */
export interface ScanFindings extends Findings {
  report: Report;
}

// Every analysis needs a Findings record and, for a scheme with rules, a report function that
// writes to it; one is kept here for the next analysis (the record keeps a copy of the
// violations, never this list). An analysis takes the spare one or makes one, so an analysis
// nested in a scheme's rules never shares a Findings with one that is still running.
// Speed, measured (2026-11-29, CPU-time rounds, same process, load 7-9): a new record and
// closure for every analysis instead of the spare makes parse + `valid` 0.88-0.92x as fast on
// schemes.txt (3 runs of 11 rounds), 0.99x on kasztp.txt; so the spare stays.
let spare: ScanFindings | null = null;

/** A Findings record for the violations of one URL (RFC 1738 2.2, 3.1, 5); give it back with releaseFindings(). */
export function takeFindings(): ScanFindings {
  const f = spare;
  if (f !== null) {
    spare = null;
    f.v = null;
    f.cap = undefined;
    return f;
  }
  // `report` closes over the record it writes to, so it is set once the record exists.
  const g: ScanFindings = { v: null, cap: undefined, capped: true, report: undefined as unknown as Report };
  g.report = (code, offset, message) => note(g, code, offset, message);
  return g;
}

/** Hands a Findings record back for the next analysis (of the violations of RFC 1738 2.2, 3.1, 5). */
export function releaseFindings(f: ScanFindings): void {
  spare = f;
}

/** The character class of the code units below 128 that `keep` accepts, for a RegExp. */
function charSet(keep: (c: number) => boolean): string {
  let set = '';
  for (let c = 0; c < 128; c++) {
    if (keep(c)) set += '\\u' + c.toString(16).padStart(4, '0');
  }
  return set;
}

const isBody = (c: number) => (CHAR_CLASS[c] & (UNRESERVED | RESERVED)) !== 0;
const isXchar = (c: number) => (CHAR_CLASS[c] & XCHAR) !== 0;
// The url-path or scheme part: unreserved and reserved characters ("/" is reserved) pass; the
// search stops at anything else ("#", "%" and the characters that must be encoded).
const BODY_RUN = /* @__PURE__ */ new RegExp(`[${charSet(isBody)}]*`, 'y');
// The fragment: xchar less escape.
const XCHAR_RUN = /* @__PURE__ */ new RegExp(`[${charSet(isXchar)}]*`, 'y');
// hostname = *[ domainlabel "." ] toplabel (RFC 1738 3.1, 5), when it ends where the host ends:
// readHost() would find nothing in it.
// Each label as alphanumerics with runs of "-" between them (the same language as alphadigit
// [ *( alphadigit | "-" ) alphadigit ], with less backtracking).
const HOSTNAME = '(?:[A-Za-z0-9]+(?:-+[A-Za-z0-9]+)*\\.)*[A-Za-z][A-Za-z0-9]*(?:-+[A-Za-z0-9]+)*';
const PLAIN_HOST = /* @__PURE__ */ new RegExp(HOSTNAME, 'y');
// hostnumber = digits "." digits "." digits "." digits, each group at most 255 written without a
// leading zero: readHost() finds nothing in it (it takes leading zeros too, judged there).
const GROUP = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const HOST = `(?:${HOSTNAME}|(?:${GROUP}\\.){3}${GROUP})`;
// Runs of characters that may stand as they are, with well-formed escapes between them.
const run = (set: string) => `[${set}]*(?:%[0-9A-Fa-f]{2}[${set}]*)*`;
const BODY = run(charSet(isBody));
const XCHARS = run(charSet(isXchar));
// user [ ":" password ] "@" with nothing to report (RFC 1738 3.1: ":", "@" and "/" encoded).
const USER = run(charSet((c) => USER_ALLOWED[c] === 1));
const LOGIN_USER = `${USER}(?::${USER})?@`;
// A whole URL with nothing to report, from its login (a user info, a host, a port of digits, a
// url-path of body characters, a fragment of xchars) or from its scheme part (no login).
const AFTER_HOST = `(?::[0-9]+)?(?:/${BODY})?(?:#${XCHARS})?`;
const CLEAN_LOGIN = /* @__PURE__ */ new RegExp(HOST + AFTER_HOST, 'y');
const CLEAN_USER_LOGIN = /* @__PURE__ */ new RegExp(LOGIN_USER + HOST + AFTER_HOST, 'y');
const CLEAN_AFTER_HOST = /* @__PURE__ */ new RegExp(AFTER_HOST, 'y');
const CLEAN_PART = /* @__PURE__ */ new RegExp(`${BODY}(?:#${XCHARS})?`, 'y');

/**
 * A sticky expression for a scheme's usual form (`SchemeSyntax.usual`), matched from the start
 * of the scheme part: "//", a user info when `user` (`SchemeSyntax.usualUser`), a host name or host number (or none, when `emptyHost`), a port of
 * digits when `port`, then "/" and `path` (a pattern, see bodyRun()) when `path` is not null
 * (required when `pathRequired`), then a fragment of xchars and well-formed escapes. What it
 * matches, the generic rules find nothing in (RFC 1738 2.2, 3.1, 5; the port's range is judged
 * apart); the scheme's pattern for the path says what its own rules accept.
 */
export function usualLogin(
  path: string,
  opts: { emptyHost?: boolean; port?: boolean; pathRequired?: boolean; user?: boolean } = {},
): RegExp {
  const user = opts.user === true ? LOGIN_USER : '';
  const host = user + (opts.emptyHost === true ? `${HOST}?` : HOST);
  const port = opts.port === false ? '' : '(?::[0-9]+)?';
  const tail = opts.pathRequired === true ? `/${path}` : `(?:/${path})?`;
  return new RegExp(`//${host}${port}${tail}(?:#${XCHARS})?`, 'y');
}

/**
 * A sticky expression for the usual form of a scheme without a login (`SchemeSyntax.usual`),
 * matched from the start of the scheme part: `part` (a pattern of characters the generic rules
 * pass: see bodySet() and bodyRun()), then a fragment of xchars and well-formed escapes (RFC
 * 1738 2.2, 5).
 */
export function usualPart(part: string): RegExp {
  return new RegExp(`${part}(?:#${XCHARS})?`, 'y');
}

/** A host name or host number with nothing to report (RFC 1738 3.1, 5), as a pattern. */
export const HOST_PATTERN = HOST;

/**
 * The url-path's characters that may stand as they are (RFC 1738 2.2, 5: unreserved and
 * reserved) less those in `except`, as the inside of a pattern's character class.
 */
export function bodySet(except: string): string {
  return charSet((c) => isBody(c) && !except.includes(String.fromCharCode(c)));
}

/**
 * Runs of the characters an encode set allows (RFC 1738 5; `allowed` as `EncodeSet.allowed`),
 * each of which the generic rules pass, with well-formed escapes between them: a pattern for
 * usualLogin().
 */
export function allowedRun(allowed: Uint8Array): string {
  return run(charSet((c) => allowed[c] === 1 && isBody(c)));
}

/**
 * Runs of the url-path's characters that may stand as they are (RFC 1738 2.2, 5: unreserved and
 * reserved) less those in `except`, with well-formed escapes between them: a pattern for
 * usualLogin().
 */
export function bodyRun(except: string): string {
  return run(bodySet(except));
}

// A login (a user info of characters that may stand as they are, no "%"; a host of lower-case
// letters, digits, "." and "-" alone; a port of digits), then a url-path or none, then no fragment
// or a non-empty one, each of characters that may stand as they are: what normalAtOnce() accepts.
const NORMAL_USER = `[${charSet((c) => isBody(c) && c !== 58 && c !== 64 && c !== 47)}]*`;
const NORMAL_REST = `[a-z0-9.-]*(?::[0-9]+)?(?:/[${charSet(isBody)}]*)?(?:#[${charSet(isXchar)}]+)?`;
const NORMAL_LOGIN = /* @__PURE__ */ new RegExp(NORMAL_REST, 'y');
const NORMAL_USER_LOGIN = /* @__PURE__ */ new RegExp(`${NORMAL_USER}(?::${NORMAL_USER})?@${NORMAL_REST}`, 'y');

/**
 * How far the URL from its login on is a user info (or none) and a host of lower-case letters,
 * digits, "." and "-" (or none), a port of digits (or none), then "/" and a url-path (or none),
 * then no fragment or a non-empty one, of characters that need no encoding and no escape (RFC
 * 1738 2.2, 3.1, 5): href's length when all of it is (then no character needs work, and the user
 * info, host and fragment are in normal form as written; the port may be the scheme's default,
 * or have leading zeros), else where the search stopped (an offset at or past `hostEnd` tells
 * that the host is of those characters alone), or -1 when there is no login or the user info is
 * not of that form (the URL may still be normal).
 */
export function normalAtOnce(url: Url): number {
  const hs = url.hostStart;
  if (hs < 0) return -1;
  const us = url.userStart;
  const re = us >= 0 ? NORMAL_USER_LOGIN : NORMAL_LOGIN;
  re.lastIndex = us >= 0 ? us : hs;
  return re.test(url.href) ? re.lastIndex : -1;
}

function missingSlashes(list: Findings, p: number, scheme: string): void {
  note(list, MISSING_SLASHES, p, `${scheme} URLs use the common Internet scheme syntax, which starts with "//"`);
}

/**
 * Reports the characters of input[start, end) that `run` does not pass and that are not well
 * formed escapes (RFC 1738 2.2, 5). Returns the offset of the first "#" when `hash` is true (the
 * url-path ends there), else `end`.
 */
function checkRun(input: string, start: number, end: number, list: Findings, run: RegExp, hash: boolean): number {
  let k = start;
  while (k < end) {
    run.lastIndex = k;
    run.test(input); // always matches, if only the empty run
    k = run.lastIndex;
    if (k >= end) return end;
    const c = input.charCodeAt(k);
    if (c === 35 && hash) return k;
    if (c === 37 && k + 2 < end && hex(input.charCodeAt(k + 1)) && hex(input.charCodeAt(k + 2))) {
      k += 3;
      continue;
    }
    k += badChar(input, k, end, list, INVALID_CHAR) + 1;
  }
  return end;
}

/**
 * True when the generic rules find nothing to report past the scheme name (RFC 1738 2.2, 3.1,
 * 5), found in one search: a user info of allowed characters, a host name or host number and a
 * port of digits (or an empty host where the scheme allows one), then a url-path and a fragment
 * of characters that need no encoding and well-formed escapes; or, without a login, a scheme
 * part and fragment of such characters (a missing "//" is not judged here). False when the
 * search stops short: the rules may find something.
 */
export function cleanAtOnce(url: Url, input: string, spec: SchemeSyntax | undefined): boolean {
  const shift = url.inputOffset;
  const end = shift + url.href.length;
  const hs = url.hostStart;
  let re: RegExp;
  if (hs < 0) {
    re = CLEAN_PART;
    re.lastIndex = shift + url.schemePartStart;
  } else {
    const ps = url.portStart;
    if (ps >= 0 && (ps === url.loginEnd || url.port === null)) return false;
    const us = url.userStart;
    if (us >= 0) {
      if (hs === url.hostEnd) return false;
      re = CLEAN_USER_LOGIN;
      re.lastIndex = us + shift;
    } else {
      re = hs === url.hostEnd && spec?.emptyHost === true ? CLEAN_AFTER_HOST : CLEAN_LOGIN;
      re.lastIndex = hs + shift;
    }
  }
  if (!re.test(input)) return false;
  const k = re.lastIndex;
  if (k === end) return true;
  // Stopped short: analyze() of this record takes up the checks where the search stopped.
  stoppedUrl = url;
  stoppedAt = k;
  return false;
}

// Where cleanAtOnce() last stopped short, and for which record: the characters before that
// offset need no second look (the search passed them), so analyze() starts its checks there.
let stoppedUrl: Url | null = null;
let stoppedAt = -1;

/**
 * Where the checks of the characters of `url` may start (in the input as given): past what
 * cleanAtOnce() passed when it stopped short in the url-path or fragment of this record, else
 * `from`. Past the login, the search has matched the host and port of the usual form: nothing
 * to report there.
 */
function resumeAt(url: Url, from: number, loginEnd: number): number {
  if (stoppedUrl !== url) return from;
  stoppedUrl = null;
  return stoppedAt > loginEnd ? stoppedAt : from;
}

/**
 * The violations of the generic syntax in a record `url` read from `input` (with `trim` as
 * given to parse()), in the order the eager scanner noted them, into a Findings record from
 * takeFindings(). Offsets are into the input as given. The structure is the record's: the scan
 * found it, and threw if it could not.
 */
export function analyze(url: Url, input: string, trim: boolean, spec: SchemeSyntax | undefined): ScanFindings {
  const list = takeFindings();
  const shift = url.inputOffset;
  const end = shift + url.href.length;
  if (trim) {
    // The wrapper "<" ">" lies between the trimmed ends and href.
    let s = 0;
    let e = input.length;
    while (s < e && isSpace(input.charCodeAt(s))) s++;
    while (e > s && isSpace(input.charCodeAt(e - 1))) e--;
    if (s > 0) note(list, TRIMMED, 0);
    if (e < input.length) note(list, TRIMMED, e);
  }
  const scheme = url.scheme;
  if (spec === undefined) {
    if (scheme.length > 2 && scheme.charCodeAt(0) === 120 && scheme.charCodeAt(1) === 45) {
      note(list, EXPERIMENTAL_SCHEME, shift);
    } else if (RESERVED_NAMES.has(scheme)) {
      note(list, RESERVED_SCHEME, shift);
    } else {
      note(list, UNKNOWN_SCHEME, shift, `the scheme "${scheme}" is not registered; it is read with the generic syntax`);
    }
  }
  const p = shift + url.schemePartStart;
  let bodyStart = p;
  const hs = url.hostStart;
  if (url.charsClean()) {
    if (hs < 0 && spec?.syntax === 'internet') missingSlashes(list, p, scheme);
    return list;
  }
  // The search stopped short: the checks below say at what, from where it stopped when that
  // was past the login.
  const from = resumeAt(url, p, hs < 0 ? p - 1 : url.loginEnd + shift);
  if (from > p) {
    if (hs >= 0) bodyStart = url.pathStart < 0 ? -1 : url.pathStart + shift;
  } else if (hs >= 0) {
    const hostStart = hs + shift;
    if (url.userStart >= 0) {
      // user [ ":" password ] "@": within both, ":", "@" and "/" must be encoded (RFC 1738 3.1).
      const at = hostStart - 1;
      let uc = -1;
      for (let k = url.userStart + shift; k < at; k++) {
        const c = input.charCodeAt(k);
        if (c < 128 && USER_ALLOWED[c] === 1) continue;
        if (c === 58) {
          if (uc < 0) uc = k;
          else note(list, UNENCODED_DELIMITER, k, 'a ":" inside the password must be encoded as %3A');
        } else if (c === 64) {
          note(list, UNENCODED_DELIMITER, k, 'an "@" inside the user or password must be encoded as %40');
        } else k += badChar(input, k, at, list, INVALID_CHAR);
      }
    }
    const hostEnd = url.hostEnd + shift;
    if (input.charCodeAt(hostStart) === 91) note(list, IPV6_LITERAL, hostStart);
    else if (hostEnd === hostStart) {
      if (spec?.emptyHost !== true) note(list, EMPTY_HOST, hostStart);
    } else {
      // A host name of the usual form is valid as it stands; anything else, readHost() judges.
      PLAIN_HOST.lastIndex = hostStart;
      if (!PLAIN_HOST.test(input) || PLAIN_HOST.lastIndex !== hostEnd) readHost(input, hostStart, hostEnd, list);
    }
    const ps = url.portStart;
    if (ps >= 0) {
      if (ps === url.loginEnd) note(list, EMPTY_PORT, hostEnd);
      else if (url.port === null) note(list, PORT_OUT_OF_RANGE, ps + shift);
    }
    bodyStart = url.pathStart < 0 ? -1 : url.pathStart + shift;
  }
  const bodyEnd = shift + url.bodyEnd;
  if (bodyStart >= 0) {
    if (from <= bodyEnd) checkRun(input, from > bodyStart ? from : bodyStart, end, list, BODY_RUN, true);
    if (hs < 0 && spec?.syntax === 'internet') missingSlashes(list, p, scheme);
  }
  if (bodyEnd < end) checkRun(input, from > bodyEnd ? from : bodyEnd + 1, end, list, XCHAR_RUN, false);
  return list;
}

/**
 * True when the host may hold more than lower-case letters, digits, "." and "-": an upper-case
 * letter or any other character after the login's last "@" (a port that is not digits counts
 * too), or a label the scanner's host check could not judge (RFC 1738 3.1). `href[start, end)`
 * is the login.
 */
export function hostNotPlain(h: string, start: number, end: number): boolean {
  let odd = false;
  let upper = false;
  let colon = false;
  let prev = 46;
  for (let j = start; j < end; j++) {
    const c = h.charCodeAt(j);
    const f = HOST_FLAGS[c];
    if (f === 1 || f === 2) {
      prev = c;
      continue;
    }
    if (f === 5) {
      upper = true;
      prev = c;
      continue;
    }
    if (c === 64) {
      colon = false;
      odd = false;
      upper = false;
      prev = 46;
      continue;
    }
    if (colon) continue;
    if (c === 58) {
      colon = true;
      continue;
    }
    if (f === 3) {
      if (prev === 46 || prev === 45) odd = true;
    } else if (f === 4) {
      if (prev === 46) odd = true;
    } else odd = true;
    prev = c;
  }
  return upper || odd;
}

/** White space a `trim` parse removes (the RFC 1738 appendix: white space around a URL is not part of it). */
export function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 0xfeff || c === 0xa0;
}
