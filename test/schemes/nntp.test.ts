// nntp (RFC 1738 3.7; section 5 nntpurl = "nntp://" hostport "/" group [ "/" digits ]).
// Rows: input, "host | port | group | article" (null as "-"), violations as code@offset, section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  parse,
  codes,
  shared,
  assertNoiseSafe,
  rowTests,
  eachRow,
  chars,
  newsgroupArb,
  hostnameArb,
} from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { LocatorError } from '../../src/core/errors.js';
import type { Url } from '../../src/core/url.js';

// RFC 3977 5.1-5.3: what every NNTP session sends before its command (a "[...]" step is conditional).
const SESSION = [
  'CAPABILITIES',
  'MODE READER [if CAPABILITIES lists MODE-READER without READER, or is not understood]',
  'CAPABILITIES [if MODE READER switched the mode and the server has CAPABILITIES]',
];
// RFC 3977 8.3, RFC 2980 2.8, RFC 977 3.1.2: the overview of a group's articles.
const OVER =
  'OVER <low>-<high> [XOVER <low>-<high> if the server has no CAPABILITIES; HEAD <n> for each article if it has no overview]';

const RFC = shared('spec/rfc1738-1994-12.txt');
const D9403 = shared('spec/draft-url-1994-03.txt');
const D9310 = shared('spec/draft-url-1993-10.txt').replace(/\u00a0/g, ' '); // its spaces are U+00A0

function row(u: Url): string {
  const f = u.fields as { group: string | null; article: number | null };
  const s = (v: string | number | null) => (v === null ? '-' : String(v));
  return [s(u.host), s(u.port), s(f.group), s(f.article)].join(' | ');
}

test('RFC 1738 3.7 prints the nntp template, the default port and the grammar word for word', () => {
  assert.ok(RFC.includes('      nntp://<host>:<port>/<newsgroup-name>/<article-number>\n'));
  assert.ok(RFC.includes('If :<port>\n   is omitted, the port defaults to 119.'));
  assert.ok(RFC.includes('nntpurl        = "nntp://" hostport "/" group [ "/" digits ]'));
  assert.ok(RFC.includes('and thus nntp\n   URLs do not designate globally accessible resources.'));
  // the drafts' production names no server
  assert.ok(D9403.includes('nntpaddress\nn n t p : group / digits'));
  assert.ok(D9310.includes('nntpaddress            n n t p : group /  digits'));
});

