// Hiding passwords (RFC 1738 6: "The use of URLs containing passwords that should be secret is
// clearly unwise"). Rows: input, then redactUrl(input), then the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, eachRow } from './helpers.js';
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
  maskSecrets,
  maskValue,
} from '../src/redact.js';
import { parseRecord } from '../src/cli/parse.js';
import { build } from '../src/build.js';

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
