// Fuzz target: the %-codec (RFC 1738 2.2). Invariants: decode() of any text gives octets or the
// LocatorError invalid-escape at a "%" of the input; with strict: false it never throws; each
// escape set's encode() writes only its allowed characters and "%XX" with upper-case hex, and
// decode() of it gives the octets back; decodeText(encode(text)) is the text (well-formed
// UTF-16); a decoded text without "%" is the text itself.

import {
  decode,
  decodeText,
  encode,
  LocatorError,
  UCHAR_SET,
  XCHAR_SET,
  SEGMENT_SET,
  USER_SET,
  HSEGMENT_SET,
} from '../../src/index.js';
import { check, refusal, sameBytes, textOf } from './lib.js';

const SETS = [UCHAR_SET, XCHAR_SET, SEGMENT_SET, USER_SET, HSEGMENT_SET];

export function fuzz(data: Uint8Array): void {
  const s = textOf(data);
  const d = refusal(() => decode(s), s.length);
  if (d instanceof LocatorError) {
    check(
      d.code === 'invalid-escape' && s[d.offset] === '%',
      `decode refused ${JSON.stringify(s)} with ${d.code} at ${d.offset}`,
    );
  }
  const loose = decode(s, { strict: false });
  check(loose.length <= s.length * 3, 'decode gives more than three octets per code unit');
  if (!(d instanceof LocatorError)) check(sameBytes(d, loose), 'strict and lenient decode differ on valid input');
  if (!s.includes('%')) check(decodeText(s) === s, 'decodeText changes a text without "%"');
  for (const set of SETS) {
    const e = encode(data, set);
    check(/^(?:[!-$&-~]|%[0-9A-F]{2})*$/.test(e), `encode wrote ${JSON.stringify(e)}`);
    for (let i = 0; i < e.length; i++) {
      const c = e.charCodeAt(i);
      check(c === 37 || set.allowed[c] === 1, `encode left ${e[i]} that the set does not allow`);
    }
    check(sameBytes(decode(e), data), 'decode(encode(octets)) is not the octets');
    if (!/\p{Surrogate}/u.test(s)) check(decodeText(encode(s, set)) === s, 'decodeText(encode(text)) is not the text');
  }
}
