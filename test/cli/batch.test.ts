// Batch mode under hostile input (issue 10): lines end at LF only (a lone CR stays in its line
// and is a control character, RFC 1738 2.2), a line dense in violations keeps its row and the
// others theirs, and the violations listed per URL are capped with a count of the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ROOT } from '../helpers.js';
import { FdOutput, fdLines, inputs, lineBatches, failure } from '../../src/cli/io.js';
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

test('lineBatches(): the lines of inputs(), a chunk at a time, wherever the chunks are cut', async () => {
  const text = 'http://a.com/a\rb\r\n\nc\r\r\nd\u00e9\u202e' + 'x'.repeat(70000) + '\ne\r';
  const bytes = Buffer.from(text);
  for (const cut of [1, 2, 3, 7, 64, 1000, 65536, bytes.length]) {
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += cut) chunks.push(bytes.subarray(i, i + cut));
    const make = () => {
      const s = new Readable({ read() {} });
      for (const c of chunks) s.push(c);
      s.push(null);
      return s;
    };
    const want: string[] = [];
    for await (const l of inputs([], make())) want.push(l);
    const got: string[] = [];
    for await (const batch of lineBatches(make())) {
      assert.ok(batch.length > 0);
      got.push(...batch);
    }
    assert.deepEqual(got, want, `chunks of ${cut} bytes`);
  }
  assert.equal((await lines(['a\nb'])).length, 2);
});

