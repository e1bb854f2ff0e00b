// Batch mode over worker threads (issue 16, src/cli/batch.ts): `--jobs 2` prints what `--jobs 1`
// prints, line for line and in input order, error rows and standard error included, on a corpus
// file with hostile lines mixed in (RFC 1738 2.2: a lone CR is a control character in its line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, shared } from '../helpers.js';
import { blockLines, jobsOption, runBlock } from '../../src/cli/batch.js';
import { safeJson } from '../../src/cli/safe-text.js';
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
  const lines = (block: string) => {
    const out: string[] = [];
    blockLines(Buffer.from(block), (l) => out.push(l));
    return out;
  };
  assert.deepEqual(lines('a\nb\r\n\r\r\n\nc'), ['a', 'b', '\r', '', 'c']);
  assert.deepEqual(lines('a\rb\n'), ['a\rb']);
  assert.deepEqual(lines('\n'), ['']);
  // The input's last line has no LF: a CR at its end is no CR LF, and stays, as in inputs().
  assert.deepEqual(lines('a\nb\r'), ['a', 'b\r']);
  assert.deepEqual(lines('\u00e9\n'), ['\u00e9']);
});

test('--jobs 2: a last line with no LF keeps a CR at its end, as with --jobs 1', () => {
  // RFC 1738 2.2: the CR is a control character in the URL, reported, not trimmed away.
  const input = 'http://a.com/x\r\nhttp://b.com/y\r';
  const one = run(['parse', '--json', '--jobs', '1'], input);
  const two = run(['parse', '--json', '--jobs', '2'], input);
  assert.equal(two.out, one.out);
  assert.equal(two.code, 1);
  const inputs = two.out
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l).input as string);
  assert.deepEqual(inputs, ['http://a.com/x', 'http://b.com/y\r']);
});

test('--jobs 2 reads bytes: malformed UTF-8, a byte order mark and multi-byte characters come out as with --jobs 1', () => {
  // The workers decode blocks cut at LF bytes (batch.ts); the one-process loop decodes the stream.
  // Both must replace the same malformed sequences with U+FFFD and keep the BOM in the first line.
  const lines: Buffer[] = [Buffer.from('\uFEFFhttp://bom.example/\n')];
  const odd = [
    Buffer.from([0x68, 0x74, 0x74, 0x70, 0x3a, 0x2f, 0x2f, 0x61, 0x2f, 0xff, 0x0a]), // http://a/<FF>
    Buffer.from([0x68, 0x74, 0x74, 0x70, 0x3a, 0x2f, 0x2f, 0x62, 0x2f, 0xe2, 0x82, 0x0a]), // truncated €
    Buffer.from('ftp://h/caf\u00e9/\u20ac/\u{1F600};type=a\n'),
    Buffer.from([0xed, 0xa0, 0x80, 0x0a]), // an encoded surrogate: malformed in UTF-8
  ];
  for (let i = 0; i < 16000; i++)
    lines.push(i % 7 === 0 ? odd[(i / 7) % odd.length] : Buffer.from(`gopher://h${i}/0/\u00e9${i}\n`));
  const input = Buffer.concat(lines);
  assert.ok(input.byteLength > 4 * 65536, 'several blocks');
  const runBytes = (jobs: string) => {
    const r = spawnSync(process.execPath, [BIN, 'parse', '--json', '--jobs', jobs], { input, maxBuffer: 1 << 30 });
    return { code: r.status, out: r.stdout.toString('utf8'), err: r.stderr.toString('utf8') };
  };
  const one = runBytes('1');
  const two = runBytes('2');
  assert.equal(two.code, one.code, two.err);
  assert.equal(two.out, one.out);
  assert.equal(two.err, one.err);
  const inputs = one.out
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l).input as string);
  assert.equal(inputs.length, 16001);
  assert.equal(inputs[0], '\uFEFFhttp://bom.example/');
  assert.equal(inputs[1], 'http://a/\uFFFD');
  assert.ok(inputs.includes('ftp://h/caf\u00e9/\u20ac/\u{1F600};type=a'));
});

test('runBlock(): output as UTF-8 bytes, escaped like main.ts; error text after its row when both go to one stream', () => {
  const row = (input: string) => ({
    lines: [`<${input}>`],
    err: input === 'b' ? 'E\u202e\n' : '',
    status: input === 'b' ? 1 : 0,
  });
  const apart = runBlock(Buffer.from('a\nb\nc\u00e9\n'), row, safeJson);
  assert.equal(Buffer.from(apart.out).toString('utf8'), '<a>\n<b>\n<c\u00e9>\n');
  assert.equal(apart.err, 'E\u202e\n'); // standard error is escaped by its own stream in main.ts
  assert.equal(apart.status, 1);
  const together = runBlock(Buffer.from('a\nb\nc\n'), row, safeJson, true);
  assert.equal(Buffer.from(together.out).toString('utf8'), '<a>\n<b>\nE\\u202e\n<c>\n');
  assert.equal(together.err, '');
});