const ROWS: Array<[string, string, string, string]> = [
  // the template of 3.7 with host, port, the 3.6 example group and an article number
  [
    'nntp://news.example.org:119/comp.infosystems.www.misc/4123',
    'news.example.org | 119 | comp.infosystems.www.misc | 4123',
    '',
    'RFC 1738 3.7',
  ],
  [
    'nntp://news.example.org/comp.infosystems.www.misc/4123',
    'news.example.org | 119 | comp.infosystems.www.misc | 4123',
    '',
    'RFC 1738 3.7 (port defaults to 119)',
  ],
  [
    'nntp://news.example.org/comp.infosystems.www.misc',
    'news.example.org | 119 | comp.infosystems.www.misc | -',
    '',
    'RFC 1738 5 ([ "/" digits ])',
  ],
  ['nntp://10.0.0.1:1119/alt.test/0', '10.0.0.1 | 1119 | alt.test | 0', '', 'RFC 1738 5'],
  ['nntp://h.com/g/007', 'h.com | 119 | g | 7', '', 'RFC 1738 5 (digits)'],
  ['NNTP://H.COM/Comp.Misc/1', 'H.COM | 119 | Comp.Misc | 1', '', 'RFC 1738 2.1'],
  ['nntp://h.com/g/1#x', 'h.com | 119 | g | 1', '', 'draft 1993-10 fragmentaddress'],
  // "/" group is required
  ['nntp://h.com', 'h.com | 119 | - | -', 'invalid-newsgroup@12', 'RFC 1738 5 nntpurl'],
  ['nntp://h.com/', 'h.com | 119 |  | -', 'invalid-newsgroup@13', 'RFC 1738 5 group'],
  ['nntp://h.com/2600', 'h.com | 119 | 2600 | -', 'invalid-newsgroup@13', 'RFC 1738 5 (group starts with alpha)'],
  ['nntp://h.com/comp*/1', 'h.com | 119 | comp* | 1', 'invalid-newsgroup@17', 'RFC 1738 5 group'],
  [
    'nntp://h.com/comp%2Emisc',
    'h.com | 119 | comp.misc | -',
    'invalid-newsgroup@17',
    'RFC 1738 5 (group is plain characters)',
  ],
  ['nntp://h.com/*', 'h.com | 119 | * | -', 'invalid-newsgroup@13', 'RFC 1738 5 (no "*" in nntp)'],
  // [ "/" digits ]: digits only
  ['nntp://h.com/g/', 'h.com | 119 | g | -', 'invalid-article-number@15', 'RFC 1738 5 digits'],
  ['nntp://h.com/g/12a', 'h.com | 119 | g | -', 'invalid-article-number@17', 'RFC 1738 5 digits'],
  ['nntp://h.com/g/-1', 'h.com | 119 | g | -', 'invalid-article-number@15', 'RFC 1738 5 digits'],
  [
    'nntp://h.com/g/%31',
    'h.com | 119 | g | -',
    'invalid-article-number@15',
    'RFC 1738 5 (digits are plain characters)',
  ],
  [
    'nntp://h.com/g/12/34',
    'h.com | 119 | g | -',
    'invalid-article-number@17',
    'RFC 1738 3.7 (nothing follows the number)',
  ],
  ['nntp://h.com/g/<1>', 'h.com | 119 | g | -', 'unsafe-char@15 unsafe-char@17', 'RFC 1738 2.2 (reported once)'],
  [
    'nntp://h.com/g/99999999999999999999',
    'h.com | 119 | g | -',
    'invalid-article-number@15',
    'RFC 1738 5 (too large to read exactly)',
  ],
  // login: no user or password (3.7: host and port only)
  ['nntp://u:p@h.com/g/1', 'h.com | 119 | g | 1', 'unexpected-login@7', 'RFC 1738 3.7'],
  // the drafts' nntp:<group>/<digits>, with no server
  [
    'nntp:comp.infosystems.www/4123',
    '- | - | comp.infosystems.www | 4123',
    'missing-slashes@5 draft-only@5',
    'draft 1994-03 nntpaddress',
  ],
  ['<URL:nntp://h.com/g/x>', 'h.com | 119 | g | -', 'invalid-article-number@20', 'RFC 1738 appendix'],
];

rowTests(ROWS, (u, want) => assert.equal(row(u), want));

test('RFC 1738 3.7: violations say what to write', () => {
  assert.match(parse('nntp://h.com/g/12a').violations[0].message, /digits only/);
  assert.match(parse('nntp://h.com').violations[0].message, /names a newsgroup/);
  const d = parse('nntp:g/1').violations.find((v) => v.code === 'draft-only')!;
  assert.equal(d.severity, 'warning');
  assert.match(d.message, /1993-10 and 1994-03 drafts/);
});

const BUILD: Array<[Record<string, unknown>, string]> = [
  [
    { host: 'news.example.org', group: 'comp.infosystems.www.misc', article: 4123 },
    'nntp://news.example.org/comp.infosystems.www.misc/4123',
  ],
  [{ host: 'news.example.org', port: 119, group: 'alt.test', article: null }, 'nntp://news.example.org/alt.test'],
  [{ host: 'news.example.org', port: 1119, group: 'alt.test' }, 'nntp://news.example.org:1119/alt.test'],
  [{ host: '10.0.0.1', group: 'comp.lang.c++', article: 0 }, 'nntp://10.0.0.1/comp.lang.c++/0'],
];

for (const [f, href] of BUILD) {
  test(`build RFC 1738 3.7: ${JSON.stringify(f)}`, () => {
    assert.equal(build('nntp', f), href);
    const u = parse(href);
    assert.deepEqual(u.fields, { group: f.group, article: f.article ?? null });
    assert.equal(u.port, f.port ?? 119);
  });
}

