// `locator resolve` and `locator relativize` as scripts use them (test/data/docs/contract.md):
// arguments or stdin lines, NDJSON with the contract's fields, exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(args: string[], stdin?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: stdin ?? '', encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const BASE = 'http://a/b/c/d;p?q#f';

test('resolve: one absolute URL per partial, RFC 1808 by default (5.1, 5.2)', () => {
  const r = run(['resolve', `<URL:${BASE}>`, 'g', ';x', '', '../../../g', '//g']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.out.split('\n'), ['http://a/b/c/g', 'http://a/b/c/d;x', BASE, 'http://a/../g', 'http://g', '']);
});

test('resolve --rfc3986 and --draft-1993 choose the other editions', () => {
  assert.deepEqual(run(['resolve', '--rfc3986', BASE, ';x', '', '../../../g']).out.split('\n'), [
    'http://a/b/c/;x',
    'http://a/b/c/d;p?q',
    'http://a/g',
    '',
  ]);
  assert.deepEqual(run(['resolve', '--draft-1993', BASE, '.', '?y']).out.split('\n'), [
    'http://a/b/c',
    'http://a/b/c/?y',
    '',
  ]);
  const both = run(['resolve', '--rfc3986', '--draft-1993', BASE, 'g']);
  assert.equal(both.code, 2);
  assert.match(both.err, /exclude each other/);
});

test('resolve --json: partials from stdin, one object per line with exactly the contract fields; exit 1 if one failed', () => {
  const r = run(['resolve', '--json', 'news:comp.x'], '#frag\r\nother\nhttp://h/\n');
  assert.equal(r.code, 1);
  const lines = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  for (const o of lines) assert.deepEqual(Object.keys(o).sort(), ['base', 'error', 'href', 'ok', 'partial']);
  assert.deepEqual(
    lines.map((o) => [o.partial, o.ok, o.href]),
    [
      ['#frag', true, 'news:comp.x#frag'],
      ['other', false, null],
      ['http://h/', true, 'http://h/'],
    ],
  );
  assert.equal(lines[1].error.code, 'non-hierarchical-base');
  assert.equal(lines[1].error.section, 'RFC 1738 2.3');
  assert.deepEqual(Object.keys(lines[1].error).sort(), ['code', 'message', 'offset', 'section', 'severity']);
});

test('resolve: a failed partial keeps its output line (empty) and says why on standard error', () => {
  const r = run(['resolve', 'http://a/b', 'g', '//h:x/', 'k']);
  assert.equal(r.code, 1);
  assert.deepEqual(r.out.split('\n'), ['http://a/g', '', 'http://a/k', '']);
  assert.match(r.err, /"\/\/h:x\/".*invalid-port at 4/);
});

test('resolve: an unreadable base fails every partial; no base is a usage error', () => {
  const r = run(['resolve', '--json', 'no base', 'g']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.out).error.code, 'missing-scheme');
  const u = run(['resolve']);
  assert.equal(u.code, 2);
  assert.match(u.err, /needs a BASE/);
});

test('relativize: the shortest partial form per target; "<>" for the empty one; --json', () => {
  const r = run(['relativize', BASE, 'http://a/b/c/g', BASE, 'http://a/b/g?y', 'ftp://x/']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.out.split('\n'), ['g', '<>', '../g?y', 'ftp://x/', '']);
  const j = run(['relativize', '--json', '--rfc3986', 'http://a/b/c/d', 'http://a/./x', 'http://a/b/x']);
  assert.equal(j.code, 1);
  const lines = j.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  for (const o of lines) assert.deepEqual(Object.keys(o).sort(), ['base', 'error', 'ok', 'partial', 'target']);
  assert.equal(lines[0].error.code, 'unreachable-target');
  assert.equal(lines[1].partial, '../x');
  // resolve reads relativize's output back
  const back = run(['resolve', BASE, '<>', '../g?y']);
  assert.deepEqual(back.out.split('\n'), [BASE, 'http://a/b/g?y', '']);
});

test('resolve --help and relativize --help list their options', () => {
  const r = run(['resolve', '--help']);
  assert.match(r.out, /resolve \[--json\] \[--rfc3986 \| --draft-1993\] BASE \[PARTIAL\.\.\.\]/);
  assert.match(r.out, /^ {2}--draft-1993 +Use the partial form rules of the October 1993 draft/m);
  const b = run(['relativize', '--help']);
  assert.match(b.out, /relativize \[--json\] \[--rfc3986 \| --draft-1993\] BASE \[TARGET\.\.\.\]/);
  assert.match(b.out, /^ {2}--rfc3986 +Use the rules of RFC 3986 section 5/m);
});
