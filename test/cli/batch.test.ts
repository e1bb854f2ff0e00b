// Batch mode under hostile input (issue 10): lines end at LF only (a lone CR stays in its line
// and is a control character, RFC 1738 2.2), a line dense in violations keeps its row and the
// others theirs, and the violations listed per URL are capped with a count of the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ROOT } from '../helpers.js';
import { inputs, failure } from '../../src/cli/io.js';
import { LocatorError } from '../../src/core/errors.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(args: string[], stdin: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: stdin, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

async function lines(chunks: string[]): Promise<string[]> {
  const out: string[] = [];
  const stdin = new Readable({ read() {} });
  for (const c of chunks) stdin.push(Buffer.from(c));
  stdin.push(null);
  for await (const l of inputs([], stdin)) out.push(l);
  return out;
}

test('inputs(): lines end at LF, CR LF is trimmed, a lone CR stays in its line; chunks may split anywhere', async () => {
  assert.deepEqual(await lines(['http://a.com/a\rhttp://b.com/\n']), ['http://a.com/a\rhttp://b.com/']);
  assert.deepEqual(await lines(['a\r', '\nb\r\r\n\nc']), ['a', 'b\r', '', 'c']);
  assert.deepEqual(await lines(['x'.repeat(5), 'y'.repeat(5), '\n', 'z']), ['xxxxxyyyyy', 'z']);
  assert.deepEqual(await lines(['\r']), ['\r']);
  assert.deepEqual(await lines([]), []);
});

test('a bare CR does not split a batch line: lint --json reports it as control-char, one row, exit 1', () => {
  for (const cmd of [
    ['lint', '--json'],
    ['parse', '--json'],
  ]) {
    const r = run(cmd, 'http://a.com/a\rhttp://b.com/\n');
    assert.equal(r.code, 1, cmd.join(' '));
    const rows = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(rows.length, 1, cmd.join(' '));
    assert.equal(rows[0].input, 'http://a.com/a\rhttp://b.com/');
    const list = rows[0].diagnostics ?? rows[0].violations;
    assert.ok(
      list.some((d: { code: string; offset: number }) => d.code === 'control-char' && d.offset === 14),
      JSON.stringify(list),
    );
  }
});

test('a line dense in violations keeps its row, capped at 100 listed plus a count; the rows around it print', () => {
  const dense = 'http://h.com/' + '{'.repeat(4 << 20);
  const stdin = `http://a.com/\n${dense}\nhttp://b.com/\n`;
  for (const cmd of [
    ['parse', '--json'],
    ['lint', '--json'],
  ]) {
    const r = run(cmd, stdin);
    assert.equal(r.code, 1, `${cmd.join(' ')}: ${r.err}`);
    const rows = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      rows.map((o) => o.input.slice(0, 14)),
      ['http://a.com/', 'http://h.com/{', 'http://b.com/'],
      cmd.join(' '),
    );
    const list = rows[1].violations ?? rows[1].diagnostics;
    assert.equal(list.length, 101, cmd.join(' '));
    const last = list[100];
    assert.equal(last.code, 'too-many-violations');
    assert.equal(last.severity, 'error');
    assert.equal(last.offset, 13 + 100);
    assert.match(last.message, new RegExp(`^${(4 << 20) - 100} more violations`));
    // Linear in the input (the JSON row repeats the URL in input, href, path and fields), not in
    // the violations (at 4 MB it was over 500 MB: "Invalid string length", no row at all).
    assert.ok(r.out.length < 8 * dense.length, `output ${r.out.length} for input ${dense.length}`);
  }
  // The human views list as many, and say so.
  const r = run(['parse'], `${'http://h.com/' + '{'.repeat(1000)}\n`);
  assert.equal(r.out.split('\n').filter((l) => l.startsWith('  error ')).length, 101);
  assert.ok(r.out.includes('error too-many-violations at 113'));
});

test('failure(): a LocatorError keeps its diagnostic; anything else becomes input-failed with its message', () => {
  const e = new LocatorError('missing-scheme', 3);
  assert.deepEqual(failure(e), e.toDiagnostic());
  const d = failure(new RangeError('Invalid string length'));
  assert.equal(d.code, 'input-failed');
  assert.equal(d.severity, 'error');
  assert.match(d.message, /Invalid string length/);
});
