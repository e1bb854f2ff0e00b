// The % codec of RFC 1738 section 2.2, at the octet level.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  decode,
  decodeText,
  decodeLenient,
  decodeSlice,
  encode,
  EncodeSet,
  UCHAR_SET,
  XCHAR_SET,
  USER_SET,
  SEGMENT_SET,
  HSEGMENT_SET,
  FLAT_EVERY,
} from '../../src/core/percent.js';
import { normalizeEscapes } from '../../src/core/escapes.js';
import { LocatorError } from '../../src/core/errors.js';
import { eachRow } from '../helpers.js';
import { RESERVED, UNRESERVED } from '../../src/core/charclass.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

test('RFC 1738 2.2: "%" and two hex digits is one octet; "abcdef" may also be used', () => {
  assert.deepEqual(decode('%41%4a%4A%ff%00'), bytes(0x41, 0x4a, 0x4a, 0xff, 0x00));
  assert.deepEqual(decode('a%2Fb'), bytes(0x61, 0x2f, 0x62));
});

eachRow(
  'RFC 1738 2.2: a "%" that does not start an escape is an error with its offset',
  [
    ['ab%', 2],
    ['%4', 0],
    ['x%g0', 1],
    ['%%41', 0],
  ] as const,
  ([s, off]) => {
    assert.throws(
      () => decode(s),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-escape' && e.offset === off,
    );
  },
);

test('RFC 1738 2.2: a "%" that does not start an escape is kept as data when not strict', () => {
  assert.deepEqual(decode('a%g', { strict: false }), bytes(0x61, 0x25, 0x67));
});

test('RFC 1738 2.2: characters that are not escapes stand for their octets (non-ASCII as UTF-8)', () => {
  assert.deepEqual(decode('é'), bytes(0xc3, 0xa9));
  assert.deepEqual(decode('😀'), bytes(0xf0, 0x9f, 0x98, 0x80));
  assert.deepEqual(decode('\ud800'), bytes(0xef, 0xbf, 0xbd));
});

test('decodeText: the caller chooses UTF-8 or Latin-1; invalid UTF-8 becomes U+FFFD', () => {
  assert.equal(decodeText('J%C3%BCrgen'), 'Jürgen');
  assert.equal(decodeText('J%FCrgen'), 'J\ufffdrgen');
  assert.equal(decodeText('J%FCrgen', { charset: 'latin1' }), 'Jürgen');
  assert.equal(decodeText('plain'), 'plain');
  assert.equal(decodeText('%EF%BB%BFx'), '\ufeffx', 'a byte order mark is kept as data');
});

test('encode: only the characters of the set stand unencoded; hex digits are upper case', () => {
  assert.equal(encode('a b/c;d%'), 'a%20b%2Fc%3Bd%25');
  assert.equal(encode('a b/c;d%', XCHAR_SET), 'a%20b/c;d%25');
  assert.equal(encode('Jürgen'), 'J%C3%BCrgen');
  assert.equal(encode('Jürgen', UCHAR_SET, { charset: 'latin1' }), 'J%FCrgen');
  assert.equal(encode(bytes(0, 0x41, 0xff, 0x7e)), '%00A%FF%7E');
  assert.equal(encode("$-_.+!*'(),"), "$-_.+!*'(),", 'safe and extra stand as they are');
  assert.equal(encode('\t\r\n#<>"{}|\\^~[]`'), '%09%0D%0A%23%3C%3E%22%7B%7D%7C%5C%5E%7E%5B%5D%60');
});

test('RFC 1738 5: the composed sets match the productions', () => {
  const set = (s: EncodeSet) => {
    let o = '';
    for (let c = 0; c < 128; c++) if (s.has(c)) o += String.fromCharCode(c);
    return o;
  };
  const un = set(EncodeSet.of(UNRESERVED));
  assert.equal(set(UCHAR_SET), un);
  assert.equal(set(XCHAR_SET), set(EncodeSet.of(UNRESERVED | RESERVED)));
  const plus = (extra: string) => [...(un + extra)].sort().join('');
  assert.equal([...set(USER_SET)].sort().join(''), plus(';?&='));
  assert.equal([...set(SEGMENT_SET)].sort().join(''), plus('?:@&='));
  assert.equal([...set(HSEGMENT_SET)].sort().join(''), plus(';:@&='));
  assert.equal(set(UCHAR_SET.with('/').without('/')), un);
});

