// The generic syntax: RFC 1738 sections 2.1, 2.2, 3.1 and 5, and the appendix.
// Rows: input, then "scheme | user | password | host | explicit port | path | fragment" (absent
// parts "-"), then the violations as code@offset ("" for none), then the section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, tryParse, summary, codes } from '../helpers.js';
import { LocatorError } from '../../src/core/errors.js';

const ROWS: Array<[string, string, string, string]> = [
  // 3.1: user and password presence versus emptiness
  ['ftp://@host.com/', 'ftp |  | - | host.com | - |  | -', '', 'RFC 1738 3.1'],
  ['ftp://host.com/', 'ftp | - | - | host.com | - |  | -', '', 'RFC 1738 3.1'],
  ['ftp://foo:@host.com/', 'ftp | foo |  | host.com | - |  | -', '', 'RFC 1738 3.1'],
  ['ftp://:@host.com/', 'ftp |  |  | host.com | - |  | -', '', 'RFC 1738 3.1'],
  ['ftp://foo:bar@host.com:2121/a/b', 'ftp | foo | bar | host.com | 2121 | a/b | -', '', 'RFC 1738 3.1'],
  ['ftp://host.com', 'ftp | - | - | host.com | - | - | -', '', 'RFC 1738 3.1'],
  ['ftp://host.com:21', 'ftp | - | - | host.com | 21 | - | -', '', 'RFC 1738 3.1'],
  // 3.1: ":", "@" and "/" must be encoded inside user and password
  ['ftp://a%40b:c%3Ad%2Fe@host.com/', 'ftp | a@b | c:d/e | host.com | - |  | -', '', 'RFC 1738 3.1'],
  ['ftp://a@b@host.com/', 'ftp | a@b | - | host.com | - |  | -', 'unencoded-delimiter@7', 'RFC 1738 3.1'],
  ['ftp://a:b:c@host.com/', 'ftp | a | b:c | host.com | - |  | -', 'unencoded-delimiter@9', 'RFC 1738 3.1'],
  ['ftp://a;b?c&d=e@host.com/', 'ftp | a;b?c&d=e | - | host.com | - |  | -', '', 'RFC 1738 5 (user)'],
  ['ftp://a b@host.com/', 'ftp | a b | - | host.com | - |  | -', 'unsafe-char@7', 'RFC 1738 2.2'],
  // 3.1: hostname and hostnumber
  ['http://a-b.c-d.org/', 'http | - | - | a-b.c-d.org | - |  | -', '', 'RFC 1738 3.1'],
  ['http://10.0.0.1/', 'http | - | - | 10.0.0.1 | - |  | -', '', 'RFC 1738 3.1'],
  [
    'http://3com.com/',
    'http | - | - | 3com.com | - |  | -',
    '',
    'RFC 1738 3.1 (a domain label may start with a digit)',
  ],
  [
    'http://host.3com/',
    'http | - | - | host.3com | - |  | -',
    'invalid-host@12',
    'RFC 1738 3.1 (the top label may not)',
  ],
  [
    'http://1.2.3/',
    'http | - | - | 1.2.3 | - |  | -',
    'invalid-host@11',
    'RFC 1738 3.1 (a host number has four groups)',
  ],
  ['http://1.2.3.256/', 'http | - | - | 1.2.3.256 | - |  | -', 'invalid-ipv4@13', 'RFC 1738 3.1'],
  ['http://-a.com/', 'http | - | - | -a.com | - |  | -', 'invalid-host@7', 'RFC 1738 3.1'],
  ['http://a-.com/', 'http | - | - | a-.com | - |  | -', 'invalid-host@8', 'RFC 1738 3.1'],
  ['http://a..com/', 'http | - | - | a..com | - |  | -', 'invalid-host@9', 'RFC 1738 3.1'],
  ['http://a.com./', 'http | - | - | a.com. | - |  | -', 'invalid-host@12', 'RFC 1738 3.1'],
  [
    'ftp://h.:21/',
    'ftp | - | - | h. | 21 |  | -',
    'invalid-host@7',
    'RFC 1738 3.1 (a toplabel follows the last ".", port or not)',
  ],
  ['ftp://h-:21/', 'ftp | - | - | h- | 21 |  | -', 'invalid-host@7', 'RFC 1738 3.1'],
  ['http://a_b.com/', 'http | - | - | a_b.com | - |  | -', 'invalid-host@8', 'RFC 1738 3.1'],
  ['http://a%41.com/', 'http | - | - | a%41.com | - |  | -', 'invalid-host@8', 'RFC 1738 3.1'],
  ['http:///x', 'http | - | - |  | - | x | -', 'empty-host@7', 'RFC 1738 3.1'],
  ['file:///etc/motd', 'file | - | - |  | - | etc/motd | -', '', 'RFC 1738 3.10'],
  ['http://[::1]:8080/', 'http | - | - | [::1] | 8080 |  | -', 'ipv6-literal@7', 'RFC 1738 3.1 (RFC 2732 is later)'],
  // 3.1: port
  ['http://h.com:/', 'http | - | - | h.com | - |  | -', 'empty-port@12', 'RFC 1738 3.1'],
  ['http://h.com:65536/', 'http | - | - | h.com | 65536 |  | -', 'port-out-of-range@13', 'RFC 1738 3.1'],
  ['http://h.com:0080/', 'http | - | - | h.com | 80 |  | -', '', 'RFC 1738 3.1 (port = digits)'],
  // 3.1: the "/" before the url-path is not part of it
  ['http://h.com/', 'http | - | - | h.com | - |  | -', '', 'RFC 1738 3.1'],
  ['http://h.com//', 'http | - | - | h.com | - | / | -', '', 'RFC 1738 3.1'],
  ['http://h.com/a/b?c', 'http | - | - | h.com | - | a/b?c | -', '', 'RFC 1738 3.1'],
  // 2.1: scheme names, case-insensitive
  ['HTTP://H.COM/', 'http | - | - | H.COM | - |  | -', '', 'RFC 1738 2.1'],
  ['x-foo://h.com/', 'x-foo | - | - | h.com | - |  | -', 'experimental-scheme@0', 'RFC 1738 4'],
  ['urn:isbn:0451450523', 'urn | - | - | - | - | - | -', 'reserved-scheme@0', 'RFC 1738 4'],
  ['nfs://h.com/x', 'nfs | - | - | h.com | - | x | -', 'reserved-scheme@0', 'RFC 1738 4'],
  ['foo.bar+baz-1:anything;at=all', 'foo.bar+baz-1 | - | - | - | - | - | -', 'unknown-scheme@0', 'RFC 1738 2.1'],
  ['3:4', '3 | - | - | - | - | - | -', 'unknown-scheme@0', 'RFC 1738 5 (scheme = 1*[ lowalpha | digit | ... ])'],
  // 2.2: characters that must be encoded
  ['http://h.com/a b', 'http | - | - | h.com | - | a b | -', 'unsafe-char@14', 'RFC 1738 2.2'],
  ['http://h.com/~u', 'http | - | - | h.com | - | ~u | -', 'unsafe-char@13', 'RFC 1738 2.2'],
  [
    'http://h.com/{}|\\^[]`',
    'http | - | - | h.com | - | {}|\\^[]` | -',
    'unsafe-char@13 unsafe-char@14 unsafe-char@15 unsafe-char@16 unsafe-char@17 unsafe-char@18 unsafe-char@19 unsafe-char@20',
    'RFC 1738 2.2',
  ],
  [
    'http://h.com/<">',
    'http | - | - | h.com | - | <"> | -',
    'unsafe-char@13 unsafe-char@14 unsafe-char@15',
    'RFC 1738 2.2',
  ],
  ['http://h.com/%', 'http | - | - | h.com | - | % | -', 'invalid-escape@13', 'RFC 1738 2.2'],
  ['http://h.com/%4', 'http | - | - | h.com | - | %4 | -', 'invalid-escape@13', 'RFC 1738 2.2'],
  ['http://h.com/%4g', 'http | - | - | h.com | - | %4g | -', 'invalid-escape@13', 'RFC 1738 2.2'],
  ['http://h.com/%4a%4B', 'http | - | - | h.com | - | %4a%4B | -', '', 'RFC 1738 2.2 ("abcdef" may also be used)'],
  ['http://h.com/\t', 'http | - | - | h.com | - | \t | -', 'control-char@13', 'RFC 1738 2.2'],
  ['http://h.com/\x7f', 'http | - | - | h.com | - | \x7f | -', 'control-char@13', 'RFC 1738 2.2'],
  ['http://h.com/é', 'http | - | - | h.com | - | é | -', 'non-ascii@13', 'RFC 1738 2.2'],
  [
    'http://h.com/😀x',
    'http | - | - | h.com | - | 😀x | -',
    'non-ascii@13',
    'RFC 1738 2.2 (one finding per character)',
  ],
  ["http://h.com/$-_.+!*'(),", "http | - | - | h.com | - | $-_.+!*'(), | -", '', 'RFC 1738 2.2 (safe and extra)'],
  // the fragment (October 1993 draft) and "#" (2.2)
  ['http://h.com/a#b', 'http | - | - | h.com | - | a | b', '', 'draft 1993-10 fragmentaddress'],
  ['http://h.com#b', 'http | - | - | h.com | - | - | b', '', 'draft 1993-10 fragmentaddress'],
  ['http://h.com/#', 'http | - | - | h.com | - |  | ', '', 'draft 1993-10 (a void fragment-id)'],
  ['http://h.com/a#b#c', 'http | - | - | h.com | - | a | b#c', 'unsafe-char@16', 'RFC 1738 2.2'],
  ['mailto:a@b.c#x', 'mailto | - | - | - | - | - | x', '', 'draft 1993-10 fragmentaddress'],
  // the appendix: URL: prefix and <...> wrapper are not part of the URL
  ['<URL:ftp://h.com/>', 'ftp | - | - | h.com | - |  | -', '', 'RFC 1738 appendix'],
  ['URL:ftp://h.com/', 'ftp | - | - | h.com | - |  | -', '', 'RFC 1738 appendix'],
  [
    'url:foo',
    'url | - | - | - | - | - | -',
    'unknown-scheme@0',
    'RFC 1738 appendix ("URL:" is a prefix only before a scheme)',
  ],
  ['URL:url:foo', 'url | - | - | - | - | - | -', 'unknown-scheme@4', 'RFC 1738 appendix'],
  // A prefix written twice is removed twice, so that href parses back to the same URL (found by fuzzing).
  ['<URL:URL:ftp://h.com/>', 'ftp | - | - | h.com | - |  | -', '', 'RFC 1738 appendix'],
  ['URL:URL:ftp://h.com/', 'ftp | - | - | h.com | - |  | -', '', 'RFC 1738 appendix'],
  [
    '<URL:URL:ftpftp://myname@host.dom/etc/motd>',
    'ftpftp | myname | - | host.dom | - | etc/motd | -',
    'unknown-scheme@9',
    'RFC 1738 appendix',
  ],
  ['<ftp://h.com/#f>', 'ftp | - | - | h.com | - |  | f', '', 'RFC 1738 appendix'],
  [
    '<URL:http://h.com/a b>',
    'http | - | - | h.com | - | a b | -',
    'unsafe-char@19',
    'RFC 1738 appendix (offsets count the input)',
  ],
  // opaque schemes never read "//" as a login
  ['news:comp.infosystems.www', 'news | - | - | - | - | - | -', '', 'RFC 1738 3.6'],
  ['mailto://x', 'mailto | - | - | - | - | - | -', 'mailto-slashes@7', 'RFC 1738 3.5'],
  // a scheme of the common Internet syntax without "//"
  ['http:foo', 'http | - | - | - | - | - | -', 'missing-slashes@5', 'RFC 1738 3.1'],
];

