// The connection: back-pressure that stops and restarts reading, one close path, read buffers
// given back (recycleChunk), drain() and directChunks() (issue 16).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection, directChunks, pullStream, recycleChunk } from '../../src/clients/connection.js';
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

// Read buffers given back and drain() (issue 16: the speed and memory of `locator fetch`).

/** The octet at `offset` of what pattern() sends. */
const octetAt = (offset: number) => offset % 251;

/** A server that sends `bytes` octets of a known pattern (then ends), or `stall` after them. */
function pattern(bytes: number, opts: { stall?: boolean; gapMs?: number; block?: number } = {}) {
  return new Promise<{ port: number; close: () => Promise<void> }>((resolve) => {
    const socks = new Set<net.Socket>();
    const s = net.createServer((sock) => {
      socks.add(sock);
      sock.on('error', () => {});
      const size = opts.block ?? 64 * 1024;
      let sent = 0;
      const pump = () => {
        while (sent < bytes) {
          const n = Math.min(size, bytes - sent);
          const b = Buffer.allocUnsafe(n);
          for (let i = 0; i < n; i++) b[i] = octetAt(sent + i);
          sent += n;
          const ok = sock.write(b);
          if (opts.gapMs !== undefined && sent < bytes) return void setTimeout(pump, opts.gapMs);
          if (!ok) return void sock.once('drain', pump);
        }
        if (!opts.stall) sock.end();
      };
      pump();
    });
    s.listen(0, '127.0.0.1', () =>
      resolve({
        port: (s.address() as AddressInfo).port,
        close: () =>
          new Promise((r) => {
            for (const k of socks) k.destroy();
            s.close(() => r());
          }),
      }),
    );
  });
}

/** Checks that `chunk` holds the pattern from `offset` on; returns the offset after it. */
function checkPattern(chunk: Uint8Array, offset: number): number {
  for (let i = 0; i < chunk.length; i++) {
    if (chunk[i] !== octetAt(offset + i)) assert.fail(`octet ${offset + i} is ${chunk[i]}, not ${octetAt(offset + i)}`);
  }
  return offset + chunk.length;
}

test('recycleChunk: a chunk given back is read into again; a piece of one, a copy, or a second return is not', async () => {
  const total = 6 * 1024 * 1024;
  const s = await pattern(total);
  try {
    const c = await Connection.connect('127.0.0.1', s.port, { timeout: 5000 });
    let offset = 0;
    const kept = await c.read();
    assert.ok(kept !== null);
    offset = checkPattern(kept, offset);
    // Only pieces and copies go back: the memory of `kept` must never be read into again.
    recycleChunk(kept.subarray(0, 10));
    recycleChunk(kept.subarray(0));
    recycleChunk(Buffer.from(kept));
    const given = await c.read();
    assert.ok(given !== null);
    offset = checkPattern(given, offset);
    recycleChunk(given);
    recycleChunk(given); // a second return changes nothing
    const returned = new Set<ArrayBufferLike>([given.buffer]);
    let reused = 0;
    for (let chunk = await c.read(); chunk !== null; chunk = await c.read()) {
      assert.notEqual(chunk.buffer, kept.buffer, 'a buffer that was not given back is read into again');
      if (returned.has(chunk.buffer)) reused++;
      offset = checkPattern(chunk, offset);
      returned.add(chunk.buffer);
      recycleChunk(chunk);
    }
    c.close();
    assert.equal(offset, total);
    assert.ok(reused >= 1, 'a buffer given back was read into again');
    checkPattern(kept, 0); // untouched all along
  } finally {
    await s.close();
  }
});

test('drain: every octet in order through the writer, what was queued first, in a few reused buffers', async () => {
  const total = 16 * 1024 * 1024;
  const s = await pattern(total);
  try {
    const c = await Connection.connect('127.0.0.1', s.port, { timeout: 5000 });
    const first = await c.read();
    assert.ok(first !== null);
    let offset = checkPattern(first, 0);
    await sleep(50); // more arrives and waits in the queue: drain() hands it over first
    const buffers = new Set<ArrayBufferLike>();
    await c.drain((chunk) => {
      buffers.add(chunk.buffer);
      offset = checkPattern(chunk, offset);
    });
    assert.equal(offset, total);
    assert.equal(c.received, total);
    // Flat in memory: the reads go into the same few buffers, not one per read.
    assert.ok(buffers.size <= 8, `${buffers.size} buffers for ${total} octets`);
    c.close();
  } finally {
    await s.close();
  }
});

