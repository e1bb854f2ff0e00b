// WAIS (RFC 1738 3.9, section 5 waisurl; draft 1993-07's document length; draft 1994-03's wpath
// field encoding). Rows: input, then the fields as "kind | database | search | wtype | wpath"
// (null "-"), then the violations as code@offset ("" for none), then the section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse, codes, fixture, SHARED, piecesText, assertBuildRoundTrip, eachRow } from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { LocatorError } from '../../src/core/errors.js';
import { UCHAR_SET, encode } from '../../src/core/percent.js';
import type { Url } from '../../src/core/url.js';

function row(u: Url): string {
  const f = u.fields as Record<string, string | null>;
  const v = (x: string | null) => (x === null ? '-' : x);
  return [f.kind, v(f.database), v(f.search), v(f.wtype), v(f.wpath)].join(' | ');
}

const ROWS: Array<[string, string, string, string]> = [
  // the drafts' example (draft 1994-03 References; draft 1993-10 prints it wrapped)
  [
    'wais://quake.think.com/wais-discussion-archives?lynch',
    'index | wais-discussion-archives | lynch | - | -',
    '',
    'draft 1994-03 References',
  ],
  // 3.9: the three forms, instances of the templates
  ['wais://host.dom:210/database', 'database | database | - | - | -', '', 'RFC 1738 3.9 (waisdatabase)'],
  ['wais://host.dom/database?search', 'index | database | search | - | -', '', 'RFC 1738 3.9 (waisindex)'],
  ['wais://host.dom/database/wtype/wpath', 'document | database | - | wtype | wpath', '', 'RFC 1738 3.9 (waisdoc)'],
  ['wais://host.dom/', 'database |  | - | - | -', '', 'RFC 1738 5 (database = *uchar)'],
  ['wais://host.dom/db?', 'index | db |  | - | -', '', 'RFC 1738 5 (search may be empty)'],
  ['wais://host.dom/db/TEXT/', 'document | db | - | TEXT | ', '', 'RFC 1738 5 (wpath = *uchar)'],
  [
    'wais://host.dom/db/TEXT/123',
    'document | db | - | TEXT | 123',
    '',
    'RFC 1738 3.9 (no length without a "/" after it)',
  ],
  // decoding (2.2)
  ['wais://host.dom/d%2Fb?a%3Fb%2F', 'index | d/b | a?b/ | - | -', '', 'RFC 1738 2.2'],
  ['wais://host.dom/db/T%2FX/0%3D1%3B%2F', 'document | db | - | T/X | 0=1;/', '', 'RFC 1738 2.2'],
  ['wais://host.dom/db?a=b;c:d@e&f+g', 'index | db | a=b;c:d@e&f+g | - | -', '', 'RFC 1738 5 (search)'],
  // reserved characters inside database, wtype, wpath and search
  ['wais://host.dom/d;b', 'database | d;b | - | - | -', 'wais-reserved-char@17', 'RFC 1738 5 (database = *uchar)'],
  ['wais://host.dom/d=b?x', 'index | d=b | x | - | -', 'wais-reserved-char@17', 'RFC 1738 5 (database = *uchar)'],
  ['wais://host.dom/db?a/b', 'index | db | a/b | - | -', 'wais-reserved-char@20', 'RFC 1738 5 (search)'],
  ['wais://host.dom/db?a?b', 'index | db | a?b | - | -', 'wais-reserved-char@20', 'RFC 1738 5 (search)'],
  ['wais://host.dom/db/T;X/x', 'document | db | - | T;X | x', 'wais-reserved-char@20', 'RFC 1738 5 (wtype = *uchar)'],
  [
    'wais://host.dom/db/TEXT/a/b',
    'document | db | - | TEXT | a/b',
    'wais-reserved-char@25',
    'RFC 1738 5 (wpath = *uchar)',
  ],
  [
    'wais://host.dom/db/TEXT/a=b',
    'document | db | - | TEXT | a=b',
    'wais-reserved-char@25',
    'RFC 1738 5 (wpath = *uchar)',
  ],
  [
    'wais://host.dom/db/TEXT/a?b',
    'document | db | - | TEXT | a?b',
    'wais-reserved-char@25',
    'RFC 1738 5 (wpath = *uchar)',
  ],
  [
    'wais://host.dom/db/TEXT/x=1;',
    'document | db | - | TEXT | x=1;',
    'wais-reserved-char@25 wais-reserved-char@27',
    'RFC 1738 5 (not the draft field form)',
  ],
  [
    'wais://host.dom/db/TEXT/1=a',
    'document | db | - | TEXT | 1=a',
    'wais-reserved-char@25',
    'RFC 1738 5 (a field ends with ";")',
  ],
  // missing parts
  ['wais://host.dom', 'database | - | - | - | -', 'wais-missing-database@15', 'RFC 1738 3.9'],
  ['wais://host.dom:210', 'database | - | - | - | -', 'wais-missing-database@19', 'RFC 1738 3.9'],
  ['wais://host.dom/db/TEXT', 'document | db | - | TEXT | -', 'wais-missing-wpath@23', 'RFC 1738 3.9'],
  ['wais://host.dom/db/', 'document | db | - |  | -', 'wais-missing-wpath@19', 'RFC 1738 3.9'],
  // no login: waisurl is "wais://" hostport
  ['wais://user@host.dom/db', 'database | db | - | - | -', 'unexpected-login@7', 'RFC 1738 5 (waisurl)'],
  [
    '<URL:wais://u:p@host.dom/d;b>',
    'database | d;b | - | - | -',
    'unexpected-login@12 wais-reserved-char@26',
    'RFC 1738 appendix (offsets count the input)',
  ],
  // draft 1993-07: wais://hostport/database/wtype/digits/path (the document length)
  ['wais://host.dom/db/TEXT/636/abc', 'document | db | - | TEXT | abc', 'draft-only@24', 'draft 1993-07 (waisdoc)'],
  [
    'wais://host.dom/db/TEXT/636/a/b',
    'document | db | - | TEXT | a/b',
    'draft-only@24',
    'draft 1993-07 (path = xpalphas [ / path ])',
  ],
  ['wais://host.dom/db/TEXT/636/', 'document | db | - | TEXT | ', 'draft-only@24', 'draft 1993-07 (path may be void)'],
  [
    'wais://host.dom/db/TEXT/636/a?b',
    'document | db | - | TEXT | a?b',
    'draft-only@24 wais-reserved-char@29',
    'draft 1993-07',
  ],
  // draft 1994-03: wpath = digits "=" path ";" [ wpath ]
  [
    'wais://host.dom/db/TEXT/1=abc;2=x%3By;',
    'document | db | - | TEXT | 1=abc;2=x;y;',
    'draft-only@24',
    'draft 1994-03 (wpath)',
  ],
  [
    'wais://host.dom/db/TEXT/1=a/b;',
    'document | db | - | TEXT | 1=a/b;',
    'draft-only@24',
    'draft 1994-03 (path holds "/")',
  ],
  [
    'wais://host.dom/db/TEXT/1=;',
    'document | db | - | TEXT | 1=;',
    'draft-only@24',
    'draft 1994-03 (path may be void)',
  ],
  [
    'wais://host.dom/db/TEXT/1=a:b;',
    'document | db | - | TEXT | 1=a:b;',
    'draft-only@24 wais-reserved-char@27',
    'draft 1994-03 (":" is reserved)',
  ],
  [
    'wais://host.dom/db/TEXT/636/1=abc;',
    'document | db | - | TEXT | 1=abc;',
    'draft-only@24 draft-only@28',
    'drafts 1993-07 and 1994-03',
  ],
];

