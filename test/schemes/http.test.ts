// The http and https schemes: RFC 1738 3.3 and the section 5 productions httpurl, hpath,
// hsegment, search; the 1993-07 draft's search as "+"-separated keywords; what the drafts say
// HTTP sends. Rows: input, then "hpath | segments | search | keywords" (absent "-", lists as
// JSON), then the violations as code@offset, then the section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, tryParse, codes, fixture, shared, eachRow } from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { entryOf } from '../../src/schemes/registry.js';
import { LocatorError } from '../../src/core/errors.js';

function row(u: ReturnType<typeof parse>): string {
  const f = u.fields as { hpath: string | null; segments: string[]; search: string | null; keywords: string[] };
  return [f.hpath ?? '-', JSON.stringify(f.segments), f.search ?? '-', JSON.stringify(f.keywords)].join(' | ');
}

const ROWS: Array<[string, string, string, string]> = [
  // 3.3: path and search are optional; without both the "/" may be omitted
  ['http://h.com', '- | [] | - | []', '', 'RFC 1738 3.3'],
  ['http://h.com/', ' | [""] | - | []', '', 'RFC 1738 5 (hpath = hsegment, which may be empty)'],
  ['http://h.com/?', ' | [""] |  | [""]', '', 'RFC 1738 5 (search = *[...], empty)'],
  ['http://h.com/?a+b', ' | [""] | a+b | ["a","b"]', '', 'RFC 1738 5; draft 1993-07 search = xalphas [ + search ]'],
  ['http://h.com:8080/a/b/c.html', 'a/b/c.html | ["a","b","c.html"] | - | []', '', 'RFC 1738 3.3'],
  ['http://h.com/a/', 'a/ | ["a",""] | - | []', '', 'RFC 1738 5 (an empty last hsegment)'],
  ['http://h.com//a', '/a | ["","a"] | - | []', '', 'RFC 1738 5 (an empty first hsegment)'],
  // 5: hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]: ";" is allowed inside a segment
  ['http://h.com/a;b/c:d@e&f=g', 'a;b/c:d@e&f=g | ["a;b","c:d@e&f=g"] | - | []', '', 'RFC 1738 5 (hsegment)'],
  [
    'http://h.com/a%2Fb/c%3Fd%3Be',
    'a%2Fb/c%3Fd%3Be | ["a/b","c?d;e"] | - | []',
    '',
    'RFC 1738 3.3 (encoded "/", "?", ";" are data)',
  ],
  ['http://h.com/p?a;b:c@d&e=f', 'p | ["p"] | a;b:c@d&e=f | ["a;b:c@d&e=f"]', '', 'RFC 1738 5 (search)'],
  // 3.3, 5: "?" only once, to start the search; "/" and "?" are reserved in the search
  ['http://h.com/p?a?b', 'p | ["p"] | a?b | ["a?b"]', 'http-reserved-in-search@16', 'RFC 1738 3.3, 5'],
  ['http://h.com/p?a/b', 'p | ["p"] | a/b | ["a/b"]', 'http-reserved-in-search@16', 'RFC 1738 3.3, 5'],
  [
    'http://h.com/p??/',
    'p | ["p"] | ?/ | ["?/"]',
    'http-reserved-in-search@15 http-reserved-in-search@16',
    'RFC 1738 3.3, 5',
  ],
  ['http://h.com/p?a%2Fb%3Fc', 'p | ["p"] | a%2Fb%3Fc | ["a/b?c"]', '', 'RFC 1738 3.3 (encoded, they are data)'],
  // the fragment is not part of the search (draft 1993-10 fragmentaddress)
  ['http://h.com/p?a#b/c?d', 'p | ["p"] | a | ["a"]', '', 'draft 1993-10 fragmentaddress'],
  // draft 1993-07 search: keywords separated by "+", each decoded ("+" encoded is data)
  [
    'http://h.com/p?k1+k%2B2+%E2%82%AC',
    'p | ["p"] | k1+k%2B2+%E2%82%AC | ["k1","k+2","€"]',
    '',
    'draft 1993-07 search',
  ],
  ['http://h.com/p?++', 'p | ["p"] | ++ | ["","",""]', '', 'draft 1993-07 search (empty keywords kept)'],
  [
    'http://h.com/%E2%82%AC/%FF',
    '%E2%82%AC/%FF | ["€","\ufffd"] | - | []',
    '',
    'RFC 1738 2.2 (octets that are not UTF-8 show as U+FFFD)',
  ],
  // 3.3: "No user name or password is allowed"
  ['http://u@h.com/', ' | [""] | - | []', 'unexpected-login@7', 'RFC 1738 3.3'],
  ['http://u:p@h.com/', ' | [""] | - | []', 'unexpected-login@7', 'RFC 1738 3.3'],
  ['http://@h.com/', ' | [""] | - | []', 'unexpected-login@7', 'RFC 1738 3.3 (an empty user is still a user)'],
  // http://host?search: the drafts' httpaddress (hostport [ / path ] [ ? search ]); not RFC 1738
  [
    'http://h.com?x',
    '- | [] | - | []',
    'invalid-host@12 draft-only@12',
    'RFC 1738 5 httpurl; draft 1994-03 httpaddress',
  ],
  // generic findings come from the scanner, not twice
  ['http://h.com/a b?c d', 'a b | ["a b"] | c d | ["c d"]', 'unsafe-char@14 unsafe-char@18', 'RFC 1738 2.2'],
  [
    '<URL:http://u@h.com/p?a/b>',
    'p | ["p"] | a/b | ["a/b"]',
    'unexpected-login@12 http-reserved-in-search@23',
    'RFC 1738 appendix (offsets into the input as given)',
  ],
  // https: not in the specs; the same syntax
  ['https://h.com/p?a+b', 'p | ["p"] | a+b | ["a","b"]', '', 'later (RFC 2818): the http syntax'],
  [
    'https://u@h.com/p?a/b',
    'p | ["p"] | a/b | ["a/b"]',
    'unexpected-login@8 http-reserved-in-search@19',
    'later: the http rules',
  ],
];