for (const [input, want, wantCodes, section] of ROWS) {
  test(`${section}: ${JSON.stringify(input)}`, () => {
    const u = parse(input);
    assert.equal(summary(u), want);
    assert.equal(codes(u), wantCodes);
    assert.equal(u.valid, !u.violations.some((d) => d.severity === 'error'));
  });
}

const FATAL: Array<[string, string, number, string]> = [
  ['', 'empty-input', 0, 'RFC 1738 2.1'],
  ['foo', 'missing-scheme', 0, 'RFC 1738 2.1'],
  ['/a/b:c', 'missing-scheme', 0, 'RFC 1738 2.1 (a partial form is no URL)'],
  [':foo', 'missing-scheme', 0, 'RFC 1738 2.1'],
  ['ht_tp://x', 'invalid-scheme', 2, 'RFC 1738 2.1'],
  ['\ufeffhttp://x', 'invalid-scheme', 0, 'RFC 1738 2.1 (a byte order mark is not removed unless asked)'],
  [' http://x', 'invalid-scheme', 0, 'RFC 1738 2.1'],
  ['http://h.com:8o/', 'invalid-port', 14, 'RFC 1738 3.1'],
  ['http://h.com:80:81/', 'invalid-port', 15, 'RFC 1738 3.1'],
  ['<URL:http://h.com/', 'unclosed-wrapper', 0, 'RFC 1738 appendix'],
  ['<URL:>', 'missing-scheme', 5, 'RFC 1738 appendix'],
  ['http://[::1/', 'invalid-host', 7, 'RFC 1738 3.1'],
];

