// The scanner: one pass over the char codes of a URL that finds its parts and records their
// offsets (RFC 1738 sections 2.1, 2.2, 3.1 and 5, and the appendix). No regular expression and
// no substring on the way; the record slices and decodes only when a getter asks.

import {
  CHAR_CLASS, ALPHA, DIGIT, HEX, NATIONAL, PUNCTUATION, RESERVED, SCHEME, UNRESERVED, XCHAR,
} from './charclass.js';
import {
  LocatorError, diagnostic, type Diagnostic,
  EMPTY_INPUT, MISSING_SCHEME, INVALID_SCHEME, INVALID_PORT, UNCLOSED_WRAPPER,
  INVALID_ESCAPE, NON_ASCII, CONTROL_CHAR, UNSAFE_CHAR, UNENCODED_DELIMITER, INVALID_HOST,
  EMPTY_HOST, INVALID_IPV4, IPV6_LITERAL, EMPTY_PORT, PORT_OUT_OF_RANGE, INVALID_CHAR,
  RESERVED_SCHEME, EXPERIMENTAL_SCHEME, UNKNOWN_SCHEME, MISSING_SLASHES, TRIMMED,
} from './errors.js';
import { USER_SET } from './percent.js';

const USER_ALLOWED = USER_SET.allowed;

// xchar (less escape) as one flag per UTF-16 code unit: one load and one compare per character
// in the hot loop, with no range check (code units of 128 and above are 0).
// For the fast host check: 1 letter, 2 digit, 3 ".", 4 "-", 0 anything else.
const HOST_FLAGS = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 128; c++) {
    if ((CHAR_CLASS[c] & ALPHA) !== 0) t[c] = 1;
    else if ((CHAR_CLASS[c] & DIGIT) !== 0) t[c] = 2;
  }
  t[46] = 3;
  t[45] = 4;
  return t;
})();

// The body loop: 1 for unreserved characters and "/", 2 for the other reserved characters (the
// scan notes which of them it met, so that scheme rules need not look again), 0 for the rest.
const BODY_CLASS = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 128; c++) {
    if ((CHAR_CLASS[c] & UNRESERVED) !== 0 || c === 47) t[c] = 1;
    else if ((CHAR_CLASS[c] & RESERVED) !== 0) t[c] = 2;
  }
  return t;
})();

const XCHAR_OK = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 128; c++) if ((CHAR_CLASS[c] & XCHAR) !== 0) t[c] = 1;
  return t;
})();
import { Url, RESERVED_BIT } from './url.js';
import { RESERVED_NAMES, type SchemeSyntax, type SchemeTable } from './scheme.js';

export interface ParseOptions {
  /**
   * Leniency, off by default: remove leading and trailing white space and a byte order mark
   * before parsing (each removal is still reported as a warning).
   */
  trim?: boolean;
}

/** What a scan collects: the violations, and which reserved characters the body holds. */
interface ScanState {
  v: Diagnostic[] | null;
  /** RESERVED_BIT of every reserved character met in the url-path or opaque scheme part. */
  seen: number;
  /** When set, only violations of this code are kept; the others are counted (checkRange). */
  only?: string;
  /** The cap on `v` (see MAX_VIOLATIONS); absent: every violation is kept. */
  cap?: Cap;
}

/**
 * At most this many violations are listed per URL (issue 10: a line dense in violations made
 * output and memory grow a hundredfold). The rest are counted in one final `too-many-violations`
 * diagnostic, at the offset of the first one not listed; its severity is "error" when one of
 * them is an error, so that `valid` stays true to the whole URL.
 */
export const MAX_VIOLATIONS = 100;
/** Declared in errors.ts. */
const TOO_MANY_VIOLATIONS = 'too-many-violations';

/** The bookkeeping of a capped list: the violations listed are the MAX_VIOLATIONS first by offset. */
interface Cap {
  /** Violations noted, listed or not. */
  count: number;
  /** The largest offset in the list. */
  maxKept: number;
  /** Violations not listed: how many, the smallest offset, and whether one is an error. */
  omitted: number;
  omittedAt: number;
  omittedError: boolean;
}

