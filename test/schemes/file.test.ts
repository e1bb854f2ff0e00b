// file: RFC 1738 3.10 and section 5 (fileurl = "file://" [ host | "localhost" ] "/" fpath).
// Rows: input, then "host | path | local" (JSON), then the violations as code@offset ("" for
// none), then the section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, codes, fixture, eachRow } from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { LocatorError } from '../../src/core/errors.js';

const ROWS: Array<[string, string, string, string]> = [
  // 3.10: file://<host>/<path>; "localhost" or "" is the machine interpreting the URL
  ['file:///etc/motd', '"" | "/etc/motd" | true', '', 'RFC 1738 3.10'],
  ['file://localhost/etc/motd', '"localhost" | "/etc/motd" | true', '', 'RFC 1738 3.10'],
  ['file://LocalHost/etc/motd', '"LocalHost" | "/etc/motd" | true', '', 'RFC 1738 3.10 (host names ignore case)'],
  ['file://files.example.org/etc/motd', '"files.example.org" | "/etc/motd" | false', '', 'RFC 1738 3.10'],
  ['file://localhost.example.org/x', '"localhost.example.org" | "/x" | false', '', 'RFC 1738 3.10'],
  ['file:///', '"" | "/" | true', '', 'RFC 1738 5 (fpath = fsegment, which may be empty)'],
  ['file:///pub/', '"" | "/pub/" | true', '', 'RFC 1738 5'],
  ['file:////x', '"" | "//x" | true', '', 'RFC 1738 5 (empty segments)'],
  // fsegment: escapes decoded; "/" and ";" reserved
  ['file:///a%20b/J%C3%BCrgen', '"" | "/a b/Jürgen" | true', '', 'RFC 1738 2.2'],
  ['file:///a%3Bb', '"" | "/a;b" | true', '', 'RFC 1738 5 (fsegment)'],
  ['file:///a?b:c@d&e=f', '"" | "/a?b:c@d&e=f" | true', '', 'RFC 1738 5 (fsegment)'],
  ['file:///a;b', '"" | "/a;b" | true', 'file-reserved-char@9', 'RFC 1738 5 (fsegment has no ";")'],
  [
    'file:///notes.txt;type=a',
    '"" | "/notes.txt;type=a" | true',
    'file-reserved-char@17',
    'RFC 1738 5 (fileurl has no ";type=")',
  ],
  // the host is everything between "//" and the next "/"
  ['file://node.gypi', '"node.gypi" | null | false', 'file-missing-path@16', 'RFC 1738 5 (fileurl requires "/" fpath)'],
  ['file://', '"" | null | true', 'file-missing-path@7', 'RFC 1738 5'],
  ['<URL:file://node.gypi>', '"node.gypi" | null | false', 'file-missing-path@21', 'RFC 1738 appendix'],
  ['file://my_file.txt/', '"my_file.txt" | "/" | false', 'invalid-host@9', 'RFC 1738 3.1'],
  // no user, password or port in fileurl
  ['file://joe@h.com/x', '"h.com" | "/x" | false', 'unexpected-login@7', 'RFC 1738 5 (fileurl)'],
  ['file://h.com:21/x', '"h.com" | "/x" | false', 'file-port@12', 'RFC 1738 5 (fileurl)'],
  ['file://h.com:/x', '"h.com" | "/x" | false', 'empty-port@12', 'RFC 1738 3.1'],
  // without "//": the scanner reports it; the path is still read (DEVIATION in file.ts)
  ['file:/etc/motd', 'null | "/etc/motd" | true', 'missing-slashes@5', 'RFC 1738 3.1'],
  ['file:motd', 'null | null | true', 'missing-slashes@5', 'RFC 1738 3.1'],
];

for (const [input, want, wantCodes, section] of ROWS) {
  test(`${section}: ${JSON.stringify(input)}`, () => {
    const u = parse(input);
    assert.equal(
      `${JSON.stringify(u.host)} | ${JSON.stringify(u.fields.path)} | ${JSON.stringify(u.fields.local)}`,
      want,
    );
    assert.deepEqual(Object.keys(u.fields), ['path', 'local']);
    assert.equal(codes(u), wantCodes);
    if (!u.explicitPort) assert.equal(u.port, null, 'file has no default port');
  });
}

test('RFC 1738 3.10: file://node.gypi reads "node.gypi" as the host and says so', () => {
  const u = parse('file://node.gypi');
  assert.equal(u.valid, false);
  const d = u.violations[0];
  assert.equal(d.code, 'file-missing-path');
  assert.equal(d.severity, 'error');
  assert.equal(d.section, 'RFC 1738 5 (fileurl)');
  assert.match(d.message, /"node\.gypi" is read as a host name/);
  assert.match(d.message, /file:\/\/\/node\.gypi/);
});

test('RFC 1738 3.10: <URL:file://vms.host.edu/disk$user/my/notes/note12345.txt>', () => {
  const u = parse('<URL:file://vms.host.edu/disk$user/my/notes/note12345.txt>');
  assert.equal(codes(u), '');
  assert.equal(u.host, 'vms.host.edu');
  assert.deepEqual(u.fields, { path: '/disk$user/my/notes/note12345.txt', local: false });
  assert.equal(build('file', { ...u.fields, host: u.host }), 'file://vms.host.edu/disk$user/my/notes/note12345.txt');
});

