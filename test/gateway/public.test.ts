// A gateway for the public (docs/gateway.md, "A public gateway"): /robots.txt, X-Robots-Tag,
// `public` refusing private and loopback URLs even bound to loopback, the request rate per
// client (429 with Retry-After), and the client named by a trusted reverse proxy only. Raw
// requests from loopback addresses of our choosing (127.0.0.2, 127.0.0.3 ... are this machine too)
// with made-up forwarding headers; objects from pygopherd (127.0.0.1:7070).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startGateway, type Gateway, type GatewayOptions } from '../../src/gateway/server.js';
import { TrustedProxies, forwardedFor, forwardedProto, xForwardedFor } from '../../src/gateway/clients.js';
import { OwnNames } from '../../src/gateway/config.js';
import { withGateway } from './request.js';

const PY = 'gopher://127.0.0.1:7070';

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request to the gateway on a fresh connection from the local address `from`. */
function get(
  g: Gateway,
  path: string,
  options: { from?: string; headers?: Record<string, string>; method?: string } = {},
): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: g.host,
        port: g.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.from ?? '127.0.0.1',
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const page = (url: string) => `/?url=${encodeURIComponent(url)}`;

test('/robots.txt keeps every robot off by default; index lets them in; robots serves the text given', async () => {
  await withGateway({}, async (g) => {
    const r = await get(g, '/robots.txt');
    assert.equal(r.status, 200);
    assert.match(r.headers['content-type'] ?? '', /^text\/plain/);
    assert.equal(r.text, 'User-agent: *\nDisallow: /\n');
    const h = await get(g, '/robots.txt', { method: 'HEAD' });
    assert.equal(h.status, 200);
    assert.equal(h.headers['content-length'], String(r.text.length));
    assert.equal(h.text, '');
  });
  await withGateway({ index: true }, async (g) => {
    assert.equal((await get(g, '/robots.txt')).text, 'User-agent: *\nDisallow:\n');
  });
  await withGateway({ robots: 'User-agent: *\nDisallow: /?url=ftp\n' }, async (g) => {
    assert.equal((await get(g, '/robots.txt')).text, 'User-agent: *\nDisallow: /?url=ftp\n');
  });
});

test('public: X-Robots-Tag on every answer (pages, errors, robots.txt); none without public or with index', async () => {
  await withGateway({ public: true, allowPrivate: true }, async (g) => {
    for (const path of ['/', page(`${PY}/1/`), page(`${PY}/0/no-such-file`), '/robots.txt', '/nowhere']) {
      const r = await get(g, path);
      assert.equal(r.headers['x-robots-tag'], 'noindex, nofollow', `${path}: ${r.status}`);
    }
  });
  await withGateway({}, async (g) => {
    assert.equal((await get(g, page(`${PY}/1/`))).headers['x-robots-tag'], undefined);
  });
  await withGateway({ public: true, index: true }, async (g) => {
    assert.equal((await get(g, '/')).headers['x-robots-tag'], undefined);
  });
});

test('public: bound to loopback, URLs naming loopback addresses are refused (403) unless allowPrivate; file: refused', async () => {
  await withGateway({ public: true }, async (g) => {
    const r = await get(g, page(`${PY}/1/`));
    assert.equal(r.status, 403);
    assert.match(r.text, /policy-refused|private|loopback/);
    assert.equal((await get(g, page('file:///etc/hostname'))).status, 403);
  });
  await withGateway({ public: true, allowPrivate: true }, async (g) => {
    assert.equal((await get(g, page(`${PY}/1/`))).status, 200);
  });
  // Without public, bound to loopback, the reader's own gateway opens them.
  await withGateway({}, async (g) => {
    assert.equal((await get(g, page(`${PY}/1/`))).status, 200);
  });
});

test('rate: a client past its bucket gets 429 with Retry-After; another client is still served', async () => {
  await withGateway({ rate: 1, burst: 3 }, async (g) => {
    for (let i = 0; i < 3; i++) assert.equal((await get(g, '/', { from: '127.0.0.2' })).status, 200, `request ${i}`);
    const over = await get(g, '/', { from: '127.0.0.2' });
    assert.equal(over.status, 429);
    assert.match(over.text, /gateway-busy/);
    const after = Number(over.headers['retry-after']);
    assert.ok(after >= 1 && after <= 2, `Retry-After ${over.headers['retry-after']}`);
    assert.equal((await get(g, '/', { from: '127.0.0.3' })).status, 200);
  });
  // public turns it on (2 a second, bursts of 20); rate 0 turns it off again.
  await withGateway({ public: true }, async (g) => {
    const all = await Promise.all(Array.from({ length: 25 }, () => get(g, '/robots.txt', { from: '127.0.0.4' })));
    assert.ok(all.filter((r) => r.status === 429).length >= 4, all.map((r) => r.status).join(' '));
  });
  await withGateway({ public: true, rate: 0 }, async (g) => {
    const all = await Promise.all(Array.from({ length: 25 }, () => get(g, '/robots.txt', { from: '127.0.0.4' })));
    assert.deepEqual(new Set(all.map((r) => r.status)), new Set([200]));
  });
});

