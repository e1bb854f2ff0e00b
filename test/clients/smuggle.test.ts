// RFC 1738 6 (issue 6): a URL that would smuggle a command into another protocol is refused
// before any connection. For every client that exists, a local listener stands where the URL
// points and proves that nothing arrived: no connection, not one byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { open } from '../../src/clients/index.js';
import { LocatorError } from '../../src/core/errors.js';

interface Listener {
  port: number;
  connections: number;
  bytes: number;
  close(): Promise<void>;
}

function listen(): Promise<Listener> {
  return new Promise((resolve) => {
    const l = { port: 0, connections: 0, bytes: 0, close: async () => {} } as Listener;
    const server = net.createServer((s) => {
      l.connections++;
      s.on('data', (d) => {
        l.bytes += d.length;
      });
      s.on('error', () => {});
      s.end();
    });
    server.listen(0, '127.0.0.1', () => {
      l.port = (server.address() as AddressInfo).port;
      l.close = () => new Promise((r) => server.close(() => r()));
      resolve(l);
    });
  });
}

// (HTTP is not in the table: its client sends the path still encoded, so %0D%0A stays three
// characters each on the wire and cannot end the request line; a raw CR LF is a control-char
// error, refused like every invalid URL. See docs/security.md.)
// Each row: a URL template ("PORT" is the listener's), the protocol it would reach, and what it
// would smuggle there.
const ROWS: Array<[string, string]> = [
  ['ftp://127.0.0.1:PORT/pub%0D%0ADELE%20x/file', 'FTP: a CR LF in a CWD argument starts a DELE command'],
  ['ftp://u%0D%0ASITE%20x:p@127.0.0.1:PORT/file', 'FTP: a CR LF in the user name'],
  ['ftp://127.0.0.1:PORT/file%00.txt', 'FTP: a NUL in RETR'],
  ['gopher://127.0.0.1:PORT/1%0D%0AHELO%20x%0D%0A', 'Gopher: the SSRF classic, SMTP commands in a selector'],
  ['gopher://127.0.0.1:PORT/0sel%0Aflushall', 'Gopher: Redis commands after a LF'],
  ['file://127.0.0.1:PORT/a%0D%0AUSER%20x', 'file on another host, reached by FTP'],
];

for (const [template, what] of ROWS) {
  test(`RFC 1738 6: refused with no byte sent: ${what}`, async () => {
    const l = await listen();
    try {
      const url = template.replace('PORT', String(l.port));
      await assert.rejects(
        open(url, { gateway: false, timeout: 2000 }),
        (e: unknown) => e instanceof LocatorError && e.code === 'policy-refused',
        url,
      );
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual([l.connections, l.bytes], [0, 0], 'nothing arrived at the listener');
    } finally {
      await l.close();
    }
  });
}

test('RFC 1738 6: a port registered to another protocol is refused unless allowed (gopher://host:25/)', async () => {
  await assert.rejects(
    open('gopher://127.0.0.1:25/0x', { gateway: false }),
    (e: unknown) => e instanceof LocatorError && e.code === 'policy-refused' && /25/.test(e.message),
  );
});

test('RFC 1738 6: with refusePrivateAddresses, a loopback server is refused after name resolution', async () => {
  const l = await listen();
  try {
    await assert.rejects(
      open(`http://localhost:${l.port}/`, { gateway: false, policy: { refusePrivateAddresses: true } }),
      (e: unknown) => e instanceof LocatorError && e.code === 'policy-refused',
    );
    assert.deepEqual([l.connections, l.bytes], [0, 0]);
  } finally {
    await l.close();
  }
});
