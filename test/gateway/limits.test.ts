// The gateway's limits on its clients, by the clock, with raw sockets (docs/gateway.md, "Limits"):
// a client that sends its headers one octet at a time is answered 408 and cut at the headers
// time; a body that dribbles is cut at the receive time; a connection that sends nothing is
// closed at the idle time; and a full set of connections that send nothing or one octet does not
// lock a real client out. The times are set short for the test; the margins are wide (the
// machine is shared), and every wait is bounded.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startGateway } from '../../src/gateway/index.js';
import { request } from './request.js';
import { connect, dribble, endedWithin, type Raw } from './raw.js';

const get = (port: number, path: string) => request({ host: '127.0.0.1', port }, path, { timeout: 10_000 });

const SLOW_HEADERS = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(400)}`;

test('RFC 9110 15.5.9: headers sent one octet at a time are answered 408 and cut at the headers time', async () => {
  const g = await startGateway({ port: 0, headersTimeout: 1500, idleTimeout: 60_000 });
  const raw = await connect(g.port);
  const stop = dribble(raw, SLOW_HEADERS, 100);
  try {
    await endedWithin(raw, 8000);
    assert.notEqual(raw.closedAfter, null, 'still connected after 8 s');
    assert.ok(raw.closedAfter! >= 1400, `cut after ${raw.closedAfter} ms, before the headers time`);
    assert.ok(raw.closedAfter! < 4500, `cut after ${raw.closedAfter} ms`);
    assert.match(raw.got, /^HTTP\/1\.1 408 /);
  } finally {
    stop();
    raw.sock.destroy();
    await g.close();
  }
});

test('the default headers time is 10 s: a one-octet-a-second client is not left connected past it', async () => {
  const g = await startGateway({ port: 0 });
  const raw = await connect(g.port);
  const stop = dribble(raw, SLOW_HEADERS, 1000);
  try {
    await endedWithin(raw, 14_000);
    assert.notEqual(raw.closedAfter, null, 'still connected after 14 s');
    assert.ok(raw.closedAfter! >= 9900 && raw.closedAfter! < 13_000, `cut after ${raw.closedAfter} ms`);
    assert.match(raw.got, /^HTTP\/1\.1 408 /);
  } finally {
    stop();
    raw.sock.destroy();
    await g.close();
  }
});

test('RFC 9110 15.5.9: a form whose body dribbles is cut at the receive time (headers on time)', async () => {
  const g = await startGateway({ port: 0, headersTimeout: 1000, receiveTimeout: 2000, idleTimeout: 60_000 });
  const raw = await connect(g.port);
  const target = `/?url=${encodeURIComponent('gopher://127.0.0.1:1/1form%09%09?')}`;
  raw.sock.write(
    `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${g.port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 400\r\n\r\n`,
  );
  const stop = dribble(raw, 'a'.repeat(400), 100);
  try {
    await endedWithin(raw, 8000);
    assert.notEqual(raw.closedAfter, null, 'still connected after 8 s');
    assert.ok(raw.closedAfter! >= 1900 && raw.closedAfter! < 5000, `cut after ${raw.closedAfter} ms`);
    assert.match(raw.got, /^HTTP\/1\.1 408 /);
  } finally {
    stop();
    raw.sock.destroy();
    await g.close();
  }
});

test('RFC 9110 15.5.9: connections that sent the one octet "G" are answered 408 and closed at the headers time, not the idle time', async () => {
  const g = await startGateway({ port: 0, headersTimeout: 300, idleTimeout: 60_000 });
  const raws: Raw[] = [];
  try {
    for (let i = 0; i < 10; i++) {
      const raw = await connect(g.port);
      raw.sock.write('G');
      raws.push(raw);
    }
    await Promise.all(raws.map((r) => endedWithin(r, 5000)));
    for (const r of raws) {
      assert.notEqual(r.closedAfter, null, 'still connected after 5 s');
      assert.ok(r.closedAfter! >= 250 && r.closedAfter! < 3000, `closed after ${r.closedAfter} ms`);
      assert.equal(r.got, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  } finally {
    for (const r of raws) r.sock.destroy();
    await g.close();
  }
});

test('RFC 9112 9.3.2: one octet of a next request pipelined behind a request is timed from that octet: 408 at the headers time, not the idle time', async () => {
  const g = await startGateway({ port: 0, headersTimeout: 400, idleTimeout: 60_000 });
  const raw = await connect(g.port);
  try {
    raw.sock.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${g.port}\r\n\r\nG`);
    await endedWithin(raw, 5000);
    assert.notEqual(raw.closedAfter, null, 'still connected after 5 s (held for the idle time)');
    assert.ok(raw.closedAfter! >= 350 && raw.closedAfter! < 3000, `closed after ${raw.closedAfter} ms`);
    assert.match(raw.got, /^HTTP\/1\.1 200 [^]*HTTP\/1\.1 408 Request Timeout\r\n/);
  } finally {
    raw.sock.destroy();
    await g.close();
  }
});

