// The http client (RFC 1738 3.3) against nginx on 127.0.0.1:8080 (test/servers/http.sh), and a
// node:http server of the test's own for what nginx does not show (headers received, redirects
// to other schemes, stalls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import net, { type AddressInfo } from 'node:net';
import { open } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';
import { explain } from '../../../src/operations/build.js';
import { serversDir, readAll } from '../../helpers.js';

const NGINX = 'http://127.0.0.1:8080';
const root = () => join(serversDir(), 'http', 'root');

test('RFC 1738 3.3: a file from nginx, byte for byte, with its size and type', async () => {
  const r = await open(`${NGINX}/hello.txt`, { gateway: false });
  assert.equal(r.meta.status, 200);
  assert.equal(r.meta.size, readFileSync(join(root(), 'hello.txt')).length);
  assert.match(r.meta.contentType ?? '', /^text\/plain/);
  assert.deepEqual(await readAll(r.body), readFileSync(join(root(), 'hello.txt')));
});

test('RFC 1738 3.3: an encoded space in the path reaches the file "with space.txt"', async () => {
  const r = await open(`${NGINX}/with%20space.txt`, { gateway: false });
  assert.equal((await readAll(r.body)).toString(), 'spaced\n');
});

test('RFC 1738 3.3: 404 is a typed error (http-status), and the stream is never opened', async () => {
  await assert.rejects(
    open(`${NGINX}/missing.txt`, { gateway: false }),
    (e: unknown) => e instanceof LocatorError && e.code === 'http-status' && /404/.test(e.message),
  );
});

test('a redirect within http is followed (nginx /redirect -> /hello.txt)', async () => {
  const lines: string[] = [];
  const r = await open(`${NGINX}/redirect`, {
    gateway: false,
    transcript: (l) => lines.push(`${l.direction} ${l.text}`),
  });
  assert.equal((await readAll(r.body)).toString(), 'plain text\n');
  assert.ok(
    lines.some((l) => l.startsWith('info HTTP 302: redirect 1 to http://127.0.0.1:8080/hello.txt')),
    lines.join('\n'),
  );
  assert.deepEqual(r.meta.redirects, [`${NGINX}/redirect`]);
});

function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void>; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} host=${req.headers.host}`);
    handler(req, res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        seen,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    }),
  );
}

test('RFC 1738 3.3: the request line is "/" hpath "?" search, never the fragment; it is what explain() says', async () => {
  const s = await serve((_q, res) => res.end('ok'));
  try {
    const href = `${s.url}/a/b%20c;p?x+y#frag`;
    const r = await open(href, { gateway: false });
    await readAll(r.body);
    const port = new URL(s.url).port;
    assert.deepEqual(s.seen, [`GET /a/b%20c;p?x+y host=127.0.0.1:${port}`]);
    assert.equal(explain(href).steps[0], 'GET /a/b%20c;p?x+y HTTP/1.1');
  } finally {
    await s.close();
  }
});

test('a redirect to another scheme is refused by the default policy (no cross-scheme redirects)', async () => {
  const s = await serve((_q, res) => {
    res.writeHead(302, { Location: 'ftp://127.0.0.1:2121/hello.txt' });
    res.end();
  });
  try {
    await assert.rejects(
      open(`${s.url}/x`, { gateway: false }),
      (e: unknown) => e instanceof LocatorError && e.code === 'policy-refused',
    );
  } finally {
    await s.close();
  }
});

test('a server that stalls: the timeout fires as a typed error', async () => {
  const s = await serve(() => {
    /* never answers */
  });
  try {
    const t0 = Date.now();
    await assert.rejects(
      open(`${s.url}/slow`, { gateway: false, timeout: 300 }),
      (e: unknown) => e instanceof LocatorError && e.code === 'timeout',
    );
    assert.ok(Date.now() - t0 < 5000);
  } finally {
    await s.close();
  }
});

test('maxBytes: a body over the limit errors the stream with too-large', async () => {
  const r = await open(`${NGINX}/hello.txt`, { gateway: false, maxBytes: 4 });
  await assert.rejects(readAll(r.body), (e: unknown) => e instanceof LocatorError && e.code === 'too-large');
});

test('RFC 1738 4: a gateway receives the full URL (without the fragment) in its request line', async () => {
  const s = await serve((_q, res) => res.end('through the gateway'));
  try {
    const r = await open('gopher://gopher.example.org/0about#top', {
      gateway: { proxies: { gopher: s.url }, noProxy: [] },
    });
    assert.equal((await readAll(r.body)).toString(), 'through the gateway');
    assert.deepEqual(s.seen, ['GET gopher://gopher.example.org/0about host=gopher.example.org']);
  } finally {
    await s.close();
  }
});

test('RFC 1738 4: gateways from the environment: lower case first, no_proxy, HTTP_PROXY ignored as CGI', async () => {
  const s = await serve((_q, res) => res.end('gw'));
  try {
    const env = { gopher_proxy: s.url, GOPHER_PROXY: 'http://127.0.0.1:9/', no_proxy: '.internal.example' };
    const r = await open('gopher://far.example.org/0x', { env });
    assert.equal((await readAll(r.body)).toString(), 'gw');
    await assert.rejects(
      open('gopher://a.internal.example:1/0x', { env, timeout: 500 }),
      (e: unknown) => e instanceof LocatorError && e.code !== 'http-status',
      'no_proxy hosts go direct',
    );
  } finally {
    await s.close();
  }
});

/** A raw server that answers every connection with `head` and 3 octets of body, then closes. */
async function rawHead(head: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = net.createServer((s) => {
    s.on('error', () => {});
    s.once('data', () => s.end(`${head}\r\n\r\nabc`));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/x`, close: () => new Promise((r) => server.close(() => r())) };
}

for (const [length, size] of [
  ['3', 3],
  ['9007199254740991', 9007199254740991], // 2^53-1: the largest a double holds exactly
  ['9007199254740993', null], // 2^53+1: Number() gives 9007199254740992
  ['18446744073709551615', null], // 2^64-1, the most Node's parser takes
] as const) {
  test(`RFC 9110 8.6: Content-Length ${length} is meta.size ${size}, exact or unknown, never rounded`, async () => {
    const s = await rawHead(`HTTP/1.1 200 OK\r\nContent-Length: ${length}`);
    try {
      const r = await open(s.url, { gateway: false });
      assert.equal(r.meta.size, size);
      await r.body.cancel();
    } finally {
      await s.close();
    }
  });
}
