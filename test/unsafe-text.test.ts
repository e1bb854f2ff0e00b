// The one classification of unsafe characters (src/unsafe-text.ts), shared by the gateway's HTML
// escaper and the same set the CLI escapes (src/cli/safe-text.ts): checked over every code point
// of the Basic Multilingual Plane.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  UNSAFE_RANGES,
  UNSAFE_TEXT,
  UNSAFE_TEXT_BUT_BREAKS,
  codePointName,
  isUnsafeCodePoint,
} from '../src/unsafe-text.js';
import { safeText } from '../src/cli/safe-text.js';

test('RFC 1738 2.2, UAX #9 2.1-2.2: the two patterns and the ranges agree on every BMP code point, and with the CLI', () => {
  const differ: string[] = [];
  for (let c = 0; c <= 0xffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const ch = String.fromCharCode(c);
    const unsafe = isUnsafeCodePoint(c);
    const breaks = c === 0x09 || c === 0x0a || c === 0x0d;
    if (ch.replace(UNSAFE_TEXT, '') === ch ? unsafe : !unsafe) differ.push(`UNSAFE_TEXT ${codePointName(ch)}`);
    if ((ch.replace(UNSAFE_TEXT_BUT_BREAKS, '') !== ch) !== (unsafe && !breaks))
      differ.push(`UNSAFE_TEXT_BUT_BREAKS ${codePointName(ch)}`);
    if ((safeText(ch, false) !== ch) !== unsafe) differ.push(`CLI ${codePointName(ch)}`);
  }
  assert.deepEqual(differ, []);
  assert.deepEqual(
    UNSAFE_RANGES.map(
      ([lo, hi]) => `${codePointName(String.fromCharCode(lo))}-${codePointName(String.fromCharCode(hi))}`,
    ),
    ['U+0000-U+001F', 'U+007F-U+009F', 'U+061C-U+061C', 'U+200E-U+200F', 'U+202A-U+202E', 'U+2066-U+2069'],
  );
});
