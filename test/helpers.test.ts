// The test helpers themselves: eachRow registers one test per row, named by the row's section
// and input, so that a failing row is reported by itself and the other rows still run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { showInput, ROW_INPUT_WIDTH } from './helpers.js';

test('showInput: a string as JSON, control characters escaped', () => {
  assert.equal(showInput('http://h.com/'), '"http://h.com/"');
  assert.equal(showInput('a\tb\r\nc"d'), '"a\\tb\\r\\nc\\"d"');
  assert.equal(showInput(''), '""');
});

test('showInput: a long string is cut at ROW_INPUT_WIDTH characters with "…", never inside a surrogate pair', () => {
  const long = 'x'.repeat(100);
  assert.equal(showInput(long), JSON.stringify('x'.repeat(ROW_INPUT_WIDTH - 1) + '…'));
  for (let pad = 0; pad < 2; pad++) {
    const shown = JSON.parse(showInput('y'.repeat(pad) + '😀'.repeat(60))) as string;
    assert.ok(shown.length <= ROW_INPUT_WIDTH);
    assert.ok(shown.endsWith('…'));
    assert.equal(Buffer.from(shown, 'utf8').toString('utf8'), shown, `pad ${pad}: no lone surrogate`);
  }
  assert.equal(
    showInput('z'.repeat(ROW_INPUT_WIDTH)),
    JSON.stringify('z'.repeat(ROW_INPUT_WIDTH)),
    'exactly the width is not cut',
  );
});

test('showInput: other values as JSON, cut the same way', () => {
  assert.equal(showInput({ address: 7 }), '{"address":7}');
  assert.equal(showInput(['mid', {}]), '["mid",{}]');
  assert.equal(showInput(42), '42');
  assert.equal(showInput(undefined), 'undefined');
  const shown = showInput({ path: 'p'.repeat(100) });
  assert.equal(shown.length, ROW_INPUT_WIDTH);
  assert.ok(shown.startsWith('{"path":"ppp') && shown.endsWith('…'));
});

/** Runs the tables of test/fixtures/each-row-demo.ts in a child test runner: what each test reported (not the file's own). */
function runDemo(): Array<{ pass: boolean; name: string; error: string }> {
  const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
  // A test file may not start a test runner of its own (node:test skips it) unless it looks like a new one.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, [join(fixtures, 'each-row-runner.js'), join(fixtures, 'each-row-demo.js')], {
    env,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Array<{ pass: boolean; name: string; error: string }>;
}

test('eachRow: one test per row, named "title: section: input"; the wrong row fails alone and names itself', () => {
  const got = runDemo();
  const byName = new Map(got.map((t) => [t.name, t]));
  assert.equal(byName.size, got.length, 'every name is unique');
  assert.deepEqual(
    got.map((t) => [t.name, t.pass]),
    [
      ['RFC 1738 3.1: the default port: RFC 1738 3.3: "http://h.com/"', true],
      ['RFC 1738 3.1: the default port: RFC 1738 3.2: "ftp://h.com/"', false],
      ['RFC 1738 3.1: the default port: RFC 1738 3.4: "gopher://h.com/"', true],
      ['tuples: RFC 1738 2.1: "a"', true],
      ['tuples: RFC 1738 2.2: "b"', true],
      ['repeated inputs: "x" #0', true],
      ['repeated inputs: "y"', true],
      ['repeated inputs: "x" #2', true],
      [`long inputs: ${JSON.stringify(`http://h.com/${'a'.repeat(ROW_INPUT_WIDTH - 14)}…`)}`, true],
      [`long inputs: ${JSON.stringify(`http://h.com/${'😀'.repeat(23)}…`)}`, true],
      ['async rows: 1', true],
      ['async rows: 2', false],
      ['an empty table: the table has rows', false],
    ],
  );
  assert.match(byName.get('RFC 1738 3.1: the default port: RFC 1738 3.2: "ftp://h.com/"')!.error, /21 !== 2121/);
  assert.match(byName.get('an empty table: the table has rows')!.error, /the table is empty/);
});