eachRow(
  'wais: table',
  ROWS,
  ([input, want, violations, section]) => {
    const u = parse(input);
    assert.equal(row(u), want, `${input} (${section})`);
    assert.equal(codes(u), violations, `${input} violations (${section})`);
  },
  { section: (row) => row[3] },
);

const WAIS_EXAMPLES = (
  JSON.parse(fixture('spec-examples.json')).examples as Array<{
    url: string;
    printed: string;
    source: string;
    line: number;
  }>
).filter((e) => e.url.startsWith('wais:'));

test('wais: spec-examples.json has the two wais examples', () => {
  assert.equal(WAIS_EXAMPLES.length, 2);
});

eachRow(
  'wais: the spec examples of spec-examples.json, parsed as printed where printed on one line',
  WAIS_EXAMPLES,
  (e) => {
    const input = e.printed.includes('\n') ? e.url : e.printed;
    const u = parse(input);
    assert.equal(u.valid, true, `${e.source}: ${input}`);
    assert.deepEqual(u.fields, {
      kind: 'index',
      database: 'wais-discussion-archives',
      search: 'lynch',
      wtype: null,
      wpath: null,
      wlength: null,
      wlengthDigits: null,
      wpathFields: null,
    });
    assert.equal(u.port, 210);
  },
  { input: (e) => e.printed, section: (e) => `${e.source}:${e.line}` },
);

