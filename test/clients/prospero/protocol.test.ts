// The Prospero protocol's text ("The Prospero Protocol, version 5", cited "Prospero v5" with its
// sections): quoting and tokens (2.1), the request (3.1, 3.7), the reply (1.5.4, 4), and the
// access methods (A.1.1) as URLs (RFC 1738 3.11). The reply rows include the document's own
// examples of the ACCESS-METHOD attribute, as printed in A.1.1.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accessUrl,
  buildRequest,
  parseReply,
  quoteToken,
  splitHost,
  tokenize,
  uriList,
  type LinkDefaults,
} from '../../../src/clients/prospero/protocol.js';
import { LocatorError } from '../../../src/core/errors.js';

const code = (c: string) => (e: unknown) => e instanceof LocatorError && e.code === c;

// --- Prospero v5 2.1: quoting ---

const QUOTE: Array<[string, string]> = [
  ['plain', 'plain'],
  ['', "''"], // "null tokens ... can be quoted"
  ['/pros/name', "'/pros/name'"], // "/" is quoted by the historic library (vqsprintf.c)
  ['a b', "'a b'"],
  ["it's", "'it''s'"], // "a quote can be included by doubling it"
  ['a+b', "'a+b'"], // "+" separates options (2.2)
  ['x,y', "'x,y'"],
  ['tab\there', "'tab\there'"],
];
for (const [raw, sent] of QUOTE) {
  test(`Prospero v5 2.1: the token ${JSON.stringify(raw)} is sent as ${sent}`, () => {
    assert.equal(quoteToken(raw), sent);
    assert.deepEqual(tokenize(sent), [raw]);
  });
}

test('Prospero v5 2.1: NUL "cannot be quoted"', () => {
  assert.throws(() => quoteToken('a\0b'), RangeError);
  assert.throws(() => buildRequest({ hsoname: 'a\0b', version: '0' }), code('prospero-unsendable'));
});

const TOKENS: Array<[string, string[]]> = [
  ['ATTRIBUTE OBJECT FIELD', ['ATTRIBUTE', 'OBJECT', 'FIELD']],
  ['  a \t b  ', ['a', 'b']], // "one or more ASCII spaces and/or tabs"
  ["AFTP'/pub/x'", ['AFTP/pub/x']], // quoting from the middle of a token (vqsprintf.c)
  ["'a b'c d", ['a bc', 'd']],
  ["'' x ''", ['', 'x', '']],
  ["'it''s'", ["it's"]],
];
for (const [line, want] of TOKENS) {
  test(`Prospero v5 2.1: ${JSON.stringify(line)} is the tokens ${JSON.stringify(want)}`, () =>
    assert.deepEqual(tokenize(line), want));
}

test('Prospero v5 2.1: a quote left open is a protocol-error', () => {
  assert.throws(() => tokenize("a 'b c"), code('protocol-error'));
});

// --- Prospero v5 3.1, 3.7: the request ---

test('Prospero v5 3.1, 3.7: the request text, byte for byte', () => {
  assert.equal(
    buildRequest({ hsoname: '/pros/name', version: '0' }),
    "VERSION 5\nGET-OBJECT-INFO ACCESS-METHOD ASCII '/pros/name' 0\n",
  );
  assert.equal(
    buildRequest({ hsoname: 'AFTP/pub/x', version: '3', remoteId: '42' }),
    "VERSION 5\nGET-OBJECT-INFO ACCESS-METHOD ASCII 'AFTP/pub/x' 3\nSELECT OBJECT FIELD ID REMOTE 42\n",
  );
});

// --- Prospero v5 1.5.4, 4: the reply ---

test('Prospero v5 A.1.1: the examples of the ACCESS-METHOD attribute read as printed', () => {
  const r = parseReply(
    [
      "ATTRIBUTE FIELD ACCESS-METHOD GOPHER INTERNET-D MERMAID.MICRO.UMN.EDU(150) ASCII '1/Fun Stuff/Pyrotechnics/PyroGuide 1'",
      "ATTRIBUTE FIELD ACCESS-METHOD GOPHER INTERNET-D MERMAID.MICRO.UMN.EDU(150) ASCII '1/Fun Stuff/Pyrotechnics/PyroGuide 1' 1",
      'ATTRIBUTE FIELD ACCESS-METHOD AFS DUMMY DUMMY ASCII /grand.central.org/doc/afs/dce/usenix90/README',
      'ATTRIBUTE FIELD ACCESS-METHOD NFS INTERNET-D PROSPERO.ISI.EDU ASCII ftp/pub/prospero/README-prospero-documents /auto/gum/gum',
      'ATTRIBUTE FIELD ACCESS-METHOD FTP INTERNET-D PROSPERO.ISI.EDU ASCII /ftp/pub/prospero/README-prospero-documents TEXT',
      'ATTRIBUTE FIELD ACCESS-METHOD AFTP INTERNET-D PROSPERO.ISI.EDU ASCII /pub/prospero/README-prospero-documents TEXT',
      "ATTRIBUTE FIELD ACCESS-METHOD LOCAL '' '' ASCII /auto/gum/gum/ftp/pub/prospero/README-prospero-documents",
    ].join('\n'),
  );
  const link: LinkDefaults = { hostType: 'INTERNET-D', host: 'PROSPERO.ISI.EDU', hsonameType: 'ASCII', hsoname: '/x' };
  assert.deepEqual(
    r.accessMethods.map((m) => accessUrl(m, link).url?.href ?? `(${m[0]})`),
    [
      'gopher://MERMAID.MICRO.UMN.EDU:150/11/Fun%20Stuff/Pyrotechnics/PyroGuide%201',
      'gopher://MERMAID.MICRO.UMN.EDU:150/11/Fun%20Stuff/Pyrotechnics/PyroGuide%201',
      '(AFS)',
      '(NFS)',
      '(FTP)',
      'ftp://PROSPERO.ISI.EDU/pub/prospero/README-prospero-documents;type=a',
      '(LOCAL)',
    ],
  );
});

