// Hiding passwords (RFC 1738 6: "The use of URLs containing passwords that should be secret is
// clearly unwise"). Rows: input, then redactUrl(input), then the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, eachRow, tryParse } from './helpers.js';
import { LocatorError } from '../src/core/errors.js';
import {
  redactUrl,
  redactText,
  redactValue,
  secretsOf,
  passwordSpans,
  redactedOffset,
  MASK,
  urlPasswordSpans,
  partialPasswordSpans,
  redactPartial,
  secretForms,
  replaceSpans,
  redactParsed,
  maskSecrets,
  maskValue,
} from '../src/operations/redact.js';
import { parseRecord } from '../src/cli/parse.js';
import { build } from '../src/operations/build.js';

const ROWS: Array<[string, string, string]> = [
  ['ftp://u:secret@h.com/', 'ftp://u:****@h.com/', 'RFC 1738 3.1'],
  ['FTP://U:Secret@H.COM:21/x;type=i', 'FTP://U:****@H.COM:21/x;type=i', 'the rest byte for byte'],
  ['<URL:ftp://u:secret@h.com/>', '<URL:ftp://u:****@h.com/>', 'RFC 1738 appendix: the wrapper is kept'],
  ['<ftp://u:secret@h.com/>', '<ftp://u:****@h.com/>', 'RFC 1738 appendix'],
  ['  ftp://u:secret@h.com/ ', '  ftp://u:****@h.com/ ', 'white space around is kept'],
  ['ftp://u:p%40ss%3A@h.com/', 'ftp://u:****@h.com/', 'an encoded password is hidden whole'],
  ['ftp://u:@h.com/', 'ftp://u:@h.com/', 'RFC 1738 3.1: an empty password holds no secret'],
  ['ftp://u@h.com/', 'ftp://u@h.com/', 'no password'],
  ['ftp://h.com/', 'ftp://h.com/', 'no login'],
  ['http://h.com/a:b@c', 'http://h.com/a:b@c', 'an "@" in the path is no login'],
  ['ftp://u:s@h.com/x#//a:b@c', 'ftp://u:****@h.com/x#//a:b@c', 'the fragment is not a login'],
  ['ftp://u:p@[::1]/', 'ftp://u:****@[::1]/', 'an IPv6 literal host'],
  ['telnet://u:p@h.com/', 'telnet://u:****@h.com/', 'RFC 1738 3.8'],
  ['http://u:secret@h.com/', 'http://u:****@h.com/', 'a login http does not take is still hidden'],
  // input no parse can read, or a scheme with no login of its own: scanned conservatively
  ['ftp://u:pa/ss@h.com/', 'ftp://u:****@h.com/', 'an unencoded "/" in the password (invalid-port to the parser)'],
  ['ftp://u:pa ss@h.com:x/', 'ftp://u:pa ss@h.com:x/', 'white space ends the URL in the scan: no "@" before it'],
  ['<ftp://u:secret@h.com/', '<ftp://u:****@h.com/', 'an unclosed wrapper'],
  ['news://u:secret@h.com/x', 'news://u:****@h.com/x', 'news takes no login, but a password is still hidden'],
  ['mailto:a:b@c.d', 'mailto:a:b@c.d', 'an address, no login'],
  ['news:a//b:c@d.e', 'news:a//b:c@d.e', 'a "//" inside an opaque part is no login'],
  ['not a url', 'not a url', 'nothing to hide'],
  ['', '', 'empty'],
];

eachRow(
  'RFC 1738 6: redactUrl: the password as "****", everything else byte for byte',
  ROWS,
  ([input, expected, why]) => {
    assert.equal(redactUrl(input), expected, `${input} (${why})`);
  },
  { section: (row) => row[2] },
);

test('passwordSpans and redactedOffset: where the password was, and where offsets land after it', () => {
  const input = '<URL:ftp://u:secret@h.com:25/a%0D>';
  const spans = passwordSpans(input);
  assert.deepEqual(spans, [[13, 19]]);
  assert.equal(input.slice(13, 19), 'secret');
  const shown = redactUrl(input);
  assert.equal(redactedOffset(spans, 5), 5);
  assert.equal(redactedOffset(spans, 13), 13);
  assert.equal(redactedOffset(spans, 16), 13);
  // the port: offset 26 in the input, where "25" stands in the redacted text as well
  assert.equal(input.slice(26, 28), '25');
  assert.equal(shown.slice(redactedOffset(spans, 26), redactedOffset(spans, 26) + 2), '25');
  assert.equal(shown.slice(redactedOffset(spans, 30), redactedOffset(spans, 30) + 3), '%0D');
});