eachRow(
  'RFC 1738 3.3: http fields and violations',
  ROWS,
  ([input, expected, violations, section]) => {
    const u = parse(input);
    assert.equal(row(u), expected, `${input} (${section})`);
    assert.equal(codes(u), violations, `${input} violations (${section})`);
    assert.equal(
      u.valid,
      !violations.split(' ').some((c) => c !== '' && !c.startsWith('draft-only')),
      `${input} valid`,
    );
  },
  { section: (r) => r[3] },
);

// Every http URL printed in the four texts, word for word as printed (the wrappers are part of
// what the texts print; the scanner strips them). Line-wrapped ones are joined (RFC 1738
// appendix: white space inside the wrapper is ignored); the row says so.
type SpecRow = {
  source: string;
  line: number;
  printed: string;
  input: string;
  fields: string;
  port: number;
  note: string;
};

/** A URL printed on one line, parsed as printed; it gives no port, so 80. */
function asPrinted(source: string, line: number, printed: string, fields: string, note: string): SpecRow {
  return { source, line, printed, input: printed, fields, port: 80, note };
}

const SPEC: SpecRow[] = [
  asPrinted(
    'rfc1738-1994-12.txt',
    43,
    '<URL:http://www.acl.lanl.gov/URI/archive/uri-archive.index.html>',
    'URI/archive/uri-archive.index.html | ["URI","archive","uri-archive.index.html"] | - | []',
    'section 1',
  ),
  {
    source: 'rfc1738-1994-12.txt',
    line: 1239,
    printed: '<URL:http://ds.internic.',
    input: '<URL:http://ds.internic.net/instructions/overview.html#WARNING>',
    fields: 'instructions/overview.html | ["instructions","overview.html"] | - | []',
    port: 80,
    note: 'appendix; printed across two lines ("ds.internic." / "net/instructions/overview.html#WARNING>"), joined',
  },
  asPrinted(
    'draft-url-1994-03.txt',
    7,
    '<http://www.acl.lanl.gov/URI/archive/uri-archive.index.html>',
    'URI/archive/uri-archive.index.html | ["URI","archive","uri-archive.index.html"] | - | []',
    'About this document',
  ),
  asPrinted(
    'draft-url-1994-03.txt',
    15,
    '<http://www.w3.org/hypertext/WWW/Addressing/URL/Overview.html>',
    'hypertext/WWW/Addressing/URL/Overview.html | ["hypertext","WWW","Addressing","URL","Overview.html"] | - | []',
    'About this document',
  ),
  {
    source: 'rfc1738-1994-12.txt',
    line: 467,
    printed: 'http://<host>:<port>/<path>?<searchpart>',
    input: 'http://host:8080/path?searchpart',
    fields: 'path | ["path"] | searchpart | ["searchpart"]',
    port: 8080,
    note: 'the 3.3 template, its placeholders filled in (host, port 8080, path, searchpart)',
  },
];

