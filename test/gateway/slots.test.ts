// The gateway's requests in progress per client (`--max-per-client`, docs/gateway.md "Limits"):
// every way a request ends gives its slot back, once. Raw sockets to the gateway, requests
// pipelined behind one another (RFC 9112 9.3.2); the objects from pygopherd (127.0.0.1:7070),
// in-process fakes only to cut or stall a transfer. After each test the gateway's count of
// requests in progress (the internal hook SLOTS) is back to zero: bound to loopback, every
// client shares one address, so a slot lost is lost for every client for as long as the gateway
// runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SLOTS, startGateway, type Gateway, type GatewayOptions } from '../../src/gateway/server.js';
import { fakeServer, type FakeServer } from '../clients/gopher/fakes.js';
import { connect, endedWithin, until, type Raw } from './raw.js';

const PY = 'gopher://127.0.0.1:7070';

/** Requests in progress, all clients together. */
function held(g: Gateway): number {
  let n = 0;
  for (const v of SLOTS.get(g)?.values() ?? []) n += v;
  return n;
}

async function assertSlotsBack(g: Gateway, what: string): Promise<void> {
  const ok = await until(() => held(g) === 0, 3000);
  assert.ok(ok, `${what}: ${held(g)} slot(s) still held`);
}

/** A request as a line of its own, to be pipelined after others on one connection. */
function get(g: Gateway, url: string | null, method = 'GET'): string {
  const target = url === null ? '/' : `/?url=${encodeURIComponent(url)}`;
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${g.port}\r\n\r\n`;
}

const statuses = (raw: Raw) => [...raw.got.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

/** A Gopher server that sends `first` octets of a binary, then a reset (the transfer fails mid-body). */
function cutting(first: number): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    socket.write(Buffer.alloc(first, 0x41), () => setTimeout(() => socket.resetAndDestroy(), 50));
    return true;
  });
}

/** A Gopher server that sends `first` octets (0 for none), then nothing more, never closing. */
function stalling(first: number): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    if (first > 0) socket.write(Buffer.alloc(first, 0x41));
    return true;
  });
}

async function withGateway(
  options: GatewayOptions,
  fakes: FakeServer[],
  body: (g: Gateway) => Promise<void>,
): Promise<void> {
  const g = await startGateway({ port: 0, timeout: 10_000, allowPorts: fakes.map((f) => f.port), ...options });
  try {
    await body(g);
  } finally {
    await g.close();
    for (const f of fakes) await f.close();
  }
}

test('slots: answers that finish give their slots back at once, the connection kept alive (a page, a HEAD, a text); a 429 takes none', async () => {
  await withGateway({ maxPerClient: 3 }, [], async (g) => {
    const raw = await connect(g.port);
    try {
      raw.sock.write(get(g, null) + get(g, null, 'HEAD') + get(g, `${PY}/0/hello.txt`));
      assert.ok(await until(() => statuses(raw).length === 3 && raw.got.endsWith('\n'), 5000), raw.got.slice(0, 300));
      assert.deepEqual(statuses(raw), [200, 200, 200]);
      assert.equal(raw.closedAfter, null, 'the connection is kept alive');
      await assertSlotsBack(g, 'finished answers');
      // Five pipelined at once (Node takes every request of a packet before the first answer is
      // out) past a limit of three: the last two are 429, and take no slot.
      raw.sock.write(get(g, null).repeat(5));
      assert.ok(await until(() => statuses(raw).length === 8, 5000));
      assert.deepEqual(statuses(raw).slice(3), [200, 200, 200, 429, 429]);
      await assertSlotsBack(g, 'after three more');
    } finally {
      raw.sock.destroy();
    }
  });
});

test('slots: a download cut by its server (a reset mid-body) gives back its slot and that of the request pipelined behind it', async () => {
  const cut = await cutting(64 * 1024);
  await withGateway({}, [cut], async (g) => {
    const raw = await connect(g.port);
    raw.sock.write(get(g, `gopher://127.0.0.1:${cut.port}/9/blob`) + get(g, null));
    await endedWithin(raw, 8000);
    assert.notEqual(raw.closedAfter, null, 'the download was cut on the wire');
    assert.deepEqual(statuses(raw), [200], 'the download began, and nothing follows it');
    await assertSlotsBack(g, 'a download cut by its server');
  });
});