// Offsets at the edges of a password (RFC 1738 6; errors.ts: offsets count the input): the last
// character of the password lands on the mask's start, the "@" right after it on the "@" of the
// redacted text, and every later offset shifts by the difference in length. Rows: spans, an
// offset of the input, where it lands in the redacted text, why.
const SHOWN = '<URL:ftp://u:secret@h.com:25/a%0D>'; // password [13, 19); redacted: '<URL:ftp://u:****@h.com:25/a%0D>'
const OFFSET_ROWS: Array<[ReadonlyArray<readonly [number, number]>, number, number, string]> = [
  [[[13, 19]], 0, 0, 'before the password: unchanged'],
  [[[13, 19]], 12, 12, 'the ":" just before the password'],
  [[[13, 19]], 13, 13, 'the first character of the password: the start of the mask'],
  [[[13, 19]], 18, 13, 'the last character of the password: the start of the mask'],
  [[[13, 19]], 19, 17, 'exactly at the end of the password: the "@", after the mask'],
  [[[13, 19]], 20, 18, 'one after the end: shifted by 4 - 6'],
  [[[13, 19]], SHOWN.length, SHOWN.length - 2, 'the end of the input: the end of the redacted text'],
  // two spans, as if two URLs in one line: ":ab@ :c@" -> ":****@ :****@"
  [
    [
      [1, 3],
      [6, 7],
    ],
    3,
    5,
    'the end of the first (2 characters): after its mask',
  ],
  [
    [
      [1, 3],
      [6, 7],
    ],
    6,
    8,
    'the start of the second: its mask, after the first shift',
  ],
  [
    [
      [1, 3],
      [6, 7],
    ],
    7,
    12,
    'the end of the second (1 character): shifted by both',
  ],
  [
    [
      [1, 3],
      [6, 7],
    ],
    8,
    13,
    'after both',
  ],
  [[[1, 3]], 2, 1, 'inside a span: the start of its mask'],
  [[], 5, 5, 'no span: unchanged'],
];

eachRow(
  'RFC 1738 6: redactedOffset: an offset at the edges of a password',
  OFFSET_ROWS,
  ([spans, offset, expected, why]) => {
    assert.equal(redactedOffset(spans, offset), expected, why);
  },
  { input: ([spans, offset]) => [spans, offset], section: (row) => row[3] },
);

test('redactedOffset lands on the same character in the redacted text, at every offset of the input', () => {
  const spans = passwordSpans(SHOWN);
  const shown = redactUrl(SHOWN);
  assert.deepEqual(spans, [[13, 19]]);
  for (let o = 0; o <= SHOWN.length; o++) {
    const at = redactedOffset(spans, o);
    if (o >= 13 && o < 19) assert.equal(at, 13, `offset ${o} in the password`);
    else if (o < 13) assert.equal(shown.slice(0, at), SHOWN.slice(0, o), `offset ${o}: the text before it`);
    else assert.equal(shown.slice(at), SHOWN.slice(o), `offset ${o}: the text from there on`);
  }
});

// The scans at their edges (redactText on free text, redactUrl on a line no parse reads, an
// opaque scheme's "//" login): what ends a URL, an empty password, a "//" right after the "@"
// or right where a user info stopped. Rows: input, the redacted text, why.
const SCAN_ROWS: Array<[string, string, string]> = [
  [
    'see ftp://u:@h/ and news://u:@h/x',
    'see ftp://u:@h/ and news://u:@h/x',
    'RFC 1738 3.1: an empty password is no span',
  ],
  ['at ftp://host y:z@w', 'at ftp://host y:z@w', 'appendix: white space ends the URL, "y:z@" is no login'],
  ['ftp://a\x7fb:c@h', 'ftp://a\x7fb:c@h', 'appendix: DEL ends the URL as a control does'],
  ['a://u:p@x//v:w@h', 'a://u:****@x//v:****@h', 'a "//" two after the "@": a second login'],
  ['ftp://u:p@//v:w@h', 'ftp://u:****@//v:****@h', 'a "//" right after the "@": a second login'],
  ['see http://a//u:p@h', 'see http://a//u:****@h', 'a "//" where the first user info stopped'],
];

