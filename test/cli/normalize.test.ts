// `locator normalize` and `locator equal` as scripts use them (test/data/docs/contract.md).
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

test('normalize: the normal form of each argument', () => {
  const r = run([
    'normalize',
    'HTTP://WWW.Example.COM:80',
    '<URL:gopher://h.com>',
    'ftp://h/x;TYPE=I',
    'file://localhost/etc/motd',
  ]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.out.split('\n'), [
    'http://www.example.com/',
    'gopher://h.com/1',
    'ftp://h/x;type=i',
    'file:///etc/motd',
    '',
  ]);
});

test('normalize --json: stdin lines, {input, ok, href, error} and more; exit 1 when one cannot be read', () => {
  const r = run(['normalize', '--json'], 'http://h/%7e%41\r\nnot a url\nhttp://h/a b\n');
  assert.equal(r.code, 1);
  const lines = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  for (const o of lines) assert.deepEqual(Object.keys(o).sort(), ['display', 'error', 'href', 'input', 'ok', 'valid']);
  assert.deepEqual(
    lines.map((o) => [o.input, o.ok, o.href, o.valid]),
    [
      ['http://h/%7e%41', true, 'http://h/%7EA', true],
      ['not a url', false, null, false],
      ['http://h/a b', true, 'http://h/a%20b', true],
    ],
  );
  assert.equal(lines[1].error.code, 'missing-scheme');
});

test('normalize --display: escapes of printable characters shown decoded', () => {
  const r = run(['normalize', '--display', 'http://h/caf%c3%a9%20x']);
  assert.equal(r.out, 'http://h/café%20x\n');
});

test('equal: exit 0 when equivalent, 1 when not or unreadable, 2 for usage', () => {
  const yes = run(['equal', 'http://A.com:80', 'http://a.com/']);
  assert.equal(yes.code, 0);
  assert.equal(yes.out, 'equivalent\n');
  const no = run(['equal', 'http://h/a%2Fb', 'http://h/a/b']);
  assert.equal(no.code, 1);
  assert.match(no.out, /not equivalent:\n {2}http:\/\/h\/a%2Fb\n {2}http:\/\/h\/a\/b\n/);
  assert.equal(run(['equal', 'http://h/#a', 'http://h/#b', '--ignore-fragment']).code, 0);
  const bad = run(['equal', 'http://h/', 'nope']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /"nope".*missing-scheme/);
  assert.equal(run(['equal', 'http://h/']).code, 2);
  assert.equal(run(['equal', 'a:', 'b:', 'c:']).code, 2);
  const j = JSON.parse(run(['equal', '--json', 'gopher://h', 'gopher://h/1']).out);
  assert.deepEqual(j, {
    a: 'gopher://h',
    b: 'gopher://h/1',
    ok: true,
    equivalent: true,
    normal: ['gopher://h/1', 'gopher://h/1'],
    error: null,
    errorIn: null,
  });
});