for (const [input, code, offset, section] of FATAL) {
  test(`${section}: ${JSON.stringify(input)} is fatal (${code})`, () => {
    const r = tryParse(input);
    assert.ok(r instanceof LocatorError, 'a LocatorError');
    assert.equal(r.code, code);
    assert.equal(r.offset, offset);
    assert.ok((r.section ?? '').startsWith('RFC 1738'));
    assert.throws(
      () => parse(input),
      (e: unknown) => e instanceof LocatorError && e.code === code,
    );
  });
}

test('RFC 1738 appendix: the trim option removes surrounding white space and says so', () => {
  const u = parse(' \ufeffhttp://h.com/ \n', { trim: true });
  assert.equal(u.href, 'http://h.com/');
  assert.equal(codes(u), 'trimmed-whitespace@0 trimmed-whitespace@15');
  assert.equal(u.valid, true);
});

test('RFC 1738 2.1: href keeps the case as written; scheme is lower case', () => {
  const u = parse('HtTp://H.com/A');
  assert.equal(u.href, 'HtTp://H.com/A');
  assert.equal(u.scheme, 'http');
  assert.equal(u.toString(), 'HtTp://H.com/A');
});

test('RFC 1738 3.1: decoded user and password, raw forms kept', () => {
  const u = parse('ftp://J%C3%BCrgen:p%25ss%FF@h.com/');
  assert.equal(u.user, 'Jürgen');
  assert.equal(u.rawUser, 'J%C3%BCrgen');
  assert.equal(u.password, 'p%ss\ufffd');
  assert.equal(u.rawPassword, 'p%25ss%FF');
});