eachRow(
  'RFC 1738 and drafts: every printed http URL, verbatim',
  SPEC,
  (s) => {
    const lines = shared(`spec/${s.source}`).split('\n');
    assert.ok(lines[s.line - 1].includes(s.printed), `${s.source}:${s.line} prints ${s.printed}`);
    const u = parse(s.input);
    assert.equal(u.scheme, 'http');
    assert.equal(row(u), s.fields, `${s.input} (${s.note})`);
    assert.equal(u.port, s.port);
    assert.equal(codes(u), '', s.input);
  },
  { section: (s) => `${s.source}:${s.line}` },
);

test('RFC 1738 appendix: the fragment of a printed http URL is never sent (draft 1993-10)', () => {
  // RFC 1738 1239: the fragment is part of the printed URL but never sent (draft 1993-10)
  const e = explain(parse(SPEC[1].input));
  assert.deepEqual(e.steps, ['GET /instructions/overview.html HTTP/1.1', 'Host: ds.internic.net']);
  assert.ok(
    e.notes.some((n) => n.includes('"#WARNING" is never sent')),
    e.notes.join('\n'),
  );
});

const HTTP_EXAMPLES = (
  JSON.parse(fixture('spec-examples.json')) as { examples: Array<{ url: string; source: string; line: number }> }
).examples.filter((e) => /^https?:/i.test(e.url));

eachRow(
  'spec-examples.json: no http example of the fixture is missing from the table',
  HTTP_EXAMPLES,
  (e) => {
    const mine = new Set(SPEC.map((s) => parse(s.input).href));
    assert.ok(mine.has(e.url), `${e.source}:${e.line} ${e.url} is not in the table`);
  },
  { input: (e) => e.url, section: (e) => `${e.source}:${e.line}` },
);

test('RFC 1738 3.3: port 80 for http; https (later) uses 443 and says it is not in the specs', () => {
  assert.equal(parse('http://h.com/').port, 80);
  assert.equal(parse('http://h.com/').explicitPort, false);
  assert.equal(parse('https://h.com/').port, 443);
  assert.equal(entryOf(parse('https://h.com/'))?.status, 'later');
  assert.equal(entryOf(parse('http://h.com/'))?.status, 'rfc1738');
});

