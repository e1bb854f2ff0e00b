// The normal form of escapes (RFC 1738 2.2): normalizeEscapes() against the loop it replaced
// (test/reference/core/escapes.ts), on every slice of strings built to put an escape, a lone "%",
// a character to encode and a surrogate pair on each side of a slice's ends; escapesNormal() of
// each slice against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  normalizeEscapes,
  escapesNormal,
  DECODE_UNRESERVED,
  DECODE_BUT_PLUS,
  DECODE_ALL_GRAPHIC_SAFE,
} from '../../src/core/escapes.js';
import * as ref from '../reference/core/escapes.js';

const TABLES: Array<[string, Uint8Array, Uint8Array]> = [
  ['unreserved', DECODE_UNRESERVED, ref.DECODE_UNRESERVED],
  ['all but "+"', DECODE_BUT_PLUS, ref.DECODE_BUT_PLUS],
  ['unreserved and reserved', DECODE_ALL_GRAPHIC_SAFE, ref.DECODE_ALL_GRAPHIC_SAFE],
];

const PIECES = [
  'a',
  '/',
  '%41',
  '%2f',
  '%2F',
  '%2B',
  '%7e',
  '%7E',
  '%C3%A9',
  '%',
  '%4',
  '%zz',
  '~',
  ' ',
  '\u00e9',
  '\ud83d\ude00',
  '?',
  '+',
];

/** Strings of three pieces, and a few longer ones. */
function strings(): string[] {
  const out: string[] = [];
  for (const a of PIECES) for (const b of PIECES) for (const c of PIECES) out.push(a + b + c);
  out.push('x'.repeat(40) + '%41' + 'y'.repeat(40) + '~', '%2F'.repeat(30) + '%', 'a~'.repeat(3000));
  return out;
}

test('RFC 1738 2.2: normalizeEscapes() gives what the character loop gave, on every slice and table', () => {
  let n = 0;
  for (const s of strings()) {
    for (const [name, table, refTable] of TABLES) {
      const ends = s.length > 12 ? [0, 1, 2, s.length - 2, s.length - 1, s.length] : [...Array(s.length + 1).keys()];
      for (const start of ends) {
        for (const end of ends) {
          if (end < start) continue;
          const got = normalizeEscapes(s, table, start, end);
          assert.equal(
            got,
            ref.normalizeEscapes(s, refTable, start, end),
            `${JSON.stringify(s)} [${start}, ${end}) ${name}`,
          );
          // escapesNormal() of a slice: exactly when the slice's normal form is itself.
          assert.equal(
            escapesNormal(s, table, start, end),
            got === s.slice(start, end),
            `escapesNormal ${JSON.stringify(s)} [${start}, ${end}) ${name}`,
          );
          n++;
        }
      }
      assert.equal(escapesNormal(s, table), normalizeEscapes(s, table) === s, `${JSON.stringify(s)} ${name}`);
    }
  }
  assert.ok(n > 50000, `${n} slices`);
});

test('RFC 1738 2.2: an escape that runs past the end of the slice is no escape in it', () => {
  assert.equal(normalizeEscapes('a%41', DECODE_UNRESERVED, 0, 3), 'a%254');
  assert.equal(normalizeEscapes('a%41', DECODE_UNRESERVED, 0, 2), 'a%25');
  assert.equal(normalizeEscapes('a%41b', DECODE_UNRESERVED, 0, 4), 'aA');
  assert.equal(normalizeEscapes('x~%2F%', DECODE_UNRESERVED, 0, 5), 'x%7E%2F');
  assert.equal(normalizeEscapes('x~%2F%', DECODE_UNRESERVED, 0, 4), 'x%7E%252');
});