test('RFC 1738 3.1: the effective port is the scheme default when none is written', () => {
  assert.equal(parse('ftp://h.com/').port, 21);
  assert.equal(parse('gopher://h.com/').port, 70);
  assert.equal(parse('nntp://h.com/g').port, 119);
  assert.equal(parse('wais://h.com/d').port, 210);
  assert.equal(parse('prospero://h.com/d').port, 1525);
  assert.equal(parse('telnet://h.com/').port, 23);
  assert.equal(parse('x-y://h.com/').port, null);
  assert.equal(parse('file:///x').port, null);
  assert.equal(parse('mailto:a@b.c').port, null);
  assert.equal(parse('http://h.com/').explicitPort, false);
  assert.equal(parse('http://h.com:80/').explicitPort, true);
});

test('RFC 1738 3.10: file://node.gypi has host node.gypi and no path', () => {
  const u = parse('file://node.gypi');
  assert.equal(u.host, 'node.gypi');
  assert.equal(u.path, null);
});

test('components() gives the offsets of each part', () => {
  const u = parse('<URL:ftp://u:p@h.com:21/x#f>');
  const c = u.components();
  assert.deepEqual(c, {
    scheme: [0, 3],
    user: [6, 7],
    password: [8, 9],
    host: [10, 15],
    port: [16, 18],
    path: [19, 20],
    schemePart: [4, 20],
    fragment: [21, 22],
  });
  assert.equal(u.inputOffset, 5);
  assert.equal(u.schemePart, '//u:p@h.com:21/x');
  assert.equal(u.withoutFragment, 'ftp://u:p@h.com:21/x');
});

test('the record cannot be changed', () => {
  const u = parse('http://h.com/');
  assert.throws(() => {
    (u as unknown as { href: string }).href = 'x';
  });
  assert.throws(() => {
    (u.fields as Record<string, unknown>).x = 1;
  });
  assert.ok(Object.isFrozen(u.violations));
});

