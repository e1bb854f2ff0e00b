// The scanner: one pass over the char codes of a URL that finds its parts and records their
// offsets (RFC 1738 sections 2.1, 2.2, 3.1 and 5, and the appendix). No regular expression and
// no substring on the way; the record slices and decodes only when a getter asks.

import { CHAR_CLASS, SCHEME } from './charclass.js';
import {
  LocatorError,
  EMPTY_INPUT,
  MISSING_SCHEME,
  INVALID_SCHEME,
  UNCLOSED_WRAPPER,
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
import { RESERVED_NAMES, type Report, type SchemeSyntax, type SchemeTable } from './scheme.js';
import { note, noted, listed, type Findings } from './violations.js';
import { BODY_CLASS, LONG_BODY, badChar, checkXchars, describe, hex, scanOctets } from './chars.js';
import { RESERVED_BIT, HOST_NOT_PLAIN_BIT, Url } from './url.js';
import { HOST_FLAGS, readHost, readLiteral, readPort, portError } from './host.js';

const USER_ALLOWED = USER_SET.allowed;

export interface ParseOptions {
  /**
   * Leniency, off by default: remove leading and trailing white space and a byte order mark
   * before parsing (each removal is still reported as a warning).
   */
  trim?: boolean;
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
  const list = takeFindings();
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
  // A prefix written twice ("<URL:URL:ftp://h/>") is removed twice: removing one would leave an
  // href that starts with a prefix, and that href would parse to another URL (found by fuzzing).
  while (
    end - start >= 4 &&
    (input.charCodeAt(start) | 32) === 117 &&
    (input.charCodeAt(start + 1) | 32) === 114 &&
    (input.charCodeAt(start + 2) | 32) === 108 &&
    input.charCodeAt(start + 3) === 58 &&
    (end - start === 4 || startsWithScheme(input, start + 4, end))
  ) {
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
        return fatal(
          INVALID_SCHEME,
          i,
          input,
          `${describe(input.charCodeAt(i))} cannot be part of a scheme name (letters, digits, "+", "." and "-")`,
        );
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
  let bodyStart = -1; // where the url-path or scheme part starts (-1: none)
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
    let hostUpper = false; // an upper-case letter after the last "@" (see HOST_NOT_PLAIN_BIT)
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
      if (f === 5) {
        allDigits = false;
        hostUpper = true;
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
        hostUpper = false;
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
    if (hostUpper || odd) list.seen |= HOST_NOT_PLAIN_BIT;
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
      note(list, IPV6_LITERAL, hostStart);
      const r = readLiteral(input, hostStart, loginEnd, input);
      if (typeof r !== 'number') return r;
      hostEnd = r;
      colon = hostEnd < loginEnd ? hostEnd : -1;
    } else {
      hostEnd = colon >= 0 ? colon : loginEnd;
      if (hostEnd === hostStart) {
        if (spec?.emptyHost !== true) note(list, EMPTY_HOST, hostStart);
      } else if (
        odd ||
        allDigits ||
        (colon >= 0 ? hostLast : prev) === 46 ||
        (colon >= 0 ? hostLast : prev) === 45 ||
        HOST_FLAGS[input.charCodeAt(labelStart)] === 2
      ) {
        readHost(input, hostStart, hostEnd, list);
      }
    }
    if (colon >= 0) {
      portStart = colon + 1;
      if (portStart === loginEnd) {
        note(list, EMPTY_PORT, colon);
      } else {
        port = readPort(input, portStart, loginEnd);
        if (port < 0) return portError(input, -1 - port, input);
        if (port > 65535) note(list, PORT_OUT_OF_RANGE, portStart);
      }
    }
    if (loginEnd < end) {
      if (input.charCodeAt(loginEnd) === 47) {
        pathStart = loginEnd + 1;
        bodyStart = pathStart;
      } else bodyEnd = loginEnd;
    }
  } else bodyStart = p;

  if (bodyStart >= 0) {
    // The xchar check of the url-path or scheme part up to the first "#" (RFC 1738 2.2, 5; the
    // October 1993 draft: "#" starts the fragment id), written out here rather than called.
    // Speed (issue 16): TurboFan inlines the calls of scan() until a cumulative budget of bytecode
    // is spent (the table lookup, the Url constructor, a scheme's validate() and what they
    // inline), and the call of this loop, which every URL runs through, was left out of it by a
    // few bytes (5-10% of parse, measured in the session before). Written here, the loop is
    // compiled into scan() whatever the budget; its cold paths (escapes, bad characters) stay calls.
    let k = bodyStart;
    if (end - k >= LONG_BODY) k = scanOctets(input, k, end, list);
    bodyEnd = end;
    for (; k < end; k++) {
      const c = input.charCodeAt(k);
      const f = BODY_CLASS[c];
      if (f === 1) continue;
      if (f === 2) {
        list.seen |= RESERVED_BIT[c];
        continue;
      }
      if (c === 35) {
        bodyEnd = k;
        break;
      }
      if (c === 37 && k + 2 < end && hex(input.charCodeAt(k + 1)) && hex(input.charCodeAt(k + 2))) {
        k += 2;
        continue;
      }
      k += badChar(input, k, end, list, INVALID_CHAR);
    }
    if (pathStart < 0 && spec?.syntax === 'internet') {
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
  // listed() only when something was noted: a clean URL makes no call (and spends none of the
  // inlining budget, see above, on its 239 bytes of bytecode).
  const violations = list.v === null ? null : listed(list);
  const url = new Url(
    href,
    scheme,
    spec,
    shift,
    o(schemeEnd),
    o(userStart),
    o(passwordStart),
    o(hostStart),
    o(hostEnd),
    o(portStart),
    port,
    o(loginEnd),
    o(pathStart),
    o(bodyEnd),
    o(fragmentStart),
    violations,
    list.seen,
  );
  if (spec?.validate === undefined) {
    spare = list;
    return url;
  }
  // The scheme's own rules read the record; what they find makes a second record.
  const before = noted(list);
  spec.validate(url, list.report);
  if (noted(list) === before) {
    spare = list;
    return url;
  }
  const again = new Url(
    href,
    scheme,
    spec,
    shift,
    o(schemeEnd),
    o(userStart),
    o(passwordStart),
    o(hostStart),
    o(hostEnd),
    o(portStart),
    port,
    o(loginEnd),
    o(pathStart),
    o(bodyEnd),
    o(fragmentStart),
    listed(list),
    list.seen,
  );
  spare = list;
  return again;
}

/** A Findings record with the report function that scheme rules write to it with. */
interface ScanFindings extends Findings {
  report: Report;
}

// Speed (issue 16): every parse needs a Findings record and, for a scheme with rules, a report
// function that writes to it; made per parse they were two of the allocations per URL the profile
// of parse() showed (with GC at 5-13% of it). A scan that ends with a record hands its Findings
// back here for the next scan (the record keeps a copy of the violations, never this list).
// A scan takes the spare one or makes one, so a parse nested in a scheme's validate() (or one
// that threw) never shares a Findings with another that is still running.
let spare: ScanFindings | null = null;

function takeFindings(): ScanFindings {
  const f = spare;
  if (f !== null) {
    spare = null;
    f.v = null;
    f.seen = 0;
    f.cap = undefined;
    return f;
  }
  const g: ScanFindings = { v: null, seen: 0, cap: undefined, capped: true, report: undefined as unknown as Report };
  g.report = (code, offset, message) => note(g, code, offset, message);
  return g;
}

/** True when input[start, end) begins with 1*scheme-char ":" (RFC 1738 2.1). */
function startsWithScheme(input: string, start: number, end: number): boolean {
  let i = start;
  while (i < end && input.charCodeAt(i) < 128 && (CHAR_CLASS[input.charCodeAt(i)] & SCHEME) !== 0) i++;
  return i > start && i < end && input.charCodeAt(i) === 58;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 0xfeff || c === 0xa0;
}

// Where other modules import them from (their home is now violations.ts, chars.ts and host.ts).
export { checkChars, checkXchars, badChar } from './chars.js';
export { MAX_VIOLATIONS, ViolationList, omittedCount, type Findings } from './violations.js';