test('RFC 9110 15.5.9: a next request begun while a slow answer is sent, and not complete when it ends past the headers time, is answered 408 then', async () => {
  // A Gopher server that answers 1.2 s after the request: longer than the headers time.
  const slow = net.createServer((s) => {
    s.on('error', () => {});
    s.once('data', () => setTimeout(() => s.end('iok\t\t\t0\r\n.\r\n'), 1200));
  });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const port = (slow.address() as net.AddressInfo).port;
  const g = await startGateway({ port: 0, headersTimeout: 400, idleTimeout: 60_000, allowPorts: [port] });
  const raw = await connect(g.port);
  const target = `/?url=${encodeURIComponent(`gopher://127.0.0.1:${port}/1/`)}`;
  try {
    raw.sock.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${g.port}\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 100));
    raw.sock.write('GET / HT');
    await endedWithin(raw, 6000);
    assert.notEqual(raw.closedAfter, null, 'still connected after 6 s');
    assert.ok(raw.closedAfter! >= 1100 && raw.closedAfter! < 4000, `closed after ${raw.closedAfter} ms`);
    assert.match(raw.got, /^HTTP\/1\.1 200 [^]*<\/html>\n?[^]*HTTP\/1\.1 408 Request Timeout\r\n/);
  } finally {
    raw.sock.destroy();
    await g.close();
    await new Promise<void>((r) => slow.close(() => r()));
  }
});

test('RFC 9112 9.5: a client that pipelines whole requests (and an empty line) is closed at the idle time, with no 408', async () => {
  const g = await startGateway({ port: 0, headersTimeout: 60_000, idleTimeout: 500 });
  const raw = await connect(g.port);
  try {
    const req = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${g.port}\r\n\r\n`;
    raw.sock.write(req + req + '\r\n');
    await endedWithin(raw, 5000);
    assert.notEqual(raw.closedAfter, null, 'still connected after 5 s');
    assert.ok(raw.closedAfter! >= 450 && raw.closedAfter! < 3000, `closed after ${raw.closedAfter} ms`);
    assert.equal([...raw.got.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1]).join(' '), '200 200');
  } finally {
    raw.sock.destroy();
    await g.close();
  }
});

test('RFC 9112 9.5: a connection that sends nothing is closed at the idle time; so is one idle after its answer', async () => {
  const g = await startGateway({ port: 0, idleTimeout: 1000 });
  const silent = await connect(g.port);
  const kept = await connect(g.port);
  try {
    kept.sock.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${g.port}\r\n\r\n`);
    await Promise.all([endedWithin(silent, 6000), endedWithin(kept, 6000)]);
    assert.notEqual(silent.closedAfter, null, 'a silent connection still open after 6 s');
    assert.ok(silent.closedAfter! >= 900 && silent.closedAfter! < 4000, `closed after ${silent.closedAfter} ms`);
    assert.equal(silent.got, '', 'nothing is written to a connection that asked nothing');
    assert.match(kept.got, /^HTTP\/1\.1 200 /);
    assert.notEqual(kept.closedAfter, null, 'a kept-alive connection still open after 6 s');
  } finally {
    silent.sock.destroy();
    kept.sock.destroy();
    await g.close();
  }
});