/** The summary diagnostics made here, with the count each stands for (for lint to merge). */
const SUMMARIES = new WeakMap<Diagnostic, number>();

function newCap(): Cap {
  return { count: 0, maxKept: -1, omitted: 0, omittedAt: Infinity, omittedError: false };
}

/** How many violations a `too-many-violations` diagnostic of this module stands for, else 0. */
export function omittedCount(d: Diagnostic): number {
  return SUMMARIES.get(d) ?? 0;
}

function omit(cap: Cap, offset: number, n: number, error: boolean): void {
  cap.omitted += n;
  if (offset < cap.omittedAt) cap.omittedAt = offset;
  if (error) cap.omittedError = true;
}

/** Sorts the list by offset (stably) and keeps its MAX_VIOLATIONS first, counting the rest. */
function compact(list: Diagnostic[], cap: Cap): void {
  if (list.length > 1) list.sort(byOffset);
  for (let k = MAX_VIOLATIONS; k < list.length; k++) omit(cap, list[k].offset, 1, list[k].severity === 'error');
  if (list.length > MAX_VIOLATIONS) list.length = MAX_VIOLATIONS;
  cap.maxKept = list.length === 0 ? -1 : list[list.length - 1].offset;
}

/**
 * Notes a finding. Past the cap, a finding at or after every listed offset is only counted (the
 * scan goes forward, so this is the common case: constant time, no list growth); one before them
 * is listed and the list compacted when it reaches twice the cap. Time stays linear in the
 * number of findings and memory bounded by the cap.
 */
function noteDiagnostic(st: ScanState, d: Diagnostic): void {
  const cap = st.cap;
  if (cap === undefined) {
    if (st.v === null) st.v = [d];
    else st.v.push(d);
    return;
  }
  cap.count++;
  const v = st.v;
  if (v === null) {
    st.v = [d];
    cap.maxKept = d.offset;
    return;
  }
  if (v.length >= MAX_VIOLATIONS && d.offset >= cap.maxKept) {
    omit(cap, d.offset, 1, d.severity === 'error');
    return;
  }
  v.push(d);
  if (d.offset > cap.maxKept) cap.maxKept = d.offset;
  if (v.length >= 2 * MAX_VIOLATIONS) compact(v, cap);
}

/** Notes a violation of a declared code. */
function note(st: ScanState, code: string, offset: number, message?: string): void {
  if (st.only !== undefined && code !== st.only) {
    if (st.cap !== undefined) st.cap.count++;
    return;
  }
  noteDiagnostic(st, diagnostic(code, offset, message));
}

/** The count of violations noted so far (listed or not). */
function noted(st: ScanState): number {
  return st.cap !== undefined ? st.cap.count : st.v?.length ?? 0;
}

/**
 * The violations of a capped list in offset order: the MAX_VIOLATIONS first, then, when more
 * were found, one `too-many-violations` that counts them. A new array each time.
 */
function listed(st: ScanState): Diagnostic[] | null {
  const v = st.v;
  const cap = st.cap;
  if (v === null || cap === undefined) return v === null ? null : v.slice();
  compact(v, cap);
  if (cap.omitted === 0) return v.slice();
  const d = diagnostic(TOO_MANY_VIOLATIONS, cap.omittedAt,
    `${cap.omitted} more violation${cap.omitted === 1 ? '' : 's'} from offset ${cap.omittedAt} on ${cap.omitted === 1 ? 'is' : 'are'} not listed: only the first ${MAX_VIOLATIONS} of a URL are`,
    cap.omittedError ? 'error' : 'warning');
  SUMMARIES.set(d, cap.omitted);
  return [...v, d];
}

/**
 * A capped list of findings for callers outside the scanner (lint): push() each finding, or a
 * list that may end in a summary of this module (its count is carried over); list() gives the
 * MAX_VIOLATIONS first by offset and a summary of the rest.
 */
export class ViolationList {
  readonly #st: ScanState = { v: null, seen: 0, cap: newCap() };

