// news (RFC 1738 3.6; section 5 newsurl, grouppart, group, article; RFC 1036 2.1.5 message ids).
// Rows: input, "kind | group | messageId" (null as "-"), the violations as code@offset, the section.
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
  spicedText,
  ID_SPICES,
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

function row(u: Url): string {
  const f = u.fields as { kind: string; group: string | null; messageId: string | null };
  return [f.kind, f.group ?? '-', f.messageId ?? '-'].join(' | ');
}

/** Runs `fn` with NNTPSERVER set to `value` (or unset), restoring it afterwards. */
function withServer<T>(value: string | undefined, fn: () => T): T {
  const old = process.env.NNTPSERVER;
  if (value === undefined) delete process.env.NNTPSERVER;
  else process.env.NNTPSERVER = value;
  try {
    return fn();
  } finally {
    if (old === undefined) delete process.env.NNTPSERVER;
    else process.env.NNTPSERVER = old;
  }
}

test('RFC 1738 3.6:703 prints <URL:news:*> for "all available news groups"', () => {
  const printed = '<URL:news:*>';
  const lines = RFC.split('\n');
  assert.ok(lines[702].includes(`If <newsgroup-name> is "*" (as in ${printed}), it is used to refer`));
  const u = parse(printed);
  assert.equal(u.href, 'news:*');
  assert.equal(row(u), 'all | - | -');
  assert.equal(codes(u), '');
  assert.equal(u.valid, true);
  const e = withServer(undefined, () => explain(printed));
  assert.deepEqual(e.steps, [...SESSION, 'LIST ACTIVE [LIST if the server does not understand LIST ACTIVE]', 'QUIT']);
});

test('RFC 1738 3.6 prints the two templates and the example group name word for word', () => {
  assert.ok(RFC.includes('     news:<newsgroup-name>\n     news:<message-id>\n'));
  assert.ok(RFC.includes('"comp.infosystems.www.misc"'));
  assert.ok(RFC.includes('it takes the form <unique>@<full_domain_name>.'));
  assert.ok(RFC.includes('article        = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host'));
});