test('wais: the draft fields wlength and wpathFields', () => {
  assert.deepEqual(parse('wais://h.com/db/TEXT/636/1=abc;7=%00;').fields, {
    kind: 'document',
    database: 'db',
    search: null,
    wtype: 'TEXT',
    wpath: '1=abc;7=\0;',
    wlength: 636,
    wlengthDigits: '636',
    wpathFields: [
      { number: 1, contents: 'abc' },
      { number: 7, contents: '\0' },
    ],
  });
  assert.deepEqual(parse('wais://h.com/db/TEXT/00012=x%3D;').fields.wpathFields, [{ number: 12, contents: 'x=' }]);
  assert.equal(parse('wais://h.com/db/TEXT/abc').fields.wpathFields, null);
  assert.equal(parse('wais://h.com/db/TEXT/abc').fields.wlength, null);
  const d = parse('wais://h.com/db/TEXT/636/x').violations[0];
  assert.equal(d.code, 'draft-only');
  assert.equal(d.severity, 'warning');
});

test('wais: a document length over 2^53-1 keeps its digits (never rounded), is no number, and is wais-number-out-of-range', () => {
  for (const [digits, exact] of [
    ['1000000000000000000000', '1000000000000000000000'],
    ['9007199254740993', '9007199254740993'],
    ['9007199254740992', '9007199254740992'],
    ['000099999999999999999999999999', '99999999999999999999999999'],
  ]) {
    const u = parse(`wais://h.com/db/TEXT/${digits}/x`);
    assert.equal(u.fields.wlength, null, digits);
    assert.equal(u.fields.wlengthDigits, exact, digits);
    assert.equal(u.fields.wpath, 'x');
    const v = u.violations.find((d) => d.code === 'wais-number-out-of-range');
    assert.ok(v !== undefined, digits);
    assert.equal(v.severity, 'error');
    assert.equal(v.offset, 'wais://h.com/db/TEXT/'.length);
    assert.equal(u.valid, false);
  }
  // The largest exact length is a number; leading zeros are not part of its digits.
  const max = parse('wais://h.com/db/TEXT/9007199254740991/x');
  assert.equal(max.fields.wlength, 9007199254740991);
  assert.equal(max.fields.wlengthDigits, '9007199254740991');
  assert.deepEqual(
    max.violations.map((d) => d.code),
    ['draft-only'],
  );
  const zeros = parse('wais://h.com/db/TEXT/000636/x');
  assert.equal(zeros.fields.wlength, 636);
  assert.equal(zeros.fields.wlengthDigits, '636');
  assert.match(
    explain(parse('wais://h.com/db/TEXT/1000000000000000000000/x')).notes.join('\n'),
    /1000000000000000000000 bytes/,
  );
});

