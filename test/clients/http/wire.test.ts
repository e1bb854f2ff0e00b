// The wire client (src/clients/http/wire.ts): open()'s GET of a plain http URL on a socket of its
// own. Its parsers row by row (RFC 9112), then the client against nginx (127.0.0.1:8080,
// test/servers/http.sh) and, for what nginx does not show (interim responses, a chunked body
// with extensions and trailers, a kept-alive connection closed by the server, octets past the
// response), against scripted servers of the test's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';
import { ChunkedDecoder, framingOf, parseHead, MAX_HEAD } from '../../../src/clients/http/wire.js';
import type { HttpExchange } from '../../../src/clients/types.js';
import { serversDir, readAll } from '../../helpers.js';

const NGINX = 'http://127.0.0.1:8080';
const W = 'test:80';

function head(text: string) {
  return parseHead(Buffer.from(text, 'latin1'), W);
}
function refused(f: () => unknown, pattern: RegExp) {
  assert.throws(f, (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error' && pattern.test(e.message));
}

// RFC 9112 4 (status line), 5 (field lines): [head, status, message, fields].
const HEADS: [string, number, string, Record<string, string[]>][] = [
  ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n', 200, 'OK', { 'content-length': ['2'] }],
  ['HTTP/1.0 404 Not Found\r\n\r\n', 404, 'Not Found', {}],
  ['HTTP/1.1 204 \r\n\r\n', 204, '', {}],
  ['HTTP/1.1 204\r\n\r\n', 204, '', {}],
  ['HTTP/1.1 301 Moved\r\nLocation: /a\r\nlocation: /b\r\n\r\n', 301, 'Moved', { location: ['/a', '/b'] }],
  ['HTTP/1.1 200 OK\r\nX-Pad:   spaced value \t\r\n\r\n', 200, 'OK', { 'x-pad': ['spaced value'] }],
  ['HTTP/1.1 200 OK\r\nX-Empty:\r\n\r\n', 200, 'OK', { 'x-empty': [''] }],
];
for (const [text, status, message, fields] of HEADS) {
  test(`RFC 9112 4, 5: ${JSON.stringify(text.split('\r\n')[0])} is read`, () => {
    const h = head(text)!;
    assert.equal(h.status, status);
    assert.equal(h.message, message);
    assert.deepEqual(Object.fromEntries(h.fields), fields);
    assert.equal(h.length, Buffer.byteLength(text, 'latin1'));
  });
}

// Refused as Node's parser (llhttp) refuses them: never a guess.
const BAD_HEADS: [string, RegExp][] = [
  ['HTTP/2 200 OK\r\n\r\n', /status line/],
  ['HTTP/1.1 20 OK\r\n\r\n', /status line/],
  ['ICY 200 OK\r\n\r\n', /not HTTP/],
  ['HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n', /header line/],
  ['HTTP/1.1 200 OK\r\n folded: x\r\n\r\n', /header line/],
  ['HTTP/1.1 200 OK\r\nX: a\r\n  folded\r\n\r\n', /header line/],
  ['HTTP/1.1 200 OK\r\nX: a\x00b\r\n\r\n', /control character/],
  ['HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n', /control character/],
  ['HTTP/1.1 200 OK\nX: bare LF\r\n\r\n', /status line/],
  ['HTTP/1.1 200 OK\nX: y\n\n', /CR LF/],
  ['HTTP/1.1 200 OK\r\nX: y\n', /CR LF/],
  ['HTTP/1.1 200 OK\r\nNo colon\r\n\r\n', /header line/],
];
for (const [text, pattern] of BAD_HEADS) {
  test(`RFC 9112 2.2, 5: ${JSON.stringify(text)} is a protocol error`, () => refused(() => head(text), pattern));
}

test('RFC 9112 2.1: a head is waited for until its blank line, within 16 KiB; past that, an error', () => {
  assert.equal(head('HTTP/1.1 200 OK\r\nX: y\r\n'), null);
  assert.equal(head('HTTP/1.'), null);
  refused(() => head('GARBAGE'), /not HTTP/);
  const long = 'HTTP/1.1 200 OK\r\n' + 'X-Filler: yes\r\n'.repeat(MAX_HEAD / 15);
  refused(() => head(long), /16 KiB/);
  refused(() => head(long + '\r\n'), /16 KiB/);
  // Just within: a head of exactly MAX_HEAD octets is read.
  const line = 'HTTP/1.1 200 OK\r\n';
  const pad = MAX_HEAD - line.length - 'X: \r\n\r\n'.length;
  assert.equal(head(line + 'X: ' + 'a'.repeat(pad) + '\r\n\r\n')?.length, MAX_HEAD);
});

test('RFC 9112 2.1: a head read in two pieces, cut at every octet, is the head read whole', () => {
  const text = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: b\r\n\r\nok';
  const whole = head(text)!;
  const buf = Buffer.from(text, 'latin1');
  for (let i = 1; i < buf.length; i++) {
    const first = parseHead(buf.subarray(0, i), W);
    if (first !== null) continue;
    assert.deepEqual(parseHead(buf, W, i), whole, `cut at ${i}`);
  }
  // A bare LF just after the cut is still found; one just before it was refused with the first piece.
  const lf = Buffer.from('HTTP/1.1 200 OK\r\nX: y\n', 'latin1');
  refused(() => parseHead(lf, W, lf.length - 1), /CR LF/);
});

// RFC 9112 6.3: [head, framing] for the response to a GET.
const FRAMINGS: [string, object | RegExp][] = [
  ['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n', { kind: 'length', length: 10 }],
  ['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', { kind: 'length', length: 0 }],
  ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', { kind: 'chunked' }],
  ['HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n', { kind: 'chunked' }],
  ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n', { kind: 'close' }],
  ['HTTP/1.1 200 OK\r\n\r\n', { kind: 'close' }],
  ['HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n', { kind: 'none' }],
  ['HTTP/1.1 304 Not Modified\r\n\r\n', { kind: 'none' }],
  ['HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551615\r\n\r\n', { kind: 'length', length: 2 ** 64 }],
  ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n', /both Transfer-Encoding/],
  ['HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n', /Content-Length/],
  ['HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\n', /Content-Length/],
  ['HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /Content-Length/],
  ['HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n', /Content-Length/],
  ['HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551616\r\n\r\n', /Content-Length/],
];
for (const [text, want] of FRAMINGS) {
  test(`RFC 9112 6.3: the body of ${JSON.stringify(text.split('\r\n').slice(0, 3).join(' | '))}`, () => {
    if (want instanceof RegExp) refused(() => framingOf(head(text)!, W), want);
    else assert.deepEqual(framingOf(head(text)!, W), want);
  });
}

/** Decodes `coded` fed in pieces cut at `cuts`; the body, and what followed the coding. */
function decode(coded: string, cuts: number[] = []): { body: string; rest: string | null } {
  const d = new ChunkedDecoder();
  const bytes = Buffer.from(coded, 'latin1');
  const out: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (d.done) break;
    out.push(...d.feed(bytes.subarray(at, cut), W));
    at = cut;
  }
  assert.ok(d.done, 'the coding ended');
  const rest = d.rest === null ? null : d.rest.toString('latin1') + bytes.subarray(at).toString('latin1');
  return { body: Buffer.concat(out).toString('latin1'), rest };
}

test('RFC 9112 7.1: chunked, cut at every octet, gives the same body (extensions and trailers passed over)', () => {
  const coded = '5;name=value\r\nhello\r\n7;ext\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n';
  assert.deepEqual(decode(coded), { body: 'hello, world', rest: null });
  for (let i = 1; i < coded.length; i++) assert.equal(decode(coded, [i]).body, 'hello, world', `cut at ${i}`);
  for (let i = 1; i < coded.length; i += 3)
    for (let j = i + 1; j < coded.length; j += 5) assert.equal(decode(coded, [i, j]).body, 'hello, world');
  // A chunk-size line of exactly 4 KiB (CR LF included) is read; one octet more is refused (below).
  assert.deepEqual(decode('1;' + 'e'.repeat(4092) + '\r\nx\r\n0\r\n\r\n'), { body: 'x', rest: null });
  // A trailer section of exactly 16 KiB of field lines (CR LF not counted) is read; a field line
  // more is refused. Each line within the 4 KiB bound: four of 4,094 octets and one of 8.
  const trailer = ['T0', 'T1', 'T2', 'T3'].map((n) => `${n}: ${'v'.repeat(4090)}\r\n`).join('') + 'T4: vvvv\r\n';
  assert.deepEqual(decode(`0\r\n${trailer}\r\n`), { body: '', rest: null });
  refused(() => new ChunkedDecoder().feed(Buffer.from(`0\r\n${trailer}T:\r\n\r\n`, 'latin1'), W), /16 KiB/);
  // Leading zeros, as llhttp reads them.
  assert.deepEqual(decode('00000000000002\r\nab\r\n0\r\n\r\n'), { body: 'ab', rest: null });
  // Upper-case hex; what follows the last chunk's trailer section is not body.
  assert.deepEqual(decode('A\r\n0123456789\r\n0\r\n\r\nHTTP/1.1'), { body: '0123456789', rest: 'HTTP/1.1' });
});

const BAD_CHUNKED: [string, RegExp][] = [
  ['G\r\nx\r\n0\r\n\r\n', /chunk size/],
  ['\r\n', /chunk size/],
  ['-1\r\n', /chunk size/],
  ['5\r\nhelloXX\r\n', /longer than its size/],
  ['5\nhello\r\n', /CR LF/],
  ['0\r\nbad trailer\r\n\r\n', /trailer line/],
  ['1;' + 'e'.repeat(4093) + '\r\n', /4 KiB/],
  // White space in a chunk size, refused as llhttp refuses it (a known way to smuggle).
  ['2 \r\nab\r\n0\r\n\r\n', /chunk size/],
  ['2\t\r\nab\r\n0\r\n\r\n', /chunk size/],
  ['2 ;a=b\r\nab\r\n0\r\n\r\n', /chunk size/],
  ['20000000000000\r\n', /chunk size/],
];
for (const [coded, pattern] of BAD_CHUNKED) {
  test(`RFC 9112 7.1: chunked ${JSON.stringify(coded.slice(0, 24))} is a protocol error`, () =>
    refused(() => new ChunkedDecoder().feed(Buffer.from(coded, 'latin1'), W), pattern));
}

/** A scripted server: `answer` gets each request's head and the socket, and the count of connections. */
async function scripted(answer: (request: string, socket: net.Socket, n: number) => void) {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    // A client that closes with octets unread resets the connection: no error of the test's.
    s.on('error', () => {});
    const n = ++connections;
    let got = '';
    s.on('data', (d) => {
      got += d.toString('latin1');
      let end;
      while ((end = got.indexOf('\r\n\r\n')) >= 0) {
        const req = got.slice(0, end + 4);
        got = got.slice(end + 4);
        answer(req, s, n);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    get connections() {
      return connections;
    },
    /** Resolves once every connection the client made is closed (fails the test after 2 s). */
    async allClosed() {
      const deadline = Date.now() + 2000;
      while (sockets.size > 0) {
        if (Date.now() > deadline) throw new Error(`${sockets.size} socket(s) still open`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function get(url: string, extra: object = {}) {
  const exchanges: HttpExchange[] = [];
  const r = await open(url, {
    gateway: false,
    timeout: 2000,
    env: {},
    httpCapture: (e) => exchanges.push(e),
    ...extra,
  });
  const body = Buffer.from(await readAll(r.body)).toString('latin1');
  const whole = await Promise.all(exchanges.map((e) => e.ended));
  const received = exchanges.map((e) => Buffer.concat(e.received).toString('latin1'));
  return { r, body, whole, received, exchanges };
}

test('RFC 9112 9.3: requests in turn to one server share a kept-alive connection (nginx)', async () => {
  const root = join(serversDir(), 'http', 'root');
  for (const path of ['/hello.txt', '/dir/inner.txt', '/hello.txt']) {
    const { body, whole, received, exchanges } = await get(`${NGINX}${path}`);
    assert.equal(body, readFileSync(join(root, path.slice(1)), 'latin1'));
    assert.deepEqual(whole, [true]);
    // The exchange is the octets of the connection: the request as sent, the response as read.
    assert.match(
      Buffer.concat(exchanges[0]!.sent).toString(),
      new RegExp(`^GET ${path} HTTP/1\\.1\\r\\nHost: 127\\.0\\.0\\.1:8080\\r\\n`),
    );
    assert.match(received[0]!, /^HTTP\/1\.1 200 OK\r\n/);
    assert.ok(received[0]!.endsWith('\r\n\r\n' + body));
    assert.equal(exchanges[0]!.ip, '127.0.0.1');
  }
});

test('RFC 9112 9.3: a fake sees one connection for three GETs, and a new one after Connection: close', async () => {
  const fake = await scripted((req, s) => {
    const close = req.startsWith('GET /close');
    s.write(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\n${close ? 'Connection: close\r\n' : ''}\r\nok`);
    if (close) s.end();
  });
  try {
    for (const p of ['/a', '/b', '/c']) assert.equal((await get(fake.url(p))).body, 'ok');
    assert.equal(fake.connections, 1);
    assert.equal((await get(fake.url('/close'))).body, 'ok');
    assert.equal((await get(fake.url('/d'))).body, 'ok');
    assert.equal(fake.connections, 2);
  } finally {
    await fake.close();
  }
});

test('RFC 9112 9.3.1: a kept-alive connection the server closed is replaced, the GET sent again once', async () => {
  // The first connection answers once and stays open, then closes at the next request without a
  // word (its keep-alive time ran out as the request went): the GET goes again on a new one.
  const seen: number[] = [];
  const fake = await scripted((_req, s, n) => {
    seen.push(n);
    if (n === 1 && seen.length > 1) return void s.destroy();
    s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
  });
  try {
    assert.equal((await get(fake.url('/a'))).body, 'ok');
    const again = await get(fake.url('/b'));
    assert.equal(again.body, 'ok');
    assert.deepEqual(seen, [1, 1, 2]);
    // One exchange for the archive: the request once, as sent on the new connection, and its answer.
    assert.equal(again.exchanges.length, 1);
    assert.deepEqual(again.whole, [true]);
    assert.equal(again.exchanges[0]!.sent.length, 1);
    assert.match(Buffer.concat(again.exchanges[0]!.sent).toString(), /^GET \/b HTTP\/1\.1\r\n/);
    assert.deepEqual(again.received, ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok']);
  } finally {
    await fake.close();
  }
});

test('a connection closed before the answer on a new connection is connection-closed, not tried again', async () => {
  const fake = await scripted((_req, s) => s.destroy());
  try {
    await assert.rejects(open(fake.url('/gone'), { gateway: false, timeout: 2000, env: {} }), (e: unknown) => {
      assert.ok(e instanceof LocatorError);
      assert.equal(e.code, 'connection-closed');
      return true;
    });
    assert.equal(fake.connections, 1);
  } finally {
    await fake.close();
  }
});

test('RFC 9112 7.1: a chunked body with extensions and a trailer; the exchange keeps it as received', async () => {
  const reply =
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
    '5;x=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Checksum: 1\r\n\r\n';
  const fake = await scripted((_req, s) => {
    // In pieces, as a slow server sends it.
    for (let i = 0; i < reply.length; i += 7) s.write(reply.slice(i, i + 7));
  });
  try {
    const { r, body, whole, received } = await get(fake.url('/c'));
    assert.equal(body, 'hello, world');
    assert.equal(r.meta.size, null);
    assert.deepEqual(whole, [true]);
    assert.deepEqual(received, [reply]);
  } finally {
    await fake.close();
  }
});

test('RFC 9110 15.2: interim responses (100, 103) before the final one are passed over', async () => {
  const reply =
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody';
  const fake = await scripted((_req, s) => s.write(reply));
  try {
    const { r, body, received } = await get(fake.url('/i'));
    assert.equal(r.meta.status, 200);
    assert.equal(body, 'body');
    assert.deepEqual(received, [reply]);
  } finally {
    await fake.close();
  }
});

test('RFC 9112 6.3: octets past the response are not the exchange, and the connection is not used again', async () => {
  const fake = await scripted((_req, s) =>
    s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n'),
  );
  try {
    const first = await get(fake.url('/x'));
    assert.equal(first.body, 'ok');
    assert.deepEqual(first.received, ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok']);
    assert.equal((await get(fake.url('/y'))).body, 'ok');
    assert.equal(fake.connections, 2);
  } finally {
    await fake.close();
  }
});

test('RFC 9112 6.3: HTTP/1.0 without keep-alive, no length: the body is what comes before the close', async () => {
  const fake = await scripted((_req, s) => s.end('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end'));
  try {
    const { r, body, whole } = await get(fake.url('/z'));
    assert.equal(body, 'to the end');
    assert.equal(r.meta.contentType, 'text/plain');
    assert.deepEqual(whole, [true]);
  } finally {
    await fake.close();
  }
});

test('RFC 9112 6.3: a body cut before its Content-Length is connection-closed, and its exchange not whole', async () => {
  const fake = await scripted((_req, s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
  try {
    const exchanges: HttpExchange[] = [];
    const r = await open(fake.url('/cut'), {
      gateway: false,
      timeout: 2000,
      env: {},
      httpCapture: (e) => exchanges.push(e),
    });
    await assert.rejects(readAll(r.body), (e: unknown) => {
      assert.ok(e instanceof LocatorError);
      assert.equal(e.code, 'connection-closed');
      assert.match(e.message, /announced 10 octets \(Content-Length\) and closed the connection after 3/);
      return true;
    });
    assert.deepEqual(await Promise.all(exchanges.map((e) => e.ended)), [false]);
  } finally {
    await fake.close();
  }
});

test('a conflicting head (Transfer-Encoding and Content-Length) is refused, its connection closed', async () => {
  const fake = await scripted((_req, s) =>
    s.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n'),
  );
  try {
    await assert.rejects(open(fake.url('/smuggle'), { gateway: false, timeout: 2000, env: {} }), (e: unknown) => {
      assert.ok(e instanceof LocatorError);
      assert.equal(e.code, 'protocol-error');
      return true;
    });
  } finally {
    await fake.close();
  }
});

test('a body not read to its end closes its connection: the next GET has a new one', async () => {
  const fake = await scripted((_req, s) =>
    s.write('HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n' + 'x'.repeat(100000)),
  );
  try {
    const r = await open(fake.url('/big'), { gateway: false, timeout: 2000, env: {} });
    const reader = r.body.getReader();
    await reader.read();
    await reader.cancel();
    assert.equal((await get(fake.url('/again'))).body.length, 100000);
    assert.equal(fake.connections, 2);
  } finally {
    await fake.close();
  }
});

test('RFC 1738 6: a kept-alive connection is not reused by a request whose policy refuses its address', async (t) => {
  // A name that resolves to loopback: a literal or "localhost" is refused before any lookup, so
  // the machine's own name is used when it resolves there (it does in /etc/hosts on Debian).
  const name = hostname();
  const resolved = await lookup(name).catch(() => null);
  if (resolved === null || !/^127\./.test(resolved.address)) {
    t.skip(`the machine's name ${JSON.stringify(name)} does not resolve to a loopback address`);
    return;
  }
  const fake = await scripted((_req, s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
  try {
    const url = fake.url('/a').replace('127.0.0.1', name);
    assert.equal((await get(url)).body, 'ok');
    await assert.rejects(
      open(url, { gateway: false, timeout: 2000, env: {}, policy: { refusePrivateAddresses: true } }),
      (e: unknown) => e instanceof LocatorError && e.code === 'policy-refused' && /loopback/.test(e.message),
    );
    assert.equal(fake.connections, 1);
  } finally {
    await fake.close();
  }
});

test('a kept-alive connection reset while it waits in the pool is dropped, no error escapes', async () => {
  const fake = await scripted((_req, s, n) => {
    s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    if (n === 1) setTimeout(() => s.resetAndDestroy(), 30);
  });
  try {
    assert.equal((await get(fake.url('/a'))).body, 'ok');
    await new Promise((r) => setTimeout(r, 120));
    assert.equal((await get(fake.url('/b'))).body, 'ok');
    assert.equal(fake.connections, 2);
  } finally {
    await fake.close();
  }
});

test('a connection paused by a slow reader is not pooled with what the server sends after the response', async () => {
  const big = 'x'.repeat(300 * 1024);
  const fake = await scripted((req, s, n) => {
    if (n === 1) {
      s.write(`HTTP/1.1 200 OK\r\nContent-Length: ${big.length}\r\n\r\n${big}`);
      // Sent on the connection while it would wait in the pool: never an answer to the next GET.
      setTimeout(() => s.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'), 150);
    } else s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    void req;
  });
  try {
    const r = await open(fake.url('/big'), { gateway: false, timeout: 2000, env: {} });
    // A slow reader: the read-ahead bound pauses the socket before the response's end.
    await new Promise((res) => setTimeout(res, 100));
    assert.equal((await readAll(r.body)).length, big.length);
    await new Promise((res) => setTimeout(res, 200));
    const next = await get(fake.url('/next'));
    assert.equal(next.r.meta.status, 200);
    assert.equal(next.body, 'ok');
    assert.equal(fake.connections, 2);
  } finally {
    await fake.close();
  }
});

test('the name lookup is bounded by the timeout and the signal', async () => {
  const lookup = dns.lookup;
  const pending: ReturnType<typeof setTimeout>[] = [];
  // A resolver that takes 3 s for one name (its timers hold the event loop, as a real lookup does).
  dns.lookup = ((name: string, ...rest: unknown[]) => {
    const cb = rest.at(-1) as (e: Error | null, a: string, f: number) => void;
    if (name === 'slow.test') return void pending.push(setTimeout(() => cb(null, '127.0.0.1', 4), 3000));
    return (lookup as (...a: unknown[]) => void)(name, ...rest);
  }) as typeof dns.lookup;
  syncBuiltinESMExports();
  try {
    let t0 = Date.now();
    await assert.rejects(
      open('http://slow.test:18080/', { gateway: false, timeout: 200, env: {} }),
      (e: unknown) => e instanceof LocatorError && e.code === 'timeout',
    );
    assert.ok(Date.now() - t0 < 2000, `timed out after ${Date.now() - t0} ms`);
    t0 = Date.now();
    await assert.rejects(
      open('http://slow.test:18080/', { gateway: false, timeout: Infinity, env: {}, signal: AbortSignal.timeout(100) }),
      (e: unknown) => e instanceof LocatorError && e.code === 'aborted',
    );
    assert.ok(Date.now() - t0 < 2000, `aborted after ${Date.now() - t0} ms`);
  } finally {
    for (const t of pending) clearTimeout(t);
    dns.lookup = lookup;
    syncBuiltinESMExports();
  }
});

test('the capture is told once a connection is had, its ended settling true when the response is read', async () => {
  const fake = await scripted((_req, s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
  try {
    const kept: Promise<boolean>[] = [];
    const r = await open(fake.url('/e'), {
      gateway: false,
      timeout: 2000,
      env: {},
      httpCapture: (e) => kept.push(e.ended),
    });
    assert.equal((await readAll(r.body)).toString(), 'ok');
    assert.deepEqual(await Promise.all(kept), [true]);
  } finally {
    await fake.close();
  }
});

test("the reader's chunks are its own: changing them leaves the captured octets as received", async () => {
  const fake = await scripted((_req, s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody'));
  try {
    const exchanges: HttpExchange[] = [];
    const r = await open(fake.url('/m'), {
      gateway: false,
      timeout: 2000,
      env: {},
      httpCapture: (e) => exchanges.push(e),
    });
    const reader = r.body.getReader();
    for (let c = await reader.read(); !c.done; c = await reader.read()) c.value.fill(0x21);
    await exchanges[0]!.ended;
    assert.equal(
      Buffer.concat(exchanges[0]!.received).toString('latin1'),
      'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody',
    );
  } finally {
    await fake.close();
  }
});

test('a capture callback that throws fails the request with its error and leaves no socket open', async () => {
  const fake = await scripted((_req, s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
  try {
    await assert.rejects(
      open(fake.url('/t'), {
        gateway: false,
        timeout: 2000,
        env: {},
        httpCapture: () => {
          throw new Error('capture failed');
        },
      }),
      /capture failed/,
    );
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('a signal aborted before the request takes no pooled connection and tells no capture', async () => {
  const fake = await scripted((_req, s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
  try {
    assert.equal((await get(fake.url('/a'))).body, 'ok');
    const told: HttpExchange[] = [];
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      open(fake.url('/b'), {
        gateway: false,
        timeout: 2000,
        env: {},
        signal: ac.signal,
        httpCapture: (e) => told.push(e),
      }),
      (e: unknown) => e instanceof LocatorError && e.code === 'aborted',
    );
    assert.equal(told.length, 0);
    assert.equal((await get(fake.url('/c'))).body, 'ok');
    assert.equal(fake.connections, 1);
  } finally {
    await fake.close();
  }
});

test('a head whose lines end in LF alone is a protocol error at once, not a wait for the timeout', async () => {
  const fake = await scripted((_req, s) => s.write('HTTP/1.1 200 OK\nContent-Length: 2\n\nok'));
  try {
    const t0 = Date.now();
    await assert.rejects(
      open(fake.url('/lf'), { gateway: false, timeout: 5000, env: {} }),
      (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error' && /CR LF/.test(e.message),
    );
    assert.ok(Date.now() - t0 < 2000);
  } finally {
    await fake.close();
  }
});

test("a chunked body cut short counts the body's octets in its message", async () => {
  const fake = await scripted((_req, s) =>
    s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n'),
  );
  try {
    const r = await open(fake.url('/cut'), { gateway: false, timeout: 2000, env: {} });
    await assert.rejects(readAll(r.body), (e: unknown) => {
      assert.ok(e instanceof LocatorError);
      assert.equal(e.code, 'connection-closed');
      assert.match(e.message, /in the middle of the HTTP body, after 5 octets/);
      return true;
    });
  } finally {
    await fake.close();
  }
});

test('RFC 9110 5.5: a host that would end the Host line is refused before anything is sent', async () => {
  await assert.rejects(
    open('http://a\u010d\u010ax.example/', {
      gateway: false,
      timeout: 2000,
      env: {},
      policy: { allowViolations: true },
    }),
    (e: unknown) => (e instanceof TypeError && /Host/.test(e.message)) || e instanceof LocatorError,
  );
});
