// The host of the common Internet scheme syntax (RFC 1738 3.1): hostname or hostnumber, with
// the flags of the scanner's fast host check and the full check (readHost) it falls back on.

import { CHAR_CLASS, ALPHA, DIGIT } from './charclass.js';
import { LocatorError, INVALID_HOST, INVALID_IPV4, INVALID_PORT } from './errors.js';
import { badChar, describe } from './chars.js';
import { note, noted, type Findings } from './violations.js';

// The fast host check of the scanner: one flag per UTF-16 code unit (code units of 128 and
// above are 0): 1 lower-case letter, 5 upper-case letter, 2 digit, 3 ".", 4 "-", 0 anything else.
// Upper case has its own flag so that the scanner can note it (Url.hostIsPlain()) at no cost for
// the usual lower-case host.
export const HOST_FLAGS = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 128; c++) {
    if ((CHAR_CLASS[c] & ALPHA) !== 0) t[c] = c <= 90 ? 5 : 1;
    else if ((CHAR_CLASS[c] & DIGIT) !== 0) t[c] = 2;
  }
  t[46] = 3;
  t[45] = 4;
  return t;
})();

/**
 * Reads and checks a host (RFC 1738 3.1): hostname = *[ domainlabel "." ] toplabel, or
 * hostnumber = digits "." digits "." digits "." digits. The host ends at the first ":" (the
 * port follows) or at `limit`; returns that end. Reports the first offending character.
 */
export function readHost(s: string, start: number, limit: number, list: Findings): number {
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
      note(
        list,
        INVALID_HOST,
        labelStart,
        'the last label of a host name starts with a letter, and a host number has four groups',
      );
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
 * Reads a bracketed IPv6 literal at `start` (a "[": RFC 2732, not RFC 1738 3.1, which the
 * scanner reports as `ipv6-literal`) in a login that ends at `end`: returns the offset just
 * after its "]", or the LocatorError when no "]" closes it or something other than ":" and a
 * port follows it.
 */
export function readLiteral(s: string, start: number, end: number, input: string): number | LocatorError {
  const close = s.indexOf(']', start);
  if (close < 0 || close >= end) {
    return new LocatorError(INVALID_HOST, start, 'a "[" in the host is not closed by "]"', { input });
  }
  const after = close + 1;
  if (after < end && s.charCodeAt(after) !== 58) {
    return new LocatorError(INVALID_HOST, after, 'only ":" and a port may follow "]"', { input });
  }
  return after;
}

/**
 * Reads the port [start, end) (RFC 1738 3.1: port = digits, not empty here): its value, or
 * -1 - k when the code unit at k is not a digit (portError says what). Counting stops past
 * 65535: the value would pass through a double and lose digits; the record keeps only "over
 * 65535" and reads the digits back from href (Url.portDigits).
 */
export function readPort(s: string, start: number, end: number): number {
  let port = 0;
  for (let k = start; k < end; k++) {
    const c = s.charCodeAt(k);
    if (c < 48 || c > 57) return -1 - k;
    if (port <= 65535) port = port * 10 + (c - 48);
  }
  return port;
}

/** The error of a port whose code unit at `k` is not a digit (RFC 1738 3.1: port = digits). */
export function portError(s: string, k: number, input: string): LocatorError {
  return new LocatorError(
    INVALID_PORT,
    k,
    `the port must be decimal digits; ${describe(s.charCodeAt(k))} is not a digit`,
    { input },
  );
}

/**
 * The error that makes a login [start, end) unreadable as `[ user [ ":" password ] "@" ] host
 * [ ":" port ]` (RFC 1738 3.1), or null: an unclosed or ill-followed "[" literal, a port that
 * is not digits. The same rules as the scanner's, for a login that is not part of a whole URL
 * (the net_loc of a partial form); offsets point into `s`, which is `input`. The violations
 * that do not stop the scanner (a bad host name, an empty port) are not looked for here.
 */
export function checkLogin(s: string, start: number, end: number): LocatorError | null {
  const at = s.lastIndexOf('@', end - 1);
  const hostStart = at >= start ? at + 1 : start;
  let colon: number;
  if (s.charCodeAt(hostStart) === 91 && hostStart < end) {
    const r = readLiteral(s, hostStart, end, s);
    if (typeof r !== 'number') return r;
    colon = r < end ? r : -1;
  } else {
    colon = s.indexOf(':', hostStart);
    if (colon >= end) colon = -1;
  }
  if (colon < 0 || colon + 1 === end) return null;
  const port = readPort(s, colon + 1, end);
  return port < 0 ? portError(s, -1 - port, s) : null;
}
