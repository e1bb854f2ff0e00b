// Prospero (RFC 1738 3.11, section 5 prosperourl; draft 1993-10's %00-separated version and
// attributes). Rows: input, then the fields as JSON, then the violations as code@offset
// ("" for none), then the section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, codes, fixture, piecesText, assertBuildRoundTrip, eachRow } from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { LocatorError } from '../../src/core/errors.js';

type F = {
  hsoname: string | null;
  fields: Record<string, string>;
  version: string | null;
  attributes: string[] | null;
};
const rfc = (hsoname: string | null, fields: Record<string, string> = {}): F => ({
  hsoname,
  fields,
  version: null,
  attributes: null,
});
const draft = (hsoname: string, version: string, attributes: string[], fields: Record<string, string> = {}): F => ({
  hsoname,
  fields,
  version,
  attributes,
});

const ROWS: Array<[string, F, string, string]> = [
  // 3.11: the example, as printed, and without its wrapper
  [
    '<URL:prospero://host.dom//pros/name>',
    rfc('/pros/name'),
    '',
    'RFC 1738 3.11 (designates a <hsoname> of "/pros/name")',
  ],
  ['prospero://host.dom//pros/name', rfc('/pros/name'), '', 'RFC 1738 3.11'],
  // 3.11: prospero://<host>:<port>/<hsoname>;<field>=<value>, an instance of the template
  ['prospero://host.dom:1525/hsoname;field=value', rfc('hsoname', { field: 'value' }), '', 'RFC 1738 3.11 (template)'],
  [
    'prospero://host.dom//pros/name;OBJECT-VERSION=2',
    rfc('/pros/name', { 'OBJECT-VERSION': '2' }),
    '',
    'RFC 1738 3.11 ("the OBJECT-VERSION field")',
  ],
  ['prospero://host.dom/a;b=1;c=2', rfc('a', { b: '1', c: '2' }), '', 'RFC 1738 3.11 (each pair separated by ";")'],
  ['prospero://host.dom/a;=', rfc('a', { '': '' }), '', 'RFC 1738 5 (fieldname and fieldvalue may be empty)'],
  ['prospero://host.dom/a;b=?:@&', rfc('a', { b: '?:@&' }), '', 'RFC 1738 5 (fieldvalue)'],
  ['prospero://host.dom/a;x%3Dy=1%3B2%2F', rfc('a', { 'x=y': '1;2/' }), '', 'RFC 1738 2.2'],
  // the hsoname: "/" without quoting, ";" quoted; psegment allows "?", ":", "@", "&", "="
  [
    'prospero://host.dom/a/b//c',
    rfc('a/b//c'),
    '',
    'RFC 1738 3.11 ("a slash "/" may appear in the <hsoname> without quoting")',
  ],
  ['prospero://host.dom/a%3Bb', rfc('a;b'), '', 'RFC 1738 3.11 ("The semicolon ";" is reserved")'],
  ['prospero://host.dom/a=b?c:d@e&f', rfc('a=b?c:d@e&f'), '', 'RFC 1738 5 (psegment)'],
  ['prospero://host.dom/', rfc(''), '', 'RFC 1738 5 (ppath = psegment ...)'],
  ['prospero://host.dom/n%2500', rfc('n%00'), '', 'RFC 1738 2.2 (an encoded "%" is not the draft separator)'],
  // violations
  ['prospero://host.dom', rfc(null), 'prospero-missing-path@19', 'RFC 1738 5 (prosperourl)'],
  [
    'prospero://user@host.dom/x',
    rfc('x'),
    'unexpected-login@11',
    'RFC 1738 3.11 ("No username or password is allowed")',
  ],
  ['prospero://user:pw@host.dom/x', rfc('x'), 'unexpected-login@11', 'RFC 1738 3.11'],
  [
    'prospero://host.dom/a;b',
    rfc('a', { b: '' }),
    'prospero-field-syntax@21',
    'RFC 1738 5 (fieldspec = ";" fieldname "=" fieldvalue)',
  ],
  ['prospero://host.dom/a;', rfc('a', { '': '' }), 'prospero-field-syntax@21', 'RFC 1738 5 (fieldspec)'],
  [
    'prospero://host.dom/a;b=c=d',
    rfc('a', { b: 'c=d' }),
    'prospero-reserved-char@25',
    'RFC 1738 5 (fieldvalue has no "=")',
  ],
  [
    'prospero://host.dom/a;b=c/d',
    rfc('a', { b: 'c/d' }),
    'prospero-reserved-char@25',
    'RFC 1738 5 (fieldvalue has no "/")',
  ],
  [
    'prospero://host.dom/a;b/c=d',
    rfc('a', { 'b/c': 'd' }),
    'prospero-reserved-char@23',
    'RFC 1738 5 (fieldname has no "/")',
  ],
  ['prospero://host.dom/a;x=1;x=2', rfc('a', { x: '2' }), 'prospero-duplicate-field@25', 'RFC 1738 3.11'],
  [
    '<URL:prospero://u@host.dom/a;b>',
    rfc('a', { b: '' }),
    'unexpected-login@16 prospero-field-syntax@28',
    'RFC 1738 appendix (offsets count the input)',
  ],
  // draft 1993-10: hsoname [ %00 version [ attributes ] ], each separated by "%00"
  ['prospero://host.dom//pros/name%001', draft('/pros/name', '1', []), 'draft-only@30', 'draft 1993-10 (prosperolink)'],
  ['prospero://host.dom/n%00', draft('n', '', []), 'draft-only@21', 'draft 1993-10 (version may be empty)'],
  [
    'prospero://host.dom/n%00%00attr',
    draft('n', '', ['attr']),
    'draft-only@21',
    'draft 1993-10 ("separated from the host specific name by "%00%00"")',
  ],
  [
    'prospero://host.dom/n%002%00a1%00B2',
    draft('n', '2', ['a1', 'B2']),
    'draft-only@21',
    'draft 1993-10 (attribute = alphanums)',
  ],
  [
    'prospero://host.dom/n%001;OBJECT-VERSION=1',
    draft('n', '1', [], { 'OBJECT-VERSION': '1' }),
    'draft-only@21',
    'draft 1993-10 and RFC 1738 3.11',
  ],
  [
    'prospero://host.dom/n%00x',
    draft('n', 'x', []),
    'draft-only@21 prospero-version@24',
    'draft 1993-10 (version = digits)',
  ],
  [
    'prospero://host.dom/n%001%00a-b',
    draft('n', '1', ['a-b']),
    'draft-only@21 prospero-attribute@29',
    'draft 1993-10 (attribute = alphanums)',
  ],
  [
    'prospero://host.dom/n%001%00',
    draft('n', '1', ['']),
    'draft-only@21 prospero-attribute@25',
    'draft 1993-10 (attribute = alphanums)',
  ],
];

