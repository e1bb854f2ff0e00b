// The password forms and their masking over the lines of a reply (src/clients/secrets.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskAcross, passwordSecrets } from '../../src/clients/secrets.js';

const S = ['hunter2'];

// parts | masked                                           -- RFC 5321 4.2: a reply's lines
const ROWS: Array<[string[], string[]]> = [
  [['no secret here'], ['no secret here']],
  [['bad hunter2 bad'], ['bad **** bad']],
  [['hunter2hunter2'], ['****']],
  [
    ['bad hun', 'ter2 bad'],
    ['bad ****', '**** bad'],
  ],
  [
    ['h', 'u', 'nter2', 'x'],
    ['****', '****', '****', 'x'],
  ],
  [
    ['hunter', '', '2!'],
    ['****', '', '****!'],
  ],
  [
    ['hunte', 'r2 and hunter2'],
    ['****', '**** and ****'],
  ],
  [[], []],
];
for (const [parts, masked] of ROWS) {
  test(`maskAcross ${JSON.stringify(parts)} -> ${JSON.stringify(masked)}`, () => {
    assert.deepEqual(maskAcross(parts, S), masked);
  });
}

test('maskAcross: no secrets, the parts as they are', () => {
  assert.deepEqual(maskAcross(['a', 'b'], []), ['a', 'b']);
  assert.deepEqual(maskAcross(['a', 'b'], ['']), ['a', 'b']);
});

test('passwordSecrets: as given, JSON-escaped, base64, base64 at the three alignments; longest first', () => {
  const p = 'pa"ss-wörd';
  const forms = passwordSecrets(p);
  for (const f of [p, 'pa\\"ss-wörd', Buffer.from(p).toString('base64')]) assert.ok(forms.includes(f), f);
  for (const lead of ['', 'x', 'xy']) {
    const text = Buffer.from(`${lead}${p}tail`).toString('base64');
    assert.ok(
      forms.some((f) => text.includes(f)),
      `a form in ${text}`,
    );
  }
  assert.deepEqual(
    forms,
    [...forms].sort((a, b) => b.length - a.length),
  );
  assert.deepEqual(passwordSecrets(''), []);
});