test('wais: a wpath field number over 2^53-1 is not read as a field (no rounded tag): the wpath is plain, its "=" and ";" reserved', () => {
  const u = parse('wais://h.com/db/TEXT/9007199254740993=abc;');
  assert.equal(u.fields.wpathFields, null);
  assert.equal(u.fields.wpath, '9007199254740993=abc;');
  assert.ok(u.violations.some((d) => d.code === 'wais-reserved-char'));
  assert.deepEqual(parse('wais://h.com/db/TEXT/9007199254740991=abc;').fields.wpathFields, [
    { number: 9007199254740991, contents: 'abc' },
  ]);
});

/** The DocID of gophers.txt as the server sent it (fixtures/wais/README.md, "DocID 1", 139 bytes). */
function docid1(): Buffer {
  const bytes = readFileSync(join(SHARED, 'fixtures', 'wais', '01-search-two-hits.s2c.bin'));
  return bytes.subarray(161, 161 + 139);
}

/** Splits a DocID into its tagged fields (one-octet tags and lengths suffice here). */
function tagged(b: Buffer): Array<{ number: number; contents: string }> {
  const out: Array<{ number: number; contents: string }> = [];
  for (let i = 0; i < b.length;) {
    const tag = b[i];
    const len = b[i + 1];
    out.push({ number: tag, contents: b.subarray(i + 2, i + 2 + len).toString('latin1') });
    i += 2 + len;
  }
  return out;
}

test('wais: a real DocID written in the 1994-03 field encoding comes back field by field', () => {
  const fields = tagged(docid1());
  assert.equal(fields.length, 7);
  assert.deepEqual(fields[2], { number: 3, contents: '0 636 /srv/wais/docs/gophers.txt' });
  const href = build('wais', { host: 'localhost', database: 'demo', wtype: 'TEXT', wpathFields: fields });
  assert.equal(href.slice(0, 46), 'wais://localhost/demo/TEXT/1=localhost%3A210;2');
  const u = parse(href);
  assert.deepEqual(u.fields.wpathFields, fields);
  assert.deepEqual(codes(u), 'draft-only@27');
  const e = explain(u);
  assert.equal(
    e.steps[2],
    `retrieve TEXT ${href.slice(27)} (SearchRequest, query type 1: Database-Names "demo", DocID = the 139 octets of fields 1, 2, 3, 4, 5, 6, 7 as tagged fields, type "TEXT", byte chunks from 0 to the end of the document)`,
  );
});

test('wais: a real DocID as an opaque RFC 1738 wpath', () => {
  const bytes = docid1();
  const wpath = encode(bytes, UCHAR_SET);
  const href = `wais://localhost/demo/TEXT/${wpath}`;
  const u = parse(href);
  assert.equal(u.valid, true);
  assert.equal(u.violations.length, 0);
  assert.equal(u.fields.wpath, bytes.toString('latin1'));
  assert.equal(u.fields.wpathFields, null);
  const e = explain(u);
  assert.ok(e.steps[2].includes('DocID = the 139 octets the wpath decodes to'), e.steps[2]);
});

test('explain a search: init, then search database words (RFC 1625 vocabulary)', () => {
  const e = explain('wais://quake.think.com/wais-discussion-archives?lynch');
  assert.equal(e.protocol, 'wais');
  assert.equal(e.host, 'quake.think.com');
  assert.equal(e.port, 210);
  assert.deepEqual(e.steps, [
    'connect quake.think.com:210',
    'init (InitRequest: Z39.50-1988 with the WAIS extensions, RFC 1625)',
    'search wais-discussion-archives lynch (SearchRequest, query type 3: Database-Names "wais-discussion-archives", Seed-Words "lynch")',
  ]);
  const plus = explain('wais://h.com/demo?burrow+ferret');
  assert.equal(
    plus.steps[2],
    'search demo burrow+ferret (SearchRequest, query type 3: Database-Names "demo", Seed-Words "burrow+ferret")',
  );
  assert.ok(plus.notes.some((n) => n.includes('"+"-separated keywords')));
});