eachRow(
  'prospero: table',
  ROWS,
  ([input, want, violations, section]) => {
    const u = parse(input);
    assert.deepEqual(u.fields, want, `${input} (${section})`);
    assert.equal(codes(u), violations, `${input} violations (${section})`);
  },
  { section: (row) => row[3] },
);

test('prospero: the spec example of spec-examples.json, as printed', () => {
  const examples = JSON.parse(fixture('spec-examples.json')).examples as Array<{ url: string; printed: string }>;
  const mine = examples.filter((e) => e.url.startsWith('prospero:'));
  assert.equal(mine.length, 1);
  const u = parse(mine[0].printed);
  assert.equal(u.valid, true);
  assert.equal(u.host, 'host.dom');
  assert.equal(u.port, 1525);
  assert.equal(u.path, '/pros/name');
  assert.equal(u.fields.hsoname, '/pros/name');
});

test('prospero: severities and sections of the findings', () => {
  const u = parse('prospero://host.dom/n%00x;a=1;a=2');
  assert.deepEqual(
    u.violations.map((d) => [d.code, d.severity, d.section]),
    [
      ['draft-only', 'warning', 'RFC 1738 (drafts)'],
      ['prospero-version', 'error', 'draft 1993-10 (prospero)'],
      ['prospero-duplicate-field', 'warning', 'RFC 1738 3.11'],
    ],
  );
  assert.equal(parse('prospero://host.dom/n%001').valid, true);
});

test('prospero: a field named __proto__ is an ordinary field', () => {
  const f = parse('prospero://host.dom/a;__proto__=x').fields.fields as Record<string, string>;
  assert.deepEqual(Object.keys(f), ['__proto__']);
  assert.equal(Object.getOwnPropertyDescriptor(f, '__proto__')!.value, 'x');
  assert.equal(build('prospero', { host: 'h.com', hsoname: 'a', fields: f }), 'prospero://h.com/a;__proto__=x');
});

test('explain: ask the directory server for the access methods of the hsoname (RFC 1738 3.11)', () => {
  const e = explain('<URL:prospero://host.dom//pros/name>');
  assert.equal(e.protocol, 'prospero');
  assert.equal(e.host, 'host.dom');
  assert.equal(e.port, 1525);
  // Prospero v5 3.1, 3.7; "/" is quoted, as the historic library quotes it (lib/pfs/vqsprintf.c)
  assert.deepEqual(e.steps, ['VERSION 5', "GET-OBJECT-INFO ACCESS-METHOD ASCII '/pros/name' 0"]);
  assert.ok(e.notes.includes('the request goes to the directory server at host.dom:1525 as one ARDP message over UDP'));
  assert.ok(e.notes.some((n) => n.includes('access methods of the object')));
});

