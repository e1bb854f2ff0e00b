// mailto (RFC 1738 3.5; section 5 mailtourl) and the RFC 822 addr-spec check (RFC 822 6.1, 3.3).
// Rows: input, the decoded address, the violations as code@offset ("" for none), the section.
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
  ASCII,
  atomArb,
  spicedText,
} from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { checkAddrSpec } from '../../src/schemes/mailto.js';
import { LocatorError } from '../../src/core/errors.js';

const RFC = shared('spec/rfc1738-1994-12.txt');
const D9403 = shared('spec/draft-url-1994-03.txt');
const D9310 = shared('spec/draft-url-1993-10.txt').replace(/\u00a0/g, ' '); // its spaces are U+00A0

test('RFC 1738 3.5 prints the mailto template and its notes word for word', () => {
  assert.ok(RFC.includes('        mailto:<rfc822-addr-spec>\n'));
  assert.ok(RFC.includes('Within mailto URLs, there are no reserved\n   characters.'));
  assert.ok(
    RFC.includes('Note that the percent sign ("%") is commonly used within RFC 822\n   addresses and must be encoded.'),
  );
  assert.ok(RFC.includes('mailtourl      = "mailto:" encoded822addr'));
  assert.ok(D9403.includes('requires conversion to %25 in a URL'));
  assert.ok(D9310.includes('requires conversion to %25 in a URL'));
});

// Instances of mailto:<rfc822-addr-spec>: the spec texts print no mailto URL, but they print
// these addresses (authors' and list addresses; RFC 1738 lines 42, 1382, 1392, 1403; draft
// 1993-10 line 27), each an addr-spec.
const PRINTED_ADDRESSES = [
  ['timbl@info.cern.ch', RFC],
  ['masinter@parc.xerox.com', RFC],
  ['mpm@boombox.micro.umn.edu', RFC],
  ['uri@bunyip.com', RFC],
  ['ietf-url@merit.edu', D9310],
] as const;

for (const [address, textOf] of PRINTED_ADDRESSES) {
  test(`RFC 1738 3.5: mailto:${address} (an address printed in the spec texts)`, () => {
    assert.ok(textOf.includes(address));
    const u = parse(`mailto:${address}`);
    assert.deepEqual(u.fields, { address });
    assert.equal(codes(u), '');
    assert.equal(u.valid, true);
    assert.equal(u.host, null);
    assert.equal(u.port, null);
  });
}

