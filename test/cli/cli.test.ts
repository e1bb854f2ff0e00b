// The `locator` command as scripts use it (test/data/docs/contract.md): arguments or stdin
// lines, NDJSON with exactly the contract's fields, exit codes.
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

const PARSE_FIELDS = [
  'input',
  'ok',
  'valid',
  'error',
  'href',
  'scheme',
  'user',
  'password',
  'host',
  'port',
  'portDigits',
  'explicitPort',
  'path',
  'fragment',
  'fields',
  'violations',
];

test('parse --json: one object per argument with exactly the contract fields; exit 0 when all valid', () => {
  const r = run(['parse', '--json', 'ftp://foo:@host.com/', '<URL:news:*>']);
  assert.equal(r.code, 0, r.err);
  const lines = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  for (const o of lines) assert.deepEqual(Object.keys(o).sort(), [...PARSE_FIELDS].sort());
  assert.equal(lines[0].user, 'foo');
  assert.equal(lines[0].password, '');
  assert.equal(lines[0].port, 21);
  assert.equal(lines[0].portDigits, null);
  assert.equal(lines[0].explicitPort, false);
  assert.equal(lines[1].href, 'news:*');
  assert.equal(lines[1].input, '<URL:news:*>');
});

test('parse --json: batch mode reads stdin lines (CRLF too), keeps going, exits 1 on an invalid line', () => {
  const r = run(['parse', '--json'], 'http://a.com/\r\nnot a url\r\nhttp://a.com/~x\n\nmailto:a@b.c\n');
  assert.equal(r.code, 1);
  const lines = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((o) => [o.input, o.ok, o.valid]),
    [
      ['http://a.com/', true, true],
      ['not a url', false, false],
      ['http://a.com/~x', true, false],
      ['', false, false],
      ['mailto:a@b.c', true, true],
    ],
  );
  assert.equal(lines[1].error.code, 'missing-scheme');
  assert.deepEqual(
    lines[2].violations.map((d: { code: string; offset: number }) => [d.code, d.offset]),
    [['unsafe-char', 13]],
  );
  for (const d of lines[2].violations)
    assert.deepEqual(Object.keys(d).sort(), ['code', 'message', 'offset', 'section', 'severity']);
});

test('parse: the human view draws each component under the URL and points at violations', () => {
  const r = run(['parse', 'ftp://u:p@h.com:2121/a b#f']);
  assert.equal(r.code, 1);
  const lines = r.out.split('\n');
  assert.equal(lines[1], '  ftp://u:****@h.com:2121/a b#f', 'the password masked as "****", whatever its length');
  const host = lines.find((l) => l.includes('host 10..15'))!;
  assert.equal(host.indexOf('^^^^^'), 2 + 10 + 3, 'marked where it stands in the masked text');
  assert.ok(r.out.includes('error unsafe-char at 22 (RFC 1738 2.2)'));
});

test('usage errors exit 2; --help documents the exit codes', () => {
  assert.equal(run(['frobnicate']).code, 2);
  assert.equal(run(['parse', '--bogus']).code, 2);
  assert.equal(run([]).code, 2);
  const h = run(['--help']);
  assert.equal(h.code, 0);
  for (const s of ['parse', 'explain', 'Exit status']) assert.ok(h.out.includes(s), s);
  for (const re of [
    /^ +0 +success/m,
    /^ +1 +some input was invalid or refused/m,
    /^ +2 +usage/m,
    /^ +3 +network/m,
    /^ +70 +internal/m,
    /^ +130 +interrupted/m,
  ])
    assert.match(h.out, re);
});

test('explain --json: the contract fields; the FTP steps of RFC 1738 3.2.2; exit 1 for a scheme with no access algorithm', () => {
  const r = run(['explain', '--json'], 'ftp://myname@host.dom/%2Fetc/motd\nnode:url\nnope\n');
  assert.equal(r.code, 1);
  const [ftp, node, nope] = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(Object.keys(ftp).sort(), ['error', 'host', 'input', 'notes', 'ok', 'port', 'protocol', 'steps']);
  assert.equal(ftp.protocol, 'ftp');
  assert.equal(ftp.host, 'host.dom');
  assert.equal(ftp.port, 21);
  assert.deepEqual(
    ftp.steps.filter((s: string) => /^(USER|CWD|RETR)/.test(s)),
    ['USER myname', 'CWD /etc', 'RETR motd'],
  );
  assert.equal(node.ok, false);
  assert.equal(node.error.code, 'no-access-algorithm');
  assert.equal(nope.error.code, 'missing-scheme');
});

test('explain: human output numbers the steps and shows the Gopher request with <TAB> and <CR><LF>', () => {
  const r = run(['explain', 'gopher://h.com/7sel%09words']);
  assert.equal(r.code, 0, r.err);
  assert.ok(r.out.includes('gopher h.com:70'), r.out);
  assert.ok(r.out.includes('  1. sel<TAB>words<CR><LF>'), r.out);
});