test('build: segments and keywords are encoded so that they read back (RFC 1738 2.2, 3.3)', () => {
  assert.equal(
    build('http', { host: 'h.com', segments: ['a/b', 'c;d', 'e?f', 'g h%'], keywords: ['x+y', 'z/w', 'é'] }),
    'http://h.com/a%2Fb/c%3Bd/e%3Ff/g%20h%25?x%2By+z%2Fw+%C3%A9',
  );
  assert.equal(
    build('http', { host: 'h.com', segments: ['a:b@c&d=e'], keywords: ['k:v@w&x=y'] }),
    'http://h.com/a:b@c&d=e?k:v@w&x=y',
  );
  assert.equal(build('http', { host: 'h.com' }), 'http://h.com');
  assert.equal(build('http', { host: 'h.com', segments: [] }), 'http://h.com');
  assert.equal(build('http', { host: 'h.com', segments: [''] }), 'http://h.com/');
  assert.equal(build('http', { host: 'h.com', segments: [''], keywords: [''] }), 'http://h.com/?');
  assert.equal(build('http', { host: 'h.com', segments: ['a', ''], keywords: ['', ''] }), 'http://h.com/a/?+');
  assert.equal(build('http', { host: 'h.com', port: 80, segments: ['a'] }), 'http://h.com/a');
  assert.equal(build('http', { host: 'h.com', port: 8080, segments: ['a'] }), 'http://h.com:8080/a');
  assert.equal(build('https', { host: 'h.com', port: 443, segments: ['a'] }), 'https://h.com/a');
  assert.equal(build('https', { host: 'h.com', port: 80, segments: ['a'] }), 'https://h.com:80/a');
  assert.equal(build('http', { host: 'h.com', segments: ['a'], fragment: 'f g' }), 'http://h.com/a#f%20g');
});

test('build: the raw hpath and search are used when segments and keywords are absent, and checked', () => {
  assert.equal(build('http', { host: 'h.com', hpath: 'a/b;c%2F', search: 'x+y%3F' }), 'http://h.com/a/b;c%2F?x+y%3F');
  assert.equal(build('http', { host: 'h.com', hpath: '', search: null }), 'http://h.com/');
  // decoded fields win over raw ones
  assert.equal(
    build('http', { host: 'h.com', hpath: 'zzz', segments: ['a'], search: 'zzz', keywords: [] }),
    'http://h.com/a',
  );
});

eachRow(
  'build: a raw hpath or search that does not read back is refused (RFC 1738 3.3, 5)',
  [
    { hpath: 'a?b' },
    { hpath: 'a b' },
    { hpath: '%zz' },
    { hpath: '', search: 'a/b' },
    { hpath: '', search: 'a?b' },
    { hpath: 'é' },
  ],
  (bad) => {
    assert.throws(
      () => build('http', { host: 'h.com', ...bad }),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field',
      JSON.stringify(bad),
    );
  },
);

test('build: refuses what cannot be written (RFC 1738 3.3, 5)', () => {
  const refused = (f: Record<string, unknown>) =>
    assert.throws(
      () => build('http', { host: 'h.com', ...f }),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field',
      JSON.stringify(f),
    );
  refused({ user: 'u' }); // 3.3: no user name or password
  refused({ user: 'u', password: 'p' });
  refused({ segments: [], keywords: ['x'] }); // 5: "/" hpath [ "?" search ] - a search needs the "/"
  refused({ segments: 'a/b' });
  refused({ segments: [1] });
  refused({ keywords: [null] });
  refused({ hpath: 3 });
});

test("explain: the request line and the Host header, as Node's HTTP/1.1 client sends them", () => {
  const e = explain('http://h.com/a/b;c?x+y#frag');
  assert.equal(e.protocol, 'http');
  assert.equal(e.host, 'h.com');
  assert.equal(e.port, 80);
  assert.deepEqual(e.steps, ['GET /a/b;c?x+y HTTP/1.1', 'Host: h.com']);
  assert.ok(e.notes.some((n) => n.includes('"#frag" is never sent')));
  assert.ok(
    e.notes.some((n) => n.includes('"x", "y"')),
    'the keywords are named',
  );
  assert.ok(
    e.notes.some((n) => n.includes('GET /a/b;c?x+y HTTP/1.0')),
    'the HTTP/1.0 form is given',
  );
  assert.ok(
    e.notes.some((n) => n.includes('"GET http://h.com/a/b;c?x+y HTTP/1.1"')),
    'the proxy form carries the whole URL without the fragment',
  );

  assert.deepEqual(explain('http://h.com').steps, ['GET / HTTP/1.1', 'Host: h.com']);
  assert.ok(explain('http://h.com').notes.some((n) => n.includes('no path')));
  assert.deepEqual(explain('http://h.com:8080/').steps, ['GET / HTTP/1.1', 'Host: h.com:8080']);
  assert.deepEqual(explain('http://h.com:80/').steps, ['GET / HTTP/1.1', 'Host: h.com']);
  assert.deepEqual(explain('http://h.com/?').steps, ['GET /? HTTP/1.1', 'Host: h.com']);
  assert.ok(!explain('http://h.com/a').notes.some((n) => n.includes('never sent')), 'no fragment, no note about it');
});