const ROWS: Array<[string, string, string, string]> = [
  // 3.5: "%" of an address must be encoded as %25 (draft 1994-03: "requires conversion to %25")
  ['mailto:user%25gateway@info.cern.ch', 'user%gateway@info.cern.ch', '', 'RFC 1738 3.5'],
  ['mailto:user%gateway@info.cern.ch', 'user%gateway@info.cern.ch', 'invalid-escape@11', 'RFC 1738 3.5, 2.2'],
  ['mailto:user%E9@h.com', 'user\ufffd@h.com', 'invalid-addr-spec@11', 'RFC 1738 3.5 (RFC 822 CHAR is ASCII)'],
  // 3.5: no reserved characters: an escape and its character are the same address
  ['mailto:%74imbl@info.cern.ch', 'timbl@info.cern.ch', '', 'RFC 1738 3.5, 2.2'],
  ['mailto:a%40b@c', 'a@b@c', 'invalid-addr-spec@12', 'RFC 1738 3.5 (%40 is "@")'],
  [
    'mailto:a/b=c&d?e@h.com',
    'a/b=c&d?e@h.com',
    'mailto-query@14',
    'RFC 1738 3.5 (reserved characters stand for themselves)',
  ],
  // 3.5: mailto:<rfc822-addr-spec>, no "//"
  ['mailto://x', '//x', 'mailto-slashes@7', 'RFC 1738 3.5'],
  ['mailto://timbl@info.cern.ch', '//timbl@info.cern.ch', 'mailto-slashes@7', 'RFC 1738 3.5'],
  ['mailto:%2F%2Ftimbl@info.cern.ch', '//timbl@info.cern.ch', '', 'RFC 1738 3.5, 2.2 (an encoded "/" is no "//")'],
  ['mailto:/timbl@info.cern.ch', '/timbl@info.cern.ch', '', 'RFC 822 3.3 ("/" is an atom character)'],
  // RFC 822 6.1: local-part "@" domain
  ['mailto:', '', 'invalid-addr-spec@7', 'RFC 1738 5 (encoded822addr = 1*xchar)'],
  ['mailto:postmaster', 'postmaster', 'invalid-addr-spec@17', 'RFC 822 6.1 (addr-spec needs "@" domain)'],
  ['mailto:a@', 'a@', 'invalid-addr-spec@9', 'RFC 822 6.1'],
  ['mailto:@h.com', '@h.com', 'invalid-addr-spec@7', 'RFC 822 6.1 (local-part = word *("." word))'],
  ['mailto:a.b.c@d.e.f', 'a.b.c@d.e.f', '', 'RFC 822 6.1'],
  ['mailto:.a@h.com', '.a@h.com', 'invalid-addr-spec@7', 'RFC 822 6.1'],
  ['mailto:a.@h.com', 'a.@h.com', 'invalid-addr-spec@9', 'RFC 822 6.1'],
  ['mailto:a..b@h.com', 'a..b@h.com', 'invalid-addr-spec@9', 'RFC 822 6.1'],
  ['mailto:a@h..com', 'a@h..com', 'invalid-addr-spec@11', 'RFC 822 6.1 (domain = sub-domain *("." sub-domain))'],
  ['mailto:a@h.com.', 'a@h.com.', 'invalid-addr-spec@15', 'RFC 822 6.1'],
  ['mailto:a@b@c', 'a@b@c', 'invalid-addr-spec@10', 'RFC 822 6.1'],
  ['mailto:a,b@c', 'a,b@c', 'invalid-addr-spec@8', 'RFC 1738 3.5 (one address)'],
  ['mailto:a@b,c@d', 'a@b,c@d', 'invalid-addr-spec@10', 'RFC 1738 3.5 (one address)'],
  ['mailto:a;b@c', 'a;b@c', 'invalid-addr-spec@8', 'RFC 822 3.3 (";" is a special)'],
  ['mailto:a:b@c', 'a:b@c', 'invalid-addr-spec@8', 'RFC 822 3.3 (":" is a special)'],
  ['mailto:a@b:25', 'a@b:25', 'invalid-addr-spec@10', 'RFC 822 3.3'],
  ['mailto:a%28b%29@c', 'a(b)@c', 'invalid-addr-spec@8', 'RFC 822 3.3 (no comments inside an address)'],
  ['mailto:a%20@b', 'a @b', 'invalid-addr-spec@8', 'RFC 822 3.1.4 (DEVIATION: no white space between tokens)'],
  ['mailto:a%09b@c', 'a\tb@c', 'invalid-addr-spec@8', 'RFC 822 3.3 (CTLs are not atom characters)'],
  [
    "mailto:!%23$%25&'*+-/=%3F%5E_%60%7B%7C%7D%7E@h",
    "!#$%&'*+-/=?^_`{|}~@h",
    '',
    'RFC 822 3.3 (every atom character, encoded where unsafe)',
  ],
  // RFC 822 3.3: quoted-string, quoted-pair, domain-literal (each written encoded: <"> [ ] \ are unsafe)
  ['mailto:%22John%20Doe%22@h.com', '"John Doe"@h.com', '', 'RFC 822 3.3 quoted-string'],
  ['mailto:%22a@b%22@h.com', '"a@b"@h.com', '', 'RFC 822 3.3 (an "@" inside a quoted string)'],
  ['mailto:%22a%5C%22b%22@h.com', '"a\\"b"@h.com', '', 'RFC 822 3.3 quoted-pair'],
  ['mailto:%22a%22.b.%22c%22@h.com', '"a".b."c"@h.com', '', 'RFC 822 6.1 (word = atom / quoted-string)'],
  ['mailto:%22a%22b@h.com', '"a"b@h.com', 'invalid-addr-spec@14', 'RFC 822 6.1 (words are separated by ".")'],
  ['mailto:%22ab@h.com', '"ab@h.com', 'invalid-addr-spec@7', 'RFC 822 3.3 (the quoted string is not closed)'],
  ['mailto:%22a%0D%0A%20b%22@h.com', '"a\r\n b"@h.com', '', 'RFC 822 3.3 (folding white space in qtext)'],
  ['mailto:%22a%0Db%22@h.com', '"a\rb"@h.com', 'invalid-addr-spec@11', 'RFC 822 3.3 (a bare CR is not qtext)'],
  ['mailto:%22a%5C%0Db%22@h.com', '"a\\\rb"@h.com', '', 'RFC 822 3.3 (a quoted CR)'],
  ['mailto:%22a%0Ab%22@h.com', '"a\nb"@h.com', '', 'RFC 822 3.3 (qtext excludes only <">, "\\" and CR)'],
  ['mailto:%22%C3%A9%22@h.com', '"\u00e9"@h.com', 'invalid-addr-spec@10', 'RFC 822 3.3 (qtext is CHAR: ASCII)'],
  ['mailto:a@%5B10.0.0.1%5D', 'a@[10.0.0.1]', '', 'RFC 822 6.1 domain-literal'],
  ['mailto:a@%5B10.0.0.1%5D.b', 'a@[10.0.0.1].b', '', 'RFC 822 6.1 (sub-domain = domain-ref / domain-literal)'],
  ['mailto:a@%5B10.0.0.1', 'a@[10.0.0.1', 'invalid-addr-spec@9', 'RFC 822 6.1 (the domain literal is not closed)'],
  ['mailto:a@%5Bx%5By%5D', 'a@[x[y]', 'invalid-addr-spec@13', 'RFC 822 6.2.3 (dtext excludes "[")'],
  ['mailto:a@%5Bx%5D%5By%5D', 'a@[x][y]', 'invalid-addr-spec@16', 'RFC 822 6.1 (sub-domains are separated by ".")'],
  // characters the scanner reports are not reported again by the addr-spec check
  [
    'mailto:"a b"@c',
    '"a b"@c',
    'unsafe-char@7 unsafe-char@9 unsafe-char@11',
    'RFC 1738 2.2 (the address itself is an addr-spec)',
  ],
  ['mailto:a b@c', 'a b@c', 'unsafe-char@8', 'RFC 1738 2.2'],
  ['mailto:\u00e9@c', '\u00e9@c', 'non-ascii@7', 'RFC 1738 2.2'],
  ['mailto:a@[10.0.0.1]', 'a@[10.0.0.1]', 'unsafe-char@9 unsafe-char@18', 'RFC 1738 2.2'],
  // RFC 2368 "?" header fields are later: the "?" belongs to the address (a warning)
  ['mailto:a@h.com?subject=hi', 'a@h.com?subject=hi', 'mailto-query@14', 'RFC 1738 3.5'],
  // case of the scheme; fragment; URL: prefix (offsets count the input as given)
  ['MAILTO:Tim@CERN.CH', 'Tim@CERN.CH', '', 'RFC 1738 2.1'],
  ['mailto:a@b.c#frag', 'a@b.c', '', 'draft 1993-10 fragmentaddress'],
  ['<URL:mailto:a..b@c>', 'a..b@c', 'invalid-addr-spec@14', 'RFC 1738 appendix'],
];

