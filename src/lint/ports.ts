// Well-known ports and the protocols registered to them (RFC 1738 6: "a port number other than
// that reserved for the network protocol in question", "a number within the reserved space").
//
// The table holds the Fetch standard's list of bad ports (https://fetch.spec.whatwg.org/#port-
// blocking, as of 2024: ports where a text protocol can be spoofed by a request of another), the
// ports of every built-in scheme of RFC 1738 and its drafts (read from their entries: defaultPort
// and otherPorts), and the ports of two text protocols that server-side request forgery commonly
// reaches through gopher and http URLs (Redis, memcached). Names are the IANA service names;
// `schemes` lists the URL schemes that speak the protocol: the built-in schemes whose entry names
// the port, then the others written below (when no scheme does, the service name stands for
// itself). The defaults of schemes added with registerScheme() are looked up in the registry as
// well.

import { BUILTIN_SCHEMES } from '../schemes/builtin.js';
import { listSchemes } from '../schemes/registry.js';

/** One well-known port: the IANA service name, and the URL schemes that speak that protocol. */
export interface PortEntry {
  readonly port: number;
  readonly service: string;
  readonly schemes: readonly string[];
}

// [port, service, the URL schemes beside the built-in ones that speak it (defaults to the service
// name; '' for none)]
const TABLE: ReadonlyArray<readonly [number, string, string?]> = [
  [0, 'reserved (no server listens on port 0)', ''],
  [1, 'tcpmux'],
  [7, 'echo'],
  [9, 'discard'],
  [11, 'systat'],
  [13, 'daytime'],
  [15, 'netstat'],
  [17, 'qotd'],
  [19, 'chargen'],
  [20, 'ftp-data', ''],
  [21, 'ftp'],
  [22, 'ssh', 'ssh sftp scp'],
  [23, 'telnet'],
  [25, 'smtp'],
  [37, 'time'],
  [42, 'name'],
  [43, 'nicname', 'whois'],
  [53, 'domain', 'dns'],
  [69, 'tftp'],
  [70, 'gopher'],
  [77, 'priv-rjs'],
  [79, 'finger'],
  [80, 'http'],
  [87, 'ttylink'],
  [95, 'supdup'],
  [101, 'hostname'],
  [102, 'iso-tsap'],
  [103, 'gppitnp'],
  [104, 'acr-nema'],
  [109, 'pop2'],
  [110, 'pop3', 'pop pop3'],
  [111, 'sunrpc'],
  [113, 'auth'],
  [115, 'sftp (Simple File Transfer Protocol)', ''],
  [117, 'uucp-path'],
  [119, 'nntp'],
  [123, 'ntp'],
  [135, 'epmap'],
  [137, 'netbios-ns'],
  [139, 'netbios-ssn'],
  [143, 'imap'],
  [161, 'snmp'],
  [179, 'bgp'],
  [210, 'z39.50'],
  [389, 'ldap'],
  [427, 'svrloc', 'service'],
  [443, 'https'],
  [465, 'submissions', 'smtps'],
  [512, 'exec'],
  [513, 'login', ''],
  [514, 'shell'],
  [515, 'printer'],
  [526, 'tempo'],
  [530, 'courier'],
  [531, 'chat'],
  [532, 'netnews'],
  [540, 'uucp'],
  [548, 'afp'],
  [554, 'rtsp'],
  [556, 'remotefs'],
  [563, 'nntps', 'nntps snews'],
  [587, 'submission'],
  [601, 'syslog-conn'],
  [636, 'ldaps'],
  [989, 'ftps-data', 'ftps'],
  [990, 'ftps'],
  [993, 'imaps'],
  [995, 'pop3s'],
  [1525, 'prospero'],
  [1719, 'h323gatestat'],
  [1720, 'h323hostcall', 'h323'],
  [1723, 'pptp'],
  [2049, 'nfs'],
  [3659, 'apple-sasl'],
  [4045, 'npp'],
  [4190, 'sieve'],
  [5060, 'sip'],
  [5061, 'sips'],
  [6000, 'x11'],
  [6379, 'redis', 'redis'],
  [6566, 'sane-port'],
  [6665, 'ircu', 'irc'],
  [6666, 'ircu', 'irc'],
  [6667, 'ircu', 'irc'],
  [6668, 'ircu', 'irc'],
  [6669, 'ircu', 'irc'],
  [6679, 'osaut', 'ircs'],
  [6697, 'ircs-u', 'ircs'],
  [10080, 'amanda'],
  [11211, 'memcache', 'memcache memcached'],
];

