// Terminal escapes (issue 10): control characters (C0, DEL, C1) and bidi formatting characters in
// a URL, a partial form, a file's text or a message are shown escaped in every command's text
// output, and as \uXXXX in its JSON (RFC 1738 2.2: "the octets 00-1F and 7F hexadecimal
// represent control characters; these must be encoded"). fetch's data is never altered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ROOT } from '../helpers.js';
import { safeText, safeJson, escaping } from '../../src/cli/safe-text.js';
import { PassThrough } from 'node:stream';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(args: string[], stdin = '') {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: stdin, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Every character a terminal could act on, LF aside: C0, DEL, C1, bidi formatting. */
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = [
  '\x1b]0;pwned\x07\x1b[2J',
  '\u202e',
  '\u2066x\u2069',
  '\u200f',
  '\u061c',
  '\x7f',
  '\x85',
  '\x9b31m',
  '\r',
  '\t',
  '\x00',
];

function clean(what: string, r: { out: string; err: string }): void {
  const m = UNSAFE.exec(r.out + r.err);
  assert.equal(m, null, `${what}: raw ${JSON.stringify(m?.[0])} in ${JSON.stringify((r.out + r.err).slice(0, 600))}`);
}

test('safeText: \\xHH for C0 (but LF), DEL and C1; \\uHHHH for bidi formatting; the rest unchanged', () => {
  const rows: Array<[string, string]> = [
    ['x\x1b]0;pwned\x07\x1b[2J', 'x\\x1b]0;pwned\\x07\\x1b[2J'],
    ['a\u202eb\u2066c\u2069\u200e\u200f\u061c', 'a\\u202eb\\u2066c\\u2069\\u200e\\u200f\\u061c'],
    ['\x00\t\r\x7f\x80\x9f', '\\x00\\x09\\x0d\\x7f\\x80\\x9f'],
    ['line one\nline two\n', 'line one\nline two\n'],
    ['http://a.com/é✓😀 \\x1b', 'http://a.com/é✓😀 \\x1b'],
  ];
  for (const [input, want] of rows) assert.equal(safeText(input), want, JSON.stringify(input));
  assert.equal(safeText('a\nb', false), 'a\\x0ab');
});

test('safeJson: DEL, C1 and bidi as \\uHHHH, read back as the same value', () => {
  const value = { input: 'a\u202eb\x7f\x85\u2067\x1b\n', n: 1 };
  const text = safeJson(JSON.stringify(value));
  assert.equal(UNSAFE.exec(text), null, text);
  assert.ok(text.includes('\\u202e') && text.includes('\\u007f') && text.includes('\\u0085'), text);
  assert.deepEqual(JSON.parse(text), value);
});

/** No NUL in an argument (the system cannot pass one); no bare CR in a batch line (it ends one today). */
const ARGS = HOSTILE.filter((h) => h !== '\x00');
const URLS = HOSTILE.filter((h) => h !== '\r').flatMap((h) => [
  `http://a.com/x${h}y`,
  `ftp://u:p${h}@h.com/a`,
  `news:${h}`,
  `${h}http://a.com/`,
]);
const LINES = URLS.join('\n') + '\n';

for (const mode of [[], ['--json']]) {
  const m = mode.length === 0 ? 'text' : 'json';
  for (const cmd of ['parse', 'explain', 'lint', 'normalize']) {
    test(`${cmd} (${m}): no raw control or bidi character reaches the terminal`, () => {
      const r = run([cmd, ...mode], LINES);
      clean(`${cmd} ${m}`, r);
      if (m === 'json') {
        // Each line is still JSON, and "input" reads back as given (where no password is masked).
        const recs = r.out
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { input: string });
        assert.equal(recs.length, URLS.length);
        for (let i = 0; i < URLS.length; i++) if (!URLS[i].startsWith('ftp:')) assert.equal(recs[i].input, URLS[i]);
      }
      clean(`${cmd} ${m} arguments`, run([cmd, ...mode, ...ARGS.map((h) => `http://a.com/${h}`)]));
    });
  }

  test(`resolve and relativize (${m}): partial forms, bases and messages are escaped`, () => {
    clean('resolve', run(['resolve', ...mode, 'http://a.com/', 'x\x1b]0;pwned\x07\x1b[2J']));
    clean(
      'resolve stdin',
      run(['resolve', ...mode, 'http://a.com/\u202e/'], HOSTILE.filter((h) => h !== '\r').join('\n') + '\n'),
    );
    clean('resolve error', run(['resolve', ...mode, 'http://a.com/', 'x:\x1b[2J\u202e'], ''));
    clean('resolve bad base', run(['resolve', ...mode, '\x1b[2J'], 'x\n'));
    clean('relativize', run(['relativize', ...mode, 'http://a.com/'], URLS.join('\n') + '\n'));
  });

  test(`equal (${m}): both URLs, the normal forms and the message are escaped`, () => {
    clean('equal', run(['equal', ...mode, 'http://a.com/\x1b[2J', 'http://a.com/\u202e']));
    clean('equal error', run(['equal', ...mode, '\x1b]0;x\x07', 'http://a.com/']));
    clean('equal error, bidi', run(['equal', ...mode, '\u202enope', 'http://a.com/']));
  });

  test(`extract (${m}): URLs found in hostile text are escaped`, () => {
    const text = HOSTILE.map((h) => `see <URL:http://a.com/${h}x> and http://b.com/${h}\n`).join('');
    clean('extract', run(['extract', ...mode], text));
    clean('extract file', run(['extract', ...mode, `/nonexistent/\x1b[2J\u202e`]));
  });
}

