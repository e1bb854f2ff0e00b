// RFC 1738 3.1: port = digits, of any length. A port is written back as its digits (leading
// zeros removed), compared as digits, and never read through a double: a port over 65535 is
// port-out-of-range, its `port` is null and its digits are in `portDigits` (issue 10).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, parse } from './helpers.js';
import { normalize, equivalent, toSafe, toDisplay } from '../src/operations/normalize.js';
import { resolve } from '../src/operations/resolve.js';
import { relativize } from '../src/operations/relativize.js';
import { redactUrl } from '../src/operations/redact.js';
import { build, explain } from '../src/operations/build.js';
import { lint } from '../src/operations/lint.js';
import { refusals } from '../src/operations/policy.js';

const P20 = '18446744073709551697'; // 2^64 + 81: a double reads it as 18446744073709552000
const P39 = '340282366920938463463374607431768211537'; // 2^128 + 81: a double prints 3.402823669209387e+38
const LONG = '9'.repeat(400); // a double reads it as Infinity

// [input, port, portDigits, normal form, section]
const ROWS: ReadonlyArray<readonly [string, number | null, string | null, string, string]> = [
  ['http://f:8080/c', 8080, '8080', 'http://f:8080/c', 'RFC 1738 3.1'],
  ['http://f:080/c', 80, '80', 'http://f/c', 'RFC 1738 3.1, 3.3 (default port dropped)'],
  ['http://f:00000000000000000000080/c', 80, '80', 'http://f/c', 'RFC 1738 3.1'],
  ['http://f:0000/c', 0, '0', 'http://f:0/c', 'RFC 1738 3.1 (zeros only: "0")'],
  ['http://f:65535/c', 65535, '65535', 'http://f:65535/c', 'RFC 1738 3.1'],
  ['http://f:65536/c', null, '65536', 'http://f:65536/c', 'RFC 1738 3.1 (port-out-of-range)'],
  [`http://f:${P20}/c`, null, P20, `http://f:${P20}/c`, 'RFC 1738 3.1'],
  [`http://f:000${P20}/c`, null, P20, `http://f:${P20}/c`, 'RFC 1738 3.1'],
  [`http://f:${P39}/c`, null, P39, `http://f:${P39}/c`, 'RFC 1738 3.1'],
  [`ftp://u@f:${LONG}/c`, null, LONG, `ftp://u@f:${LONG}/c`, 'RFC 1738 3.1, 3.2'],
  ['x-y://f:0700/c', 700, '700', 'x-y://f:700/c', 'RFC 1738 3.1 (unknown scheme: no default)'],
  ['http://f/c', 80, null, 'http://f/c', 'RFC 1738 3.3 (no port written: the default)'],
  ['http://f:/c', 80, null, 'http://f/c', 'RFC 1738 3.1 (empty port)'],
];

for (const [input, port, digits, normal, section] of ROWS) {
  test(`${section}: ${JSON.stringify(input.length > 80 ? input.slice(0, 40) + '...' : input)}`, () => {
    const u = parse(input);
    assert.equal(u.port, port);
    assert.equal(u.portDigits, digits);
    assert.equal(u.explicitPort, digits !== null);
    const overRange = digits !== null && port === null;
    assert.equal(
      u.violations.some((d) => d.code === 'port-out-of-range'),
      overRange,
    );
    const j = u.toJSON();
    assert.equal(j.port, port);
    assert.equal(j.portDigits, digits);
    assert.equal(normalize(input), normal);
    assert.equal(normalize(normal), normal, 'idempotent');
    assert.equal(
      parse(normal).portDigits,
      digits === null || normal.indexOf(':', 5) < 0 ? null : digits,
      'the normal form parses back to the same digits',
    );
    assert.equal(equivalent(input, normal), true);
  });
}

test('RFC 1738 3.1: ports that differ in one digit are different, at any length', () => {
  assert.equal(equivalent(`http://f:${P20}/c`, `http://f:${P20.slice(0, -1)}6/c`), false);
  assert.equal(equivalent(`http://f:${P39}/c`, `http://f:${P39.slice(0, -1)}8/c`), false);
  assert.equal(equivalent(`http://f:${LONG}/c`, `http://f:${LONG.slice(1)}/c`), false);
  assert.equal(equivalent(`http://f:${LONG}/c`, `http://f:0${LONG}/c`), true);
  assert.equal(equivalent('http://f:65536/c', 'http://f:065536/c'), true);
});

