// The pool of read buffers (src/clients/dial.ts, POOL_MAX): buffers given back (recycleChunk) are
// kept for the next reads, at most four of them; a fifth given back is left to the collector, so
// the memory a burst of returns holds stays bounded. Alone in its file: the pool is the process's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Connection, recycleChunk } from '../../src/clients/connection.js';

test('POOL_MAX: of six read buffers given back, the next reads use four again; the others are new', async () => {
  // One block of 1,000 octets for each octet received: one read each, in step with the client.
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('error', () => {});
    sock.on('data', (d) => {
      for (let i = 0; i < d.length; i++) sock.write(Buffer.alloc(1000, 0x61));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const c = await Connection.connect('127.0.0.1', (server.address() as AddressInfo).port, { timeout: 5000 });
  const next = async () => {
    await c.write(new Uint8Array([1]));
    const chunk = await c.read();
    assert.ok(chunk !== null && chunk.length === 1000, `a read of ${chunk?.length} octets`);
    return chunk;
  };
  try {
    // Six reads, kept: whatever the pool held before is taken, and six buffers are in hand.
    const held: Uint8Array[] = [];
    for (let i = 0; i < 6; i++) held.push(await next());
    assert.equal(new Set(held.map((h) => h.buffer)).size, 6);
    for (const h of held) recycleChunk(h);
    // The next read goes into the buffer already set for it; the four after it into the pooled ones.
    const given = new Set(held.map((h) => h.buffer));
    const later: Uint8Array[] = [];
    for (let i = 0; i < 8; i++) later.push(await next());
    assert.deepEqual(
      later.map((l) => given.has(l.buffer)),
      [false, true, true, true, true, false, false, false],
    );
  } finally {
    c.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
