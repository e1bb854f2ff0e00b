// The drawn views (src/cli/draw.ts): columns computed once per line (issue 10).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columns, drawDiagnostics } from '../../src/cli/draw.js';
import { diagnostic } from '../../src/core/errors.js';

test('columns(): one column per code point, as visible() draws, for every offset', () => {
  for (const s of [
    '',
    'abc',
    'a\u00e9b',
    'x\ud83d\ude00y',
    '\ud800z',
    'z\udc00',
    'http://h.com/\ud83d\ude00\ud83d\ude00',
  ]) {
    const cols = columns(s);
    for (let i = 0; i <= s.length; i++) {
      const inPair = i > 0 && (s.charCodeAt(i) & 0xfc00) === 0xdc00 && (s.charCodeAt(i - 1) & 0xfc00) === 0xd800;
      // An offset inside a surrogate pair points at the pair's column.
      assert.equal(cols[i], [...s.slice(0, inPair ? i - 1 : i)].length, `${JSON.stringify(s)} at ${i}`);
    }
  }
});

test('drawDiagnostics: a caret under each offset, past a surrogate pair too', () => {
  const input = 'http://h.com/\ud83d\ude00 {';
  const out = drawDiagnostics(input, [
    diagnostic('non-ascii', 13),
    diagnostic('unsafe-char', 15),
    diagnostic('unsafe-char', 16),
  ]);
  assert.equal(out[1], '  ' + ' '.repeat(13) + '^^^');
});
