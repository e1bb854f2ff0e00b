// The character tables of the extract scanner (scan.ts), one entry per UTF-16 code unit, and
// the character classes it asks about (RFC 1738 2.1, 2.2).

import { CHAR_CLASS, SCHEME, HEX } from '../core/charclass.js';

// Inside a wrapper: 0 content, 1 horizontal white space, 2 CR, 3 LF, 4 "<", 5 ">", 6 a control
// character that is not white space (abandons the wrapper).
export const W_CONTENT = 0,
  W_SPACE = 1,
  W_CR = 2,
  W_LF = 3,
  W_OPEN = 4,
  W_CLOSE = 5,
  W_CONTROL = 6;
export const WRAP = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 32; c++) t[c] = W_CONTROL;
  t[127] = W_CONTROL;
  for (const c of [9, 11, 12, 32, 0xa0, 0x1680, 0x202f, 0x205f, 0x3000, 0xfeff, 0x2028, 0x2029]) t[c] = W_SPACE;
  for (let c = 0x2000; c <= 0x200a; c++) t[c] = W_SPACE;
  t[13] = W_CR;
  t[10] = W_LF;
  t[60] = W_OPEN;
  t[62] = W_CLOSE;
  return t;
})();

// A bare URL (RFC 1738 2.2): 1 a character that may appear unencoded, 2 "%", 3 "#"; 0 ends it
// (white space, controls, the unsafe characters < > " { } | \ ^ ~ [ ] `, and non-ASCII).
export const B_STOP = 0,
  B_OK = 1,
  B_PERCENT = 2,
  B_HASH = 3;
export const BARE = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 33; c < 127; c++) t[c] = B_OK;
  for (const ch of '<>"{}|\\^~[]`') t[ch.charCodeAt(0)] = B_STOP;
  t[37] = B_PERCENT;
  t[35] = B_HASH;
  return t;
})();

// Trailing punctuation left out of a bare URL: . , ; : ! ?
export const TRAIL = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128);
  for (const ch of '.,;:!?') t[ch.charCodeAt(0)] = 1;
  return t;
})();

export const isSchemeChar = (c: number) => c < 128 && (CHAR_CLASS[c] & SCHEME) !== 0;
export const isHex = (c: number) => c < 128 && (CHAR_CLASS[c] & HEX) !== 0;
export const isDigit = (c: number) => c >= 48 && c <= 57;
