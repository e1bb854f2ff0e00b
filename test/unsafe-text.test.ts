// The one classification of unsafe characters (src/operations/unsafe-text.ts), shared by the gateway's HTML
// escaper and the same set the CLI escapes (src/cli/safe-text.ts): checked over every code point
// (the tag block U+E0000-E007F, past the Basic Multilingual Plane, among them).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UNSAFE_TEXT, UNSAFE_TEXT_BUT_BREAKS, codePointName } from '../src/operations/unsafe-text.js';
import { safeJson, safeText } from '../src/cli/safe-text.js';
import { esc } from '../src/gateway/html.js';

/**
 * The set the patterns must match, written apart from them: ranges by code point (C0, DEL and C1,
 * the bidi formatting characters of UAX #9 2.1-2.2, the tag block) and the general category Cf.
 */
const UNSAFE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x200e, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
  [0xe0000, 0xe007f],
];
const FORMAT = /^\p{Cf}$/u;
function isUnsafeCodePoint(c: number): boolean {
  for (const [lo, hi] of UNSAFE_RANGES) if (c >= lo && c <= hi) return true;
  return FORMAT.test(String.fromCodePoint(c));
}

/** Every code point, surrogates left out. */
function* codePoints(): Generator<number> {
  for (let c = 0; c <= 0x10ffff; c++) if (c < 0xd800 || c > 0xdfff) yield c;
}

test('RFC 1738 2.2, UAX #9 2.1-2.2, category Cf: the two patterns agree with the ranges and category Cf on every code point, and with the CLI', () => {
  const differ: string[] = [];
  for (const c of codePoints()) {
    const ch = String.fromCodePoint(c);
    const unsafe = isUnsafeCodePoint(c);
    const breaks = c === 0x09 || c === 0x0a || c === 0x0d;
    if (ch.replace(UNSAFE_TEXT, '') === ch ? unsafe : !unsafe) differ.push(`UNSAFE_TEXT ${codePointName(ch)}`);
    if ((ch.replace(UNSAFE_TEXT_BUT_BREAKS, '') !== ch) !== (unsafe && !breaks))
      differ.push(`UNSAFE_TEXT_BUT_BREAKS ${codePointName(ch)}`);
    if ((safeText(ch, false) !== ch) !== unsafe) differ.push(`CLI ${codePointName(ch)}`);
    // JSON keeps C0 as its own escapes: the others are the CLI's.
    if (c > 0x1f && (safeJson(JSON.stringify(ch)) !== JSON.stringify(ch)) !== unsafe)
      differ.push(`CLI JSON ${codePointName(ch)}`);
  }
  assert.deepEqual(differ, []);
});

test('The Unicode Standard 23.2-23.9: invisible format characters are unsafe, by name in the gateway, escaped in the CLI', () => {
  const invisible = [
    0x00ad, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff, 0xfff9, 0xfffa, 0xfffb, 0xe0000,
    0xe0001, 0xe0020, 0xe0041, 0xe007f,
  ];
  for (const c of invisible) assert.ok(isUnsafeCodePoint(c), codePointName(String.fromCodePoint(c)));
  // Letters and marks around them are not (a combining mark, a non-BMP letter, an emoji).
  for (const c of [0x41, 0xe9, 0x0301, 0x10400, 0x1f600, 0xe0100]) assert.equal(isUnsafeCodePoint(c), false);
  // "paypal" with a zero width space and a tag character: each shown once, by its own name.
  const name = 'pay\u200Bpal\u{E0041}.com';
  assert.equal(esc(name), 'pay&lt;U+200B&gt;pal&lt;U+E0041&gt;.com');
  assert.equal(safeText(name), 'pay\\u200bpal\\u{e0041}.com');
  // JSON: the surrogate pair of the tag character, read back as the same text.
  const json = safeJson(JSON.stringify({ name }));
  assert.equal(json, '{"name":"pay\\u200bpal\\udb40\\udc41.com"}');
  assert.deepEqual(JSON.parse(json), { name });
  // A soft hyphen and a byte order mark in a line of text; LF kept, TAB escaped.
  assert.equal(safeText('\uFEFFa\u00ADb\tc\n'), '\\ufeffa\\u00adb\\x09c\n');
});