rowTests(ROWS, (u, address) => {
  assert.deepEqual(u.fields, { address });
  for (const d of u.violations) assert.ok(d.message.length > 0 && (d.section ?? '').length > 0);
});

test('RFC 1738 3.5: violations name the rule and say what to write', () => {
  const slashes = parse('mailto://x').violations[0];
  assert.equal(slashes.severity, 'error');
  assert.equal(slashes.section, 'RFC 1738 3.5');
  assert.match(slashes.message, /no "\/\/"/);
  const pct = parse('mailto:user%E9@h.com').violations[0];
  assert.match(pct.message, /not US-ASCII/);
  assert.match(pct.message, /%25/);
  const q = parse('mailto:a@h.com?subject=hi').violations[0];
  assert.equal(q.severity, 'warning');
  assert.match(q.message, /RFC 2368/);
  assert.equal(parse('mailto:a@h.com?subject=hi').valid, true);
});

const ADDR_SPECS = [
  'a@b',
  'a.b@c.d',
  '"a b"@c',
  '"@"@c',
  '"\\\\"@c',
  'a@[1.2.3.4]',
  'a@[\\]]',
  '"a\r\n\tb"@c',
  'x-y+z=w/v@q',
  '""@c',
];
eachRow('RFC 822 6.1: checkAddrSpec over a string with no escapes accepts', ADDR_SPECS, (s) => {
  assert.equal(checkAddrSpec(s, 0, s.length), null, s);
});

