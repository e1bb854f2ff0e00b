// Partial forms (src/operations/resolve.ts): the example tables of RFC 1808 section 5 and RFC 3986 section
// 5.4 word for word, the cases where the October 1993 draft, RFC 1808 and RFC 3986 disagree
// (docs/resolve.md), hierarchy per scheme, errors with offsets, and relativize() with a
// property test (seed 1738).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, parse, eachRow, ROOT } from './helpers.js';
import {
  resolve,
  resolveUrl,
  isHierarchical,
  removeDotSegments1808,
  removeDotSegments3986,
  removeDotSegmentsDraft,
  type Rules,
} from '../src/operations/resolve.js';
import { relativize } from '../src/operations/relativize.js';
import { tryParse } from '../src/schemes/registry.js';
import { normalize, equivalent, toSafe, toDisplay } from '../src/operations/normalize.js';
import { listSchemes, getScheme } from '../src/schemes/registry.js';
import { LocatorError } from '../src/core/errors.js';
import { Url } from '../src/core/url.js';
import { SEED } from './properties/runs.js';

interface Table {
  base: string;
  baseUri?: string;
  normal: string[];
  abnormal: string[];
}
const rfc1808 = JSON.parse(fixture('rfc1808-examples.json')) as Table;
const rfc3986 = JSON.parse(fixture('rfc3986-examples.json')) as Table;

/** "<URL:x>" -> "x" (RFC 1738 appendix: the wrapper is not part of the URL). */
const unwrap = (s: string) => s.replace(/^<URL:/, '').replace(/>$/, '');

/** A line of RFC 1808 section 5: "      g          = <URL:http://a/b/c/g>". */
function row1808(line: string): [string, string] {
  const m = /^ {6}(\S*) +=\s(<URL:[^>]*>)$/.exec(line);
  assert.ok(m, `not a table line: ${JSON.stringify(line)}`);
  return [m[1], unwrap(m[2])];
}

/** A line of RFC 3986 section 5.4: '      "g"             =  "http://a/b/c/g"'. */
function row3986(line: string): [string, string, string | null] {
  const m =
    /^ {6}"([^"]*)" +=  "([^"]*)"(?: +; for strict parsers\n {22}\/  "([^"]*)" ; for backward compatibility)?$/.exec(
      line,
    );
  assert.ok(m, `not a table line: ${JSON.stringify(line)}`);
  return [m[1], m[2], m[3] ?? null];
}

const BASE_1808 = unwrap(rfc1808.base.trim().replace(/^Base: /, ''));

test('the RFC 1808 fixture is the section 5 table: base, 24 normal and 15 abnormal examples', () => {
  assert.equal(rfc1808.base, '      Base: <URL:http://a/b/c/d;p?q#f>');
  assert.equal(BASE_1808, 'http://a/b/c/d;p?q#f');
  assert.equal(rfc1808.normal.length, 24);
  assert.equal(rfc1808.abnormal.length, 15);
  assert.equal(rfc3986.baseUri, 'http://a/b/c/d;p?q');
  assert.ok(rfc3986.base.includes(`      ${rfc3986.baseUri}\n`));
  assert.equal(rfc3986.normal.length, 23);
  assert.equal(rfc3986.abnormal.length, 19);
});

for (const [group, lines] of [
  ['5.1 normal', rfc1808.normal],
  ['5.2 abnormal', rfc1808.abnormal],
] as const) {
  for (const line of lines) {
    const [partial, expected] = row1808(line);
    test(`RFC 1808 ${group}: ${partial} = <URL:${expected}>`, () => {
      // The base as the RFC prints it, wrapper included (RFC 1738 appendix).
      assert.equal(resolve('<URL:http://a/b/c/d;p?q#f>', partial), expected);
      assert.equal(resolve(BASE_1808, partial, { rfc: 1808 }), expected);
    });
  }
}

for (const [group, lines] of [
  ['5.4.1 normal', rfc3986.normal],
  ['5.4.2 abnormal', rfc3986.abnormal],
] as const) {
  for (const line of lines) {
    const [partial, strict, loose] = row3986(line);
    test(`RFC 3986 ${group}: "${partial}" = "${strict}"${loose ? ` / "${loose}"` : ''}`, () => {
      assert.equal(resolve(rfc3986.baseUri as string, partial, { rfc: 3986 }), strict);
      // 5.4 uses a base without fragment; a base fragment is never inherited under RFC 3986 (5.1).
      assert.equal(resolve('http://a/b/c/d;p?q#f', partial, { rfc: 3986 }), strict);
      if (loose !== null)
        assert.equal(resolve(rfc3986.baseUri as string, partial, { rfc: 3986, strict: false }), loose);
    });
  }
}

