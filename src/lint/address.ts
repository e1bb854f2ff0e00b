// IP addresses a server that fetches URLs on behalf of others must not reach: loopback, private,
// link-local, unspecified, multicast and reserved ranges of IPv4 and IPv6, with the IPv6 forms
// that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) read through to the
// address they carry. A char-code reader, no regular expression.

/** What kind of special address it is, and the RFC that sets the range aside. */
export interface AddressClass {
  kind: 'unspecified' | 'loopback' | 'private' | 'shared' | 'link-local' | 'multicast' | 'reserved';
  /** The range in CIDR notation, e.g. "127.0.0.0/8". */
  range: string;
  section: string;
}

/**
 * Reads a dotted-quad IPv4 address (RFC 1738 3.1 hostnumber: four decimal groups, each at most 255,
 * RFC 791 3.2); null when it is not one. A leading zero is refused: some resolvers read it as octal.
 */
export function parseIPv4(s: string, start = 0, end = s.length): number | null {
  let value = 0;
  let group = -1;
  let groups = 0;
  let digits = 0;
  for (let i = start; i <= end; i++) {
    const c = i < end ? s.charCodeAt(i) : 46;
    if (c >= 48 && c <= 57) {
      if (digits > 0 && group === 0) return null; // no leading zeros: "010" is octal to some resolvers
      group = (digits === 0 ? 0 : group) * 10 + (c - 48);
      if (++digits > 3 || group > 255) return null;
      continue;
    }
    if (c !== 46 || digits === 0) return null;
    value = value * 256 + group;
    groups++;
    digits = 0;
    group = -1;
  }
  return groups === 4 ? value : null;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  if (l >= 97 && l <= 102) return l - 87;
  return -1;
}

/**
 * Reads an IPv6 address in the text forms of RFC 4291 2.2 (eight groups of up to four hex digits,
 * "::" once for a run of zero groups, a dotted IPv4 tail), with an optional "%zone" (RFC 4007 11)
 * and optional surrounding brackets. Returns the eight 16-bit groups, or null.
 */
export function parseIPv6(text: string): number[] | null {
  let s = 0;
  let e = text.length;
  if (e >= 2 && text.charCodeAt(0) === 91 && text.charCodeAt(e - 1) === 93) {
    s = 1;
    e--;
  }
  const zone = text.indexOf('%', s);
  if (zone >= 0 && zone < e) e = zone;
  const groups: number[] = [];
  let gap = -1;
  let i = s;
  if (i + 1 < e && text.charCodeAt(i) === 58 && text.charCodeAt(i + 1) === 58) {
    gap = 0;
    i += 2;
  } else if (i < e && text.charCodeAt(i) === 58) return null;
  while (i < e) {
    // An IPv4 tail: the rest holds a ".".
    let j = i;
    let hasDot = false;
    while (j < e && text.charCodeAt(j) !== 58) {
      if (text.charCodeAt(j) === 46) hasDot = true;
      j++;
    }
    if (hasDot) {
      if (j !== e) return null;
      const v4 = parseIPv4(text, i, e);
      if (v4 === null) return null;
      groups.push(Math.floor(v4 / 65536), v4 % 65536);
      i = e;
      break;
    }
    if (j === i || j - i > 4) return null;
    let g = 0;
    for (let k = i; k < j; k++) {
      const d = hexDigit(text.charCodeAt(k));
      if (d < 0) return null;
      g = g * 16 + d;
    }
    groups.push(g);
    i = j;
    if (i === e) break;
    // a ":" follows; "::" marks the gap
    if (i + 1 < e && text.charCodeAt(i + 1) === 58) {
      if (gap >= 0) return null;
      gap = groups.length;
      i += 2;
    } else {
      i++;
      if (i === e) return null; // a trailing single ":"
    }
  }
  if (gap < 0) return groups.length === 8 ? groups : null;
  if (groups.length > 7) return null;
  const out = groups.slice(0, gap);
  for (let k = groups.length; k < 8; k++) out.push(0);
  return out.concat(groups.slice(gap));
}

const V4: ReadonlyArray<readonly [number, number, AddressClass]> = [
  // [first address, prefix length, class]
  [0x00000000, 8, { kind: 'unspecified', range: '0.0.0.0/8', section: 'RFC 1122 3.2.1.3' }],
  [0x0a000000, 8, { kind: 'private', range: '10.0.0.0/8', section: 'RFC 1918 3' }],
  [0x64400000, 10, { kind: 'shared', range: '100.64.0.0/10', section: 'RFC 6598 7' }],
  [0x7f000000, 8, { kind: 'loopback', range: '127.0.0.0/8', section: 'RFC 1122 3.2.1.3' }],
  [0xa9fe0000, 16, { kind: 'link-local', range: '169.254.0.0/16', section: 'RFC 3927 2' }],
  [0xac100000, 12, { kind: 'private', range: '172.16.0.0/12', section: 'RFC 1918 3' }],
  [0xc0a80000, 16, { kind: 'private', range: '192.168.0.0/16', section: 'RFC 1918 3' }],
  [0xe0000000, 4, { kind: 'multicast', range: '224.0.0.0/4', section: 'RFC 5771 3' }],
  [
    0xf0000000,
    4,
    {
      kind: 'reserved',
      range: '240.0.0.0/4 (and the broadcast address 255.255.255.255)',
      section: 'RFC 1112 4, RFC 919 7',
    },
  ],
];