test('trustProxy: the client is the rightmost untrusted entry of the header of a trusted proxy, never from others', async () => {
  const opts: GatewayOptions = { rate: 0.001, burst: 1, trustProxy: ['127.0.0.5', '10.9.0.0/16'] };
  // Through the trusted proxy 127.0.0.5: each client named is a bucket of its own.
  await withGateway(opts, async (g) => {
    const via = (xff: string) => get(g, '/', { from: '127.0.0.5', headers: { 'X-Forwarded-For': xff } });
    assert.equal((await via('192.0.2.1')).status, 200);
    assert.equal((await via('192.0.2.2')).status, 200);
    assert.equal((await via('192.0.2.1')).status, 429, 'the same client again');
    // A client that sends its own X-Forwarded-For: the proxy appends the address it saw; the
    // made-up entries to its left are not read.
    assert.equal((await via('203.0.113.7, 192.0.2.2')).status, 429, 'spoofed entry left of 192.0.2.2');
    // Entries of trusted proxies (a chain of them) are skipped.
    assert.equal((await via('192.0.2.3, 10.9.1.1')).status, 200);
    assert.equal((await via('192.0.2.3')).status, 429);
  });
  // From an untrusted address, the header is never read: every request is that address's.
  await withGateway(opts, async (g) => {
    const from6 = (xff: string) => get(g, '/', { from: '127.0.0.6', headers: { 'X-Forwarded-For': xff } });
    assert.equal((await from6('192.0.2.1')).status, 200);
    assert.equal((await from6('192.0.2.2')).status, 429, 'a made-up client is still 127.0.0.6');
  });
  // forwardedHeader 'forwarded' reads RFC 7239's header, and then X-Forwarded-For passes through unread.
  await withGateway({ ...opts, forwardedHeader: 'forwarded' }, async (g) => {
    const via = (h: Record<string, string>) => get(g, '/', { from: '127.0.0.5', headers: h });
    assert.equal((await via({ Forwarded: 'for=192.0.2.1;proto=http' })).status, 200);
    assert.equal((await via({ Forwarded: 'for="[2001:db8::1]:4711"' })).status, 200);
    assert.equal((await via({ Forwarded: 'for=198.51.100.1, for=192.0.2.1;by=10.9.0.1' })).status, 429);
    assert.equal((await via({ 'X-Forwarded-For': '192.0.2.9' })).status, 200, 'no Forwarded: the proxy itself');
    assert.equal((await via({ 'X-Forwarded-For': '192.0.2.10' })).status, 429, 'the proxy again, whatever its XFF');
  });
});

test('forwarding headers and trusted proxies, parsed', () => {
  assert.deepEqual(forwardedFor('for=192.0.2.60;proto=http;by=203.0.113.43'), ['192.0.2.60']);
  assert.deepEqual(forwardedFor('For="[2001:db8:cafe::17]:4711", for=192.0.2.43:80, for=unknown'), [
    '2001:db8:cafe::17',
    '192.0.2.43',
    'unknown',
  ]);
  assert.deepEqual(forwardedFor('for="_hidden;x", for=1.2.3.4'), ['_hidden;x', '1.2.3.4']);
  assert.deepEqual(xForwardedFor(' 203.0.113.195, 70.41.3.18 ,150.172.238.178'), [
    '203.0.113.195',
    '70.41.3.18',
    '150.172.238.178',
  ]);
  const t = new TrustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
  assert.ok(t.has('127.0.0.1') && t.has('::ffff:127.0.0.1') && t.has('10.2.3.4') && t.has('fd12::1'));
  assert.ok(!t.has('127.0.0.2') && !t.has('unknown') && !t.has('11.0.0.1') && !t.has('fe80::1'));
  for (const bad of ['localhost', '10.0.0.0/33', '1.2.3', '::1/129', ''])
    assert.throws(() => new TrustedProxies([bad]), /trusted proxy/, bad);
});

test('the scheme of a trusted proxy (Forwarded proto=, last element) and the origins of the gateway by scheme', async () => {
  assert.equal(forwardedProto('for=192.0.2.60;proto=https;by=203.0.113.43'), 'https');
  assert.equal(forwardedProto('for=1.2.3.4;proto=https, for=5.6.7.8;proto=http'), 'http', 'the nearest proxy');
  assert.equal(forwardedProto('for=1.2.3.4;proto=http, for="5.6.7.8;x";Proto="HTTPS"'), 'https');
  assert.equal(forwardedProto('for=1.2.3.4'), null);
  const names = new OwnNames(8070, ['gopher.example.org:80', 'gopher.example.org:443', 'lan'], false);
  assert.ok(names.origin('http://gopher.example.org') && names.origin('http://lan:8070'));
  assert.ok(names.origin('https://gopher.example.org', 'https'));
  assert.ok(names.origin('https://gopher.example.org:443', 'https'));
  assert.ok(!names.origin('https://gopher.example.org'), 'an https origin over plain http');
  assert.ok(!names.origin('http://gopher.example.org', 'https'), 'an http origin over https');
  assert.ok(!names.origin('https://lan', 'https') && !names.origin('https://evil.example', 'https'));
  assert.ok(names.host('gopher.example.org', 'https') && names.host('gopher.example.org'));
  // Through a trusted proxy with --forwarded-header forwarded: its proto= decides, never from another address.
  const g = await startGateway({
    port: 0,
    hostNames: ['gopher.example.org:443'],
    trustProxy: ['127.0.0.5'],
    forwardedHeader: 'forwarded',
  });
  try {
    const search = `/?url=${encodeURIComponent(`${PY}/7/search`)}&search=w`;
    const headers = { Host: 'gopher.example.org', Forwarded: 'for=192.0.2.1;proto=https' };
    const via = await get(g, search, { from: '127.0.0.5', headers });
    assert.equal(via.status, 303, via.text);
    assert.match(String(via.headers.location), /^https:\/\/gopher\.example\.org\/\?url=/);
    const other = await get(g, search, { from: '127.0.0.6', headers });
    assert.equal(other.status, 421, 'from an untrusted address the Host has no port 443, and no https');
  } finally {
    await g.close();
  }
});