// Where the three editions disagree (docs/resolve.md lists each with its reason).
// partial | draft 1993-10 | RFC 1808 (locator's default) | RFC 3986; base http://a/b/c/d;p?q#f
const DISAGREE: Array<[string, string, string, string, string]> = [
  [
    '',
    'http://a/b/c/',
    'http://a/b/c/d;p?q#f',
    'http://a/b/c/d;p?q',
    'empty reference: draft has no rule (a relative path ""); 1808 keeps the base fragment; 3986 drops it',
  ],
  ['#s', 'http://a/b/c/#s', 'http://a/b/c/d;p?q#s', 'http://a/b/c/d;p?q#s', 'fragment only: the draft has no rule'],
  [
    '?y',
    'http://a/b/c/?y',
    'http://a/b/c/d;p?y',
    'http://a/b/c/d;p?y',
    "query only: the draft's path includes the search",
  ],
  [';x', 'http://a/b/c/;x', 'http://a/b/c/d;x', 'http://a/b/c/;x', 'params only: only 1808 has params'],
  [
    '?',
    'http://a/b/c/?',
    'http://a/b/c/d;p?q',
    'http://a/b/c/d;p?',
    'empty query: 1808 treats empty as absent and inherits',
  ],
  ['.', 'http://a/b/c', 'http://a/b/c/', 'http://a/b/c/', 'the draft removes "/." with its slash'],
  ['..', 'http://a/b', 'http://a/b/', 'http://a/b/', 'the draft removes "/xxx/.." with its slash'],
  ['../..', 'http://a', 'http://a/', 'http://a/', 'the same, twice'],
  ['./g/.', 'http://a/b/c/g', 'http://a/b/c/g/', 'http://a/b/c/g/', 'a final "/." in the draft'],
  ['../../../g', 'http://a/../g', 'http://a/../g', 'http://a/g', '3986 drops a ".." above the root'],
  ['../../../../g', 'http://a/g', 'http://a/../../g', 'http://a/g', 'the draft lets xxx be "..": "/../.." goes'],
  ['/./g', 'http://a/./g', 'http://a/./g', 'http://a/g', 'dot segments of an absolute path: only 3986 removes them'],
  ['/../g', 'http://a/../g', 'http://a/../g', 'http://a/g', 'the same'],
  [
    'g;x=1/./y',
    'http://a/b/c/g;x=1/y',
    'http://a/b/c/g;x=1/./y',
    'http://a/b/c/g;x=1/y',
    '1808 params run to the query and keep their dots',
  ],
  ['g;x=1/../y', 'http://a/b/c/y', 'http://a/b/c/g;x=1/../y', 'http://a/b/c/y', 'the same'],
  [
    'g?y/./x',
    'http://a/b/c/g?y/x',
    'http://a/b/c/g?y/./x',
    'http://a/b/c/g?y/./x',
    "the draft's path includes the search",
  ],
  ['g?y/../x', 'http://a/b/c/x', 'http://a/b/c/g?y/../x', 'http://a/b/c/g?y/../x', 'the same'],
  ['///g', 'http:///g', 'http://a/g', 'http:///g', 'an empty net_loc: 1808 inherits the base one'],
  ['//', 'http://', 'http://a/b/c/d;p?q', 'http://', 'the same, with an empty path'],
];

for (const [partial, draft, r1808, r3986, why] of DISAGREE) {
  test(`draft 1993-10 / RFC 1808 / RFC 3986 disagree on ${JSON.stringify(partial)}: ${why}`, () => {
    const base = 'http://a/b/c/d;p?q#f';
    assert.equal(resolve(base, partial, { rfc: 'draft-1993-10' }), draft);
    assert.equal(resolve(base, partial, { rfc: 1808 }), r1808);
    assert.equal(resolve(base, partial), r1808, 'RFC 1808 is the default');
    assert.equal(resolve(base, partial, { rfc: 3986 }), r3986);
  });
}