/** The built-in schemes that speak `port` (RFC 1738 6): those whose default it is, then those that name it in otherPorts. */
function builtinsOn(port: number): string[] {
  const names = BUILTIN_SCHEMES.filter((s) => s.defaultPort === port).map((s) => s.name);
  for (const s of BUILTIN_SCHEMES) if (s.otherPorts?.includes(port) === true) names.push(s.name);
  return names;
}

function makeEntry(port: number, service: string, schemes: readonly string[]): PortEntry {
  return Object.freeze({ port, service, schemes: Object.freeze([...new Set(schemes)]) });
}

/**
 * The table, in port order: each row with the built-in schemes that speak its port, and the port
 * of a built-in scheme that no row holds, under the scheme's name.
 */
function wellKnown(): ReadonlyMap<number, PortEntry> {
  const rows = new Map<number, PortEntry>();
  for (const [port, service, schemes] of TABLE) {
    const others = schemes === undefined ? [service] : schemes === '' ? [] : schemes.split(' ');
    rows.set(port, makeEntry(port, service, [...builtinsOn(port), ...others]));
  }
  for (const s of BUILTIN_SCHEMES) {
    for (const port of [s.defaultPort, ...(s.otherPorts ?? [])]) {
      if (port !== null && !rows.has(port)) rows.set(port, makeEntry(port, s.name, builtinsOn(port)));
    }
  }
  return new Map([...rows].sort((a, b) => a[0] - b[0]));
}

const PORTS: ReadonlyMap<number, PortEntry> = /* @__PURE__ */ wellKnown();

/** Every entry of the table, in port order (RFC 1738 6: the ports reserved for each protocol). */
export function wellKnownPorts(): PortEntry[] {
  return [...PORTS.values()];
}

/** The table entry of a port, or undefined (RFC 1738 6). */
export function portEntry(port: number): PortEntry | undefined {
  return PORTS.get(port);
}

/** Who a port belongs to, for a URL of `scheme`: what to report when it is not this scheme's. */
export interface PortOwner {
  /** The protocol the port is registered to (an IANA service name, or a registered scheme). */
  service: string;
}

/**
 * The protocol a port is registered to, when that protocol is not the one of `scheme`
 * (RFC 1738 6); null when the port is the scheme's own (its default or otherPorts), is registered to this scheme's
 * protocol, or is registered to nothing locator knows. A port is another protocol's when the
 * table lists it for a service this scheme does not speak, or when it is the default port of
 * another registered scheme.
 */
export function reservedFor(scheme: string, port: number): PortOwner | null {
  let own: number | null | undefined;
  let ownOthers: readonly number[] | undefined;
  let other: string | null = null;
  for (const spec of listSchemes()) {
    if (spec.name === scheme) {
      own = spec.defaultPort;
      ownOthers = spec.otherPorts;
    } else if (spec.defaultPort === port && other === null) other = spec.name;
  }
  if (own === port || ownOthers?.includes(port) === true) return null;
  const entry = PORTS.get(port);
  if (entry !== undefined) {
    if (entry.schemes.includes(scheme)) return null;
    return { service: entry.service };
  }
  // Not in the table: the default port of another registered scheme (one added with registerScheme).
  return other === null ? null : { service: other };
}

/** Ports 0-1023: the well-known ports, "the reserved space" of RFC 1738 6 (RFC 1700: assigned by the IANA). */
export function inReservedSpace(port: number): boolean {
  return port >= 0 && port < 1024;
}