test('drain: what the writer throws is passed on as it is, and the connection is closed', async () => {
  const s = await pattern(8 * 1024 * 1024);
  try {
    const c = await Connection.connect('127.0.0.1', s.port, { timeout: 5000 });
    const failure = Object.assign(new Error('no space left'), { code: 'ENOSPC' });
    let calls = 0;
    await assert.rejects(
      c.drain(() => {
        if (++calls === 2) throw failure;
      }),
      (e: unknown) => e === failure,
    );
    assert.equal(c.socket.destroyed, true);
    await assert.rejects(c.read(), (e: unknown) => e instanceof LocatorError);
  } finally {
    await s.close();
  }
});

test('drain: silence longer than the timeout fails with timeout; data that keeps coming does not', async () => {
  const stalled = await pattern(256 * 1024, { stall: true });
  try {
    const c = await Connection.connect('127.0.0.1', stalled.port, { timeout: 300 });
    let got = 0;
    await assert.rejects(
      c.drain((chunk) => {
        got += chunk.length;
      }),
      (e: unknown) => e instanceof LocatorError && e.code === 'timeout',
    );
    assert.equal(got, 256 * 1024);
  } finally {
    await stalled.close();
  }
  // 30 blocks 50 ms apart: 1.5 s in all, longer than the timeout, but never 1 s of silence.
  const slow = await pattern(30 * 1024, { gapMs: 50, block: 1024 });
  try {
    const c = await Connection.connect('127.0.0.1', slow.port, { timeout: 1000 });
    let offset = 0;
    await c.drain((chunk) => {
      offset = checkPattern(chunk, offset);
    });
    assert.equal(offset, 30 * 1024);
  } finally {
    await slow.close();
  }
});

test('directChunks: the source of a pullStream stream (locked for others), null for any other stream', async () => {
  const plain = new ReadableStream<Uint8Array>();
  assert.equal(directChunks(plain), null);
  const parts = [Buffer.from('ab'), Buffer.from('cde')];
  const made = () => {
    let i = 0;
    return pullStream(
      async () => parts[i++] ?? null,
      () => {},
    );
  };
  const body = made();
  const direct = directChunks(body);
  assert.ok(direct !== null);
  assert.equal(body.locked, true);
  assert.equal(directChunks(body), null, 'taken once');
  assert.equal(direct.pipe, null, 'no pipe unless the client offers one');
  assert.deepEqual([await direct.next(), await direct.next(), await direct.next()], [...parts, null]);
  // A stream already being read is not taken.
  const read = made();
  read.getReader();
  assert.equal(directChunks(read), null);
});

test('directChunks: pipe() applies the byte limit (too-large closes the source) and counts what it passes', async () => {
  const cancelled: unknown[] = [];
  const chunks = [Buffer.alloc(4), Buffer.alloc(4), Buffer.alloc(4)];
  const tooLarge = new LocatorError('too-large', -1, 'over');
  const make = (maxBytes: number) =>
    directChunks(
      pullStream(
        async () => null,
        (reason) => cancelled.push(reason),
        {
          maxBytes,
          tooLarge: () => tooLarge,
          pipe: async (write) => {
            for (const c of chunks) write(c);
          },
        },
      ),
    )!;
  let passed = 0;
  await make(12).pipe!((c) => void (passed += c.length));
  assert.equal(passed, 12);
  assert.deepEqual(cancelled, []);
  passed = 0;
  await assert.rejects(
    make(11).pipe!((c) => void (passed += c.length)),
    (e: unknown) => e === tooLarge,
  );
  assert.equal(passed, 8, 'the chunk over the limit is not written');
  assert.deepEqual(cancelled, [tooLarge]);
});

/** A peer that accepts and never reads (its socket paused): what is sent fills the buffers and stays. */
function deaf(): Promise<{ port: number; peers: net.Socket[]; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const peers: net.Socket[] = [];
    const s = net.createServer((sock) => {
      sock.pause();
      sock.on('error', () => {});
      peers.push(sock);
    });
    s.listen(0, '127.0.0.1', () =>
      resolve({
        port: (s.address() as AddressInfo).port,
        peers,
        close: () =>
          new Promise((r) => {
            for (const p of peers) p.destroy();
            s.close(() => r());
          }),
      }),
    );
  });
}