const BUILD_REFUSED: Array<Record<string, unknown>> = [
  { group: 'g' },
  { host: '', group: 'g' },
  { host: 'h.com' },
  { host: 'h.com', group: '' },
  { host: 'h.com', group: '2600' },
  { host: 'h.com', group: 'a/b' },
  { host: 'h.com', group: 'g', article: -1 },
  { host: 'h.com', group: 'g', article: 1.5 },
  { host: 'h.com', group: 'g', article: '12' },
  { host: 'h.com', group: 'g', user: 'u' },
  { host: 'h/x', group: 'g' },
  { host: 'h.com', port: 70000, group: 'g' },
];
eachRow('RFC 1738 3.7: build refuses what no nntp URL can write', BUILD_REFUSED, (f) => {
  assert.throws(
    () => build('nntp', f),
    (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field',
    JSON.stringify(f),
  );
});

test('explain RFC 1738 3.7, RFC 977: GROUP then ARTICLE <n> on the named server', () => {
  const e = explain('nntp://news.example.org/comp.infosystems.www.misc/4123');
  assert.equal(e.protocol, 'nntp');
  assert.equal(e.host, 'news.example.org');
  assert.equal(e.port, 119);
  assert.deepEqual(e.steps, [...SESSION, 'GROUP comp.infosystems.www.misc', 'ARTICLE 4123', 'QUIT']);
  assert.ok(e.notes.some((n) => n.includes('not globally accessible') && n.includes('RFC 1738 3.7')));
  assert.ok(e.notes.some((n) => n.includes('article numbers belong to one server')));
});

test('explain: with no article number, the group listing', () => {
  const e = explain('nntp://news.example.org:1119/alt.test');
  assert.equal(e.port, 1119);
  assert.deepEqual(e.steps, [...SESSION, 'GROUP alt.test', OVER, 'QUIT']);
  assert.ok(e.notes.some((n) => n.includes('oldest first')));
});

test("explain: the drafts' form names no server; an invalid URL says why", () => {
  const e = explain('nntp:comp.infosystems.www/4123');
  assert.equal(e.host, null);
  assert.equal(e.port, 119);
  assert.deepEqual(e.steps, [...SESSION, 'GROUP comp.infosystems.www', 'ARTICLE 4123', 'QUIT']);
  assert.ok(e.notes.some((n) => n.includes('names no server')));
  const bad = explain('nntp://h.com/g/12a');
  assert.deepEqual(bad.steps, [...SESSION, 'GROUP g', OVER, 'QUIT']);
  assert.ok(bad.notes.some((n) => n.startsWith('not a valid nntp URL') && n.includes('offset 17')));
});

// Properties (seed 1738)
const article = fc.option(fc.oneof(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.maxSafeNat()), { nil: null });

test('property (seed 1738): host, port, group and article build, parse back and are valid', () => {
  fc.assert(
    fc.property(
      hostnameArb,
      fc.option(fc.integer({ min: 0, max: 65535 }), { nil: null }),
      newsgroupArb,
      article,
      (host, port, g, a) => {
        const href = build('nntp', { host, port, group: g, article: a });
        const u = parse(href);
        assert.deepEqual(u.fields, { group: g, article: a });
        assert.equal(u.host, host);
        assert.equal(u.port, port ?? 119);
        assert.equal(codes(u), '');
        assert.equal(parse(u.href).href, href);
        assert.deepEqual(
          explain(u).steps.slice(3, 5),
          a === null ? [`GROUP ${g}`, OVER] : [`GROUP ${g}`, `ARTICLE ${a}`],
        );
      },
    ),
    { seed: 1738, numRuns: 500 },
  );
});

test('property (seed 1738): a non-digit in the article number is reported at its offset', () => {
  const digits = fc.stringMatching(/^[0-9]{0,6}$/);
  fc.assert(
    fc.property(newsgroupArb, digits, chars("abcXYZ.-+_!$*'(),;:=&?@"), digits, (g, d1, c, d2) => {
      const prefix = `nntp://h.com/${g}/${d1}`;
      const u = parse(`${prefix}${c}${d2}`);
      assert.equal(codes(u), `invalid-article-number@${prefix.length}`);
      assert.equal(u.fields.article, null);
    }),
    { seed: 1738, numRuns: 500 },
  );
});

test('property (seed 1738): on noise after nntp:// / nntp: / <URL:nntp://h.com/, parse, fields and explain never throw; offsets are in the input', () => {
  assertNoiseSafe(['nntp://', 'nntp:', '<URL:nntp://h.com/'], explain);
});