const NOT_ADDR_SPECS: Array<[string, number]> = [
  ['', 0],
  ['a', 1],
  ['a@', 2],
  ['@a', 0],
  ['a b@c', 1],
  ['a@b c', 3],
  ['a<b@c', 1],
  ['a@b>', 3],
  ['"a@c', 0],
  ['a@[b', 2],
  ['a\\b@c', 1],
  ['a@b.', 4],
  ['a.@b', 2],
  ['"a"b@c', 3],
  ['a@b]', 3],
  ['a\u00e9@b', 1],
];
eachRow('RFC 822 6.1: checkAddrSpec over a string with no escapes rejects at the offset', NOT_ADDR_SPECS, ([s, at]) => {
  assert.equal(checkAddrSpec(s, 0, s.length)?.offset, at, JSON.stringify(s));
});

test('RFC 822 6.1: checkAddrSpec over a range inside a longer string: offsets are into that string', () => {
  assert.equal(checkAddrSpec('xxa..b@cyy', 2, 8)?.offset, 4);
});

const BUILD: Array<[Record<string, unknown>, string, string]> = [
  [{ address: 'timbl@info.cern.ch' }, 'mailto:timbl@info.cern.ch', 'RFC 1738 3.5'],
  [
    { address: 'user%gateway@info.cern.ch' },
    'mailto:user%25gateway@info.cern.ch',
    'RFC 1738 3.5 ("%" must be encoded)',
  ],
  [{ address: 'a/b;c?d:e@f&g=h' }, 'mailto:a/b;c?d:e@f&g=h', 'RFC 1738 3.5 (no reserved characters)'],
  [{ address: '"John Doe"@h.com' }, 'mailto:%22John%20Doe%22@h.com', 'RFC 1738 2.2 (unsafe characters)'],
  [{ address: 'a@[10.0.0.1]' }, 'mailto:a@%5B10.0.0.1%5D', 'RFC 1738 2.2'],
  [{ address: 'a#b@c' }, 'mailto:a%23b@c', 'RFC 1738 2.2 ("#" always encoded)'],
  [{ address: '\u00e9@c' }, 'mailto:%C3%A9@c', 'RFC 1738 2.2 (UTF-8 octets)'],
  [{ address: '//x@y' }, 'mailto:%2F/x@y', 'RFC 1738 3.5 (never "//")'],
  [{ address: 'a@b.c', fragment: 'f' }, 'mailto:a@b.c#f', 'draft 1993-10 fragmentaddress'],
];

for (const [f, href, section] of BUILD) {
  test(`build ${section}: ${JSON.stringify(f)}`, () => {
    assert.equal(build('mailto', f), href);
    assert.equal(parse(href).fields.address, f.address);
  });
}

eachRow(
  'RFC 1738 3.5: build refuses what no mailto URL can hold',
  [{}, { address: '' }, { address: 7 }, { address: 'a@b', host: 'h.com' }, { address: 'a@b', user: 'u' }],
  (f) => {
    assert.throws(
      () => build('mailto', f as never),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field',
      JSON.stringify(f),
    );
  },
);

test('build writes an address RFC 822 rejects; parse reports it', () => {
  const href = build('mailto', { address: 'not an address' });
  assert.equal(href, 'mailto:not%20an%20address');
  assert.equal(codes(parse(href)), 'invalid-addr-spec@10');
});

test('explain RFC 1738 3.5: the SMTP envelope through the configured server', () => {
  const e = explain('mailto:timbl@info.cern.ch');
  assert.equal(e.protocol, 'smtp');
  assert.equal(e.host, null);
  assert.equal(e.port, null);
  assert.deepEqual(e.steps, [
    'EHLO <your host name>',
    '[if offered] STARTTLS, the TLS handshake, EHLO <your host name>',
    '[if credentials are configured] AUTH PLAIN or AUTH LOGIN',
    'MAIL FROM:<your address>',
    'RCPT TO:<timbl@info.cern.ch>',
    'DATA',
    '<the message: header fields and body, from the user>',
    '.',
    'QUIT',
  ]);
  assert.ok(e.notes.some((n) => n.includes('names no server') && n.includes('SMTP_RELAY')));
  assert.ok(e.notes.some((n) => n.includes('comes from the user')));
  assert.ok(e.notes.some((n) => n.includes('EHLO')));
  assert.ok(!e.notes.some((n) => n.startsWith('not a valid')));
});

