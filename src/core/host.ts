// The host of the common Internet scheme syntax (RFC 1738 3.1): hostname or hostnumber, with
// the flags of the scanner's fast host check and the full check (readHost) it falls back on.

import { CHAR_CLASS, ALPHA, DIGIT } from './charclass.js';
import { INVALID_HOST, INVALID_IPV4 } from './errors.js';
import { badChar } from './chars.js';
import { note, noted, type Findings } from './violations.js';

// The fast host check of the scanner: one flag per UTF-16 code unit (code units of 128 and
// above are 0): 1 letter, 2 digit, 3 ".", 4 "-", 0 anything else.
export const HOST_FLAGS = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 128; c++) {
    if ((CHAR_CLASS[c] & ALPHA) !== 0) t[c] = 1;
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