test('slots: three downloads cut at --max-bytes (pygopherd), a request pipelined behind each: then four requests at once are all taken, none 429', async () => {
  const stall = await stalling(0);
  await withGateway({ maxBytes: 2 ** 20, maxPerClient: 4 }, [stall], async (g) => {
    for (let i = 0; i < 3; i++) {
      const raw = await connect(g.port);
      raw.sock.write(get(g, `${PY}/9/big.bin`) + get(g, null));
      await endedWithin(raw, 10_000);
      assert.notEqual(raw.closedAfter, null, `download ${i} cut`);
      assert.deepEqual(statuses(raw), [200]);
      assert.ok(raw.got.length < 2 ** 20 + 4096, `download ${i}: ${raw.got.length} octets`);
    }
    const four: Raw[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        const raw = await connect(g.port);
        raw.sock.write(get(g, `gopher://127.0.0.1:${stall.port}/1/wait${i}`));
        four.push(raw);
      }
      assert.ok(await until(() => held(g) === 4, 3000), `${held(g)} requests in progress, 4 wanted`);
      assert.deepEqual(
        four.map((r) => r.got),
        ['', '', '', ''],
        'no 429: every one is waiting for the stalled server',
      );
    } finally {
      for (const r of four) r.sock.destroy();
    }
    await assertSlotsBack(g, 'four clients gone');
    await stall.allClosed(3000);
  });
});

test('slots: a client that closes while its request waits, with requests pipelined behind it, gives every slot back; every retrieval is aborted', async () => {
  const stall = await stalling(0);
  await withGateway({}, [stall], async (g) => {
    const raw = await connect(g.port);
    raw.sock.write(
      get(g, `gopher://127.0.0.1:${stall.port}/1/a`) + get(g, null) + get(g, `gopher://127.0.0.1:${stall.port}/1/b`),
    );
    assert.ok(await until(() => stall.connections === 2 && held(g) === 3, 3000), `${held(g)} in progress`);
    raw.sock.destroy();
    await assertSlotsBack(g, 'a client gone with three requests');
    // Both retrievals stopped when the client went (not at the 10 s wait limit).
    await stall.allClosed(3000);
  });
});

test('slots: a client reset (RST) in the middle of a download, a request pipelined behind it: both slots back', async () => {
  await withGateway({}, [], async (g) => {
    const raw = await connect(g.port);
    raw.sock.write(get(g, `${PY}/9/big.bin`) + get(g, null));
    assert.ok(await until(() => raw.got.length > 100_000, 5000), 'the download is under way');
    raw.sock.resetAndDestroy();
    await assertSlotsBack(g, 'a client reset mid-download');
  });
});

test('slots: --request-timeout cuts a download whose server stalls mid-body; the request pipelined behind it gets its slot back', async () => {
  const half = await stalling(32 * 1024);
  await withGateway({ requestTimeout: 600 }, [half], async (g) => {
    const raw = await connect(g.port);
    raw.sock.write(get(g, `gopher://127.0.0.1:${half.port}/9/blob`) + get(g, null));
    await endedWithin(raw, 8000);
    assert.notEqual(raw.closedAfter, null, 'cut at the request time');
    assert.deepEqual(statuses(raw), [200]);
    await assertSlotsBack(g, 'a download cut at the request time');
    await half.allClosed(3000);
  });
});

test('slots: a request that times out before its answer starts (504) gives its slot back, the connection kept alive', async () => {
  const stall = await stalling(0);
  await withGateway({ timeout: 400 }, [stall], async (g) => {
    const raw = await connect(g.port);
    try {
      raw.sock.write(get(g, `gopher://127.0.0.1:${stall.port}/1/`) + get(g, null));
      assert.ok(await until(() => statuses(raw).length === 2, 5000), raw.got.slice(0, 200));
      assert.deepEqual(statuses(raw), [504, 200]);
      await assertSlotsBack(g, 'a 504');
      assert.equal(raw.closedAfter, null);
    } finally {
      raw.sock.destroy();
    }
  });
});

test('slots: the gateway closed with a request in progress and one pipelined behind it gives both slots back', async () => {
  const stall = await stalling(0);
  const g = await startGateway({ port: 0, timeout: 10_000, allowPorts: [stall.port] });
  try {
    const raw = await connect(g.port);
    raw.sock.write(get(g, `gopher://127.0.0.1:${stall.port}/1/`) + get(g, null));
    assert.ok(await until(() => held(g) === 2, 3000), `${held(g)} in progress`);
    await g.close();
    await endedWithin(raw, 3000);
    assert.notEqual(raw.closedAfter, null);
    await assertSlotsBack(g, 'the gateway closed');
    await stall.allClosed(3000);
  } finally {
    await g.close();
    await stall.close();
  }
});

test('slots: a malformed request pipelined behind one in progress: the connection is closed (400), the slot of the one in progress back', async () => {
  const stall = await stalling(0);
  await withGateway({}, [stall], async (g) => {
    const raw = await connect(g.port);
    raw.sock.write(get(g, `gopher://127.0.0.1:${stall.port}/1/`) + 'GET / HTTP/1.1\r\nBad Header\r\n\r\n');
    await endedWithin(raw, 5000);
    assert.notEqual(raw.closedAfter, null);
    assert.match(raw.got, /^HTTP\/1\.1 400 /);
    await assertSlotsBack(g, 'a malformed request behind one in progress');
    await stall.allClosed(3000);
  });
});