test('explain: the decoded address goes into RCPT TO, line breaks shown; an invalid URL says why', () => {
  assert.equal(explain('mailto:user%25gateway@info.cern.ch').steps[4], 'RCPT TO:<user%gateway@info.cern.ch>');
  assert.ok(explain('mailto:user%25gateway@info.cern.ch').notes.some((n) => n.includes('gatewayed')));
  assert.equal(explain('mailto:%22a%0D%0A%20b%22@c').steps[4], 'RCPT TO:<"a<CR><LF> b"@c>');
  const bad = explain('mailto://x');
  assert.ok(bad.notes.some((n) => n.startsWith('not a valid mailto URL') && n.includes('offset 7')));
});

// Properties (seed 1738)
// qtext (any ASCII but <">, "\" and CR), quoted-pair, and folding white space
const qtext = chars(ASCII.replace(/["\\\r]/g, ''));
const qpair = chars(ASCII).map((c) => '\\' + c);
const quotedString = fc
  .array(fc.oneof(qtext, qpair, fc.constant('\r\n ')), { maxLength: 8 })
  .map((a) => `"${a.join('')}"`);
const word = fc.oneof(atomArb, quotedString);
const dtext = chars(ASCII.replace(/[[\]\\\r]/g, ''));
const domainLiteral = fc.array(fc.oneof(dtext, qpair), { maxLength: 8 }).map((a) => `[${a.join('')}]`);
const subDomain = fc.oneof({ weight: 4, arbitrary: atomArb }, { weight: 1, arbitrary: domainLiteral });
const addrSpec = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.array(subDomain, { minLength: 1, maxLength: 3 }))
  .map(([l, d]) => `${l.join('.')}@${d.join('.')}`);

test('property (seed 1738): every RFC 822 addr-spec builds a valid mailto URL that reads back', () => {
  fc.assert(
    fc.property(addrSpec, (address) => {
      const href = build('mailto', { address });
      assert.equal(checkAddrSpec(href, 7, href.length), null);
      const u = parse(href);
      assert.deepEqual(u.fields, { address });
      assert.deepEqual(
        u.violations.filter((d) => d.severity === 'error'),
        [],
      );
      assert.equal(parse(u.href).href, href);
    }),
    { seed: 1738, numRuns: 500 },
  );
});

test('property (seed 1738): any non-empty text round-trips through build and parse', () => {
  const addresses = spicedText(['%', '\t', '\r\n', '/', '//', '@', '#', '?', ';', ':', '<>', ' ', '%25'], 30);
  fc.assert(
    fc.property(addresses, (address) => {
      const href = build('mailto', { address });
      const u = parse(href);
      assert.deepEqual(u.fields, { address });
      assert.equal(u.href, href);
      assert.ok(
        !u.violations.some(
          (d) => d.code === 'mailto-slashes' || d.code === 'invalid-escape' || d.code === 'unsafe-char',
        ),
      );
    }),
    { seed: 1738, numRuns: 500 },
  );
});

test('property (seed 1738): a special inside an atom is reported at its offset', () => {
  const specials = '()<>,;:\\"[] ';
  fc.assert(
    fc.property(atomArb, chars(specials), atomArb, atomArb, (a, s, b, d) => {
      const address = `${a}${s}${b}@${d}`;
      const href = build('mailto', { address });
      const u = parse(href);
      assert.equal(u.valid, false);
      const found = u.violations.find((v) => v.code === 'invalid-addr-spec');
      assert.ok(found, href);
      // the special (or its escape) follows the encoded first atom
      assert.equal(found.offset, build('mailto', { address: a + '@x' }).length - '@x'.length);
    }),
    { seed: 1738, numRuns: 500 },
  );
});

test('property (seed 1738): on noise after mailto: / <URL:mailto: / MAILTO:, parse, fields and explain never throw; offsets are in the input', () => {
  assertNoiseSafe(['mailto:', '<URL:mailto:', 'MAILTO:'], explain);
});

// Found by the property of test/properties/build.test.ts (issue 17): the "#" of a fragment right
// where the addr-spec stops short was taken for a character the scanner had reported, and the
// error was dropped, so "mailto:a#f" was valid where "mailto:a" is not.
eachRow(
  'RFC 822 6.1: a fragment after an addr-spec that stops short does not hide the error',
  [
    ['mailto:a#f', 'invalid-addr-spec@8'],
    ['mailto:a@#f', 'invalid-addr-spec@9'],
    ['mailto:a@b.c#f', ''],
  ] as const,
  ([href, want]) => assert.equal(codes(parse(href)), want),
);