test('fdLines(): the lines of inputs() from a file descriptor, a sequence or a line cut at a read joined, bad bytes U+FFFD', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-fd-'));
  try {
    // A byte order mark, a 2-byte and a 4-byte sequence across the 64 KiB reads, bytes that are
    // not UTF-8, CR LF and a lone CR, a last line without LF.
    const bytes = Buffer.concat([
      Buffer.from('\ufeffhttp://a.com/\r\n'),
      Buffer.from('x'.repeat(65536 - 18 - 1) + '\u00e9' + 'y'.repeat(65534) + '\u{1f600}\n'),
      Buffer.from([
        0x66, 0x3a, 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x0d, 0x0a, 0x61, 0x0d, 0x62, 0x0a, 0x68, 0x3a, 0xe2, 0x80,
      ]),
    ]);
    const file = join(dir, 'in.txt');
    writeFileSync(file, bytes);
    const want: string[] = [];
    for await (const l of inputs([], createReadStream(file))) want.push(l);
    const fd = openSync(file, 'r');
    const got: string[] = [];
    try {
      await fdLines(
        fd,
        () => assert.fail('no stream: the file reads'),
        (l) => void got.push(l),
      );
    } finally {
      closeSync(fd);
    }
    assert.deepEqual(got, want);
    assert.equal(got.length, 5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('FdOutput: the bytes a stream writes for the same text, long texts and lone surrogates included', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-fd-'));
  try {
    const texts = ['a\n', '\u00e9\u{1f600}\ud800x\udc00\n', 'z'.repeat(1 << 20) + '\n', '\u20ac'.repeat(90000), ''];
    const file = join(dir, 'out.txt');
    const fd = openSync(file, 'w');
    try {
      const out = new FdOutput(fd, () => assert.fail('no stream: the file takes every write'));
      for (const t of texts) await out.write(t);
    } finally {
      closeSync(fd);
    }
    assert.ok(readFileSync(file).equals(Buffer.from(texts.join(''))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

test('hostile lines (issue 17): parse, normalize, lint and explain --json give exactly one row per input line, in order', () => {
  const enc = (s: string) => Buffer.from(s, 'utf8');
  // Each entry: the bytes of one line (no LF), and the start of the input its row must show.
  const lines: Array<[Buffer, string]> = [
    [enc('http://a.com/'), 'http://a.com/'],
    [enc('http://a.com/\0b'), 'http://a.com/\0b'],
    [Buffer.from([0x68, 0x3a, 0xed, 0xa0, 0x80, 0x78]), 'h:\ufffd'], // a lone surrogate (WTF-8 bytes)
    [Buffer.from([0x66, 0x74, 0x70, 0x3a, 0x2f, 0x2f, 0xc3, 0x28, 0xff, 0xfe]), 'ftp://\ufffd('], // invalid UTF-8
    [enc('http://b.com/\r'), 'http://b.com/'], // CR LF: the CR goes with the line end
    [enc('gopher://c.com/\rx'), 'gopher://c.com/\rx'], // a lone CR stays in its line
    [enc(''), ''],
    [enc('\u2028<URL:\u0085>'), '\u2028<URL:\u0085>'],
    [enc('http://h.com/' + 'a/'.repeat(5 << 20)), 'http://h.com/a/a/'], // a 10 MB line
    [enc('news:' + '%'.repeat(1000)), 'news:%%%'],
  ];
  const stdin = Buffer.concat(lines.flatMap(([b]) => [b, Buffer.from('\n')]));
  for (const cmd of ['parse', 'normalize', 'lint', 'explain']) {
    const r = spawnSync(process.execPath, [BIN, cmd, '--json'], { input: stdin, maxBuffer: 1 << 30 });
    assert.ok(r.status === 0 || r.status === 1, `${cmd}: exit ${r.status}: ${String(r.stderr).slice(0, 300)}`);
    const out = r.stdout.toString('utf8');
    assert.ok(out.endsWith('\n'), cmd);
    const rows = out
      .slice(0, -1)
      .split('\n')
      .map((l) => JSON.parse(l) as { input: string });
    assert.equal(rows.length, lines.length, `${cmd}: ${rows.length} rows for ${lines.length} lines`);
    rows.forEach((row, i) =>
      assert.ok(row.input.startsWith(lines[i][1]), `${cmd} row ${i}: ${row.input.slice(0, 40)}`),
    );
  }
});

test("a long one-process batch holds V8's young generation at 2 x 2 MB (peak RSS, issue 38)", () => {
  // A million lines of the corpus through `parse --json`, as the benchmark runs it: without the
  // hold, the few KB that survive each collection add up and V8 grows the semi-spaces to 4 MB each
  // (8 MB) about 700,000 lines in. The probe reads the young generation's size as the process ends.
  const dir = mkdtempSync(join(tmpdir(), 'locator-young-'));
  try {
    const corpus = ['isaacs_files.txt', 'kasztp.txt', 'node_files.txt', 'schemes.txt']
      .map((f) => readFileSync(join(ROOT, 'test', 'data', 'corpus', f), 'utf8'))
      .join('');
    const lines = corpus.split('\n').filter((l) => l !== '');
    const input = join(dir, 'in.txt');
    const text: string[] = [];
    for (let n = 0; n < 1_000_000; n += lines.length) text.push(lines.slice(0, 1_000_000 - n).join('\n') + '\n');
    writeFileSync(input, text.join(''));
    const probe = join(dir, 'probe.cjs');
    const report = join(dir, 'young.json');
    writeFileSync(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(` +
        `require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space'))));\n`,
    );
    const fdIn = openSync(input, 'r');
    const fdOut = openSync('/dev/null', 'w');
    try {
      const r = spawnSync(
        process.execPath,
        ['-r', probe, join(ROOT, 'dist', 'cli', 'locator.cjs'), 'parse', '--json'],
        {
          stdio: [fdIn, fdOut, 'pipe'],
          encoding: 'utf8',
        },
      );
      assert.equal(r.status, 1, r.stderr); // the corpus has lines that do not parse
      // parse --json writes its errors as rows: V8 refusing the flag would print here.
      assert.equal(r.stderr, '');
    } finally {
      closeSync(fdIn);
      closeSync(fdOut);
    }
    const young = JSON.parse(readFileSync(report, 'utf8')) as { space_size: number };
    assert.ok(young.space_size <= 4 << 20, `young generation ${young.space_size} bytes`);
    assert.ok(young.space_size >= 2 << 20, `young generation ${young.space_size} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