  /** Adds one finding (RFC 1738 2.2, 5: a violation; RFC 1738 6: a danger). */
  push(d: Diagnostic): void {
    const n = omittedCount(d);
    if (n > 0) {
      const cap = this.#st.cap!;
      cap.count += n;
      omit(cap, d.offset, n, d.severity === 'error');
    } else noteDiagnostic(this.#st, d);
  }

  /** Adds every finding of `list`. */
  pushAll(list: readonly Diagnostic[]): void {
    for (const d of list) this.push(d);
  }

  /** The findings in offset order, capped. */
  list(): Diagnostic[] {
    return listed(this.#st) ?? [];
  }
}

const hex = (c: number) => c < 128 && (CHAR_CLASS[c] & HEX) !== 0;

function describe(c: number): string {
  return c >= 33 && c < 127 ? `"${String.fromCharCode(c)}"` : `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Classifies a code unit that the component does not allow as it stands (RFC 1738 2.2) and
 * reports it. `reservedCode` names the finding for a reserved character of the component.
 * Returns how many code units to skip (2 for a valid escape, 1 for a surrogate pair).
 */
function badChar(
  s: string, i: number, end: number, list: ScanState, reservedCode: string,
): number {
  const c = s.charCodeAt(i);
  if (c === 37) {
    if (i + 2 < end && hex(s.charCodeAt(i + 1)) && hex(s.charCodeAt(i + 2))) return 2;
    note(list, INVALID_ESCAPE, i,
      `"%" must be followed by two hexadecimal digits (RFC 1738 2.2); write "%25" for a literal "%"`);
    return 0;
  }
  if (c >= 128) {
    note(list, NON_ASCII, i, `${describe(c)} is not US-ASCII and must be encoded as %XX octets`);
    return c >= 0xd800 && c <= 0xdbff && i + 1 < end && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 1 : 0;
  }
  if (c < 32 || c === 127) {
    note(list, CONTROL_CHAR, i, `the control character ${describe(c)} must be encoded`);
  } else if (c === 32 || (CHAR_CLASS[c] & (NATIONAL | PUNCTUATION)) !== 0) {
    note(list, UNSAFE_CHAR, i, `the unsafe character ${c === 32 ? 'space' : describe(c)} must be encoded`);
  } else {
    note(list, reservedCode, i,
      (CHAR_CLASS[c] & RESERVED) !== 0 ? `the reserved character ${describe(c)} must be encoded here` : undefined);
  }
  return 0;
}

/** Checks [start, end) against the allowed table; escapes are always allowed when well formed. */
function checkChars(
  s: string, start: number, end: number, allowed: Uint8Array,
  list: ScanState, reservedCode: string,
): void {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && allowed[c] === 1) continue;
    i += badChar(s, i, end, list, reservedCode);
  }
}

/** The xchar check of a scheme part, path or fragment: the hot loop (RFC 1738 2.2, 5). */
function checkXchars(s: string, start: number, end: number, list: ScanState): void {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (XCHAR_OK[c] === 1) continue;
    if (c === 37 && i + 2 < end && hex(s.charCodeAt(i + 1)) && hex(s.charCodeAt(i + 2))) {
      i += 2;
      continue;
    }
    i += badChar(s, i, end, list, INVALID_CHAR);
  }
}

/**
 * The xchar check of a url-path or scheme part up to the first "#" (RFC 1738 2.2, 5; the
 * October 1993 draft: "#" starts the fragment id). Returns the offset of that "#", or `end`.
 */
function scanToHash(s: string, start: number, end: number, list: ScanState): number {
  let i = start;
  if (end - start >= LONG_BODY) i = scanOctets(s, start, end, list);
  for (; i < end; i++) {
    const c = s.charCodeAt(i);
    const f = BODY_CLASS[c];
    if (f === 1) continue;
    if (f === 2) {
      list.seen |= RESERVED_BIT[c];
      continue;
    }
    if (c === 35) return i;
    if (c === 37 && i + 2 < end && hex(s.charCodeAt(i + 1)) && hex(s.charCodeAt(i + 2))) {
      i += 2;
      continue;
    }
    i += badChar(s, i, end, list, INVALID_CHAR);
  }
  return end;
}

// A long body is first turned into octets by the platform's UTF-8 encoder (native code) and
// scanned as bytes: a load from a Uint8Array is cheaper than charCodeAt on the sliced strings
// that lines of a file are. The scratch buffer is private to this function, which calls nothing
// that could come back here.
const LONG_BODY = 28;
const encoder = /* @__PURE__ */ new TextEncoder();
let scratch = new Uint8Array(1024);

/**
 * The fast part of scanToHash over octets: returns the offset where the char-code loop must go
 * on (the first character that is neither unreserved, "/" nor reserved, or `start` when the body
 * is not all ASCII).
 */
function scanOctets(s: string, start: number, end: number, list: ScanState): number {
  const n = end - start;
  if (scratch.length < n) scratch = new Uint8Array(Math.max(n, scratch.length * 2));
  const r = encoder.encodeInto(s.slice(start, end), scratch);
  if (r.written !== n || r.read !== n) return start;
  const b = scratch;
  let seen = 0;
  let k = 0;
  for (; k < n; k++) {
    const c = b[k];
    const f = BODY_CLASS[c];
    if (f === 1) continue;
    if (f === 2) {
      seen |= RESERVED_BIT[c];
      continue;
    }
    break;
  }
  list.seen |= seen;
  return start + k;
}

/**
 * Reads and checks a host (RFC 1738 3.1): hostname = *[ domainlabel "." ] toplabel, or
 * hostnumber = digits "." digits "." digits "." digits. The host ends at the first ":" (the
 * port follows) or at `limit`; returns that end. Reports the first offending character.
 */
function readHost(s: string, start: number, limit: number, list: ScanState): number {
  let dots = 0;
  let allDigitsOrDots = true;
  let labelStart = start;
  let i = start;
  let bad = -1;
  for (; i < limit; i++) {
    const c = s.charCodeAt(i);
    if (c === 58) break;
    if (bad >= 0) continue;
    if (c === 46) {
      if (i === labelStart) {
        bad = i;
        note(list, INVALID_HOST, i, 'a host name has no empty label');
      } else if (s.charCodeAt(i - 1) === 45) {
        bad = i;
        note(list, INVALID_HOST, i - 1, 'a domain label does not end with "-"');
      }
      dots++;
      labelStart = i + 1;
      continue;
    }
    const cls = c < 128 ? CHAR_CLASS[c] : 0;
    if ((cls & ALPHA) !== 0) {
      allDigitsOrDots = false;
      continue;
    }
    if ((cls & DIGIT) !== 0) continue;
    if (c === 45 && i !== labelStart) {
      allDigitsOrDots = false;
      continue;
    }
    bad = i;
    if (c === 45) {
      note(list, INVALID_HOST, i, 'a domain label does not start with "-"');
      continue;
    }
    const before = noted(list);
    i += badChar(s, i, limit, list, INVALID_HOST);
    if (noted(list) === before) {
      // a valid escape: hosts take no escapes (hostname and hostnumber are plain characters)
      note(list, INVALID_HOST, i - 2, 'a host takes no %XX escapes');
    }
  }
  const end = i;
  if (bad >= 0 || end === start) return end;
  if (labelStart === end) {
    note(list, INVALID_HOST, end - 1, 'a host name does not end with "."');
  } else if (s.charCodeAt(end - 1) === 45) {
    note(list, INVALID_HOST, end - 1, 'a domain label does not end with "-"');
  } else if (allDigitsOrDots) {
    if (dots !== 3) {
      note(list, INVALID_HOST, labelStart,
        'the last label of a host name starts with a letter, and a host number has four groups');
      return end;
    }
    let value = 0;
    let groupStart = start;
    for (let k = start; k <= end; k++) {
      const c = k < end ? s.charCodeAt(k) : 46;
      if (c === 46) {
        if (value > 255) {
          note(list, INVALID_IPV4, groupStart);
          return end;
        }
        value = 0;
        groupStart = k + 1;
      } else value = value * 10 + (c - 48);
    }
  } else {
    const top = s.charCodeAt(labelStart);
    if (top < 128 && (CHAR_CLASS[top] & DIGIT) !== 0) {
      note(list, INVALID_HOST, labelStart, 'the last label of a host name does not start with a digit');
    }
  }
  return end;
}

/**
 * Parses an absolute URL with the schemes of `table` (RFC 1738 2.1, 3.1, 5; appendix for `URL:`
 * and `<...>`; the October 1993 draft for the fragment after "#"). Throws a LocatorError when no
 * structure can be read; rules broken in a readable structure are collected as `violations`.
 * The record keeps the entry of its scheme from `table` (it never changes after). `parse()` of
 * the package is this with the registry's table.
 */
export function parseWith(table: SchemeTable, input: string, options?: ParseOptions): Url {
  const r = scan(input, options, table);
  if (r instanceof Url) return r;
  throw r;
}

/** Like parseWith(), but returns the LocatorError instead of throwing it (RFC 1738 2.1). */
export function tryParseWith(table: SchemeTable, input: string, options?: ParseOptions): Url | LocatorError {
  return scan(input, options, table);
}

function fatal(code: string, offset: number, input: string, message?: string): LocatorError {
  return new LocatorError(code, offset, message, { input });
}

function scan(input: string, options: ParseOptions | undefined, table: SchemeTable): Url | LocatorError {
  if (typeof input !== 'string') {
    // API misuse, not a finding about a URL (tryParse too: it returns errors about URLs only).
    throw new TypeError(`parse: the URL must be a string, not ${input === null ? 'null' : typeof input}`);
  }
  const list: ScanState = { v: null, seen: 0, cap: newCap() };
  let start = 0;
  let end = input.length;
  if (options?.trim) {
    while (start < end && isSpace(input.charCodeAt(start))) start++;
    while (end > start && isSpace(input.charCodeAt(end - 1))) end--;
    if (start > 0) note(list, TRIMMED, 0);
    if (end < input.length) note(list, TRIMMED, end);
  }
  if (start === end) return fatal(EMPTY_INPUT, 0, input);

  // RFC 1738 appendix: the wrapper "<" ... ">" and the prefix "URL:" are not part of the URL.
  if (input.charCodeAt(start) === 60) {
    if (input.charCodeAt(end - 1) !== 62) return fatal(UNCLOSED_WRAPPER, start, input);
    start++;
    end--;
  }
  // "URL:" is the prefix only when a "scheme:" follows it; otherwise "url" is the scheme itself.
  if (end - start >= 4 && (input.charCodeAt(start) | 32) === 117 && (input.charCodeAt(start + 1) | 32) === 114
    && (input.charCodeAt(start + 2) | 32) === 108 && input.charCodeAt(start + 3) === 58
    && (end - start === 4 || startsWithScheme(input, start + 4, end))) {
    start += 4;
  }

  // RFC 1738 2.1: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ], case-insensitive.
  let i = start;
  let upper = false;
  let hash = 0;
  for (; i < end; i++) {
    let c = input.charCodeAt(i);
    if (c < 128 && (CHAR_CLASS[c] & SCHEME) !== 0) {
      if (c <= 90 && c >= 65) {
        upper = true;
        c |= 32;
      }
      hash = (Math.imul(hash, 31) + c) >>> 0;
      continue;
    }
    break;
  }
  if (i === end || input.charCodeAt(i) !== 58) {
    // Not "scheme:". Say where the scheme goes wrong if a ":" follows before any "/", "?" or "#".
    for (let j = i; j < end; j++) {
      const c = input.charCodeAt(j);
      if (c === 47 || c === 63 || c === 35) break;
      if (c === 58) {
        return fatal(INVALID_SCHEME, i, input,
          `${describe(input.charCodeAt(i))} cannot be part of a scheme name (letters, digits, "+", "." and "-")`);
      }
    }
    return fatal(MISSING_SCHEME, start, input);
  }
  if (i === start) return fatal(MISSING_SCHEME, start, input, 'the scheme name before ":" is empty');
  const schemeEnd = i;
  const spec: SchemeSyntax | undefined = table.lookup(input, start, schemeEnd, hash);
  let scheme: string;
  if (spec !== undefined) scheme = spec.name;
  else {
    scheme = input.slice(start, schemeEnd);
    if (upper) scheme = scheme.toLowerCase();
  }

  if (spec === undefined) {
    if (scheme.length > 2 && scheme.charCodeAt(0) === 120 && scheme.charCodeAt(1) === 45) {
      note(list, EXPERIMENTAL_SCHEME, start);
    } else if (RESERVED_NAMES.has(scheme)) {
      note(list, RESERVED_SCHEME, start);
    } else {
      note(list, UNKNOWN_SCHEME, start, `the scheme "${scheme}" is not registered; it is read with the generic syntax`);
    }
  }

  // The first "#" ends the URL and starts the fragment id; each loop below stops at it.
  let bodyEnd = end;
  let fragmentStart = -1;
  let userStart = -1;
  let passwordStart = -1;
  let hostStart = -1;
  let hostEnd = -1;
  let portStart = -1;
  let port = -1;
  let loginEnd = -1;
  let pathStart = -1;
  const p = schemeEnd + 1;

  if (p + 1 < end && input.charCodeAt(p) === 47 && input.charCodeAt(p + 1) === 47 && spec?.syntax !== 'opaque') {
    // RFC 1738 3.1: //<user>:<password>@<host>:<port>/<url-path>
    // One pass over the login: it ends at the first "/" (or "#"); the user info ends at the last
    // "@" (an "@" inside it must be encoded, and is reported below); the host ends at the first
    // ":" after that. The host is checked on the way; on an "@" the check starts again.
    const loginStart = p + 2;
    let at = -1;
    let colon = -1;
    let hs = loginStart;
    let odd = false; // something the fast host check cannot judge: readHost() says what
    let allDigits = true;
    let labelStart = hs;
    let prev = 46;
    let hostLast = -1;
    let j = loginStart;
    for (; j < end; j++) {
      const c = input.charCodeAt(j);
      const f = HOST_FLAGS[c];
      if (f === 1) {
        allDigits = false;
        prev = c;
        continue;
      }
      if (f === 2) {
        prev = c;
        continue;
      }
      if (c === 47 || c === 35) break;
      if (c === 64) {
        at = j;
        hs = j + 1;
        colon = -1;
        hostLast = -1;
        odd = false;
        allDigits = true;
        labelStart = hs;
        prev = 46;
        continue;
      }
      if (colon >= 0) continue;
      if (c === 58) {
        colon = j;
        hostLast = prev; // the port's digits below must not count as the host's last character
        continue;
      }
      if (f === 3) {
        if (prev === 46 || prev === 45) odd = true;
        labelStart = j + 1;
      } else if (f === 4) {
        if (prev === 46) odd = true;
        allDigits = false;
      } else odd = true;
      prev = c;
    }
    loginEnd = j;
    if (at >= 0) {
      userStart = loginStart;
      // user [ ":" password ] "@": within both, ":", "@" and "/" must be encoded (RFC 1738 3.1).
      let uc = -1;
      for (let k = loginStart; k < at; k++) {
        const c = input.charCodeAt(k);
        if (c < 128 && USER_ALLOWED[c] === 1) continue;
        if (c === 58) {
          if (uc < 0) uc = k;
          else note(list, UNENCODED_DELIMITER, k, 'a ":" inside the password must be encoded as %3A');
        } else if (c === 64) {
          note(list, UNENCODED_DELIMITER, k, 'an "@" inside the user or password must be encoded as %40');
        } else k += badChar(input, k, at, list, INVALID_CHAR);
      }
      if (uc >= 0) passwordStart = uc + 1;
    }
    hostStart = hs;

    // host [ ":" port ]; a bracketed IPv6 literal is read as a host but is not RFC 1738.
    if (input.charCodeAt(hostStart) === 91) {
      const close = input.indexOf(']', hostStart);
      note(list, IPV6_LITERAL, hostStart);
      if (close < 0 || close >= loginEnd) return fatal(INVALID_HOST, hostStart, input, 'a "[" in the host is not closed by "]"');
      hostEnd = close + 1;
      colon = -1;
      if (hostEnd < loginEnd) {
        if (input.charCodeAt(hostEnd) !== 58) return fatal(INVALID_HOST, hostEnd, input, 'only ":" and a port may follow "]"');
        colon = hostEnd;
      }
    } else {
      hostEnd = colon >= 0 ? colon : loginEnd;
      if (hostEnd === hostStart) {
        if (spec?.emptyHost !== true) note(list, EMPTY_HOST, hostStart);
      } else if (odd || allDigits || (colon >= 0 ? hostLast : prev) === 46 || (colon >= 0 ? hostLast : prev) === 45
        || HOST_FLAGS[input.charCodeAt(labelStart)] === 2) {
        readHost(input, hostStart, hostEnd, list);
      }
    }
    if (colon >= 0) {
      portStart = colon + 1;
      if (portStart === loginEnd) {
        note(list, EMPTY_PORT, colon);
      } else {
        port = 0;
        for (let k = portStart; k < loginEnd; k++) {
          const c = input.charCodeAt(k);
          if (c < 48 || c > 57) {
            return fatal(INVALID_PORT, k, input, `the port must be decimal digits; ${describe(c)} is not a digit`);
          }
          // Stop counting past 65535: the value would pass through a double and lose digits.
          // The record keeps only "over 65535"; the digits are read back from href (Url.portDigits).
          if (port <= 65535) port = port * 10 + (c - 48);
        }
        if (port > 65535) note(list, PORT_OUT_OF_RANGE, portStart);
      }
    }
    if (loginEnd < end) {
      if (input.charCodeAt(loginEnd) === 47) {
        pathStart = loginEnd + 1;
        bodyEnd = scanToHash(input, pathStart, end, list);
      } else bodyEnd = loginEnd;
    }
  } else {
    bodyEnd = scanToHash(input, p, end, list);
    if (spec?.syntax === 'internet') {
      note(list, MISSING_SLASHES, p, `${scheme} URLs use the common Internet scheme syntax, which starts with "//"`);
    }
  }
  if (bodyEnd < end) {
    fragmentStart = bodyEnd + 1;
    checkXchars(input, fragmentStart, end, list);
  }

  let href = input;
  const shift = start;
  if (start !== 0 || end !== input.length) {
    href = input.slice(start, end);
  }
  const o = (n: number) => (n < 0 ? n : n - shift);
  const url = new Url(
    href, scheme, spec, shift, o(schemeEnd), o(userStart), o(passwordStart), o(hostStart), o(hostEnd),
    o(portStart), port, o(loginEnd), o(pathStart), o(bodyEnd), o(fragmentStart), listed(list), list.seen,
  );
  if (spec?.validate === undefined) return url;
  // The scheme's own rules read the record; what they find makes a second record.
  const before = noted(list);
  spec.validate(url, (code, offset, message) => note(list, code, offset, message));
  if (noted(list) === before) return url;
  return new Url(
    href, scheme, spec, shift, o(schemeEnd), o(userStart), o(passwordStart), o(hostStart), o(hostEnd),
    o(portStart), port, o(loginEnd), o(pathStart), o(bodyEnd), o(fragmentStart), listed(list), list.seen,
  );
}

/** True when input[start, end) begins with 1*scheme-char ":" (RFC 1738 2.1). */
function startsWithScheme(input: string, start: number, end: number): boolean {
  let i = start;
  while (i < end && input.charCodeAt(i) < 128 && (CHAR_CLASS[input.charCodeAt(i)] & SCHEME) !== 0) i++;
  return i > start && i < end && input.charCodeAt(i) === 58;
}

function byOffset(a: Diagnostic, b: Diagnostic): number {
  return a.offset - b.offset;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 0xfeff || c === 0xa0;
}

export { checkChars, checkXchars, badChar };