test('explain: a version (OBJECT-VERSION or the draft %00 version) follows the hsoname, else 0', () => {
  const GOI = 'GET-OBJECT-INFO ACCESS-METHOD ASCII';
  assert.equal(explain('prospero://h.com/a b%20c;OBJECT-VERSION=3').steps[1], `${GOI} 'a b c' 3`);
  const d = explain("prospero://h.com/it's%002%00ab");
  assert.equal(d.steps[1], `${GOI} 'it''s' 2`);
  assert.ok(d.notes.some((n) => n.includes('the version "2" and the attributes "ab"')));
  const f = explain('prospero://h.com/x;OBJECT-VERSION=3;OWNER=bcn');
  assert.ok(
    f.notes.includes(
      'the fields OBJECT-VERSION=3, OWNER=bcn identify the target of the URL (RFC 1738 3.11); OBJECT-VERSION selects the version of the object',
    ),
  );
  assert.equal(explain('prospero://h.com/').steps[1], `${GOI} '' 0`);
  assert.equal(explain('prospero://h.com/a%0Ab').steps[1], `${GOI} 'a<LF>b' 0`);
  assert.equal(explain('prospero://h.com/a+b,c').steps[1], `${GOI} 'a+b,c' 0`);
});

test('explain an invalid Prospero URL says what is wrong', () => {
  const e = explain('prospero://u@h.com');
  assert.deepEqual(e.steps, []);
  assert.ok(e.notes.includes('no hsoname is given: there is no object to ask about'));
  assert.ok(e.notes.some((n) => n.includes('unexpected-login at offset 11')));
  assert.ok(e.notes.some((n) => n.includes('prospero-missing-path at offset 18')));
});

test('build: hsoname, the draft %00 form and fields (RFC 1738 3.11)', () => {
  assert.equal(build('prospero', { host: 'host.dom', hsoname: '/pros/name' }), 'prospero://host.dom//pros/name');
  assert.equal(
    build('prospero', {
      host: 'h.com',
      port: 1525,
      hsoname: 'a;b c',
      fields: { 'OBJECT-VERSION': '2', 'a=b': 'c;d/e' },
    }),
    'prospero://h.com/a%3Bb%20c;OBJECT-VERSION=2;a%3Db=c%3Bd%2Fe',
  );
  assert.equal(
    build('prospero', { host: 'h.com', hsoname: 'n', version: '', attributes: ['attr'] }),
    'prospero://h.com/n%00%00attr',
  );
  assert.equal(
    build('prospero', { host: 'h.com', port: 191, hsoname: 'n%00', version: '7', attributes: [] }),
    'prospero://h.com:191/n%2500%007',
  );
});

const BUILD_REFUSED: Array<Record<string, unknown>> = [
  { host: 'h.com' },
  { host: 'h.com', user: 'u', hsoname: 'x' },
  { host: 'h.com', hsoname: 'a\0b' },
  { host: 'h.com', hsoname: 'a', version: 'x' },
  { host: 'h.com', hsoname: 'a', attributes: ['x'] },
  { host: 'h.com', hsoname: 'a', version: '1', attributes: [''] },
  { host: 'h.com', hsoname: 'a', version: '1', attributes: ['a-b'] },
  { host: 'h.com', hsoname: 'a', fields: { x: 1 } },
  { host: 'h.com', hsoname: 'a', fields: ['x'] },
];
eachRow('build refuses what no prospero URL can write (RFC 1738 3.11; draft 1993-10)', BUILD_REFUSED, (f) => {
  assert.throws(() => build('prospero', f), LocatorError, JSON.stringify(f));
});

// Random text with the characters that must be encoded somewhere (fixed seed).
const textArb = piecesText([';', '=', '/', '?', ':', '@', '&', '%', '%00', '#', '+', ' ', '\t', '\r\n', 'é', '😀']);
const alnum = fc.stringMatching(/^[A-Za-z0-9]{1,6}$/);

const prosperoArb = fc
  .record({
    hsoname: textArb.filter((s) => !s.includes('\0')),
    fields: fc.dictionary(textArb, textArb, { maxKeys: 4, noNullPrototype: true }),
    draft: fc.option(
      fc.record({ version: fc.stringMatching(/^[0-9]{0,4}$/), attributes: fc.array(alnum, { maxLength: 3 }) }),
    ),
  })
  .map(({ hsoname, fields, draft }) => ({
    hsoname,
    fields,
    version: draft?.version ?? null,
    attributes: draft?.attributes ?? null,
  }));

test('property: parse(build(f)).fields deep-equals f, and the built URL is valid', () => {
  assertBuildRoundTrip(build, 'prospero', prosperoArb, 1525);
});