test("Prospero v5 1.5.4: the historic server's form, with <applies-to> OBJECT, with or without SEQUENCE", () => {
  const r = parseReply(
    'ATTRIBUTE OBJECT FIELD ACCESS-METHOD AFTP INTERNET-D h ASCII /a BINARY\r\n' +
      'ATTRIBUTE OBJECT FIELD ACCESS-METHOD SEQUENCE AFTP INTERNET-D h ASCII /b TEXT\n' +
      'ATTRIBUTE OBJECT INTRINSIC SIZE SEQUENCE 12 bytes\n' +
      'ATTRIBUTE> LINK FIELD FILTER x\n' +
      'VERSION 5 Prospero-Alpha.5.2a\n' +
      'WARNING OUT-OF-DATE please upgrade\n',
  );
  assert.deepEqual(r.accessMethods, [
    ['AFTP', 'INTERNET-D', 'h', 'ASCII', '/a', 'BINARY'],
    ['AFTP', 'INTERNET-D', 'h', 'ASCII', '/b', 'TEXT'],
  ]);
  assert.equal(r.otherAttributes.length, 2);
  assert.deepEqual(r.warnings, ['OUT-OF-DATE please upgrade']);
});

test('Prospero v5 3.7, 4.2: NONE-FOUND and FORWARDED', () => {
  assert.equal(parseReply('NONE-FOUND\n').noneFound, true);
  assert.deepEqual(parseReply("FORWARDED INTERNET-D new.host(1600) ASCII '/new/name' 0 ID REMOTE 42\n").forwarded, {
    hostType: 'INTERNET-D',
    host: 'new.host(1600)',
    hsonameType: 'ASCII',
    hsoname: '/new/name',
    version: '0',
    remoteId: '42',
  });
});

const FAILS: Array<[string, string, RegExp]> = [
  ['FAILURE NOT-FOUND OBJECT /x', 'not-found', /FAILURE NOT-FOUND OBJECT/],
  ['FAILURE NOT-AUTHORIZED go away', 'prospero-failure', /NOT-AUTHORIZED go away/],
  ['ERROR unknown command', 'prospero-failure', /ERROR unknown command.*4\.3/],
  ['VERSION-NOT-SUPPORTED TRY 1', 'prospero-failure', /3\.1/],
  ['HELLO there', 'protocol-error', /does not allow/],
  ['ATTRIBUTE OBJECT', 'protocol-error', /malformed ATTRIBUTE/],
  ['FORWARDED INTERNET-D h', 'protocol-error', /malformed FORWARDED/],
];
for (const [line, c, message] of FAILS) {
  test(`Prospero v5 4: the reply ${JSON.stringify(line)} is ${c}`, () => {
    assert.throws(
      () => parseReply(line + '\n'),
      (e: unknown) => e instanceof LocatorError && e.code === c && message.test(e.message),
    );
  });
}

// --- Prospero v5 A.1.1: access methods as URLs (RFC 1738 3.11) ---