test('explain --probe: what `locator check` sends (issue 18): HEAD for http, SIZE for an ftp file, no notes', () => {
  const r = run(['explain', '--probe', '--json', 'http://h.com/a?b', 'ftp://h.com/d/f.txt']);
  assert.equal(r.code, 0, r.err);
  const [h, f] = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(h.steps.slice(0, 2), ['HEAD /a?b HTTP/1.1', 'Host: h.com']);
  assert.deepEqual(h.notes, []);
  assert.deepEqual(f.steps.slice(2, 4), ['CWD d', 'SIZE f.txt [213: there; 550: CWD f.txt, a directory if 250]']);
  const human = run(['explain', '--probe', 'telnet://h.com']);
  assert.ok(human.out.includes('  1. connect h.com:23'), human.out);
});

test('parse --json fills the scheme fields (contract table)', () => {
  const r = run(['parse', '--json', 'gopher://h.com/', 'news:comp.x', 'wais://h.com/db?w', 'file:///etc/motd']);
  const [g, n, w, f] = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(g.fields.gophertype, '1');
  assert.equal(g.fields.request, '\r\n');
  assert.equal(n.fields.kind, 'group');
  assert.equal(n.fields.group, 'comp.x');
  assert.equal(w.fields.kind, 'index');
  assert.equal(w.fields.search, 'w');
  assert.deepEqual([f.fields.path, f.fields.local], ['/etc/motd', true]);
});

test('passwords are hidden in parse and explain output unless --show-secrets (RFC 1738 6)', () => {
  const url = 'ftp://me:s3cr3t@host.com/a b';
  const j = JSON.parse(run(['parse', '--json', url]).out);
  assert.equal(j.input, 'ftp://me:****@host.com/a b');
  assert.equal(j.href, 'ftp://me:****@host.com/a b');
  assert.equal(j.password, '****');
  assert.equal(j.violations[0].offset, 26, 'offsets still count the input as given');
  const human = run(['parse', url]).out;
  assert.ok(!human.includes('s3cr3t'), human);
  assert.ok(human.includes('ftp://me:****@host.com/a b'), 'masked as "****", whatever its length');
  assert.ok(!human.includes('*****'), 'the length of the password is not shown');
  assert.ok(human.includes('password 9..15 "****"'), 'the drawing names the offsets as given');
  // The caret under the space at offset 26 of the input, in the masked text (2 columns left).
  assert.ok(human.includes(`\n  ftp://me:****@host.com/a b\n  ${' '.repeat(24)}^\n`), human);
  const shown = JSON.parse(run(['parse', '--json', '--show-secrets', url]).out);
  assert.equal(shown.password, 's3cr3t');
  const ex = run(['explain', '--json', url]).out;
  assert.ok(!ex.includes('s3cr3t'), ex);
  assert.equal(
    JSON.parse(run(['parse', '--json', 'ftp://me:@h.com/']).out).password,
    '',
    'an empty password is no secret',
  );
});

test('every command hides passwords unless --show-secrets: normalize, resolve, extract, parse fields', () => {
  for (const args of [
    ['normalize', '--json', 'FTP://u:secret@H.com/x'],
    ['resolve', 'ftp://u:secret@h.com/a/b', 'c'],
    ['parse', '--json', 'foo://u:secret@h/'],
    ['parse', 'news://u:secret@h/x'],
    ['explain', 'news://u:secret@h/x'],
  ]) {
    const r = run(args);
    assert.ok(!(r.out + r.err).includes('secret'), `${args.join(' ')}: ${r.out}`);
    assert.ok(r.out.includes('****') && !r.out.includes('*****'), args.join(' '));
  }
  const shown = run(['normalize', '--show-secrets', 'FTP://u:secret@H.com/x']);
  assert.equal(shown.out.trim(), 'ftp://u:secret@h.com/x');
  const r = spawnSync(process.execPath, [BIN, 'extract', '--json'], {
    input: 'see <URL:ftp://u:secret@h.com/x>\n',
    encoding: 'utf8',
  });
  assert.equal(JSON.parse(r.stdout).url, 'ftp://u:****@h.com/x');
});

test('a reader that goes away (| head -1) ends the command quietly, no stack trace', () => {
  const r = spawnSync(
    'bash',
    ['-c', `yes http://a.com/b | head -100000 | "${process.execPath}" "${BIN}" parse --json | head -1`],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0);
  assert.equal(JSON.parse(r.stdout).href, 'http://a.com/b');
  assert.equal(r.stderr, '');
});

test('build() with no fields object is API misuse: a TypeError naming the argument', async () => {
  const { build } = await import('../../src/operations/build.js');
  assert.throws(
    () => build('ftp', null as unknown as Record<string, unknown>),
    /build: the fields must be an object, not null/,
  );
  assert.throws(() => build('ftp', null as unknown as Record<string, unknown>), TypeError);
});
