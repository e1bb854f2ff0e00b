// `locator extract [--json] [FILE...]` as scripts use it (test/data/docs/contract.md): one
// NDJSON object per match with the contract fields and `file`, FILE:LINE:COLUMN: URL lines,
// standard input, exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, SHARED } from '../helpers.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const FIX = join(ROOT, 'test', 'fixtures', 'extract');
function run(args: string[], stdin?: string | Buffer) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: stdin ?? '', encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const FIELDS = ['url', 'start', 'end', 'line', 'column', 'form', 'alternatives', 'file'];

test('extract --json FILE: the contract fields plus "file"; the RFC 1738 appendix examples; exit 0', () => {
  const r = run(['extract', '--json', join(FIX, 'appendix-rfc1738.txt')]);
  assert.equal(r.code, 0, r.err);
  const rows = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  for (const o of rows) assert.deepEqual(Object.keys(o), FIELDS);
  assert.deepEqual(
    rows.map((o) => [o.url, o.form, o.line, o.column]),
    [
      ['ftp://info.cern.ch/pub/www/doc;type=d', 'prefixed', 3, 34],
      ['ftp://ds.internic.net/rfc', 'prefixed', 4, 52],
      ['http://ds.internic.net/instructions/overview.html#WARNING', 'prefixed', 5, 45],
    ],
  );
  assert.equal(rows[0].file, join(FIX, 'appendix-rfc1738.txt'));
});

test('extract reads standard input (file "-"), CR LF and non-ASCII text (offsets in UTF-16 code units); alternatives listed', () => {
  const mail = Buffer.from('Hi Jürgen 🙂\r\n> <URL:ftp://a.com/draft-\r\n> notes.txt>\r\n', 'utf8');
  const r = run(['extract', '--json'], mail);
  assert.equal(r.code, 0, r.err);
  const [o] = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(o, {
    url: 'ftp://a.com/draft-notes.txt',
    start: 16,
    end: 53,
    line: 2,
    column: 3,
    form: 'prefixed',
    alternatives: ['ftp://a.com/draftnotes.txt'],
    file: '-',
  });
  const h = run(['extract'], mail);
  assert.equal(h.out, '2:3: ftp://a.com/draft-notes.txt\n  or: ftp://a.com/draftnotes.txt\n');
});

test('extract FILE FILE: FILE:LINE:COLUMN: URL lines for each file in turn', () => {
  const a = join(FIX, 'appendix-draft-1994-03.txt');
  const b = join(SHARED, 'spec', 'draft-url-1993-10.txt');
  const r = run(['extract', a, b]);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.deepEqual(lines.slice(0, 3), [
    `${a}:3:28: ftp://ftp.w3.org/pub/www/doc`,
    `${a}:4:38: ftp://ds.internic.net/rfc`,
    `${b}:1097:44: ftp://info.cern.ch/pub`,
  ]);
  assert.ok(lines.includes(`${b}:1156:26: ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol`));
});

test('--wrapped-only leaves out bare URLs; --max-length abandons longer wrappers', () => {
  const text = 'see http://a.com/ and <http://b.com/> and <URL:news:comp.infosystems.www.misc>\n';
  assert.equal(
    run(['extract', '--wrapped-only'], text).out,
    '1:23: http://b.com/\n1:43: news:comp.infosystems.www.misc\n',
  );
  assert.equal(run(['extract', '--max-length', '20'], text).out, '1:5: http://a.com/\n1:23: http://b.com/\n');
});

test('exit 1 when no URL is found; 2 for an unreadable FILE (the others still read) and for bad options', () => {
  const none = run(['extract'], 'a:b 3:4 <uri@bunyip.com> http://<host>:<port>/\n');
  assert.equal(none.code, 1);
  assert.equal(none.out, '');
  const missing = run(['extract', join(FIX, 'no-such-file.txt'), join(FIX, 'appendix-draft-1994-03.txt')]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /no-such-file\.txt: ENOENT/);
  assert.equal(missing.out.trim().split('\n').length, 2);
  assert.equal(run(['extract', FIX]).code, 2); // a directory
  assert.equal(run(['extract', '--max-length', '3']).code, 2);
  assert.equal(run(['extract', '--max-length', 'lots']).code, 2);
  assert.equal(run(['extract', '--bogus']).code, 2);
});

test('extract --help lists its options and exit codes', () => {
  const h = run(['extract', '--help']);
  for (const s of [
    'extract [--json] [--max-length N] [--wrapped-only] [FILE...]',
    '--max-length N',
    '--wrapped-only',
  ]) {
    assert.ok(h.out.includes(s), s);
  }
  assert.match(h.out, /^ {2}1 +none was found$/m);
  assert.match(h.out, /^ {2}2 +usage error, or a FILE that cannot be read/m);
});