const LINK: LinkDefaults = { hostType: 'INTERNET-D', host: 'dir.example(1600)', hsonameType: 'ASCII', hsoname: '/obj' };
const URLS: Array<[string, string[], string | RegExp]> = [
  [
    'AFTP, TEXT: type=a, the path relative to the anonymous area',
    ['AFTP', 'INTERNET-D', 'ftp.example', 'ASCII', '/pub/a b.txt', 'TEXT'],
    'ftp://ftp.example/pub/a%20b.txt;type=a',
  ],
  [
    'AFTP, BINARY on a port: type=i',
    ['AFTP', 'INTERNET-D', 'ftp.example(2121)', 'ASCII', 'pub/x;y', 'BINARY'],
    'ftp://ftp.example:2121/pub/x%3By;type=i',
  ],
  [
    'empty tokens default to the link ("they default to the host-type and host-name specified in the link")',
    ['AFTP', '', '', '', '', 'BINARY'],
    'ftp://dir.example:1600/obj;type=i',
  ],
  [
    'GOPHER, the type from the sixth token',
    ['GOPHER', 'INTERNET-D', 'g.example', 'ASCII', '/doc', '0'],
    'gopher://g.example/0/doc',
  ],
  [
    'GOPHER, five tokens: the type is the first character of the selector',
    ['GOPHER', 'INTERNET-D', 'g.example(7070)', 'ASCII', '1/dir'],
    'gopher://g.example:7070/11/dir',
  ],
  ['TELNET', ['TELNET', 'INTERNET-D', 'bbs.example(2323)', 'ASCII', ''], 'telnet://bbs.example:2323/'],
  [
    'an IPv6 address (RFC 1738 has no form for it): no URL',
    ['AFTP', 'INTERNET-D', '::1(2121)', 'ASCII', '/f', 'TEXT'],
    /"ftp:\/\/\[::1\]:2121\/f;type=a", which is not a valid URL/,
  ],
  ['fewer than 5 elements', ['AFTP', 'INTERNET-D', 'h'], /at least 5 elements/],
  [
    'AFTP with a sixth element that is neither TEXT nor BINARY',
    ['AFTP', 'INTERNET-D', 'h', 'ASCII', '/f', 'EBCDIC'],
    /TEXT or BINARY/,
  ],
  ['another host type', ['AFTP', 'DECNET', 'h', 'ASCII', '/f', 'TEXT'], /not an Internet domain name/],
  ['a port out of range', ['AFTP', 'INTERNET-D', 'h(70000)', 'ASCII', '/f', 'TEXT'], /"name" or "name\(port\)"/],
  ['a host that cannot be written in a URL', ['AFTP', 'INTERNET-D', 'a b', 'ASCII', '/f', 'TEXT'], /cannot be written/],
  ['a GOPHER selector with a line end', ['GOPHER', 'INTERNET-D', 'h', 'ASCII', '0a\r\nb'], /selector/],
  ['WAIS', ['WAIS', 'INTERNET-D', 'w', 'ASCII', 'WAIS/OBJECT/x'], /WAIS record locator/],
  ['an unknown method', ['HTTP', 'INTERNET-D', 'w', 'ASCII', '/x'], /no URL scheme for the HTTP/],
];
for (const [what, tuple, want] of URLS) {
  test(`Prospero v5 A.1.1, RFC 1738 3.11: ${what}`, () => {
    const a = accessUrl(tuple, LINK);
    if (typeof want === 'string') assert.equal(a.url?.href, want, a.why ?? '');
    else {
      assert.equal(a.url, null);
      assert.match(a.why ?? '', want);
    }
  });
}

test('Prospero v5 A.1.1: "name(port)"', () => {
  assert.deepEqual(splitHost('h.example(150)'), { name: 'h.example', port: 150 });
  assert.deepEqual(splitHost('h.example'), { name: 'h.example', port: null });
  assert.equal(splitHost('(150)'), null);
  assert.equal(splitHost('h(0)'), null);
  assert.equal(splitHost('h(1'), null);
});

test('RFC 2483 5: the uri-list has CR LF lines, comments first and for the methods that are no URL', () => {
  const link: LinkDefaults = { hostType: 'INTERNET-D', host: 'h', hsonameType: 'ASCII', hsoname: '/o' };
  const text = uriList('prospero://h//o', [
    accessUrl(['AFS', 'DUMMY', 'DUMMY', 'ASCII', '/afs/x'], link),
    accessUrl(['AFTP', '', '', '', '', 'TEXT'], link),
  ]);
  assert.equal(
    text,
    '# the access methods of prospero://h//o (RFC 1738 3.11)\r\n' +
      "# AFS DUMMY DUMMY ASCII '/afs/x': the AFS access method needs an AFS client\r\n" +
      'ftp://h/o;type=a\r\n',
  );
});

test('explain(url).steps are the request lines the client sends (RFC 1738 3.11)', async () => {
  const { explain } = await import('../../../src/operations/build.js');
  const { parse } = await import('../../helpers.js');
  const { fieldsOf } = await import('../../../src/schemes/fields.js');
  for (const u of [
    'prospero://host.dom//pros/name',
    "prospero://h.com/it's%002",
    'prospero://h.com/a%20b,c+d;OBJECT-VERSION=3',
    'prospero://h.com/',
  ]) {
    const f = fieldsOf(parse(u), 'prospero');
    const version =
      f.version || Object.entries(f.fields).find(([k]) => k.toUpperCase() === 'OBJECT-VERSION')?.[1] || '0';
    const sent = buildRequest({ hsoname: f.hsoname!, version }).split('\n').slice(0, -1);
    assert.deepEqual(explain(u).steps, sent, u);
  }
});