// Instances of the templates with the values the texts give: the group name of 3.6, and the
// Message-ID that RFC 1036 2.1.5 (which 3.6 cites) gives, "<4123@ucbvax.Berkeley.EDU>".
const ROWS: Array<[string, string, string, string]> = [
  ['news:comp.infosystems.www.misc', 'group | comp.infosystems.www.misc | -', '', 'RFC 1738 3.6 (its example group)'],
  [
    'news:4123@ucbvax.Berkeley.EDU',
    'article | - | 4123@ucbvax.Berkeley.EDU',
    '',
    'RFC 1738 3.6, RFC 1036 2.1.5 (its example id)',
  ],
  // grouppart = "*" | group | article; "@" tells an article from a group
  ['news:*', 'all | - | -', '', 'RFC 1738 3.6'],
  ['news:comp.lang.c++', 'group | comp.lang.c++ | -', '', 'RFC 1738 5 group'],
  ['news:alt.fan.a-b_c.2600', 'group | alt.fan.a-b_c.2600 | -', '', 'RFC 1738 5 group'],
  ['news:Z', 'group | Z | -', '', 'RFC 1738 5 group (one letter)'],
  ['news:', 'group |  | -', 'invalid-newsgroup@5', 'RFC 1738 5 grouppart'],
  ['news:2600.hackers', 'group | 2600.hackers | -', 'invalid-newsgroup@5', 'RFC 1738 5 (group starts with alpha)'],
  ['news:.comp', 'group | .comp | -', 'invalid-newsgroup@5', 'RFC 1738 5'],
  ['news:comp.*', 'group | comp.* | -', 'invalid-newsgroup@10', 'RFC 1738 3.6 ("*" stands alone)'],
  ['news:**', 'group | ** | -', 'invalid-newsgroup@5', 'RFC 1738 3.6'],
  ['news:comp/lang', 'group | comp/lang | -', 'invalid-newsgroup@9', 'RFC 1738 5 group'],
  ['news:comp;lang', 'group | comp;lang | -', 'invalid-newsgroup@9', 'RFC 1738 5 group'],
  ['news:comp!lang', 'group | comp!lang | -', 'invalid-newsgroup@9', 'RFC 1738 5 group'],
  ['news:comp%2Elang', 'group | comp.lang | -', 'invalid-newsgroup@9', 'RFC 1738 5 (group is plain characters)'],
  ['news:comp lang', 'group | comp lang | -', 'unsafe-char@9', 'RFC 1738 2.2 (reported once)'],
  [
    'news://news.example.org/comp.misc',
    'group | //news.example.org/comp.misc | -',
    'news-host@5',
    'RFC 1738 3.6 (no server)',
  ],
  ['news://x@h.com', 'article | - | //x@h.com', 'news-host@5', 'RFC 1738 3.6 (no server)'],
  ['news:%2F/x@h.com', 'article | - | //x@h.com', '', 'RFC 1738 3.6, 2.2 (an encoded "/" is no "//")'],
  // article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
  ['news:a;b/c?d:e&f=g@h.com', 'article | - | a;b/c?d:e&f=g@h.com', '', 'RFC 1738 5 article'],
  ["news:$-_.+!*'(),@h.com", "article | - | $-_.+!*'(),@h.com", '', 'RFC 1738 5 article (uchar)'],
  ['news:8587.a%2Fb@vms.host.edu', 'article | - | 8587.a/b@vms.host.edu', '', 'RFC 1738 5 article (escapes)'],
  ['news:x%7By%7D@h.com', 'article | - | x{y}@h.com', '', 'RFC 1036 2.1.5 (printing ASCII)'],
  ['news:1@10.0.0.1', 'article | - | 1@10.0.0.1', '', 'RFC 1738 5 (host = hostnumber)'],
  ['news:@h.com', 'article | - | @h.com', 'invalid-article@5', 'RFC 1738 5 (1*[ ... ] before "@")'],
  ['news:abc@', 'article | - | abc@', 'invalid-article@9', 'RFC 1738 5 (host after "@")'],
  ['news:abc@h_x.com', 'article | - | abc@h_x.com', 'invalid-article@10', 'RFC 1738 3.1 host'],
  ['news:abc@h.com.', 'article | - | abc@h.com.', 'invalid-article@15', 'RFC 1738 3.1 host'],
  [
    'news:abc@h.3com',
    'article | - | abc@h.3com',
    'invalid-article@11',
    'RFC 1738 3.1 (the top label starts with a letter)',
  ],
  ['news:abc@1.2.3.256', 'article | - | abc@1.2.3.256', 'invalid-article@15', 'RFC 1738 3.1 hostnumber'],
  ['news:abc@h%2Ecom', 'article | - | abc@h.com', 'invalid-article@10', 'RFC 1738 3.1 (hosts take no escapes)'],
  ['news:a@b@h.com', 'article | - | a@b@h.com', 'invalid-article@6', 'RFC 1036 2.1.5 (one "@")'],
  ['news:a%40b@h.com', 'article | - | a@b@h.com', 'invalid-article@6', 'RFC 1036 2.1.5 (one "@", encoded or not)'],
  ['news:a%20b@h.com', 'article | - | a b@h.com', 'invalid-article@6', 'RFC 1036 2.1.5 (no blank)'],
  ['news:a%3Eb@h.com', 'article | - | a>b@h.com', 'invalid-article@6', 'RFC 1036 2.1.5 (no "<" or ">")'],
  ['news:a%C3%A9@h.com', 'article | - | a\u00e9@h.com', 'invalid-article@6', 'RFC 1036 2.1.5 (ASCII)'],
  [
    'news:<abc@h.com>',
    'article | - | <abc@h.com>',
    'unsafe-char@5 unsafe-char@15',
    'RFC 1738 3.6 (written without "<" and ">")',
  ],
  // fragment; URL: prefix (offsets count the input as given)
  ['news:abc@h.com#x', 'article | - | abc@h.com', '', 'draft 1993-10 fragmentaddress'],
  ['NEWS:Comp.Misc', 'group | Comp.Misc | -', '', 'RFC 1738 2.1'],
  ['<URL:news:comp.*>', 'group | comp.* | -', 'invalid-newsgroup@15', 'RFC 1738 appendix'],
];

rowTests(ROWS, (u, want) => {
  assert.equal(row(u), want);
  assert.equal(u.host, null);
  assert.equal(u.port, null);
});