test('the record cannot be changed through any part: fields (their lists too) and violations, of every scheme', async () => {
  const { registerScheme, unregisterScheme } = await import('../../src/schemes/registry.js');
  /** The paths of the objects reachable from `v` that are not frozen. */
  const unfrozen = (v: unknown, path: string, out: string[]): string[] => {
    if (typeof v === 'object' && v !== null) {
      if (!Object.isFrozen(v)) out.push(path);
      for (const [k, x] of Object.entries(v)) unfrozen(x, `${path}.${k}`, out);
    }
    return out;
  };
  const urls = [
    'http://h.com/a/b?x+y',
    'https://h.com/',
    'http://h.com/a b', // with violations
    'ftp://u@h.com/a/b;type=i',
    'gopher://h.com/1x%09y%09+',
    'gopher://h.com/1x%09y%09!a b',
    'mailto:a@b.com',
    'news:<a@b.com>',
    'nntp://h.com/g/1',
    'telnet://u@h.com/',
    'wais://h.com/db?q',
    'wais://h.com/db/TEXT/path',
    'file:///a/b',
    'prospero://h.com/x;a=b',
    'prospero://h.com/x%00v;a',
    'mid:a@b/c@d',
    'cid:x@y',
    'afs://cell/a/b',
    'x-unknown:part',
  ];
  registerScheme({
    name: 'x-nested',
    defaultPort: null,
    syntax: 'opaque',
    status: 'later',
    fields: (u: { schemePart: string }) => ({ parts: u.schemePart.split(','), meta: { list: [{ n: 1 }] } }),
  } as never);
  try {
    for (const s of [...urls, 'x-nested:a,b']) {
      const u = parse(s);
      assert.deepEqual(unfrozen(u.fields, 'fields', []), [], s);
      assert.deepEqual(unfrozen(u.violations, 'violations', []), [], s);
    }
    const u = parse('http://h.com/a b?x+y');
    assert.ok(u.violations.length > 0);
    const before = JSON.stringify([u.fields, u.violations, u.valid]);
    assert.throws(() => (u.fields.segments as string[]).push('evil'), TypeError);
    assert.throws(() => (u.fields.keywords as string[]).pop(), TypeError);
    assert.throws(() => (u.violations as unknown[]).push({ severity: 'error' }), TypeError);
    assert.throws(() => {
      (u.violations[0] as { severity: string }).severity = 'warning';
    }, TypeError);
    assert.equal(JSON.stringify([u.fields, u.violations, u.valid]), before);
  } finally {
    unregisterScheme('x-nested');
  }
});

test("a registered scheme's fields that are not plain data: a cycle, a typed array, a class instance are read without an error", async () => {
  const { registerScheme, unregisterScheme } = await import('../../src/schemes/registry.js');
  class Box {
    items = [1];
  }
  registerScheme({
    name: 'x-odd',
    defaultPort: null,
    syntax: 'opaque',
    status: 'later',
    fields: () => {
      const a: Record<string, unknown> = { list: [{ n: 1 }] };
      a.self = { parent: a };
      return { a, bytes: new Uint8Array([1, 2]), box: new Box() };
    },
  } as never);
  try {
    const f = parse('x-odd:z').fields as {
      a: { list: object[]; self: { parent: unknown } };
      bytes: Uint8Array;
      box: Box;
    };
    // The plain parts, the cycle included, are frozen; the cycle ends where it started.
    assert.ok(Object.isFrozen(f) && Object.isFrozen(f.a) && Object.isFrozen(f.a.list) && Object.isFrozen(f.a.list[0]));
    assert.ok(Object.isFrozen(f.a.self));
    assert.equal(f.a.self.parent, f.a);
    // A typed array cannot be frozen and a class instance is its scheme's own: both are left as they are.
    assert.deepEqual([...f.bytes], [1, 2]);
    assert.ok(!Object.isFrozen(f.box.items));
  } finally {
    unregisterScheme('x-odd');
  }
});

test('parse and tryParse of a non-string are a TypeError naming the argument (API misuse), not a finding', () => {
  for (const v of [undefined, null, 42, {}, ['http://a.com/']]) {
    assert.throws(
      () => tryParse(v as unknown as string),
      (e: unknown) => e instanceof TypeError && /parse: the URL must be a string/.test(e.message),
      String(v),
    );
    assert.throws(() => parse(v as unknown as string), TypeError, String(v));
  }
});

test('RFC 1738 3.1: each record keeps its own offsets when the scanner reads the next URL', () => {
  // The scanner fills one Offsets record for every URL and the record copies it: a record that
  // kept the shared one would take the offsets of the URL read after it.
  const a = parse('ftp://user:pw@a.example:2121/pub/x#f');
  const before = JSON.stringify([a.components(), a.user, a.password, a.host, a.port, a.path, a.fragment]);
  for (const s of ['http://b/', 'news:comp.x', '<URL:gopher://[::1]:70/1>', '  http://c:80/  ', 'file:///etc', 'x:y']) {
    parse(s, { trim: true });
  }
  assert.equal(JSON.stringify([a.components(), a.user, a.password, a.host, a.port, a.path, a.fragment]), before);
  assert.deepEqual(a.components().host, [14, 23]);
  a.assertInvariants();
});