test('explain: characters that may not stand in a URL are escaped for transmission (draft 1994-03 HTTP)', () => {
  const e = explain('http://h.com/a b/é?c%zz');
  assert.deepEqual(e.steps, ['GET /a%20b/%C3%A9?c%25zz HTTP/1.1', 'Host: h.com']);
  assert.ok(e.notes.some((n) => n.includes('escaped for transmission')));
  assert.ok(e.notes.some((n) => n.startsWith('not a valid http URL:')));
  assert.deepEqual(explain('http://h.com/%41%7e').steps[0], 'GET /%41%7e HTTP/1.1', 'escapes are sent as written');
});

test('explain: https says it is not in the specs; a URL with no host has no steps', () => {
  const e = explain('https://h.com:8443/x');
  assert.equal(e.protocol, 'https');
  assert.equal(e.port, 8443);
  assert.deepEqual(e.steps, ['GET /x HTTP/1.1', 'Host: h.com:8443']);
  assert.ok(e.notes.some((n) => n.includes('not defined by RFC 1738')));
  assert.ok(e.notes.some((n) => n.includes('CONNECT h.com:8443')));
  const none = explain('http:foo');
  assert.deepEqual(none.steps, []);
  assert.ok(none.notes.some((n) => n.includes('missing-slashes')));
  assert.ok(none.notes.some((n) => n.includes('no host')));
});

// Property tests (fixed seed): arbitrary unicode with the characters that matter here.
const special = fc.constantFrom(
  '/',
  '?',
  ';',
  '+',
  '%',
  '%2F',
  '#',
  ' ',
  '\t',
  '\r\n',
  ':',
  '@',
  '&',
  '=',
  'é',
  '€',
  '😀',
  '\u0000',
);
const str = fc.string({
  unit: fc.oneof(special, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
  maxLength: 12,
});

test('property: parse(build(f)).fields deepEquals f, and parse(href).href === href', () => {
  for (const scheme of ['http', 'https']) {
    fc.assert(
      fc.property(
        fc.array(str, { maxLength: 5 }),
        fc.array(str, { maxLength: 5 }),
        fc.option(fc.integer({ min: 1, max: 65535 }), { nil: null }),
        (segments, kw, port) => {
          const keywords = segments.length === 0 ? [] : kw;
          const href = build(scheme, { host: 'h.example', port, segments, keywords });
          const u = parse(href);
          assert.equal(u.href, href);
          assert.equal(u.valid, true, `${href}: ${codes(u)}`);
          assert.deepEqual(u.fields.segments, segments);
          assert.deepEqual(u.fields.keywords, keywords);
          const f = u.fields;
          const again = build(scheme, { ...f, host: u.host, port: u.port });
          assert.equal(again, href);
          assert.deepEqual(parse(again).fields, f);
          // the raw fields alone build the same URL
          assert.equal(build(scheme, { host: u.host, port: u.port, hpath: f.hpath, search: f.search }), href);
        },
      ),
      { seed: 1738, numRuns: 500 },
    );
  }
});

test('property: any input either fails to parse or gives fields that never throw and a stable href', () => {
  fc.assert(
    fc.property(str, str, (a, b) => {
      const u = tryParse(`http://h.com/${a}?${b}`);
      if (u instanceof LocatorError) return;
      assert.equal(parse(u.href).href, u.href);
      const f = u.fields as { segments: string[]; keywords: string[] };
      assert.ok(Array.isArray(f.segments) && Array.isArray(f.keywords));
      assert.ok(explain(u).steps[0].startsWith('GET /'));
    }),
    { seed: 1738, numRuns: 500 },
  );
});