const FILE_EXAMPLES = (
  JSON.parse(fixture('spec-examples.json')) as {
    examples: Array<{ url: string; partial: boolean; source: string; line: number }>;
  }
).examples.filter((e) => !e.partial && /^file:/i.test(e.url));

test('the four texts print at least one file URL (spec-examples.json)', () => {
  assert.ok(FILE_EXAMPLES.length >= 1);
});

eachRow(
  'every file URL printed in the four texts parses with no violation and builds back to itself',
  FILE_EXAMPLES,
  (e) => {
    const u = parse(e.url);
    assert.equal(codes(u), '', e.url);
    assert.equal(build('file', { ...u.fields, host: u.host }), e.url);
  },
  { input: (e) => e.url, section: (e) => `${e.source}:${e.line}` },
);

// ---------------------------------------------------------------------------------------------
// explain: a local path is opened; another host is reached by FTP (draft 1993-07 fileaddress).

test('explain: a local file is opened from the file system (RFC 1738 3.10)', () => {
  const e = explain('file:///etc/motd');
  assert.deepEqual(e, {
    protocol: 'file',
    host: '',
    port: null,
    steps: ['open /etc/motd'],
    notes: e.notes,
  });
  assert.ok(e.notes.some((n) => /file system of the machine interpreting the URL/.test(n)));
  assert.deepEqual(explain('file://localhost/a%20b').steps, ['open /a b']);
  assert.deepEqual(explain('file:///pub/').steps, ['list /pub/']);
});

test('explain: another host is reached by anonymous FTP of the same path, with notes saying why', () => {
  const e = explain('file://vms.host.edu/disk$user/my/notes/note12345.txt');
  assert.equal(e.protocol, 'ftp');
  assert.equal(e.host, 'vms.host.edu');
  assert.equal(e.port, 21);
  assert.deepEqual(e.steps, [
    'USER anonymous',
    'PASS <your e-mail address>',
    'CWD disk$user',
    'CWD my',
    'CWD notes',
    'TYPE A',
    'EPSV',
    'RETR note12345.txt',
    'QUIT',
  ]);
  assert.ok(e.notes.some((n) => /names no protocol/.test(n) && /3\.10/.test(n)));
  assert.ok(e.notes.some((n) => /1993-07/.test(n) && /fileaddress/.test(n)));
});

test('explain: file://node.gypi is explained as the host it is read as, and the notes say it is invalid', () => {
  const e = explain('file://node.gypi');
  assert.equal(e.host, 'node.gypi');
  assert.ok(e.notes[0].includes('file-missing-path'));
});

// ---------------------------------------------------------------------------------------------
// build

test('build: the path is split at "/" and each segment encoded', () => {
  assert.equal(build('file', { path: '/etc/motd' }), 'file:///etc/motd');
  assert.equal(build('file', { path: '/a;b/50%/x y/Jürgen', local: true }), 'file:///a%3Bb/50%25/x%20y/J%C3%BCrgen');
  assert.equal(build('file', { path: '/', host: 'localhost' }), 'file://localhost/');
  assert.equal(build('file', { path: '/x', host: 'h.example.org', local: false }), 'file://h.example.org/x');
});

test('build: refuses what fileurl cannot write', () => {
  const refuses = (f: Record<string, unknown>, re: RegExp) =>
    assert.throws(
      () => build('file', f),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field' && re.test(e.message),
    );
  refuses({ path: 'etc/motd' }, /beginning with "\/"/);
  refuses({ host: 'node.gypi' }, /beginning with "\/"/);
  refuses({ path: '/x', port: 21 }, /no port/);
  refuses({ path: '/x', user: 'joe' }, /no user name/);
  refuses({ path: '/x', host: 'h.example.org', local: true }, /local is true/);
  refuses({ path: '/x', local: false }, /local is false/);
  refuses({ path: '/\udc00' }, /lone surrogate/);
});

// ---------------------------------------------------------------------------------------------
// Property: parse(build(f)).fields deepEquals f, and the href is stable.

const piece = fc.oneof(
  fc.constantFrom(
    '/',
    ';',
    '%',
    '%2F',
    '\t',
    '\r\n',
    '\0',
    ' ',
    '?',
    ':',
    '@',
    '&',
    '=',
    '#',
    '.',
    '..',
    ';type=i',
    'é',
    '😀',
  ),
  fc.string({ unit: 'binary', maxLength: 3 }),
);
const path = fc.array(piece, { maxLength: 8 }).map((a) => '/' + a.join(''));
const where = fc.oneof(
  fc.constantFrom('', 'localhost', 'LOCALHOST').map((host) => ({ host, local: true })),
  fc.constantFrom('vms.host.edu', 'files.example.org', '10.0.0.1').map((host) => ({ host, local: false })),
);

test('property: parse(build(f)).fields deepEquals f for file, and href is stable', () => {
  fc.assert(
    fc.property(path, where, (p, w) => {
      const f = { path: p, local: w.local };
      const href = build('file', { ...f, host: w.host });
      const u = parse(href);
      assert.deepEqual(u.fields, f);
      assert.equal(u.href, href);
      assert.equal(u.host, w.host);
      assert.equal(u.valid, true, JSON.stringify(u.violations));
      assert.equal(build('file', { ...u.fields, host: u.host }), href);
    }),
    { seed: 1738, numRuns: 500 },
  );
});
