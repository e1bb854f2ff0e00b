// RFC 1738 6: a news or nntp URL whose group or message-id holds an encoded CR LF (or another
// NNTP argument delimiter) would smuggle a command to the news server: it is refused before any
// connection. A listener stands where the news server is and proves that nothing arrived.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { open } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';

function listen(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.on('error', () => {});
      s.destroy();
    });
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        connections: () => connections,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    );
  });
}

const ROWS: Array<[string, string]> = [
  ['news:local.test%0D%0AQUIT', 'a CR LF in the newsgroup of GROUP'],
  ['news:abc%0D%0APOST@example.test', 'a CR LF in the message-id of ARTICLE'],
  ['news:abc%0APOST@example.test', 'a lone LF in the message-id'],
  ['news:abc%20x@example.test', 'a space in the message-id (a second argument)'],
  ['nntp://127.0.0.1:PORT/g%0D%0AQUIT/1', 'a CR LF in the newsgroup of an nntp URL'],
  ['nntp://127.0.0.1:PORT/g%0D%0AQUIT', 'a CR LF in the newsgroup of a listing'],
];

for (const [template, what] of ROWS) {
  test(`RFC 1738 6: refused with no connection: ${what}`, async () => {
    const l = await listen();
    try {
      const url = template.replace('PORT', String(l.port));
      const e = await open(url, {
        gateway: false,
        timeout: 2000,
        env: { NNTPSERVER: `127.0.0.1:${l.port}` },
      }).then(
        () => null,
        (err: unknown) => err,
      );
      assert.ok(e instanceof LocatorError, String(e));
      assert.ok(['policy-refused', 'invalid-field'].includes(e.code), `${e.code}: ${e.message}`);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(l.connections(), 0, 'nothing arrived at the listener');
    } finally {
      await l.close();
    }
  });
}
