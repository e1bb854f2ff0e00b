// The address classes behind private-address and the policy's refusePrivateAddresses. Rows:
// address text, then the class ("-" for an ordinary address, "?" for text that is no address),
// then the RFC that sets the range aside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyAddress, classifyHost, parseIPv4, parseIPv6 } from '../../src/lint/address.js';

const ROWS: Array<[string, string, string]> = [
  ['0.0.0.0', 'unspecified', 'RFC 1122 3.2.1.3 ("this host")'],
  ['0.1.2.3', 'unspecified', 'RFC 1122 3.2.1.3 (0/8)'],
  ['10.1.2.3', 'private', 'RFC 1918 3'],
  ['100.64.0.1', 'shared', 'RFC 6598 7'],
  ['100.128.0.1', '-', 'outside 100.64/10'],
  ['127.0.0.1', 'loopback', 'RFC 1122 3.2.1.3'],
  ['127.255.255.254', 'loopback', 'RFC 1122 3.2.1.3 (all of 127/8)'],
  ['169.254.169.254', 'link-local', 'RFC 3927 2 (the cloud metadata address)'],
  ['172.15.255.255', '-', 'just below 172.16/12'],
  ['172.16.0.1', 'private', 'RFC 1918 3'],
  ['172.31.255.255', 'private', 'RFC 1918 3'],
  ['172.32.0.0', '-', 'just above 172.16/12'],
  ['192.168.1.1', 'private', 'RFC 1918 3'],
  ['224.0.0.1', 'multicast', 'RFC 5771 3'],
  ['239.255.255.250', 'multicast', 'RFC 5771 3'],
  ['240.0.0.1', 'reserved', 'RFC 1112 4'],
  ['255.255.255.255', 'reserved', 'RFC 919 7 (limited broadcast)'],
  ['8.8.8.8', '-', 'a public address'],
  ['::', 'unspecified', 'RFC 4291 2.5.2'],
  ['::1', 'loopback', 'RFC 4291 2.5.3'],
  ['0:0:0:0:0:0:0:1', 'loopback', 'RFC 4291 2.2 (the long form)'],
  ['[::1]', 'loopback', 'RFC 2732 (a bracketed literal)'],
  ['::ffff:127.0.0.1', 'loopback', 'RFC 4291 2.5.5.2 (IPv4-mapped)'],
  ['::ffff:7f00:1', 'loopback', 'RFC 4291 2.5.5.2 (mapped, hex form)'],
  ['::FFFF:10.0.0.1', 'private', 'RFC 4291 2.5.5.2 (case)'],
  ['::ffff:8.8.8.8', '-', 'RFC 4291 2.5.5.2 (a public IPv4 address)'],
  ['::127.0.0.1', 'loopback', 'RFC 4291 2.5.5.1 (IPv4-compatible, deprecated)'],
  ['64:ff9b::10.0.0.1', 'private', 'RFC 6052 2.1 (NAT64)'],
  ['2002:7f00:1::', 'loopback', 'RFC 3056 2 (6to4 of 127.0.0.1)'],
  ['2002:808:808::1', '-', 'RFC 3056 2 (6to4 of 8.8.8.8)'],
  ['fe80::1', 'link-local', 'RFC 4291 2.5.6'],
  ['fe80::1%eth0', 'link-local', 'RFC 4007 11 (a zone)'],
  ['febf::1', 'link-local', 'RFC 4291 2.5.6 (fe80::/10)'],
  ['fec0::1', 'private', 'RFC 3879 4 (site-local, deprecated)'],
  ['fc00::1', 'private', 'RFC 4193 3'],
  ['fd12:3456::1', 'private', 'RFC 4193 3'],
  ['ff02::1', 'multicast', 'RFC 4291 2.7'],
  ['2001:db8::1', '-', 'an ordinary global address'],
  ['2606:4700::1111', '-', 'an ordinary global address'],
  // text that is not an address: the caller decides (the policy refuses it)
  ['1.2.3', '?', 'three groups'],
  ['1.2.3.256', '?', 'a group over 255'],
  ['01.2.3.4', '?', 'a leading zero (octal to some resolvers)'],
  ['2130706433', '?', 'a bare number (127.0.0.1 to inet_aton)'],
  ['1::2::3', '?', 'two "::"'],
  ['1:2:3:4:5:6:7:8:9', '?', 'nine groups'],
  ['12345::', '?', 'five hex digits'],
  [':1:2', '?', 'a single leading ":"'],
  ['1:', '?', 'a trailing ":"'],
  ['example.com', '?', 'a name'],
  ['', '?', 'empty'],
];

test('classifyAddress: the special ranges of IPv4 and IPv6', () => {
  for (const [text, expected, why] of ROWS) {
    const c = classifyAddress(text);
    const got = c === undefined ? '?' : c === null ? '-' : c.kind;
    assert.equal(got, expected, `${text} (${why})`);
    if (c) assert.match(c.section, /^RFC \d+/, text);
  }
});

test('parseIPv6: the text forms of RFC 4291 2.2', () => {
  assert.deepEqual(parseIPv6('2001:DB8::8:800:200C:417A'), [0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a]);
  assert.deepEqual(parseIPv6('ff01::101'), [0xff01, 0, 0, 0, 0, 0, 0, 0x101]);
  assert.deepEqual(parseIPv6('::13.1.68.3'), [0, 0, 0, 0, 0, 0, 0x0d01, 0x4403]);
  assert.deepEqual(parseIPv6('1:2:3:4:5:6:7::'), [1, 2, 3, 4, 5, 6, 7, 0]);
  assert.equal(parseIPv6('1:2:3:4:5:6:7:8::'), null);
  assert.equal(parseIPv6('1.2.3.4:1::'), null);
});

test('classifyHost: literals and localhost names as a URL writes them', () => {
  assert.equal(classifyHost('localhost')?.kind, 'loopback');
  assert.equal(classifyHost('LocalHost.')?.kind, 'loopback');
  assert.equal(classifyHost('db.localhost')?.section, 'RFC 6761 6.3');
  assert.equal(classifyHost('localhost.example.com'), null);
  assert.equal(classifyHost('10.0.0.1')?.kind, 'private');
  assert.equal(classifyHost('[fe80::1]')?.kind, 'link-local');
  assert.equal(classifyHost('example.com'), null);
  assert.equal(classifyHost(''), null);
});

test('property: every dotted quad reads back as its value, and IPv4-mapped IPv6 classifies as the IPv4 address', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), (g) => {
      const text = g.join('.');
      assert.equal(parseIPv4(text), ((g[0] * 256 + g[1]) * 256 + g[2]) * 256 + g[3]);
      assert.deepEqual(classifyAddress(`::ffff:${text}`), classifyAddress(text));
      const hex = `::ffff:${(g[0] * 256 + g[1]).toString(16)}:${(g[2] * 256 + g[3]).toString(16)}`;
      assert.deepEqual(classifyAddress(hex), classifyAddress(text));
    }),
    { seed: 1738, numRuns: 500 },
  );
});
