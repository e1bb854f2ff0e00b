// The cap on the violations listed per URL (issue 10): the MAX_VIOLATIONS first by offset, then
// one too-many-violations that counts the rest, with the severity of the worst of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../helpers.js';
import { MAX_VIOLATIONS, ViolationList, omittedCount } from '../../src/core/parse.js';
import { diagnostic } from '../../src/core/errors.js';
import { lint } from '../../src/operations/lint.js';

test('RFC 1738 2.2: 300 unsafe characters list the first 100 and count the other 200', () => {
  const u = parse('http://h.com/' + '{'.repeat(300));
  assert.equal(MAX_VIOLATIONS, 100);
  assert.equal(u.violations.length, 101);
  assert.deepEqual(
    u.violations.slice(0, 100).map((d) => d.offset),
    Array.from({ length: 100 }, (_, i) => 13 + i),
  );
  const last = u.violations[100];
  assert.equal(last.code, 'too-many-violations');
  assert.equal(last.offset, 113);
  assert.equal(last.severity, 'error');
  assert.equal(omittedCount(last), 200);
  assert.equal(u.valid, false);
});

test('exactly 100 violations: all listed, no summary', () => {
  const u = parse('http://h.com/' + '{'.repeat(100));
  assert.equal(u.violations.length, 100);
  assert.ok(u.violations.every((d) => d.code === 'unsafe-char'));
});

test('the scheme rules (found after the scan) merge into the cap: the first by offset stay listed', () => {
  // Every "%0D" in a gopher selector is a violation of the scheme (RFC 1738 3.4.1), found after
  // the scanner's own; the violations stay in offset order with one summary at the end.
  const u = parse('gopher://h.com/0' + '%0D{'.repeat(200));
  const v = u.violations;
  assert.equal(v.length, 101);
  for (let i = 1; i < v.length; i++) assert.ok(v[i - 1].offset <= v[i].offset, `offset order at ${i}`);
  assert.equal(v[100].code, 'too-many-violations');
  assert.equal(omittedCount(v[100]) + 100, 400);
});

test('ViolationList: pushes in any order keep the 100 lowest offsets; a summary pushed in carries its count', () => {
  const list = new ViolationList();
  for (let k = 300; k >= 1; k--) list.push(diagnostic('unsafe-char', k));
  const out = list.list();
  assert.equal(out.length, 101);
  assert.deepEqual(
    out.slice(0, 100).map((d) => d.offset),
    Array.from({ length: 100 }, (_, i) => i + 1),
  );
  assert.equal(out[100].offset, 101);
  assert.equal(omittedCount(out[100]), 200);
  const again = new ViolationList();
  again.pushAll(out);
  again.push(diagnostic('trimmed-whitespace', 0));
  const merged = again.list();
  assert.equal(merged[0].code, 'trimmed-whitespace');
  assert.equal(merged.length, 101);
  assert.equal(omittedCount(merged[100]), 201);
  assert.equal(merged[100].severity, 'error');
});

test('only warnings omitted: the summary is a warning, so validity is unchanged', () => {
  const list = new ViolationList();
  for (let k = 0; k < 150; k++) list.push(diagnostic('trimmed-whitespace', k));
  const out = list.list();
  assert.equal(out[100].severity, 'warning');
});

test('lint (RFC 1738 6): encoded delimiters are capped too, with the parser violations in one list', () => {
  const d = lint('gopher://h.com/0' + '%0D%0A'.repeat(5000));
  assert.equal(d.length, 101);
  assert.equal(d[100].code, 'too-many-violations');
  for (let i = 1; i < d.length; i++) assert.ok(d[i - 1].offset <= d[i].offset);
  // The selector's line ends are reported once, as encoded delimiters (what they do on the wire).
  assert.ok(d.slice(0, 100).every((x) => x.code === 'encoded-delimiter'));
});