test('connection cap: 64 connections that send nothing or one octet do not lock a real client out', async () => {
  const g = await startGateway({ port: 0, idleTimeout: 60_000, headersTimeout: 60_000, receiveTimeout: 60_000 });
  const flood: Raw[] = [];
  try {
    for (let i = 0; i < 64; i++) {
      const r = await connect(g.port);
      if (i % 2 === 1) r.sock.write('G');
      flood.push(r);
    }
    await new Promise((r) => setTimeout(r, 200));
    for (let round = 0; round < 3; round++) {
      const page = await get(g.port, '/');
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>locator gateway<\/h1>/);
    }
    const closed = flood.filter((r) => r.closedAfter !== null).length;
    assert.ok(closed >= 1 && closed <= 3, `${closed} of the waiting connections were closed to make room`);
    // The oldest go first: the first one opened (it sent nothing) is among them.
    assert.notEqual(flood[0].closedAfter, null);
  } finally {
    for (const r of flood) r.sock.destroy();
    await g.close();
  }
});

test('connection cap: a connection being answered is never closed to make room; past the cap with all busy, the new one is refused', async () => {
  // A gopher server that never answers: each request through the gateway stays in progress.
  const held = new Set<net.Socket>();
  const stall = net.createServer((s) => {
    held.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((r) => stall.listen(0, '127.0.0.1', r));
  const port = (stall.address() as net.AddressInfo).port;
  const g = await startGateway({ port: 0, maxConnections: 2, timeout: 5000, idleTimeout: 60_000 });
  const busy: Raw[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const r = await connect(g.port);
      r.sock.write(
        `GET /?url=${encodeURIComponent(`gopher://127.0.0.1:${port}/0x${i}`)} HTTP/1.1\r\nHost: 127.0.0.1:${g.port}\r\n\r\n`,
      );
      busy.push(r);
    }
    await new Promise((r) => setTimeout(r, 300));
    const extra = await connect(g.port).catch(() => null);
    if (extra !== null) await endedWithin(extra, 3000);
    assert.ok(extra === null || extra.closedAfter !== null, 'the connection past the cap was refused');
    assert.deepEqual(
      busy.map((r) => r.closedAfter),
      [null, null],
      'the requests in progress kept their connections',
    );
  } finally {
    for (const r of busy) r.sock.destroy();
    await g.close();
    for (const s of held) s.destroy();
    await new Promise<void>((r) => stall.close(() => r()));
  }
});

test('limits past 2^31-1 ms (setTimeout would fire them after 1 ms) wait: nothing is cut, a retrieval is not aborted', async () => {
  const target = net.createServer((s) => {
    s.on('error', () => {});
    s.once('data', () => s.end('iok\t\t\t0\r\n.\r\n'));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const port = (target.address() as net.AddressInfo).port;
  const long = 2 ** 31;
  const g = await startGateway({
    port: 0,
    idleTimeout: long,
    headersTimeout: long + 5,
    receiveTimeout: 2 ** 32,
    requestTimeout: 30 * 24 * 3600 * 1000,
  });
  const silent = await connect(g.port);
  const partial = await connect(g.port);
  partial.sock.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  try {
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(silent.closedAfter, null, 'a connection that sent nothing was closed (idle time of 1 ms)');
    assert.equal(partial.closedAfter, null, 'a request whose headers are coming was cut (headers time of 1 ms)');
    assert.equal(partial.got, '');
    // The retrieval's own time (requestTimeout) does not abort it either.
    const r = await get(g.port, `/?url=${encodeURIComponent(`gopher://127.0.0.1:${port}/1/`)}`);
    assert.equal(r.status, 200, r.text);
    assert.match(r.text, /ok/);
  } finally {
    silent.sock.destroy();
    partial.sock.destroy();
    await g.close();
    await new Promise<void>((r) => target.close(() => r()));
  }
});