const BASE_DISAGREE: Array<[string, string, string, string, string]> = [
  // base | partial | draft | 1808 | 3986
  ['http://a/b;p/c/d', 'g', 'http://a/b;p/c/g', 'http://a/g', 'http://a/b;p/c/g'],
  ['http://a/b;p/c/d', '../g', 'http://a/b;p/g', 'http://a/../g', 'http://a/b;p/g'],
  ['http://a/b/c/d?x/y', 'g', 'http://a/b/c/d?x/g', 'http://a/b/c/g', 'http://a/b/c/g'],
  ['http://a/b/c/d?x/y', '../g', 'http://a/b/c/g', 'http://a/b/g', 'http://a/b/g'],
  ['ftp://h/a/b;type=d', 'c', 'ftp://h/a/c', 'ftp://h/a/c', 'ftp://h/a/c'],
  ['ftp://h/a/b;type=d', ';type=a', 'ftp://h/a/;type=a', 'ftp://h/a/b;type=a', 'ftp://h/a/;type=a'],
  ['file://h/x/y', '///etc/motd', 'file:///etc/motd', 'file://h/etc/motd', 'file:///etc/motd'],
  ['http://a', '.', 'http://a', 'http://a/', 'http://a/'],
  ['http://a', '?y', 'http://a/?y', 'http://a/?y', 'http://a?y'],
];
eachRow(
  'disagreements that depend on the base: params in a middle segment, "/" in the search, ";type=" (RFC 1808 2.4.5, 4)',
  BASE_DISAGREE,
  ([base, partial, draft, r1808, r3986]) => {
    assert.equal(resolve(base, partial, { rfc: 'draft-1993-10' }), draft, `draft: ${base} + ${partial}`);
    assert.equal(resolve(base, partial, { rfc: 1808 }), r1808, `1808: ${base} + ${partial}`);
    assert.equal(resolve(base, partial, { rfc: 3986 }), r3986, `3986: ${base} + ${partial}`);
  },
  { input: ([base, partial]) => [base, partial] },
);

/** The outcome of resolving `partial` against http://a/b/c/d;p?q: the URL, or "code@offset". */
function fullFormOutcome(partial: string, rfc: Rules): string {
  try {
    return resolve('http://a/b/c/d;p?q', partial, { rfc });
  } catch (e) {
    assert.ok(e instanceof LocatorError);
    return `${e.code}@${e.offset}`;
  }
}

const FULL_FORMS: Array<[string, string, string, string]> = [
  // partial | draft | 1808 | 3986
  ['g?y:z', 'invalid-scheme@1', 'http://a/b/c/g?y:z', 'http://a/b/c/g?y:z'],
  [':x', 'missing-scheme@0', 'http://a/b/c/:x', 'reference-colon@0'],
  ['1a:b', '1a:b', '1a:b', 'reference-colon@2'],
  ['a b:c', 'invalid-scheme@1', 'http://a/b/c/a b:c', 'reference-colon@3'],
  ['./a:b', 'http://a/b/c/a:b', 'http://a/b/c/a:b', 'http://a/b/c/a:b'],
  ['x/y:z', 'http://a/b/c/x/y:z', 'http://a/b/c/x/y:z', 'http://a/b/c/x/y:z'],
  ['g:h', 'g:h', 'g:h', 'g:h'],
  ['<URL:g>', 'http://a/b/c/g', 'http://a/b/c/g', 'http://a/b/c/g'],
];
eachRow(
  'what a full form is: draft "a colon before any slash", RFC 1808 scheme characters, RFC 3986 a letter first',
  FULL_FORMS,
  ([partial, draft, r1808, r3986]) => {
    assert.deepEqual(
      [fullFormOutcome(partial, 'draft-1993-10'), fullFormOutcome(partial, 1808), fullFormOutcome(partial, 3986)],
      [draft, r1808, r3986],
      partial,
    );
  },
);

test('RFC 1738 2.3: which schemes are hierarchical, decided per scheme', () => {
  assert.deepEqual(
    listSchemes()
      .filter((s) => s.hierarchical === true)
      .map((s) => s.name)
      .sort(),
    ['afs', 'file', 'ftp', 'http', 'https'],
  );
  assert.equal(isHierarchical('ftp://h/a/b'), true);
  assert.equal(isHierarchical('gopher://h/1/a/b'), false);
  assert.equal(isHierarchical('x-foo://h/a'), true, 'an unknown scheme with "//"');
  assert.equal(isHierarchical('x-foo:/a/b'), true, 'an unknown scheme whose part starts with "/"');
  assert.equal(isHierarchical('x-foo:a/b'), false);
});