test('RFC 1738 3.6: violations say what is wrong', () => {
  assert.match(parse('news:comp.*').violations[0].message, /stands alone/);
  assert.match(parse('news://h.com/g').violations[0].message, /names no server/);
  assert.match(parse('news:a%20b@h.com').violations[0].message, /RFC 1036 2\.1\.5.*space/);
  assert.match(parse('news:abc@h_x.com').violations[0].message, /"_" cannot stand in a host/);
  assert.equal(parse('news:2600').violations[0].section, 'RFC 1738 5');
});

const BUILD: Array<[Record<string, unknown>, string]> = [
  [{ kind: 'all', group: null, messageId: null }, 'news:*'],
  [{ kind: 'group', group: 'comp.infosystems.www.misc', messageId: null }, 'news:comp.infosystems.www.misc'],
  [{ group: 'comp.lang.c++' }, 'news:comp.lang.c++'],
  [{ group: '*' }, 'news:*'],
  [{ kind: 'article', messageId: '4123@ucbvax.Berkeley.EDU' }, 'news:4123@ucbvax.Berkeley.EDU'],
  [{ messageId: 'a;b/c?d:e&f=g@h.com' }, 'news:a;b/c?d:e&f=g@h.com'],
  [{ messageId: 'a@b@h.com' }, 'news:a%40b@h.com'],
  [{ messageId: 'a b#c%d@h.com' }, 'news:a%20b%23c%25d@h.com'],
  [{ messageId: '//x@h.com' }, 'news:%2F/x@h.com'],
  [{ group: 'comp.misc', fragment: 'top' }, 'news:comp.misc#top'],
];

for (const [f, href] of BUILD) {
  test(`build RFC 1738 3.6: ${JSON.stringify(f)}`, () => {
    assert.equal(build('news', f), href);
    const u = parse(href);
    if (f.messageId !== undefined) assert.equal(u.fields.messageId, f.messageId);
    if (f.group !== undefined && f.group !== '*') assert.equal(u.fields.group, f.group);
  });
}

const BUILD_REFUSED: Array<Record<string, unknown>> = [
  {},
  { group: '' },
  { group: '2600' },
  { group: 'comp misc' },
  { group: 'comp.*' },
  { group: 'a@b' },
  { group: 'comp.lang.c%2B%2B' },
  { kind: 'all', group: 'comp.misc' },
  { kind: 'group', messageId: 'a@b.c' },
  { kind: 'article', group: 'comp.misc' },
  { kind: 'article' },
  { messageId: 'no-at-sign' },
  { messageId: '@h.com' },
  { messageId: 'a@h_x' },
  { messageId: '<a@h.com>' },
  { kind: 'thread', group: 'x' },
  { group: 5 },
  { group: 'comp.misc', host: 'news.example.org' },
];
eachRow('RFC 1738 3.6: build refuses what no news URL can write', BUILD_REFUSED, (f) => {
  assert.throws(
    () => build('news', f),
    (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field',
    JSON.stringify(f),
  );
});

test("explain RFC 1738 3.6: an article is ARTICLE <message-id> on the reader's own news server", () => {
  const e = withServer('news.example.org', () => explain('news:4123@ucbvax.Berkeley.EDU'));
  assert.equal(e.protocol, 'nntp');
  assert.equal(e.host, 'news.example.org');
  assert.equal(e.port, 119);
  assert.deepEqual(e.steps, [...SESSION, 'ARTICLE <4123@ucbvax.Berkeley.EDU>', 'QUIT']);
  assert.ok(e.notes[0].includes("the news server is the reader's local one: NNTPSERVER=news.example.org"));
  assert.ok(e.notes.some((n) => n.includes('expired')));
});

test('explain: a group is GROUP and the overview of its articles (OVER, else XOVER, else HEAD each)', () => {
  const e = withServer('news.example.org:1119', () => explain('news:comp.infosystems.www.misc'));
  assert.equal(e.host, 'news.example.org');
  assert.equal(e.port, 1119);
  assert.deepEqual(e.steps, [...SESSION, 'GROUP comp.infosystems.www.misc', OVER, 'QUIT']);
  assert.ok(e.notes.some((n) => n.includes('oldest first') && n.includes('RFC 3977 8.3')));
  assert.ok(e.notes.some((n) => n.includes('HEAD for each article number')));
  assert.ok(e.notes.some((n) => n.includes('AUTHINFO') && n.includes('480')));
});

test('explain: news:* is LIST ACTIVE; with NNTPSERVER unset the host is unknown', () => {
  const e = withServer(undefined, () => explain('news:*'));
  assert.equal(e.host, null);
  assert.equal(e.port, 119);
  assert.deepEqual(e.steps, [...SESSION, 'LIST ACTIVE [LIST if the server does not understand LIST ACTIVE]', 'QUIT']);
  assert.ok(e.notes[0].includes('NNTPSERVER (not set here'));
  assert.ok(e.notes.some((n) => n.includes('all available news groups')));
});

test('explain: NNTPSERVER forms (host, host:port, [v6]:port)', () => {
  assert.deepEqual(withServer('[::1]:1119', () => explain('news:*')).host, '[::1]');
  assert.deepEqual(withServer('[::1]:1119', () => explain('news:*')).port, 1119);
  assert.deepEqual(withServer('  news.local  ', () => explain('news:*')).host, 'news.local');
});

test('explain of an invalid news URL still explains, and says what is wrong', () => {
  const e = withServer(undefined, () => explain('news:comp.*'));
  assert.deepEqual(e.steps[3], 'GROUP comp.*');
  assert.ok(e.notes.some((n) => n.startsWith('not a valid news URL') && n.includes('offset 10')));
});

// Properties (seed 1738)
const hostnumber = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }).map((a) => a.join('.'));
const host = fc.oneof(hostnameArb, hostnumber);
/** RFC 1036 2.1.5: unique is printing ASCII but "<", ">" and "@" */
const PRINTING = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i))
  .join('')
  .replace(/[<>@]/g, '');
