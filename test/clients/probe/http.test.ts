// The http probe (issue 18; RFC 1738 3.3, RFC 1945 8.2) against the real nginx of
// test/servers/http.sh (127.0.0.1:8080; /redirect answers 302 to /hello.txt), and an in-process
// server for what nginx does not do: refuse HEAD (405), redirect in a loop, answer 503.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { probe, explainProbe } from '../../../src/clients/index.js';
import { eachRow, serversDir } from '../../helpers.js';
import { OPTS, closedPort, sent } from './common.js';

serversDir();
const NGINX = 'http://127.0.0.1:8080';

let own: http.Server;
let base = '';
const methods: string[] = [];
before(async () => {
  own = http.createServer((req, res) => {
    methods.push(`${req.method} ${req.url}`);
    if (req.url === '/no-head') {
      if (req.method === 'HEAD') res.writeHead(405, { Allow: 'GET' }).end();
      else res.writeHead(200, { 'Content-Type': 'text/plain' }).end('x'.repeat(100_000));
    } else if (req.url === '/loop') res.writeHead(301, { Location: '/loop2' }).end();
    else if (req.url === '/loop2') res.writeHead(301, { Location: '/loop' }).end();
    else if (req.url === '/busy') res.writeHead(503).end();
    else if (req.url === '/moved-away') res.writeHead(301, { Location: '/gone' }).end();
    else if (req.url === 'gopher://gopher.example/0/x') res.writeHead(200).end('through the gateway');
    else if (req.url === '/gone') res.writeHead(410).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => own.close(() => resolve())));

// url | status | reply | temporary | section
const ROWS: Array<[string, string, string, boolean, string]> = [
  [`${NGINX}/hello.txt`, 'ok', '200', false, 'RFC 1945 8.2'],
  [`${NGINX}/dir/`, 'ok', '200', false, 'RFC 1945 8.2'],
  [`${NGINX}/with%20space.txt`, 'ok', '200', false, 'RFC 1738 3.3'],
  [`${NGINX}/nope.txt`, 'broken', '404', false, 'RFC 1945 9.4'],
];

eachRow(
  'http probe',
  ROWS,
  async ([url, status, reply, temporary]) => {
    const r = await probe(url, OPTS);
    assert.equal(r.status, status, r.reason);
    assert.equal(r.reply, reply);
    assert.equal(r.temporary, temporary);
    assert.match(sent(r.transcript)[0], /^HEAD \//);
  },
  { section: (row) => row[4] },
);

test('RFC 1945 9.3: a 302 of nginx is followed through the one loop: redirected, with the chain', async () => {
  const r = await probe(`${NGINX}/redirect`, OPTS);
  assert.equal(r.status, 'redirected');
  assert.deepEqual(r.redirects, [`${NGINX}/hello.txt`]);
  assert.equal(r.reply, '200');
  assert.deepEqual(
    sent(r.transcript).filter((l) => /^HEAD/.test(l)),
    ['HEAD /redirect HTTP/1.1', 'HEAD /hello.txt HTTP/1.1'],
  );
  assert.ok(r.transcript.some((l) => l.direction === 'info' && /HTTP 302: redirect 1 to/.test(l.text)));
});

test('RFC 1945 8.2: HEAD refused with 405: GET, its body not read', async () => {
  methods.length = 0;
  const r = await probe(`${base}/no-head`, OPTS);
  assert.equal(r.status, 'ok', r.reason);
  assert.equal(r.reply, '200');
  assert.deepEqual(methods, ['HEAD /no-head', 'GET /no-head']);
});

test('RFC 1945 9.3: a redirect loop is a broken link (redirect-loop), not a hang', async () => {
  const r = await probe(`${base}/loop`, OPTS);
  assert.equal(r.status, 'broken');
  assert.equal(r.code, 'redirect-loop');
  // the hops followed: /loop2's redirect back to /loop is refused before it is taken
  assert.deepEqual(r.redirects, [`${base}/loop2`]);
  assert.match(r.reason, /leads back to/);
});

test('RFC 7231 6.6.4: 503 is broken and temporary; 410 is broken and final', async () => {
  const busy = await probe(`${base}/busy`, OPTS);
  assert.deepEqual([busy.status, busy.reply, busy.temporary], ['broken', '503', true]);
  const gone = await probe(`${base}/gone`, OPTS);
  assert.deepEqual([gone.status, gone.reply, gone.temporary, gone.code], ['broken', '410', false, 'not-found']);
});

test('issue 18: an http URL whose port has no server is unreachable', async () => {
  const r = await probe(`http://127.0.0.1:${await closedPort()}/`, OPTS);
  assert.equal(r.status, 'unreachable');
  assert.equal(r.code, 'connect-failed');
});

test('issue 18: explainProbe(http) is HEAD, then GET when HEAD is refused', () => {
  assert.deepEqual(explainProbe('http://h.example:8080/a/b?c'), [
    'HEAD /a/b?c HTTP/1.1',
    'Host: h.example:8080',
    '[if HEAD is answered 405 or 501] GET /a/b?c HTTP/1.1, the body cancelled unread',
  ]);
});

test('RFC 1738 4: a scheme with a gateway configured is probed through it (GET of the full URL)', async () => {
  methods.length = 0;
  const gateway = { proxies: { gopher: `${base}/` }, noProxy: [] };
  const r = await probe('gopher://gopher.example/0/x', { ...OPTS, gateway });
  assert.equal(r.status, 'ok', r.reason);
  assert.deepEqual(methods, ['GET gopher://gopher.example/0/x']);
});

test('RFC 1945 9.3: a redirect to a missing object is broken, with the chain that led there', async () => {
  const r = await probe(`${base}/moved-away`, OPTS);
  assert.deepEqual([r.status, r.reply], ['broken', '410']);
  assert.deepEqual(r.redirects, [`${base}/gone`]);
});

test('issue 18: with followRedirects: false a redirect is not followed, and nothing is sent to its target', async () => {
  methods.length = 0;
  const r = await probe(`${base}/moved-away`, { ...OPTS, followRedirects: false });
  assert.equal(r.status, 'refused');
  assert.equal(r.code, 'redirect-not-followed');
  assert.deepEqual(methods, ['HEAD /moved-away']);
});
