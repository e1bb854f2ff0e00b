// afs: draft-url-1993-07 afsaddress = a f s : / / cellname / path (cellname = hostname); the
// 1993-10 and 1994-03 drafts keep it "as historical note"; RFC 1738 4 reserves the name. No text
// prints a concrete afs URL (only the production), so the rows are ours.
// Rows: input, then "cellname | path" (JSON), then the violations as code@offset, then the section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, codes, shared } from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { LocatorError } from '../../src/core/errors.js';
import { getScheme } from '../../src/schemes/registry.js';

const ROWS: Array<[string, string, string, string]> = [
  [
    'afs://andrew.cmu.edu/usr/joe/notes',
    '"andrew.cmu.edu" | "/usr/joe/notes"',
    'draft-only@0',
    'draft 1993-07 (afsaddress)',
  ],
  ['AFS://transarc.com/', '"transarc.com" | "/"', 'draft-only@0', 'draft 1993-07 (path = void)'],
  ['afs://cell.org/a%20b/%3B', '"cell.org" | "/a b/;"', 'draft-only@0', 'RFC 1738 2.2'],
  ['afs://cell.org/a@b&c+d', '"cell.org" | "/a@b&c+d"', 'draft-only@0', 'draft 1994-03 (safe has "@" and "&")'],
  ['<URL:afs://cell.org/x>', '"cell.org" | "/x"', 'draft-only@5', 'RFC 1738 appendix'],
  // 1994-03: "=", ";", "?" and ":" are reserved, not xpalpha
  ['afs://cell.org/a;b', '"cell.org" | "/a;b"', 'draft-only@0 afs-reserved-char@16', 'draft 1994-03 (xpalpha)'],
  [
    'afs://cell.org/a?b=c:d',
    '"cell.org" | "/a?b=c:d"',
    'draft-only@0 afs-reserved-char@16 afs-reserved-char@18 afs-reserved-char@20',
    'draft 1994-03 (xpalpha)',
  ],
  // cellname = hostname; "/" path required; no login, no port
  ['afs:///usr/x', '"" | "/usr/x"', 'draft-only@0 afs-missing-cell@6', 'draft 1993-07 (cellname)'],
  ['afs://cell.org', '"cell.org" | null', 'draft-only@0 afs-missing-path@14', 'draft 1993-07 (afsaddress)'],
  ['afs://joe@cell.org/x', '"cell.org" | "/x"', 'draft-only@0 unexpected-login@6', 'draft 1993-07 (afsaddress)'],
  ['afs://cell.org:7000/x', '"cell.org" | "/x"', 'draft-only@0 afs-port@14', 'draft 1993-07 (afsaddress)'],
  ['afs:/usr/x', 'null | null', 'draft-only@0 missing-slashes@4', 'RFC 1738 3.1'],
];

for (const [input, want, wantCodes, section] of ROWS) {
  test(`${section}: ${JSON.stringify(input)}`, () => {
    const u = parse(input);
    assert.equal(`${JSON.stringify(u.fields.cellname)} | ${JSON.stringify(u.fields.path)}`, want);
    assert.deepEqual(Object.keys(u.fields), ['cellname', 'path']);
    assert.equal(codes(u), wantCodes);
  });
}

test('draft 1993-07: afs is a draft scheme and every afs URL gets a draft-only warning', () => {
  assert.equal(getScheme('afs')?.status, 'draft');
  const u = parse('afs://andrew.cmu.edu/usr/joe');
  assert.equal(u.valid, true);
  assert.equal(u.violations[0].code, 'draft-only');
  assert.equal(u.violations[0].severity, 'warning');
  assert.match(u.violations[0].message, /1993-07 draft/);
});

test('the grammar is what the drafts print', () => {
  assert.match(shared('spec/draft-url-1993-07.txt'), /afsaddress a f s : \/ \/ cellname \/ path/);
  assert.match(
    shared('spec/draft-url-1994-03.txt'),
    /The "afsaddress" is left in as historical note, but is not a url production/,
  );
  assert.match(shared('spec/rfc1738-1994-12.txt'), /afs {14}Andrew File System global file names\./);
});

test('explain: the drafts give no access algorithm; the AFS name space /afs/<cell> is explained as such', () => {
  const e = explain('afs://andrew.cmu.edu/usr/joe/notes%20v2');
  assert.deepEqual(e.steps, ['open /afs/andrew.cmu.edu/usr/joe/notes v2']);
  assert.equal(e.protocol, 'afs');
  assert.equal(e.host, 'andrew.cmu.edu');
  assert.equal(e.port, null);
  assert.ok(e.notes.some((n) => /no access algorithm/.test(n)));
  assert.ok(e.notes.some((n) => /not part of the drafts/.test(n)));
  const bad = explain('afs:///x');
  assert.deepEqual(bad.steps, []);
  assert.ok(bad.notes.some((n) => /afs-missing-cell/.test(n)));
});

test('build: cell name and encoded path; refuses what afsaddress cannot write', () => {
  assert.equal(build('afs', { cellname: 'andrew.cmu.edu', path: '/usr/a;b c' }), 'afs://andrew.cmu.edu/usr/a%3Bb%20c');
  assert.equal(build('afs', { host: 'cell.org', path: '/' }), 'afs://cell.org/');
  const refuses = (f: Record<string, unknown>, re: RegExp) =>
    assert.throws(
      () => build('afs', f),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field' && re.test(e.message),
    );
  refuses({ path: '/x' }, /cell name/);
  refuses({ cellname: 'a.org', host: 'b.org', path: '/x' }, /disagree/);
  refuses({ cellname: 'a.org', path: 'x' }, /beginning with "\/"/);
  refuses({ cellname: 'a.org', path: '/x', port: 7000 }, /no port/);
  refuses({ cellname: 'a.org', path: '/x', user: 'joe' }, /no user name/);
});

const piece = fc.oneof(
  fc.constantFrom('/', ';', '%', '=', '?', ':', '@', '&', '\t', '\r\n', ' ', 'é', '😀'),
  fc.string({ unit: 'binary', maxLength: 3 }),
);
const afsFields = fc
  .record({
    cellname: fc.constantFrom('andrew.cmu.edu', 'transarc.com', 'cell.example.org'),
    path: fc.array(piece, { maxLength: 8 }).map((a) => '/' + a.join('')),
  })
  .map(({ cellname, path }) => ({ cellname, path })); // fc.record objects have a null prototype

test('property: parse(build(f)).fields deepEquals f for afs, and href is stable', () => {
  fc.assert(
    fc.property(afsFields, (f) => {
      const href = build('afs', f);
      const u = parse(href);
      assert.deepEqual(u.fields, f);
      assert.equal(u.href, href);
      assert.equal(u.valid, true, JSON.stringify(u.violations));
      assert.equal(build('afs', { ...u.fields }), href);
    }),
    { seed: 1738, numRuns: 500 },
  );
});
