// The table of well-known ports behind reserved-port (RFC 1738 6: "a port number other than that
// reserved for the network protocol in question"). Rows: scheme, port, the protocol it is
// reserved for ("-" when it is not another protocol's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reservedFor, wellKnownPorts, portEntry, inReservedSpace } from '../../src/lint/ports.js';
import { listSchemes, registerScheme, unregisterScheme } from '../../src/schemes/registry.js';

// The Fetch standard's bad ports (https://fetch.spec.whatwg.org/#port-blocking), as of 2024.
const FETCH_BAD_PORTS = [
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
];

test("the table holds every bad port of the Fetch standard and every scheme's default port", () => {
  for (const p of FETCH_BAD_PORTS) assert.ok(portEntry(p) !== undefined, `port ${p}`);
  for (const spec of listSchemes()) {
    if (spec.defaultPort !== null)
      assert.ok(portEntry(spec.defaultPort)?.schemes.includes(spec.name), `${spec.name} ${spec.defaultPort}`);
  }
  const ports = wellKnownPorts().map((e) => e.port);
  assert.deepEqual(
    ports,
    [...ports].sort((a, b) => a - b),
  );
});

test("the built-in schemes' ports come from their entries (defaultPort, otherPorts), beside the IANA service", () => {
  const rows = [20, 21, 23, 25, 70, 80, 119, 210, 443, 513, 1525].map((p) => {
    const e = portEntry(p)!;
    return `${p} ${e.service}: ${e.schemes.join(' ')}`;
  });
  assert.deepEqual(rows, [
    '20 ftp-data: ftp',
    '21 ftp: ftp',
    '23 telnet: telnet tn3270',
    '25 smtp: smtp',
    '70 gopher: gopher',
    '80 http: http',
    '119 nntp: nntp news',
    '210 z39.50: wais z39.50',
    '443 https: https',
    '513 login: rlogin',
    '1525 prospero: prospero',
  ]);
});

const ROWS: Array<[string, number, string]> = [
  ['gopher', 25, 'smtp'],
  ['gopher', 70, '-'],
  ['gopher', 80, 'http'],
  ['gopher', 6379, 'redis'],
  ['gopher', 7070, '-'],
  ['http', 80, '-'],
  ['http', 443, 'https'],
  ['https', 80, 'http'],
  ['http', 21, 'ftp'],
  ['ftp', 20, '-'],
  ['ftp', 21, '-'],
  ['telnet', 23, '-'],
  ['tn3270', 23, '-'],
  ['rlogin', 513, '-'],
  ['rlogin', 23, 'telnet'],
  ['nntp', 119, '-'],
  ['nntp', 563, 'nntps'],
  ['wais', 210, '-'],
  ['prospero', 1525, '-'],
  ['prospero', 210, 'z39.50'],
  ['http', 0, 'reserved (no server listens on port 0)'],
  ['http', 8080, '-'],
  ['ssh', 22, '-'],
  ['foo', 22, 'ssh'],
];

test("reservedFor: another protocol's port, or null for the scheme's own", () => {
  for (const [scheme, port, owner] of ROWS) {
    assert.equal(reservedFor(scheme, port)?.service ?? '-', owner, `${scheme}:${port}`);
  }
});

test("a registered scheme's default port is reserved for it", () => {
  registerScheme({ name: 'x-lint-test', defaultPort: 4321, syntax: 'internet', status: 'later' });
  try {
    assert.equal(reservedFor('gopher', 4321)?.service, 'x-lint-test');
    assert.equal(reservedFor('x-lint-test', 4321), null);
  } finally {
    unregisterScheme('x-lint-test');
  }
  assert.equal(reservedFor('gopher', 4321), null);
});

test('the reserved space is 0-1023 (RFC 1738 6)', () => {
  assert.equal(inReservedSpace(0), true);
  assert.equal(inReservedSpace(1023), true);
  assert.equal(inReservedSpace(1024), false);
});
