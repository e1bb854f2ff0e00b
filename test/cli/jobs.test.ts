// Batch mode over worker threads (issue 16, src/cli/batch.ts): `--jobs 2` prints what `--jobs 1`
// prints, line for line and in input order, error rows and standard error included, on a corpus
// file with hostile lines mixed in (RFC 1738 2.2: a lone CR is a control character in its line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, shared } from '../helpers.js';
import { blockLines, jobsOption } from '../../src/cli/batch.js';
import { UsageError } from '../../src/cli/command.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(args: string[], stdin: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: stdin, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// Lines that make error rows, violations, a masked password, a CR LF, a lone CR, an empty line,
// a line longer than a block (64K characters) and a last line with no LF, mixed into a corpus
// file long enough for several blocks per worker.
const HOSTILE = [
  'not a url',
  '',
  'http://a.com/x\r',
  'http://a.com/a\rhttp://b.com/',
  'ftp://user:secret@h.com/x;type=i',
  '<URL:news:comp.lang>',
  'http://h.com:99999/',
  'http://[::1]/',
  ':',
  'x-unknown:thing',
];
const corpus = shared('corpus/isaacs_files.txt').split('\n');
const lines: string[] = [];
for (let i = 0; i < corpus.length; i++) {
  lines.push(corpus[i]);
  if (i % 500 === 0) lines.push(...HOSTILE);
  if (i === 3000) lines.push('gopher://h/1' + 'a'.repeat(70000) + '{');
}
const INPUT = lines.join('\n') + '\nhttp://last.com/no-lf';

const rows = (out: string) => out.split('\n');

for (const args of [
  ['parse', '--json'],
  ['parse'],
  ['parse', '--json', '--show-secrets', '--trim'],
  ['normalize', '--json'],
  ['normalize'],
  ['normalize', '--display'],
]) {
  test(`locator ${args.join(' ')}: --jobs 2 prints what --jobs 1 prints, line for line, same exit status`, () => {
    const one = run([...args, '--jobs', '1'], INPUT);
    const two = run([...args, '--jobs', '2'], INPUT);
    assert.equal(one.code, 1, one.err); // the corpus holds invalid URLs
    assert.equal(two.code, one.code, two.err);
    const a = rows(one.out);
    const b = rows(two.out);
    assert.ok(a.length > lines.length, `${a.length} output lines for ${lines.length} inputs`);
    assert.equal(b.length, a.length);
    for (let i = 0; i < a.length; i++) assert.equal(b[i], a[i], `output line ${i + 1}`);
    assert.equal(two.err, one.err);
    if (args.includes('--json')) {
      // One row per input, in input order (the input field is the line, password masked unless shown).
      const inputs = a.slice(0, -1).map((l) => JSON.parse(l).input as string);
      assert.equal(inputs.length, lines.length + 1);
      assert.equal(inputs[inputs.length - 1], 'http://last.com/no-lf');
      assert.ok(inputs.includes('http://a.com/a\rhttp://b.com/'));
      assert.ok(inputs.includes('http://a.com/x'));
    }
  });
}

test('--jobs 2 with URL arguments runs in this process, the same rows', () => {
  const args = ['parse', '--json', 'http://a.com/', 'nope'];
  assert.deepEqual(run([...args, '--jobs', '2'], ''), run(args, ''));
});

test('--jobs 2 on empty input, and on input of one line with no LF', () => {
  assert.deepEqual(run(['parse', '--json', '--jobs', '2'], ''), { code: 0, out: '', err: '' });
  const r = run(['parse', '--json', '--jobs', '2'], 'http://a.com/');
  assert.equal(r.code, 0);
  assert.equal(JSON.parse(r.out).href, 'http://a.com/');
});

test('--jobs: a whole number from 1 to 64 or "auto"; anything else is a usage error (exit 2)', () => {
  assert.equal(jobsOption(undefined), 1);
  assert.equal(jobsOption('3'), 3);
  assert.ok(jobsOption('auto') >= 1);
  for (const bad of ['0', '65', '-1', '1.5', '', 'two', true]) assert.throws(() => jobsOption(bad), UsageError);
  const r = run(['parse', '--jobs', 'x', 'http://a.com/'], '');
  assert.equal(r.code, 2);
  assert.match(r.err, /--jobs takes a whole number/);
});

test('blockLines(): the lines of a block as inputs() reads them (LF ends a line, CR LF trimmed)', () => {
  assert.deepEqual(blockLines('a\nb\r\n\r\r\n\nc'), ['a', 'b', '\r', '', 'c']);
  assert.deepEqual(blockLines('a\rb\n'), ['a\rb']);
  assert.deepEqual(blockLines('\n'), ['']);
});