const unique = fc.array(chars(PRINTING), { minLength: 1, maxLength: 20 }).map((a) => a.join(''));
const messageId = fc.tuple(unique, host).map(([u, h]) => `${u}@${h}`);

test('property (seed 1738): random group names valid per the grammar build, parse back and are valid', () => {
  fc.assert(
    fc.property(newsgroupArb, (g) => {
      const href = build('news', { kind: 'group', group: g });
      assert.equal(href, `news:${g}`);
      const u = parse(href);
      assert.deepEqual(u.fields, { kind: 'group', group: g, messageId: null });
      assert.equal(codes(u), '');
      assert.equal(parse(u.href).href, href);
    }),
    { seed: 1738, numRuns: 500 },
  );
});

test('property (seed 1738): random RFC 1036 message ids build, parse back and are valid', () => {
  fc.assert(
    fc.property(messageId, (id) => {
      const href = build('news', { kind: 'article', messageId: id });
      const u = parse(href);
      assert.deepEqual(u.fields, { kind: 'article', group: null, messageId: id });
      assert.equal(codes(u), '');
      assert.equal(parse(u.href).href, href);
      assert.deepEqual(withServer('n.example', () => explain(u)).steps, [...SESSION, `ARTICLE <${id}>`, 'QUIT']);
    }),
    { seed: 1738, numRuns: 500 },
  );
});

test('property (seed 1738): any text as the unique part round-trips (reserved, "%", TAB, CR LF, "/")', () => {
  fc.assert(
    fc.property(spicedText(ID_SPICES), host, (u0, h) => {
      const id = `${u0}@${h}`;
      const href = build('news', { messageId: id });
      const u = parse(href);
      assert.deepEqual(u.fields, { kind: 'article', group: null, messageId: id });
      assert.equal(u.href, href);
      assert.ok(!u.violations.some((d) => d.code !== 'invalid-article'), codes(u));
    }),
    { seed: 1738, numRuns: 500 },
  );
});

test('property (seed 1738): a character outside the group grammar is reported at its offset', () => {
  const other = chars("!$'()*,/:;=?&");
  fc.assert(
    fc.property(newsgroupArb, other, newsgroupArb, (a, c, b) => {
      const u = parse(`news:${a}${c}${b}`);
      assert.equal(codes(u), `invalid-newsgroup@${5 + a.length}`);
    }),
    { seed: 1738, numRuns: 500 },
  );
});

test('property (seed 1738): on noise after news: / <URL:news: / news://, parse, fields and explain never throw; offsets are in the input', () => {
  assertNoiseSafe(['news:', '<URL:news:', 'news://'], explain);
});