eachRow(
  'RFC 1738 2.3: the scheme is not hierarchical',
  ['gopher', 'wais', 'prospero', 'nntp', 'telnet', 'mailto', 'news'],
  (name) => {
    assert.equal(getScheme(name)?.hierarchical, false, name);
  },
);

const ALL_RULES = [1808, 3986, 'draft-1993-10'] as const;
const NON_HIERARCHICAL: Array<[string, string]> = [
  ['news:comp.infosystems.www', 'comp.other'],
  ['mailto:joe@example.com', 'fred@example.com'],
  ['mailto:joe@example.com', '/x'],
  ['mailto:joe@example.com', '?subject=x'],
  ['gopher://h/1/pub/dir', 'other'],
  ['gopher://h/1/pub/dir', '../0x'],
  ['wais://h/db/TEXT/id1', 'id2'],
  ['prospero://h//pros/name', 'other'],
  ['nntp://h/comp.x/28232', '28233'],
  ['telnet://h/', 'x'],
];
eachRow(
  'RFC 1738 2.3: a relative path against a non-hierarchical base is a clear error',
  ALL_RULES.flatMap((rfc) => NON_HIERARCHICAL.map(([base, partial]) => ({ rfc, base, partial }))),
  ({ rfc, base, partial }) => {
    assert.throws(
      () => resolve(base, `<URL:${partial}>`, { rfc }),
      (e: unknown) => {
        assert.ok(e instanceof LocatorError);
        assert.equal(e.code, 'non-hierarchical-base');
        assert.equal(e.offset, 5, 'the offset points into the partial as given');
        assert.equal(e.section, 'RFC 1738 2.3');
        return true;
      },
      `${rfc}: ${base} + ${partial}`,
    );
  },
  { input: (r) => [r.base, r.partial], section: (r) => `rules ${r.rfc}` },
);

eachRow(
  'RFC 1738 2.3: against a non-hierarchical base, absolute references and net paths still work',
  ALL_RULES,
  (rfc) => {
    assert.equal(resolve('news:comp.x', 'news:comp.y', { rfc }), 'news:comp.y');
    assert.equal(resolve('mailto:joe@example.com', 'http://a/b', { rfc }), 'http://a/b');
    // The non-hierarchical schemes of the common Internet syntax take absolute paths and net paths.
    assert.equal(resolve('gopher://h/1/pub/dir', '/0/pub/file', { rfc }), 'gopher://h/0/pub/file');
    assert.equal(resolve('gopher://h/1/pub/dir', '//g2:7070/1', { rfc }), 'gopher://g2:7070/1');
    assert.equal(resolve('wais://h:210/db', '//w2/db2', { rfc }), 'wais://w2/db2');
  },
);

eachRow(
  'RFC 1738 2.3: against a non-hierarchical base, a fragment-only reference still works',
  [1808, 3986] as const,
  (rfc) => {
    assert.equal(resolve('news:comp.x', '#frag', { rfc }), 'news:comp.x#frag');
    assert.equal(resolve('mailto:joe@example.com#a', '#b', { rfc }), 'mailto:joe@example.com#b');
    assert.equal(resolve('gopher://h/1/pub/dir', '#x', { rfc }), 'gopher://h/1/pub/dir#x');
  },
);

test('RFC 1738 2.3: against a non-hierarchical base, an empty reference and a query still work (default rules)', () => {
  assert.equal(resolve('news:comp.x', ''), 'news:comp.x');
  assert.equal(resolve('wais://h/db', '?weather'), 'wais://h/db?weather', 'a query replaces the query: no path merge');
});

test('hierarchical schemes resolve like http: ftp (params are not part of the path: RFC 1808 4), file, https, afs', () => {
  assert.equal(resolve('ftp://h/pub/a/b;type=d', '../c;type=i'), 'ftp://h/pub/c;type=i');
  assert.equal(resolve('ftp://u@h/%2Fetc/motd', 'passwd'), 'ftp://u@h/%2Fetc/passwd');
  assert.equal(resolve('file:///usr/local/bin/x', '../lib/y'), 'file:///usr/local/lib/y');
  assert.equal(resolve('file://localhost/etc/', 'motd'), 'file://localhost/etc/motd');
  assert.equal(resolve('https://h:8443/a/b', 'c?x#y'), 'https://h:8443/a/c?x#y');
  assert.equal(resolve('afs://cell.org/usr/a/b', 'c'), 'afs://cell.org/usr/a/c');
  assert.equal(resolve('HTTP://A/b/c', 'd'), 'HTTP://A/b/d', 'the base is not normalized');
});