test('write: a peer that never reads makes a large write fail with timeout, the connection closed', async () => {
  const s = await deaf();
  try {
    const c = await Connection.connect('127.0.0.1', s.port, { timeout: 400 });
    // 64 MiB: far more than the two ends' socket buffers hold on loopback.
    const data = new Uint8Array(64 * 1024 * 1024);
    const started = Date.now();
    const outcome = await Promise.race([
      c.write(data).then(
        () => 'written',
        (e: unknown) => e,
      ),
      sleep(10_000).then(() => 'still waiting'),
    ]);
    assert.ok(outcome instanceof LocatorError, `the write settled as ${String(outcome)}`);
    assert.equal(outcome.code, 'timeout');
    assert.match(
      outcome.message,
      /took no more of the data sent for 400 ms: it reads too slowly or not at all \([0-9]+ octets not sent\)/,
    );
    assert.ok(Date.now() - started < 8000);
    assert.ok(c.socket.destroyed);
    await assert.rejects(c.read(), (e: unknown) => e === outcome);
    await assert.rejects(c.write('more\r\n'), (e: unknown) => e === outcome);
  } finally {
    await s.close();
  }
});

test('write: the clock counts a stall, not the whole write: a slow reader that keeps reading gets all of it', async () => {
  const got = { n: 0 };
  const s = net.createServer((sock) => {
    sock.on('error', () => {});
    // Stops for 300 ms after each 2 MiB read: the pauses add up to more than the 1500 ms timeout.
    let mark = 0;
    sock.on('data', (d: Buffer) => {
      got.n += d.length;
      if (got.n - mark < 2 * 1024 * 1024) return;
      mark = got.n;
      sock.pause();
      setTimeout(() => sock.resume(), 300);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  try {
    const c = await Connection.connect('127.0.0.1', (s.address() as AddressInfo).port, { timeout: 1500 });
    const size = 16 * 1024 * 1024;
    await c.write(new Uint8Array(size));
    c.end();
    for (let i = 0; i < 200 && got.n < size; i++) await sleep(20);
    assert.equal(got.n, size);
  } finally {
    await new Promise((r) => s.close(r));
  }
});

test('write: an interactive readTimeout (Infinity) leaves the write bounded by timeout', async () => {
  const s = await deaf();
  try {
    const c = await Connection.connect('127.0.0.1', s.port, { timeout: 300, readTimeout: Infinity });
    assert.equal(c.timeout, Infinity);
    assert.equal(c.writeTimeout, 300);
    await assert.rejects(c.write(new Uint8Array(64 * 1024 * 1024)), { code: 'timeout' });
  } finally {
    await s.close();
  }
});

test('send: writes not waited for are bounded too: a peer that never reads closes the connection with timeout, and the reader sees it', async () => {
  const s = await deaf();
  try {
    const c = await Connection.connect('127.0.0.1', s.port, { timeout: 400, readTimeout: Infinity });
    const key = new Uint8Array(64 * 1024);
    // An interactive session that keeps sending (keys, a paste) to a server that reads nothing.
    for (let i = 0; i < 1024; i++) c.send(key);
    const started = Date.now();
    const outcome = await Promise.race([
      c.read().then(
        () => 'read',
        (e: unknown) => e,
      ),
      sleep(10_000).then(() => 'still waiting'),
    ]);
    assert.ok(outcome instanceof LocatorError, `the read settled as ${String(outcome)}`);
    assert.equal(outcome.code, 'timeout');
    assert.ok(Date.now() - started < 8000);
    assert.ok(c.socket.destroyed);
  } finally {
    await s.close();
  }
});

test('send: a peer that reads everything: no timeout, every octet arrives, no clock left running', async () => {
  let got = 0;
  const s = net.createServer((sock) => {
    sock.on('error', () => {});
    sock.on('data', (d: Buffer) => (got += d.length));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  try {
    // A generous timeout: on a loaded machine a late timer must not be mistaken for a stall.
    const c = await Connection.connect('127.0.0.1', (s.address() as AddressInfo).port, { timeout: 2000 });
    for (let i = 0; i < 64; i++) c.send(new Uint8Array(16 * 1024));
    for (let i = 0; i < 200 && got < 64 * 16 * 1024; i++) await sleep(20);
    assert.equal(got, 64 * 16 * 1024);
    await sleep(2200); // past the timeout: nothing fires once all is sent
    assert.equal(c.done, false);
    c.close();
  } finally {
    await new Promise((r) => s.close(r));
  }
});
