// The connection: back-pressure that stops and restarts reading, one close path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '../../src/clients/connection.js';
import { LocatorError } from '../../src/core/errors.js';

function server(bytes: number): Promise<{ port: number; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const s = net.createServer((sock) => {
      const block = Buffer.alloc(64 * 1024, 0x61);
      let left = bytes;
      const pump = () => {
        while (left > 0) {
          const n = Math.min(left, block.length);
          left -= n;
          if (!sock.write(block.subarray(0, n))) return sock.once('drain', pump);
        }
        sock.end();
      };
      pump();
      sock.on('error', () => {});
    });
    s.listen(0, '127.0.0.1', () =>
      resolve({
        port: (s.address() as AddressInfo).port,
        close: () => new Promise((r) => s.close(() => r())),
      }),
    );
  });
}

test('a slow reader: reading stops when the queue is full and starts again as it drains; every byte arrives', async () => {
  const total = 8 * 1024 * 1024;
  const s = await server(total);
  try {
    const c = await Connection.connect('127.0.0.1', s.port, { timeout: 2000 });
    let got = 0;
    let chunks = 0;
    for (;;) {
      const chunk = await c.read();
      if (chunk === null) break;
      got += chunk.length;
      if (++chunks % 4 === 0) await sleep(5); // slower than the sender: the queue fills
    }
    c.close();
    assert.equal(got, total);
  } finally {
    await s.close();
  }
});

test('a reader that stops reading: the timeout does not fire while data waits in the queue, close() ends it', async () => {
  const s = await server(4 * 1024 * 1024);
  try {
    const c = await Connection.connect('127.0.0.1', s.port, { timeout: 300 });
    const first = await c.read();
    assert.ok(first !== null && first.length > 0);
    await sleep(500);
    assert.ok((await c.read()) !== null, 'queued data is still there after a pause longer than the timeout');
    c.close(new LocatorError('aborted', -1, 'stop'));
    await assert.rejects(c.read(), (e: unknown) => e instanceof LocatorError && e.code === 'aborted');
    assert.equal(c.socket.destroyed, true);
  } finally {
    await s.close();
  }
});