test('RFC 1808 4 / RFC 3986 5.2: resolve and relativize keep the port digits as written', () => {
  const base = `http://f:${P20}/a/b`;
  assert.equal(resolve(base, 'c'), `http://f:${P20}/a/c`);
  assert.equal(resolve(base, 'c', { rfc: 3986 }), `http://f:${P20}/a/c`);
  assert.equal(resolve('http://h/', `//f:${P39}/x`), `http://f:${P39}/x`);
  assert.equal(relativize(base, `http://f:${P20}/a/d`), 'd');
  assert.equal(relativize('http://h/', `http://f:${P39}/x`), `//f:${P39}/x`);
});

test('draft 1993-10 / 1994-03: toSafe, toDisplay and redactUrl keep the port digits', () => {
  const u = `ftp://u:secret@f:${P39}/c%41`;
  assert.equal(toSafe(u), u);
  assert.equal(toDisplay(u), `ftp://u:secret@f:${P39}/cA`);
  assert.equal(redactUrl(u), `ftp://u:****@f:${P39}/c%41`);
});

test('RFC 1738 3.1, 5: build writes a TCP port as digits and refuses any other (no rounded number)', () => {
  assert.equal(build('http', { host: 'f', port: 65535, hpath: 'c' }), 'http://f:65535/c');
  assert.equal(build('http', { host: 'f', port: 80, hpath: 'c' }), 'http://f/c');
  for (const port of [65536, Number(P20), 1e21, -1, 1.5]) {
    assert.throws(() => build('http', { host: 'f', port, hpath: 'c' }), {
      name: 'LocatorError',
      code: 'invalid-field',
    });
  }
});

test('RFC 1738 3.3, 3.8, 3.9: explain writes the port digits, never a double', () => {
  const http = explain(`http://f:${P20}/c`);
  assert.equal(http.port, null);
  assert.ok(http.steps.includes(`Host: f:${P20}`), http.steps.join('\n'));
  assert.ok(explain('http://f:080/c').steps.includes('Host: f'));
  assert.ok(explain('http://f:0081/c').steps.includes('Host: f:81'));
  assert.ok(explain(`telnet://f:${P39}/`).steps.includes(`connect f:${P39}`));
  assert.ok(explain(`wais://f:${P20}/db`).steps.includes(`connect f:${P20}`));
  const ftp = explain(`ftp://f:${P20}/c`);
  assert.equal(ftp.port, null, 'not the default 21: the written port is not a TCP port');
  assert.equal(explain('ftp://f/c').port, 21);
});

test('RFC 1738 6: lint and the policy on a port over 65535', () => {
  const d = lint(`gopher://f:${P20}/1`);
  assert.deepEqual(
    d.map((x) => x.code),
    ['port-out-of-range'],
  );
  const r = refusals(parse(`gopher://f:${P20}/1`), { allowViolations: true });
  assert.deepEqual(
    r.map((x) => x.code),
    ['port-out-of-range'],
    'refused even with allowViolations: no client falls back to port 70',
  );
  assert.deepEqual(refusals(parse('gopher://f:7070/1'), { allowViolations: true }), []);
});

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('CLI: normalize, equal and parse --json keep the port digits', () => {
  const n = cli(['normalize', `http://f:${P20}/c`, `http://f:${P39}/c`, 'http://f:0081/c']);
  assert.equal(n.out, `http://f:${P20}/c\nhttp://f:${P39}/c\nhttp://f:81/c\n`, n.err);
  assert.equal(cli(['equal', `http://f:${P20}/c`, `http://f:${P20.slice(0, -1)}6/c`]).code, 1);
  assert.equal(cli(['equal', `http://f:${P20}/c`, `http://f:0${P20}/c`]).code, 0);
  const p = cli(['parse', '--json', `http://f:${P20}/c`, 'http://f:0081/c', 'http://f/c', 'not a url']);
  const rows = p.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(
    rows.map((r) => [r.port, r.portDigits, r.explicitPort]),
    [
      [null, P20, true],
      [81, '81', true],
      [80, null, false],
      [null, null, false],
    ],
  );
  assert.ok(!p.out.includes('18446744073709552000'));
  const text = cli(['parse', `http://f:${P20}/c`]);
  assert.ok(text.out.includes(`port: "${P20}"`), text.out);
});