test('property (seed 1738): decode(encode(octets)) gives the octets back, for every set', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 64 }),
      fc.constantFrom(UCHAR_SET, XCHAR_SET, USER_SET, SEGMENT_SET),
      (b, s) => {
        assert.deepEqual(decode(encode(b, s)), b);
      },
    ),
    { seed: 1738, numRuns: 1000 },
  );
});

test('property (seed 1738): decodeText(encode(text)) gives the text back (UTF-8)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (t) => {
      assert.equal(decodeText(encode(t)), t);
      const e = encode(t);
      assert.ok(/^[A-Za-z0-9$\-_.+!*'(),%]*$/.test(e), e);
    }),
    { seed: 1738, numRuns: 1000 },
  );
});

// The ASCII fast path of the lenient decoder (issue 16) must give what the octet way gives:
// decodeText(s, { strict: false }) through decode() and the UTF-8 decoder.
const viaOctets = (s: string, start: number, end: number) =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(decode(s, { strict: false }, start, end));

eachRow(
  'RFC 1738 2.2: decodeLenient and decodeSlice agree with the octet decoding (ASCII fast path and its fallbacks)',
  [
    ['plain', 0, 5, 'plain'],
    ['a%20b', 0, 5, 'a b'],
    ['x/a%2Fb%7e/y', 2, 10, 'a/b~'],
    ['%41%42%43', 0, 9, 'ABC'],
    ['100%', 0, 4, '100%'],
    ['%4', 0, 2, '%4'],
    ['%g1%41', 0, 6, '%g1A'],
    ['a%41b', 0, 3, 'a%4'],
    ['%00', 0, 3, '\0'],
    ['J%C3%BCrgen', 0, 11, 'J\u00fcrgen'],
    ['J%FCrgen', 0, 8, 'J\ufffdrgen'],
    ['%41\u00e9%42', 0, 7, 'A\u00e9B'],
    ['%41\ud800', 0, 4, 'A\ufffd'],
    ['%41%F0%9F%98%80', 0, 15, 'A\u{1f600}'],
  ] as const,
  ([s, start, end, w]) => {
    assert.equal(decodeLenient(s, start, end), w);
    assert.equal(decodeSlice(s, start, end), w);
    assert.equal(decodeText(s, { strict: false }, start, end), w);
    assert.equal(viaOctets(s, start, end), w);
  },
);

test('property: decodeLenient equals the octet decoding on any text with escapes', () => {
  const piece = fc.oneof(
    fc.constantFrom('%', '%4', '%41', '%7f', '%80', '%C3%BC', '%e2%82%ac', '%zz', '/', 'a', '\u00e9', '\ud83d\ude00'),
    fc.string({ maxLength: 3 }),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
      const s = parts.join('');
      assert.equal(decodeLenient(s, 0, s.length), viaOctets(s, 0, s.length));
      const mid = s.length >> 1;
      // Without a "%", decodeText (and so decodeSlice) returns the slice as it stands.
      assert.equal(decodeSlice(s, mid, s.length), decodeText(s, { strict: false }, mid, s.length));
    }),
    { seed: 1738, numRuns: 500 },
  );
});

test('RFC 1738 2.2: outputs of many escapes (built in flat parts, FLAT_EVERY) equal the escapes written one by one', () => {
  // Across several FLAT_EVERY boundaries, with runs of plain characters, escapes already in
  // normal form, and escapes to change, so that every kind of piece falls on a boundary.
  const units = ['{', '%7e', '%7E', 'a', '%zz', 'é', '%41', '/'];
  // No unit changes meaning beside another, so the whole equals its units normalized one by one.
  const pieces = Array.from({ length: FLAT_EVERY * 5 + 17 }, (_, i) => units[(i * 7) % units.length]);
  assert.equal(normalizeEscapes(pieces.join('')), pieces.map((u) => normalizeEscapes(u)).join(''));
  const octets = new Uint8Array(FLAT_EVERY * 3 + 5).map((_, i) => (i * 37) & 255);
  let expected = '';
  for (const b of octets) expected += encode(new Uint8Array([b]), UCHAR_SET);
  assert.equal(encode(octets, UCHAR_SET), expected);
});