test('the literal example of issue 10: resolve prints \\x1b, \\x07 as escapes; lint shows \\u202e', () => {
  const r = run(['resolve', 'http://a.com/', 'x\x1b]0;pwned\x07\x1b[2J']);
  assert.equal(r.out, 'http://a.com/x\\x1b]0;pwned\\x07\\x1b[2J\n');
  const l = run(['lint', 'http://a.com/\u202ex']);
  assert.ok(l.out.startsWith('"http://a.com/\\u202ex": 1 error'), l.out);
  const j = run(['lint', '--json', 'http://a.com/\u202ex']);
  assert.ok(j.out.includes('"input":"http://a.com/\\u202ex"'), j.out);
});

test('usage errors and fetch messages are escaped; --help is unchanged', () => {
  clean('unknown command', run(['\x1b]0;pwned\x07']));
  clean('unknown option', run(['parse', '--\x1b[2J']));
  clean('fetch not a URL', run(['fetch', '\x1b]0;pwned\x07']));
  clean('fetch no file', run(['fetch', 'file:///nonexistent/\x1b[2J\u202e']));
  clean('fetch cannot write', run(['fetch', '-o', '/nonexistent/\x1b[2J/f', 'file:///etc/hostname']));
  const h = run(['--help']);
  assert.equal(h.code, 0);
  assert.ok(h.out.includes('Exit status'));
});

test('fetch writes the data unaltered, control characters and all', () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-terminal-'));
  const file = join(dir, 'raw.bin');
  const bytes = Buffer.from('a\x1b]0;pwned\x07\x1b[2J\r\n\u202e\x85\x00\xff', 'latin1');
  writeFileSync(file, bytes);
  const r = spawnSync(process.execPath, [BIN, 'fetch', `file://${file}`]);
  assert.equal(r.status, 0, r.stderr.toString());
  assert.deepEqual(r.stdout, bytes);
});

test('escaping(): bytes are decoded as a stream, so a UTF-8 sequence cut between two writes stays one character', async () => {
  const sink = new PassThrough();
  const got: Buffer[] = [];
  sink.on('data', (d: Buffer) => got.push(d));
  const t = escaping(sink, false);
  const euro = Buffer.from('a\u20ac\u202e\n'); // "a", the euro sign (3 bytes), a bidi override
  t.write(euro.subarray(0, 2));
  t.write(euro.subarray(2));
  t.end(Buffer.from([0xe2])); // a sequence the input never finishes: one U+FFFD at the end
  await new Promise((r) => sink.on('end', r));
  assert.equal(Buffer.concat(got).toString('utf8'), 'a\u20ac\\u202e\n\ufffd');
});