test('explain a database: the empty search and the source description open() retrieves (RFC 1738 3.9; docs/wais.md)', () => {
  const e = explain('wais://h.com:2111/demo');
  assert.equal(e.port, 2111);
  assert.deepEqual(e.steps, [
    'connect h.com:2111',
    'init (InitRequest: Z39.50-1988 with the WAIS extensions, RFC 1625)',
    'search demo with no words (SearchRequest, query type 3: Database-Names "demo", Seed-Words empty: the "help" search waissearch sends)',
    'retrieve the record of type WSRC the answer lists: the source description',
  ]);
  assert.ok(e.notes[0].includes("what is retrieved is the database's source description"));
  assert.ok(!e.notes.join().includes('prompts'));
});

test('explain a document: init, then retrieve wtype wpath', () => {
  const e = explain('wais://h.com/demo/TEXT/abc%20def');
  assert.deepEqual(e.steps.slice(1), [
    'init (InitRequest: Z39.50-1988 with the WAIS extensions, RFC 1625)',
    'retrieve TEXT abc%20def (SearchRequest, query type 1: Database-Names "demo", DocID = the 7 octets the wpath decodes to, type "TEXT", byte chunks from 0 to the end of the document)',
  ]);
  const l = explain('wais://h.com/demo/TEXT/552/abc');
  assert.equal(
    l.steps[2],
    'retrieve TEXT abc (SearchRequest, query type 1: Database-Names "demo", DocID = the 3 octets the wpath decodes to, type "TEXT", byte chunk 0-552)',
  );
  assert.ok(l.notes.some((n) => n.includes('552 bytes')));
});

test('explain an invalid WAIS URL says what is wrong', () => {
  const e = explain('wais://h.com/demo/TEXT');
  assert.equal(e.steps.length, 2);
  assert.ok(e.notes.includes('the wpath is missing, so no document can be retrieved'));
  assert.ok(e.notes.some((n) => n.includes('wais-missing-wpath at offset 22')));
  const n = explain('wais://h.com');
  assert.deepEqual(n.steps, ['connect h.com:210']);
});

test('build: each form, encoding "/", "?", ";", "=" in database, wtype and wpath', () => {
  assert.equal(build('wais', { host: 'h.com', database: 'demo' }), 'wais://h.com/demo');
  assert.equal(
    build('wais', { host: 'h.com', port: 210, kind: 'index', database: 'demo', search: 'a b/c?' }),
    'wais://h.com/demo?a%20b%2Fc%3F',
  );
  assert.equal(
    build('wais', { host: 'h.com', port: 2111, database: 'd/b', wtype: 'T;X', wpath: '1=a;/' }),
    'wais://h.com:2111/d%2Fb/T%3BX/1%3Da%3B%2F',
  );
  assert.equal(
    build('wais', { host: 'h.com', database: 'db', wtype: 'TEXT', wlength: 636, wpath: 'a/b' }),
    'wais://h.com/db/TEXT/636/a%2Fb',
  );
  assert.equal(
    build('wais', { host: 'h.com', database: 'db', wtype: 'TEXT', wpathFields: [{ number: 1, contents: 'a;=b' }] }),
    'wais://h.com/db/TEXT/1=a%3B%3Db;',
  );
});