const RESOLVE_ERRORS: Array<[string, string, Rules, string, number]> = [
  // base | partial | rules | code | offset into the input that is wrong
  ['', 'g', 1808, 'no-base', 0],
  ['', '<URL:../g>', 1808, 'no-base', 5],
  ['http://a/b', '<g', 1808, 'unclosed-wrapper', 0],
  ['http://a/b', '//h:8x/', 1808, 'invalid-port', 5],
  ['http://a/b', '<URL://h:80a>', 3986, 'invalid-port', 11],
  ['http://a/b', '//[::1/x', 1808, 'invalid-host', 2],
  ['nope', 'g', 1808, 'missing-scheme', 0],
  ['<http://a/', 'g', 1808, 'unclosed-wrapper', 0],
  ['http://a:x/', 'g', 1808, 'invalid-port', 9],
];
eachRow(
  'errors: unreadable partial forms and bases, with codes and offsets',
  RESOLVE_ERRORS,
  ([base, partial, rfc, code, offset]) => {
    assert.throws(
      () => resolve(base, partial, { rfc }),
      (e: unknown) => {
        assert.ok(e instanceof LocatorError, String(e));
        assert.equal(e.code, code, `${base} + ${partial}`);
        assert.equal(e.offset, offset, `${base} + ${partial}`);
        return true;
      },
    );
  },
  { input: ([base, partial]) => [base, partial], section: ([, , rfc]) => `RFC ${rfc}` },
);

test('errors: API misuse; no base', () => {
  assert.throws(
    () => resolve('http://a/', null as unknown as string),
    /resolve: the partial form must be a string, not null/,
  );
  assert.throws(() => resolve('http://a/', null as unknown as string), TypeError);
  assert.throws(() => resolve('http://a/', 'g', { rfc: 2396 as unknown as Rules }), RangeError);
  // No base: an absolute URL is read as it is (RFC 1808 4 step 1); RFC 3986 still removes dot segments.
  assert.equal(resolve('', 'http://h/a/./b'), 'http://h/a/./b');
  assert.equal(resolve('', 'http://h/a/./b', { rfc: 3986 }), 'http://h/a/b');
});

test('resolveUrl gives the parsed record; a Url base is used as it is', () => {
  const u = resolveUrl('ftp://h/pub/dir/', 'file.txt;type=i');
  assert.ok(u instanceof Url);
  assert.equal(u.href, 'ftp://h/pub/dir/file.txt;type=i');
  assert.deepEqual(u.fields.segments, ['pub', 'dir', 'file.txt']);
  assert.equal(u.fields.ftptype, 'i');
  const base = parse('<URL:http://a/b/c/d;p?q#f>');
  assert.equal(resolve(base, '../g'), 'http://a/b/g');
  assert.equal(resolveUrl(base, 'g h').violations[0].code, 'unsafe-char', 'the result is read, with its violations');
});

const DOT_SEGMENTS: Array<[string, string, string, string]> = [
  // path | RFC 1808 4 step 6 (no leading "/") | RFC 3986 5.2.4 | draft 1993-10
  ['a/b/../c', 'a/c', 'a/c', 'a/c'],
  ['/a/b/../c', '/a/c', '/a/c', '/a/c'],
  ['/a/./b/.', '/a/b/', '/a/b/', '/a/b'],
  ['/a/b/..', '/a/', '/a/', '/a'],
  ['/../a', '/../a', '/a', '/../a'],
  ['/../../a', '/../../a', '/a', '/a'],
  ['/a//../b', '/a/b', '/a/b', '/a/b'],
  ['/a/.b/..c/...', '/a/.b/..c/...', '/a/.b/..c/...', '/a/.b/..c/...'],
  ['.', '', '', '.'],
  ['', '', '', ''],
];
eachRow(
  'dot segments: the three algorithms on their own (RFC 1808 4, RFC 3986 5.2.4, draft 1993-10)',
  DOT_SEGMENTS,
  ([path, r1808, r3986, draft]) => {
    const lead = path.startsWith('/');
    assert.equal((lead ? '/' : '') + removeDotSegments1808(lead ? path.slice(1) : path), r1808, `1808 ${path}`);
    assert.equal(removeDotSegments3986(path), r3986, `3986 ${path}`);
    assert.equal(removeDotSegmentsDraft(path), draft, `draft ${path}`);
  },
);