/** The class of an IPv4 address given as a 32-bit number (RFC 6890 2.2.2 lists the ranges), or null for an ordinary one. */
export function classifyIPv4Number(v: number): AddressClass | null {
  for (const [first, bits, cls] of V4) {
    const size = 2 ** (32 - bits);
    if (v >= first && v < first + size) return cls;
  }
  return null;
}

/** The class of an IPv6 address given as eight 16-bit groups (RFC 4291 2.4, RFC 6890 2.2.3), reading embedded IPv4 addresses through. */
export function classifyIPv6Groups(g: readonly number[]): AddressClass | null {
  const v4 = (hi: number, lo: number) => hi * 65536 + lo;
  const zeros = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (g[k] !== 0) return false;
    return true;
  };
  if (zeros(0, 8)) return { kind: 'unspecified', range: '::/128', section: 'RFC 4291 2.5.2' };
  if (zeros(0, 7) && g[7] === 1) return { kind: 'loopback', range: '::1/128', section: 'RFC 4291 2.5.3' };
  // ::ffff:a.b.c.d (IPv4-mapped, RFC 4291 2.5.5.2) and ::a.b.c.d (IPv4-compatible, deprecated, 2.5.5.1)
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return classifyIPv4Number(v4(g[6], g[7]));
  // 64:ff9b::a.b.c.d (the NAT64 well-known prefix, RFC 6052 2.1)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return classifyIPv4Number(v4(g[6], g[7]));
  // 2002:AABB:CCDD::/48 (6to4, RFC 3056 2): the IPv4 address of the relay
  if (g[0] === 0x2002) return classifyIPv4Number(v4(g[1], g[2]));
  const top = g[0];
  if ((top & 0xffc0) === 0xfe80) return { kind: 'link-local', range: 'fe80::/10', section: 'RFC 4291 2.5.6' };
  if ((top & 0xffc0) === 0xfec0) return { kind: 'private', range: 'fec0::/10 (site-local)', section: 'RFC 3879 4' };
  if ((top & 0xfe00) === 0xfc00) return { kind: 'private', range: 'fc00::/7 (unique local)', section: 'RFC 4193 3' };
  if ((top & 0xff00) === 0xff00) return { kind: 'multicast', range: 'ff00::/8', section: 'RFC 4291 2.7' };
  return null;
}

/**
 * The class of an address in text: a dotted-quad IPv4 address, or an IPv6 address (brackets and a
 * zone allowed). Returns null for an ordinary address, and `undefined` when the text is neither.
 */
export function classifyAddress(text: string): AddressClass | null | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== null) return classifyIPv4Number(v4);
  const v6 = parseIPv6(text);
  if (v6 !== null) return classifyIPv6Groups(v6);
  return undefined;
}

/** True for "localhost" and names under ".localhost" (RFC 6761 6.3: they resolve to loopback), any case. */
export function isLocalhostName(host: string): boolean {
  let end = host.length;
  if (end > 0 && host.charCodeAt(end - 1) === 46) end--;
  const start = end - 9;
  if (start < 0 || (start > 0 && host.charCodeAt(start - 1) !== 46)) return false;
  for (let i = 0; i < 9; i++) {
    if ((host.charCodeAt(start + i) | 32) !== LOCALHOST.charCodeAt(i)) return false;
  }
  return true;
}

const LOCALHOST = 'localhost';

/**
 * The class of a host as a URL writes it: an address literal, "[...]" IPv6 literal, or a localhost
 * name (RFC 6761 6.3). Other host names are known only after name resolution: null. A host name
 * is told from a literal by its first character, so names cost no address parse.
 */
export function classifyHost(host: string): AddressClass | null {
  if (host === '') return null;
  const c = host.charCodeAt(0);
  if (c === 91 || (c >= 48 && c <= 57) || c === 58) return classifyAddress(host) ?? null;
  if (isLocalhostName(host)) return { kind: 'loopback', range: 'the name "localhost"', section: 'RFC 6761 6.3' };
  // An IPv6 address may start with a hex letter ("fe80::1"), but a URL host cannot hold one unbracketed.
  return null;
}