eachRow(
  'RFC 1738 6: redactText scans free text to the edges of each login',
  SCAN_ROWS,
  ([input, expected, why]) => {
    assert.equal(redactText(input), expected, why);
  },
  { section: (row) => row[2] },
);

const LINE_ROWS: Array<[string, string, string]> = [
  ['news://u:@h.com/x', 'news://u:@h.com/x', 'an opaque scheme\'s "//" login with an empty password: no span'],
  ['ftp://u:@h.com:x/', 'ftp://u:@h.com:x/', 'unparsable, an empty password: no span'],
  [
    'ftp://u:p/q@h\x7fr@s',
    'ftp://u:****@h\x7fr@s',
    'unparsable: DEL ends the line scan, the "@" after it is not the login\'s',
  ],
  ['ftp://u:p/q@h r@s', 'ftp://u:****@h r@s', 'unparsable: white space ends the line scan'],
];

eachRow(
  'RFC 1738 6: redactUrl: a line no parse reads, at the edges of its scan',
  LINE_ROWS,
  ([input, expected, why]) => {
    assert.equal(redactUrl(input), expected, why);
  },
  { section: (row) => row[2] },
);

test('replaceSpans: "****" whatever the length of the password, so that its length is not shown', () => {
  assert.equal(replaceSpans('ftp://u:secret@h/', [[8, 14]]), 'ftp://u:****@h/');
  assert.equal(replaceSpans('ftp://u:s@h/', [[8, 9]]), 'ftp://u:****@h/');
  assert.equal(
    replaceSpans(':ab@ :c@', [
      [1, 3],
      [6, 7],
    ]),
    ':****@ :****@',
  );
  assert.equal(replaceSpans('abc', []), 'abc');
});

test('redactParsed: redactUrl() of an input already parsed, from its offsets', () => {
  for (const input of [
    'ftp://u:secret@h.com/',
    '<URL:ftp://u:p%40ss@h.com/x>',
    'news://u:p@host/x',
    'http://u:@h.com/',
    'http://h.com/a:b@c',
  ]) {
    const u = tryParse(input);
    assert.ok(!(u instanceof LocatorError), input);
    assert.equal(redactParsed(input, u), redactUrl(input), input);
  }
});

test('redactText: given secrets (longest first) and every //user:password@ in free text', () => {
  const url = parse('ftp://u:p%40ss@h.com/');
  assert.deepEqual(secretsOf(url), ['p%40ss', 'p@ss']);
  assert.deepEqual(secretsOf(parse('ftp://u:@h.com/')), []);
  assert.deepEqual(secretsOf(parse('ftp://u@h.com/')), []);
  assert.deepEqual(secretsOf(parse('ftp://u:pw@h.com/')), ['pw']);
  assert.equal(
    redactText('530 Login incorrect for p@ss at ftp://u:p%40ss@h.com/', secretsOf(url)),
    '530 Login incorrect for **** at ftp://u:****@h.com/',
  );
  assert.equal(
    redactText('fetching ftp://u:pw@h.com/x and gopher://h/0a:b@c, then http://v:w@k.org'),
    'fetching ftp://u:****@h.com/x and gopher://h/0a:b@c, then http://v:****@k.org',
  );
  assert.equal(redactText('abcd', ['ab', 'abc']), '****d');
  assert.equal(redactText('no secrets here', ['']), 'no secrets here');
  assert.equal(MASK, '****');
});

test('redactValue: the parse --json record with its password hidden everywhere, all else unchanged', () => {
  const input = '<URL:ftp://u:p%40ss@h.com:2121/a>';
  const rec = parseRecord(input);
  const hidden = redactValue(rec, secretsOf(parse(input)));
  assert.equal(JSON.stringify(hidden).includes('p@ss') || JSON.stringify(hidden).includes('p%40ss'), false);
  assert.deepEqual(hidden, {
    ...rec,
    input: '<URL:ftp://u:****@h.com:2121/a>',
    href: 'ftp://u:****@h.com:2121/a',
    password: '****',
  });
  assert.deepEqual(redactValue([1, null, { a: ['x y'] }], ['y']), [1, null, { a: ['x ****'] }]);
});