test('dot segments: the RFC 3986 5.2.4 walk-through', () => {
  // RFC 3986 5.2.4 prints this walk-through: "/a/b/c/./../../g" gives "/a/g", and "mid/content=5/../6" gives "mid/6".
  assert.equal(removeDotSegments3986('/a/b/c/./../../g'), '/a/g');
  assert.equal(removeDotSegments3986('mid/content=5/../6'), 'mid/6');
});

const RELATIVIZE_BASE = 'http://a/b/c/d;p?q#f';
const RELATIVIZED: Array<[string, Rules, string]> = [
  ['http://a/b/c/d;p?q#f', 1808, ''],
  ['http://a/b/c/d;p?q', 3986, ''],
  ['http://a/b/c/d;p?q#s', 1808, '#s'],
  ['http://a/b/c/d;p?y', 1808, '?y'],
  ['http://a/b/c/d;x', 1808, ';x'],
  ['http://a/b/c/g', 1808, 'g'],
  ['http://a/b/c/', 1808, '.'],
  ['http://a/b/', 1808, '..'],
  ['http://a/b/g', 1808, '../g'],
  ['http://a/g', 1808, '/g'],
  ['http://a/b/c/a:b', 1808, './a:b'], // "a:b" would be read as scheme "a" (RFC 1808 2.4.2)
  ['http://a/b/c/a:b', 3986, './a:b'],
  ['http://a/b/c//x', 1808, './/x'],
  ['http://g/x', 1808, '//g/x'],
  ['ftp://a/b/c/d', 1808, 'ftp://a/b/c/d'],
  ['http://a/b/c/d;p?q', 1808, '?q'], // the base without its fragment
  ['http://a/./g', 1808, '/./g'],
];
eachRow(
  'relativize: the shortest partial form, for each kind of difference (RFC 1808 2.4, RFC 3986 5)',
  RELATIVIZED,
  ([target, rfc, expected]) => {
    const got = relativize(RELATIVIZE_BASE, target, { rfc });
    assert.equal(got, expected, `${rfc}: ${target}`);
    assert.equal(resolve(RELATIVIZE_BASE, got, { rfc }), target);
  },
  { section: ([, rfc]) => `RFC ${rfc}` },
);

test('relativize: a target RFC 3986 cannot reach; non-hierarchical bases', () => {
  assert.throws(
    () => relativize(RELATIVIZE_BASE, 'http://a/./g', { rfc: 3986 }),
    (e: unknown) => e instanceof LocatorError && e.code === 'unreachable-target',
  );
  assert.equal(relativize('mailto:a@b.c', 'mailto:a@b.c#x'), '#x');
  assert.equal(relativize('gopher://h/1/a/b', 'gopher://h/1/a/c'), '/1/a/c', 'no relative path against gopher');
});

// Random pairs sharing scheme and host: segments that stress the rules ("." and ".." as parts of
// names, ":" and ";" in segments, empty segments) and optional params, query and fragment.
const segment = fc.constantFrom('a', 'b', 'c', 'g', 'x.y', '.x', 'x.', '..x', '', 'a:b', 'g;x', '%2F', '~u', 'q?');
const dotSegment = fc.constantFrom('.', '..');
const pathOf = (seg: fc.Arbitrary<string>) => fc.array(seg, { maxLength: 5 }).map((a) => '/' + a.join('/'));
const tail = fc
  .tuple(
    fc.option(fc.constantFrom('p', 'type=d', 'x=1/y'), { nil: undefined }),
    fc.option(fc.constantFrom('q', 'y', '', 'a/../b', 'k=v;w'), { nil: undefined }),
    fc.option(fc.constantFrom('f', 's', '', 'x/y'), { nil: undefined }),
  )
  .map(
    ([p, q, f]) =>
      (p !== undefined ? ';' + p : '') + (q !== undefined ? '?' + q : '') + (f !== undefined ? '#' + f : ''),
  );
const schemeHost = fc.constantFrom('http://a', 'http://a:8080', 'ftp://u@h.dom', 'file://', 'x-foo://h');
const urlOf = (seg: fc.Arbitrary<string>) => fc.tuple(pathOf(seg), tail);
const pair = (seg: fc.Arbitrary<string>) =>
  fc.tuple(schemeHost, urlOf(seg), urlOf(seg)).map(([sh, [p1, t1], [p2, t2]]) => [sh + p1 + t1, sh + p2 + t2] as const);

