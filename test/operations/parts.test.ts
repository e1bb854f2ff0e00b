// withPart(), withParts(), partsOf(), partNames(), rawPartOf() (src/operations/parts.ts): a URL's
// parts by name, changed one at a time with the rest kept as written (RFC 1738 3.1, 2.2 and each
// scheme's section, through its entry). Rows: input | part | value -> result, or the error code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LocatorError,
  encode,
  parse,
  partNames,
  partsOf,
  rawPartOf,
  registerScheme,
  unregisterScheme,
  withPart,
  withParts,
  UCHAR_SET,
  type SchemeSpec,
  type Url,
} from '../../src/index.js';

type Row = readonly [input: string, name: string, value: unknown, expected: string];

// Each result keeps every character outside the part as written: the lower-case "%7e", the
// ";" that http's build would write as %3B, the ";type=I" in upper case.
const CHANGES: Row[] = [
  // Generic parts (RFC 1738 3.1), cut out at their offsets.
  ['http://h.example/a%7eb', 'host', 'k.example', 'http://k.example/a%7eb'],
  ['http://h.example:8080/a%7eb', 'port', null, 'http://h.example/a%7eb'],
  ['http://h.example/a%7eb', 'port', '8080', 'http://h.example:8080/a%7eb'],
  ['http://h.example/a%7eb', 'port', 80, 'http://h.example:80/a%7eb'],
  ['http://h.example:80/a%7eb', 'port', '80', 'http://h.example:80/a%7eb'],
  ['ftp://h.example/a%7eb', 'user', 'a:b@c', 'ftp://a%3Ab%40c@h.example/a%7eb'],
  ['ftp://u@h.example/x', 'password', 'p w', 'ftp://u:p%20w@h.example/x'],
  ['ftp://u:p@h.example/x', 'password', null, 'ftp://u@h.example/x'],
  ['ftp://u:p@h.example/x', 'user', null, 'ftp://h.example/x'],
  ['ftp://u:p@h.example/x', 'user', 'v', 'ftp://v:p@h.example/x'],
  ['http://h.example/a%7eb#f', 'fragment', ' hello', 'http://h.example/a%7eb#%20hello'],
  ['http://h.example/a%7eb#f', 'fragment', null, 'http://h.example/a%7eb'],
  ['http://h.example:443/a%7eb', 'scheme', 'https', 'https://h.example:443/a%7eb'],
  ['http://h.example/a%7eb?q', 'path', 'x y/z', 'http://h.example/x%20y/z'],
  ['http://h.example/a%7eb?q', 'path', null, 'http://h.example'],
  // Fields (each scheme's section), through the entry's build: only the run that writes the field changes.
  ['gopher://h.example/1a%7eb', 'selector', 'x y', 'gopher://h.example/1x%20y'],
  ['gopher://h.example/1a%7eb', 'search', 'foo bar', 'gopher://h.example/1a%7eb%09foo%20bar'],
  ['gopher://h.example/1a%7eb', 'gophertype', '0', 'gopher://h.example/0a%7eb'],
  ['ftp://h.example/a/b%2fc;type=I', 'ftptype', 'a', 'ftp://h.example/a/b%2fc;type=a'],
  ['ftp://h.example/a/b%2fc', 'ftptype', 'd', 'ftp://h.example/a/b%2fc;type=d'],
  ['ftp://h.example/a/b%2fc', 'name', 'x/y', 'ftp://h.example/a/x%2Fy'],
  ['ftp://h.example/a/b;type=i', 'ftptype', null, 'ftp://h.example/a/b'],
  ['http://h.example/a;b/c?x', 'segments', ['a;b', 'z'], 'http://h.example/a;b/z?x'],
  ['http://h.example/a;b/c?x', 'hpath', 'q/r', 'http://h.example/q/r?x'],
  ['http://h.example/a;b/c?x', 'keywords', ['z w', 'v'], 'http://h.example/a;b/c?z%20w+v'],
  ['http://h.example/a;b/c?x', 'search', null, 'http://h.example/a;b/c'],
  ['news:a@b.example', 'group', 'comp.lang', 'news:comp.lang'],
  ['news:comp.lang', 'messageId', 'x@y.example', 'news:x@y.example'],
  ['nntp://h.example/g/12', 'article', 13, 'nntp://h.example/g/13'],
  ['nntp://h.example/g/12', 'article', null, 'nntp://h.example/g'],
  ['wais://h.example/db', 'search', 'q r', 'wais://h.example/db?q%20r'],
  ['file:///etc/x', 'path', '/etc/y z', 'file:///etc/y%20z'],
  ['mailto:a@b.example', 'address', 'c d@e.example', 'mailto:c%20d@e.example'],
];

for (const [input, name, value, expected] of CHANGES) {
  test(`withPart: ${input} | ${name} = ${JSON.stringify(value)} -> ${expected}`, () => {
    assert.equal(withPart(input, name, value), expected);
  });
}

const REFUSED: Array<readonly [string, string, unknown, string]> = [
  ['mailto:a@b.example', 'host', 'x', 'unknown-part'],
  ['http://h.example/', 'selector', 'x', 'unknown-part'],
  ['http://h.example/', 'host', 'a/b', 'invalid-part'],
  ['http://h.example/', 'port', 'eighty', 'invalid-part'],
  ['http://h.example/', 'port', '65536', 'invalid-part'],
  ['http://h.example/', 'password', 'p', 'invalid-part'],
  ['http://h.example/', 'scheme', '1x', 'invalid-part'],
  ['gopher://h.example/1a', 'selector', 'a\tb', 'invalid-part'],
  ['gopher://h.example/1a', 'request', 'x', 'invalid-part'],
  ['nntp://h.example/g/12', 'article', 'twelve', 'invalid-part'],
];

