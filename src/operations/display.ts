// The "safer" and display forms of the drafts (the normal form is in normalize.ts, which
// re-exports these two):
//
//   "As a % sign always indicates an encoded character, a URL may be made safer simply by
//   encoding any characters considered unsafe, while leaving already encoded characters still
//   encoded." (draft 1993-10, "Encoding prohibited characters"; the 1994-03 draft adds:)
//   "Similarly, in cases where a larger set of characters is acceptable, % signs can be
//   selectively and reversibly expanded."

import { encodeCodePoint, RAW_OK, DECODE_UNRESERVED, isHex } from '../core/escapes.js';
import { hexValue } from '../core/percent.js';
import { Url, expectUrl } from '../core/url.js';

/**
 * Makes a URL safer (draft 1993-10, "Encoding prohibited characters": "a URL may be made safer
 * simply by encoding any characters considered unsafe, while leaving already encoded characters
 * still encoded"). Encodes, as %XX with upper-case hex digits: the unsafe characters of RFC 1738
 * 2.2 (space, "<", ">", '"', "{", "}", "|", "\", "^", "~", "[", "]", "`"), every "#" but the
 * first (which starts the fragment id), a "%" that starts no escape, control characters, and
 * non-ASCII characters (as their UTF-8 octets). Existing escapes and every unreserved or
 * reserved character are left exactly as they are. Works on the text: no parse, no error.
 */
export function toSafe(text: string): string {
  let out = '';
  let run = 0;
  let hashSeen = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (RAW_OK[c] === 1) continue;
    if (c === 37 && i + 2 < n && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2))) {
      i += 2;
      continue;
    }
    if (c === 35 && !hashSeen) {
      hashSeen = true;
      continue;
    }
    out += text.slice(run, i);
    if (c === 37) out += '%25';
    else {
      const [o, used] = encodeCodePoint(out, text, i, n);
      out = o;
      i += used - 1;
    }
    run = i + 1;
  }
  return run === 0 ? text : out + text.slice(run);
}

/** Characters that are not shown decoded: controls, format characters, separators, unassigned. */
const NOT_SHOWN = /[\p{Cc}\p{Cf}\p{Z}\p{Cs}\p{Co}\p{Cn}]/u;

/** The length of the UTF-8 sequence led by octet b (2 to 4), or 0 for a non-leading octet. */
function utf8Length(b: number): number {
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

/** The octet of the escape at s[i], or -1 when there is none. */
function escapeAt(s: string, i: number): number {
  if (i + 2 >= s.length || s.charCodeAt(i) !== 37) return -1;
  const h = hexValue(s.charCodeAt(i + 1));
  const l = hexValue(s.charCodeAt(i + 2));
  return h < 0 || l < 0 ? -1 : (h << 4) | l;
}

/**
 * The display form of a URL (draft 1994-03: "in cases where a larger set of characters is
 * acceptable, % signs can be selectively and reversibly expanded"): an escape is decoded when
 * the character is safe to show, namely an unreserved US-ASCII character other than "+" (which
 * separates search keywords), or a printable non-ASCII character written as a valid UTF-8
 * sequence of escapes. Reserved, unsafe and control characters, "%", "+", format characters,
 * separators and octets that are not valid UTF-8 stay encoded. The reverse is toSafe():
 * toSafe(toDisplay(u)) === u for a URL u in normal form.
 */
export function toDisplay(url: string | Url): string {
  expectUrl(url, 'toDisplay: the URL');
  const s = typeof url === 'string' ? url : url.href;
  let out = '';
  let run = 0;
  let stray = -10; // the output offset of the last "%" left standing that starts no escape
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) !== 37) continue;
    const v = escapeAt(s, i);
    if (v < 0) {
      stray = out.length + (i - run);
      continue;
    }
    if (v < 128) {
      const pos = out.length + (i - run);
      // A decoded hex digit right after a stray "%" would make a new escape: leave it encoded.
      if (v !== 43 && DECODE_UNRESERVED[v] === 1 && !(pos - stray <= 2 && isHex(v))) {
        out += s.slice(run, i) + String.fromCharCode(v);
        run = i + 3;
      }
      i += 2;
      continue;
    }
    const len = utf8Length(v);
    if (len === 0) {
      i += 2;
      continue;
    }
    let cp = v & (len === 2 ? 0x1f : len === 3 ? 0x0f : 0x07);
    let ok = true;
    for (let k = 1; k < len; k++) {
      const w = escapeAt(s, i + 3 * k);
      if (w < 0x80 || w > 0xbf) {
        ok = false;
        break;
      }
      cp = (cp << 6) | (w & 0x3f);
    }
    // No overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629).
    if (
      ok &&
      ((len === 3 && cp < 0x800) || (len === 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
    )
      ok = false;
    const ch = ok ? String.fromCodePoint(cp) : '';
    if (!ok || NOT_SHOWN.test(ch)) {
      i += 2;
      continue;
    }
    out += s.slice(run, i) + ch;
    i += 3 * len - 1;
    run = i + 1;
  }
  return run === 0 ? s : out + s.slice(run);
}