test('property (seed 1738): resolve(b, relativize(b, t)) === t, and no longer than t, under each rules', () => {
  for (const rfc of [1808, 3986, 'draft-1993-10'] as const) {
    fc.assert(
      fc.property(pair(segment), ([b, t]) => {
        const r = relativize(b, t, { rfc });
        assert.equal(resolve(b, r, { rfc }), t);
        assert.ok(r.length <= t.length);
      }),
      { seed: 1738, numRuns: 1500 },
    );
  }
});

/** The path of an absolute URL by RFC 3986 3.3: after the authority, up to "?" or "#". */
function path3986(u: string): string {
  const rest = u.slice(u.indexOf('//') + 2);
  const p = rest.indexOf('/');
  return p < 0 ? '' : rest.slice(p).split(/[?#]/)[0];
}

test('property (seed 1738): with dot segments in the target, RFC 1808 and the draft still reach it; RFC 3986 reaches it or says why not', () => {
  const seg = fc.oneof({ weight: 3, arbitrary: segment }, { weight: 1, arbitrary: dotSegment });
  for (const rfc of [1808, 3986, 'draft-1993-10'] as const) {
    fc.assert(
      fc.property(pair(seg), ([b, t]) => {
        let r: string;
        try {
          r = relativize(b, t, { rfc });
        } catch (e) {
          assert.ok(rfc === 3986 && e instanceof LocatorError && e.code === 'unreachable-target', String(e));
          // RFC 3986 5.2.2 removes dot segments from every path it does not inherit.
          const path = path3986(t);
          assert.notEqual(removeDotSegments3986(path), path, t);
          return;
        }
        assert.equal(resolve(b, r, { rfc }), t);
      }),
      { seed: 1738, numRuns: 1500 },
    );
  }
});

/** The example lines of docs/resolve.md's ```ts block: "call; // 'result'" or "call; // true". */
const DOC_EXAMPLES = (() => {
  const page = readFileSync(join(ROOT, 'docs', 'resolve.md'), 'utf8');
  const block = page.slice(page.indexOf('```ts\n') + 6, page.indexOf('```', page.indexOf('```ts\n') + 6));
  return block.split('\n').flatMap((line) => {
    const m = /^(.+?);\s+\/\/ (?:'([^']*)'|(true|false))/.exec(line);
    return m === null ? [] : [{ line, call: m[1], want: m[2] ?? m[3] === 'true' }];
  });
})();

test('docs/resolve.md gives at least 10 examples; news: is not hierarchical', () => {
  assert.ok(DOC_EXAMPLES.length >= 10, `${DOC_EXAMPLES.length} examples`);
  assert.throws(
    () => resolve('news:comp.x', 'other'),
    (e: unknown) => e instanceof LocatorError && e.code === 'non-hierarchical-base' && e.offset === 0,
  );
});

eachRow(
  'the examples of docs/resolve.md give what the page says',
  DOC_EXAMPLES,
  ({ line, call, want }) => {
    const names = ['resolve', 'resolveUrl', 'relativize', 'normalize', 'equivalent', 'toSafe', 'toDisplay'];
    const fns = [resolve, resolveUrl, relativize, normalize, equivalent, toSafe, toDisplay];
    const value = new Function(...names, `return ${call};`)(...fns);
    assert.equal(value, want, line);
  },
  { input: (e) => e.call },
);

// The net_loc of a partial form is checked by the host rules of the core (core/host.ts
// checkLogin), not by parsing a made-up "scheme://..." URL: the errors must be those the scanner
// gives for the same login inside a whole URL, at the same offsets (shifted into the partial).
test('RFC 1738 3.1: a net_loc in a partial form fails exactly as the same login in a URL', () => {
  const login = fc
    .array(fc.constantFrom('a', '1', '.', '-', ':', '@', '[', ']', '%', '9', 'x', '?', ';', ' '), { maxLength: 12 })
    .map((cs) => cs.join(''));
  fc.assert(
    fc.property(login, fc.constantFrom<Rules>(1808, 3986), (l, rfc) => {
      const partial = `//${l}`;
      const authEnd = rfc === 3986 && l.includes('?') ? 2 + l.indexOf('?') : partial.length;
      const whole = tryParse(`http://${partial.slice(2, authEnd)}`);
      let got: unknown = null;
      try {
        resolve('http://a/b/c', partial, { rfc });
      } catch (e) {
        got = e;
      }
      assert.ok(got === null || got instanceof LocatorError, `${partial}: not a LocatorError: ${String(got)}`);
      if (authEnd === 2 || !(whole instanceof LocatorError)) {
        assert.ok(
          !(got instanceof LocatorError) || !['invalid-port', 'invalid-host'].includes(got.code),
          `${partial}: ${String(got)}`,
        );
      } else {
        assert.ok(got instanceof LocatorError, partial);
        assert.equal(got.code, whole.code, partial);
        assert.equal(got.offset, whole.offset - 5, partial);
        assert.equal(got.detail, whole.detail, partial);
        assert.equal(got.input, partial);
      }
    }),
    { seed: SEED, numRuns: 2000 },
  );
});

test('RFC 1738 3.1: net_loc errors of a partial form point into it', () => {
  // The error's code and offset, or the URL resolved; anything else thrown (a crash) fails here.
  const at = (partial: string) => {
    try {
      return resolve('http://a/b/c', partial);
    } catch (e) {
      if (e instanceof LocatorError) return [e.code, e.offset];
      throw e;
    }
  };
  assert.deepEqual(at('//u:p@h:8x/p'), ['invalid-port', 9]);
  assert.deepEqual(at('//[::1/p'), ['invalid-host', 2]);
  assert.deepEqual(at('//u@[::1]x/p'), ['invalid-host', 9]);
  assert.equal(at('//[::1]:80/p'), 'http://[::1]:80/p');
  assert.equal(at('//h:/p'), 'http://h:/p');
});

test('property (seed 1738): the kept base (issue 16) never changes an answer: bases, rules and partials interleaved give what a fresh read of the base gives', () => {
  const bases = [
    'http://a/b/c/d;p?q',
    'ftp://h.example/pub/x/y.txt;type=i',
    'file:///usr/share/doc/index.html',
    'HTTP://a/b/c/d;p?q#frag',
  ];
  const partials = ['g', '../g', './g;x?y', '?y', ';x', '#s', '//g/h', '/g', '..', '', 'g?y#s', 'http:g'];
  const rulesList = [1808, 3986, 'draft-1993-10'] as const;
  const call = fc.record({
    base: fc.integer({ min: 0, max: bases.length - 1 }),
    rules: fc.integer({ min: 0, max: 2 }),
    partial: fc.integer({ min: 0, max: partials.length - 1 }),
    // the same text as another string object, or as a record
    as: fc.constantFrom('string', 'copy', 'record'),
  });
  const answer = (f: () => string) => {
    try {
      return f();
    } catch (e) {
      if (e instanceof LocatorError) return `error ${e.code} ${e.offset}`;
      throw e; // a crash fails the property, even when a fresh read crashes the same way
    }
  };
  const records = bases.map((b) => parse(b));
  fc.assert(
    fc.property(fc.array(call, { minLength: 2, maxLength: 30 }), (calls) => {
      // A record parsed for one call alone is never the kept one: the base is read afresh.
      const fresh = calls.map((c) =>
        answer(() => resolve(parse(bases[c.base]), partials[c.partial], { rfc: rulesList[c.rules] })),
      );
      calls.forEach((c, i) => {
        const rfc = rulesList[c.rules];
        const text = bases[c.base];
        const base = c.as === 'record' ? records[c.base] : c.as === 'copy' ? (' ' + text).slice(1) : text;
        assert.equal(
          answer(() => resolve(base, partials[c.partial], { rfc })),
          fresh[i],
          `${text} + ${partials[c.partial]} (${rfc})`,
        );
      });
    }),
    { seed: 1738, numRuns: 300 },
  );
});

test('the kept base (issue 16) is read again after a registration: a string base follows the registry as it is now', async () => {
  const { registerScheme, unregisterScheme } = await import('../src/schemes/registry.js');
  const base = 'x-kept://h/a/b';
  // Unregistered, with a "//" login: hierarchical (RFC 1738 2.3).
  assert.equal(resolve(base, 'c'), 'x-kept://h/a/c');
  registerScheme({ name: 'x-kept', defaultPort: null, syntax: 'internet', status: 'later', hierarchical: false });
  try {
    assert.throws(
      () => resolve(base, 'c'),
      (e: unknown) => e instanceof LocatorError && e.code === 'non-hierarchical-base',
    );
    assert.equal(resolve(base, '/c'), 'x-kept://h/c');
  } finally {
    unregisterScheme('x-kept');
  }
  assert.equal(resolve(base, 'c'), 'x-kept://h/a/c');
});