for (const [input, name, value, code] of REFUSED) {
  test(`withPart: ${input} | ${name} = ${JSON.stringify(value)} is refused (${code})`, () => {
    assert.throws(
      () => withPart(input, name, value),
      (e: unknown) => e instanceof LocatorError && e.code === code && e.message.includes(name),
    );
  });
}

test('withPart: an unknown name lists the parts of the scheme, and is a usage error', () => {
  assert.throws(
    () => withPart('news:comp.lang', 'host', 'x'),
    (e: unknown) =>
      e instanceof LocatorError &&
      e.kind === 'usage' &&
      e.message.includes('their parts: scheme, fragment, kind, group, messageId'),
  );
});

test('withParts: the result must be valid, and the error names the part that broke it', () => {
  assert.equal(
    withParts('ftp://h.example/x', [
      ['user', 'u'],
      ['password', 'p'],
    ]),
    'ftp://u:p@h.example/x',
  );
  assert.throws(
    () => withParts('https://curl.se/hello', { user: 'hej' }),
    (e: unknown) => e instanceof LocatorError && e.code === 'invalid-part' && /the user set makes/.test(e.message),
  );
  // A raw value that runs into the next part is refused, or makes the URL not valid.
  assert.throws(
    () => withPart('ftp://h.example/x', 'host', 'a/b', { raw: true }),
    (e: unknown) => e instanceof LocatorError && e.code === 'invalid-part',
  );
  assert.throws(
    () => withParts('ftp://h.example/x', { user: 'a@b' }, { raw: true }),
    (e: unknown) => e instanceof LocatorError && e.code === 'invalid-part',
  );
  assert.equal(
    withPart('https://curl.se/hello', 'fragment', '%20hello', { raw: true }),
    'https://curl.se/hello#%20hello',
  );
});

test('withPart: setting a part to the value it has keeps the URL as written', () => {
  for (const input of [
    'ftp://U%41@h.example/a%7eb;type=I',
    'gopher://h.example/1a%7eb%09x',
    'http://h.example/a;b?c',
  ]) {
    const u = parse(input);
    const parts = partsOf(u);
    for (const name of partNames(u)) {
      if (name === 'request' || name === 'plus') continue;
      // The port it has is the one written: a port left to the default is written out when set.
      const value = name === 'port' ? u.portDigits : parts[name];
      assert.equal(withPart(u, name, value), input, name);
    }
  }
});

test('partsOf and partNames: the generic parts, then the fields; a field takes the name of a generic part', () => {
  const u = parse('ftp://u:p%20w@h.example:2121/a/b%2Fc;type=i#f%20g');
  assert.deepEqual(partsOf(u), {
    scheme: 'ftp',
    user: 'u',
    password: 'p w',
    host: 'h.example',
    port: 2121,
    path: 'a/b/c;type=i',
    fragment: 'f g',
    segments: ['a', 'b/c'],
    cwd: ['a'],
    name: 'b/c',
    ftptype: 'i',
  });
  assert.deepEqual(partNames(parse('file:///etc/motd')), [
    'scheme',
    'user',
    'password',
    'host',
    'port',
    'path',
    'fragment',
    'local',
  ]);
  assert.equal(partsOf(parse('file:///etc/a%20b')).path, '/etc/a b');
  assert.equal(partsOf(parse('http://h.example/')).port, 80);
});

test('rawPartOf: the generic parts and the string fields as written', () => {
  const u = parse('gopher://h.example:7070/1a%7eb%09foo#x%41');
  const raw = (n: string) => rawPartOf(u, n);
  assert.deepEqual(
    ['scheme', 'host', 'port', 'path', 'fragment', 'gophertype', 'selector', 'search', 'request'].map(raw),
    ['gopher', 'h.example', '7070', '1a%7eb%09foo', 'x%41', '1', 'a%7eb', 'foo', undefined],
  );
  const f = parse('ftp://h.example/a/b%2fc;type=I');
  assert.deepEqual(
    ['name', 'ftptype', 'segments'].map((n) => rawPartOf(f, n)),
    ['b%2fc', 'I', undefined],
  );
  assert.equal(rawPartOf(parse('http://h.example/a;b?x'), 'hpath'), 'a;b');
});

// A scheme the library has never seen: its fields are read and set by name through its entry.
const XQ: SchemeSpec = {
  name: 'x-q',
  defaultPort: 7,
  syntax: 'internet',
  status: 'later',
  fields: (url: Url) => {
    const p = url.path ?? '';
    const i = p.indexOf(';');
    const dec = (s: string) => decodeURIComponent(s);
    return { topic: dec(i < 0 ? p : p.slice(0, i)), level: i < 0 ? null : Number(p.slice(i + 1)) };
  },
  build: (f) => {
    const host = typeof f.host === 'string' ? f.host : '';
    const topic = encode(String(f.topic ?? ''), UCHAR_SET);
    return `//${host}/${topic}${typeof f.level === 'number' ? ';' + f.level : ''}`;
  },
};

test('withPart: a registered scheme is changed through its own entry, by the names of its fields', () => {
  registerScheme(XQ);
  try {
    const u = parse('x-q://h.example/a%7eb;3');
    assert.deepEqual(partNames(u).slice(-2), ['topic', 'level']);
    assert.equal(withPart(u, 'level', 4), 'x-q://h.example/a%7eb;4');
    assert.equal(withPart(u, 'topic', 'c d'), 'x-q://h.example/c%20d;3');
    assert.equal(withPart(u, 'level', null), 'x-q://h.example/a%7eb');
  } finally {
    unregisterScheme('x-q');
  }
});