const BUILD_REFUSED: Array<Record<string, unknown>> = [
  { host: 'h.com' },
  { host: 'h.com', user: 'u', database: 'db' },
  { host: 'h.com', kind: 'other', database: 'db' },
  { host: 'h.com', kind: 'index', database: 'db' },
  { host: 'h.com', kind: 'database', database: 'db', search: 'x' },
  { host: 'h.com', kind: 'index', database: 'db', search: 'x', wtype: 'TEXT' },
  { host: 'h.com', kind: 'document', database: 'db', wpath: 'x' },
  { host: 'h.com', kind: 'document', database: 'db', wtype: 'TEXT' },
  { host: 'h.com', database: 'db', wtype: 'TEXT', wpath: 'x', search: 'y' },
  { host: 'h.com', database: 'db', wtype: 'TEXT', wpath: 'x', wlength: -1 },
  { host: 'h.com', database: 'db', wtype: 'TEXT', wpathFields: [] },
  { host: 'h.com', database: 'db', wtype: 'TEXT', wpathFields: [{ number: 1.5, contents: 'x' }] },
  { host: 'h.com', database: 'db', wtype: 'TEXT', wpath: 'other', wpathFields: [{ number: 1, contents: 'x' }] },
];
eachRow('build refuses what no wais URL can write (RFC 1738 3.9; drafts 1993-07 and 1994-03)', BUILD_REFUSED, (f) => {
  assert.throws(() => build('wais', f), LocatorError, JSON.stringify(f));
});

// Random text with the characters that must be encoded somewhere (fixed seed).
const textArb = piecesText([
  ';',
  '/',
  '?',
  '=',
  ':',
  '@',
  '&',
  '%',
  '%00',
  '#',
  '+',
  ' ',
  '\t',
  '\r\n',
  '\0',
  '1=',
  'é',
  '😀',
]);

const documentArb = fc
  .record({
    database: textArb,
    wtype: textArb,
    wlength: fc.option(fc.oneof(fc.integer({ min: 0, max: 1e9 }), fc.maxSafeNat())),
    path: fc.oneof(
      textArb.map((wpath) => ({ wpath, wpathFields: null })),
      fc
        .array(fc.record({ number: fc.integer({ min: 0, max: 1e6 }), contents: textArb }, { noNullPrototype: true }), {
          minLength: 1,
          maxLength: 4,
        })
        .map((wpathFields) => ({ wpath: wpathFields.map((x) => `${x.number}=${x.contents};`).join(''), wpathFields })),
    ),
  })
  .map(({ database, wtype, wlength, path }) => ({
    kind: 'document',
    database,
    search: null,
    wtype,
    wpath: path.wpath,
    wlength,
    wlengthDigits: wlength === null ? null : String(wlength),
    wpathFields: path.wpathFields,
  }));

const fieldsArb = fc.oneof(
  textArb.map((database) => ({
    kind: 'database',
    database,
    search: null,
    wtype: null,
    wpath: null,
    wlength: null,
    wlengthDigits: null,
    wpathFields: null,
  })),
  fc.tuple(textArb, textArb).map(([database, search]) => ({
    kind: 'index',
    database,
    search,
    wtype: null,
    wpath: null,
    wlength: null,
    wlengthDigits: null,
    wpathFields: null,
  })),
  documentArb,
);

test('property: parse(build(f)).fields deep-equals f, and the built URL is valid', () => {
  assertBuildRoundTrip(build, 'wais', fieldsArb, 210);
});

test('property: any wais URL parses to fields that never throw and rebuild to the same fields when valid', () => {
  const pathChar = fc.constantFrom('a', 'Z', '0', '9', '/', '?', ';', '=', ':', '%2F', '%3D', '%00', '1=', ';');
  fc.assert(
    fc.property(fc.array(pathChar, { maxLength: 12 }), (chars) => {
      const u = parse('wais://h.example/' + chars.join(''));
      const f = u.fields;
      if (u.valid && !(f.kind === 'document' && f.wpath === null)) {
        assert.deepEqual(parse(build('wais', { ...f, host: 'h.example' })).fields, f);
      }
    }),
    { seed: 1738, numRuns: 500 },
  );
});