test('property: for any user and password, redactUrl hides exactly the written password', () => {
  const part = fc.string({
    unit: fc.constantFrom('a', 'B', '1', ':', '@', '/', '%', ' ', 'é', '\r', ';', '?'),
    maxLength: 10,
  });
  fc.assert(
    fc.property(part, part, fc.constantFrom('ftp', 'telnet', 'foo'), (user, password, scheme) => {
      const href =
        scheme === 'foo'
          ? `foo:${build('ftp', { host: 'h.com', user, password }).slice(4)}`
          : build(scheme, { host: 'h.com', user, password });
      const url = parse(href);
      const c = url.components();
      const expected = password === '' ? href : href.slice(0, c.password![0]) + MASK + href.slice(c.password![1]);
      assert.equal(redactUrl(href), expected, href);
      assert.equal(redactUrl(`<URL:${href}>`), `<URL:${expected}>`, href);
      if (password !== '') {
        assert.equal(
          redactText(`error at ${href}: bad ${password}`, secretsOf(url)).includes(url.rawPassword!),
          false,
          href,
        );
      }
    }),
    { seed: 1738, numRuns: 500 },
  );
});

// Issue 10: every character RFC 1738 3.1 allows in a password ("?", "'", ";", "&", "=", escapes)
// is hidden from the parsed offsets; an unparsable line and an opaque scheme's "//" login too.
const ISSUE10_ROWS: Array<[string, string, string]> = [
  ["ftp://u:p?w'x@h.com/", 'ftp://u:****@h.com/', 'RFC 1738 3.1: "?" and "\'" in a password'],
  ['telnet://u:a;b&c=d@h.com/', 'telnet://u:****@h.com/', 'RFC 1738 3.1: ";", "&", "="'],
  ["news://u:s'e?c@h.com/x", 'news://u:****@h.com/x', 'an opaque scheme: the login read to the last "@"'],
  ['http://u:s?ec@h.com/', 'http://u:****@h.com/', 'http: "?" in the password'],
  ['x-any://u:p"q\\r@h/', 'x-any://u:****@h/', 'invalid quote and backslash, still hidden'],
  ["ftp://u:p'w@h.com:x/ y", 'ftp://u:****@h.com:x/ y', 'unparsable: the scan runs past quotes to white space'],
];

test('issue 10: passwords with "?", "\'" and quotes are hidden from the parsed offsets', () => {
  for (const [input, expected, why] of ISSUE10_ROWS) assert.equal(redactUrl(input), expected, `${input} (${why})`);
});

test('urlPasswordSpans, partialPasswordSpans: the spans of a parsed URL and of a "//" partial form', () => {
  assert.deepEqual(urlPasswordSpans(parse('ftp://u:p?w@h.com/')), [[8, 11]]);
  assert.deepEqual(urlPasswordSpans(parse("news://u:p'w@h.com/x")), [[9, 12]]);
  assert.deepEqual(urlPasswordSpans(parse('news:a//b:c@d.e')), []);
  assert.deepEqual(partialPasswordSpans('//u:p?w@h.com/x', 'ftp'), [[4, 7]]);
  assert.equal(redactPartial('//u:p?w@h.com/x', 'ftp'), '//u:****@h.com/x');
  assert.equal(redactPartial("  //u:p'w@h.com/x", 'telnet'), '  //u:****@h.com/x');
  assert.equal(redactPartial('../a:b@c', 'ftp'), '../a:b@c', 'a path holds no login');
  assert.equal(redactPartial('ftp://u:p?w@h.com/', null), 'ftp://u:****@h.com/');
});

test('secretsOf: as written, decoded and JSON-escaped; maskSecrets and maskValue change nothing else', () => {
  assert.deepEqual(secretsOf(parse('ftp://u:a%22b%5Cc@h.com/')), ['a%22b%5Cc', 'a"b\\c', 'a\\"b\\\\c']);
  assert.deepEqual(secretsOf(parse("news://u:s'x@h.com/x")), ["s'x"]);
  assert.deepEqual(secretForms(''), []);
  assert.deepEqual(secretForms('a\u001bb'), ['a\u001bb', 'a\\u001bb']);
  const url = parse('ftp://u:a%22b@h.com/');
  assert.equal(maskSecrets('530 "a\\"b" refused; a"b', secretsOf(url)), '530 "****" refused; ****');
  assert.equal(maskSecrets('//a:b@c stays', []), '//a:b@c stays', 'no scan of free text');
  assert.deepEqual(maskValue({ s: ['xa"by'], n: 1, z: null }, secretsOf(url)), { s: ['x****y'], n: 1, z: null });
});
