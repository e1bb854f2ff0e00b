// The character checks of RFC 1738 2.2 and 5: which code units a component allows as they stand,
// and how a forbidden one is reported (badChar).

import { CHAR_CLASS, HEX, NATIONAL, PUNCTUATION, RESERVED, XCHAR } from './charclass.js';
import { INVALID_ESCAPE, NON_ASCII, CONTROL_CHAR, UNSAFE_CHAR, INVALID_CHAR } from './errors.js';
import { note, type Findings } from './violations.js';

/** One bit for each reserved character (RFC 1738 2.2) but "/": ";" "?" ":" "@" "&" "=". */
export const RESERVED_BIT: Uint8Array = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128);
  ';?:@&='.split('').forEach((ch, i) => {
    t[ch.charCodeAt(0)] = 1 << i;
  });
  return t;
})();

// xchar (less escape) as one flag per UTF-16 code unit: one load and one compare per character
// in the hot loop, with no range check (code units of 128 and above are 0).
const XCHAR_OK = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 128; c++) if ((CHAR_CLASS[c] & XCHAR) !== 0) t[c] = 1;
  return t;
})();

export const hex = (c: number) => c < 128 && (CHAR_CLASS[c] & HEX) !== 0;

export function describe(c: number): string {
  return c >= 33 && c < 127 ? `"${String.fromCharCode(c)}"` : `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * True for a code unit other than "%" that badChar() reports as unsafe, a control or non-ASCII
 * wherever it stands (RFC 1738 2.2: it must always be encoded).
 */
export function mustEncode(c: number): boolean {
  return c >= 127 || c <= 32 || (CHAR_CLASS[c] & (NATIONAL | PUNCTUATION)) !== 0;
}

/**
 * Classifies a code unit that the component does not allow as it stands (RFC 1738 2.2) and
 * reports it. `reservedCode` names the finding for a reserved character of the component.
 * Returns how many code units to skip (2 for a valid escape, 1 for a surrogate pair).
 */
export function badChar(s: string, i: number, end: number, list: Findings, reservedCode: string): number {
  const c = s.charCodeAt(i);
  if (c === 37) {
    if (i + 2 < end && hex(s.charCodeAt(i + 1)) && hex(s.charCodeAt(i + 2))) return 2;
    note(
      list,
      INVALID_ESCAPE,
      i,
      `"%" must be followed by two hexadecimal digits (RFC 1738 2.2); write "%25" for a literal "%"`,
    );
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
    note(
      list,
      reservedCode,
      i,
      (CHAR_CLASS[c] & RESERVED) !== 0 ? `the reserved character ${describe(c)} must be encoded here` : undefined,
    );
  }
  return 0;
}

/** Checks [start, end) against the allowed table; escapes are always allowed when well formed. */
export function checkChars(
  s: string,
  start: number,
  end: number,
  allowed: Uint8Array,
  list: Findings,
  reservedCode: string,
): void {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && allowed[c] === 1) continue;
    i += badChar(s, i, end, list, reservedCode);
  }
}

/** The xchar check of a scheme part, path or fragment: the hot loop (RFC 1738 2.2, 5). */
export function checkXchars(s: string, start: number, end: number, list: Findings): void {
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
