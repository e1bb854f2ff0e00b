// Requests from pages of other sites (docs/gateway.md, "Requests from other sites"): the headers
// real browsers send with each kind of request, raw, against a recording fake port. Any page can
// make a browser send a GET to the gateway; the FLUSHALL line below is what an
// `<img src="http://127.0.0.1:8080/?url=gopher://127.0.0.1:6380/1FLUSHALL">` on another site
// would deliver to a Redis on 6380. The Chromium test (browser.test.ts) makes the same requests
// from a real page of another origin.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import type { FakeServer } from '../clients/gopher/fakes.js';
import { CHROME_UA, recordingTarget, request as requestTo } from './request.js';

let gw: Gateway;
let target: FakeServer;
before(async () => {
  target = await recordingTarget();
  gw = await startGateway({ port: 0, timeout: 5000 });
});
after(async () => {
  await gw.close();
  await target.close();
});

const flush = () => `gopher://127.0.0.1:${target.port}/1FLUSHALL`;

/** A request as a browser connected to 127.0.0.1 sends it (Host 127.0.0.1:PORT unless given). */
const request = (path: string, headers: Record<string, string>, method = 'GET') =>
  requestTo(gw, path, { method, headers: { host: `127.0.0.1:${gw.port}`, ...headers } });
const OLD_FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:78.0) Gecko/20100101 Firefox/78.0';

/** The headers browsers send, by the kind of request (W3C Fetch Metadata; Fetch 3.1 Origin). */
const REFUSED: Array<[string, Record<string, string>]> = [
  [
    '<img> on another site (Chrome)',
    {
      'user-agent': CHROME_UA,
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'image',
      referer: 'http://127.0.0.2:9000/',
    },
  ],
  [
    '<img> on another port of the same host: same-site (Chrome)',
    {
      'user-agent': CHROME_UA,
      'sec-fetch-site': 'same-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'image',
      referer: 'http://127.0.0.1:9000/',
    },
  ],
  [
    'a link on another site, clicked (Chrome): a navigation with a URL',
    {
      'user-agent': CHROME_UA,
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
      'sec-fetch-user': '?1',
    },
  ],
  [
    'fetch(url, {mode: "no-cors"}) from another site (Chrome)',
    {
      'user-agent': CHROME_UA,
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
      origin: 'http://127.0.0.2:9000',
    },
  ],
  [
    '<img> on another site (Firefox 78: no Fetch Metadata)',
    { 'user-agent': OLD_FIREFOX_UA, referer: 'http://evil.example/' },
  ],
  ['<img referrerpolicy="no-referrer"> (Firefox 78)', { 'user-agent': OLD_FIREFOX_UA }],
  ['a form of another site (Firefox 78)', { 'user-agent': OLD_FIREFOX_UA, origin: 'http://evil.example' }],
  ['a sandboxed page (Origin: null)', { 'user-agent': OLD_FIREFOX_UA, origin: 'null' }],
];

const SERVED: Array<[string, Record<string, string>]> = [
  [
    "a link of the gateway's own page (Chrome)",
    {
      'user-agent': CHROME_UA,
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    },
  ],
  [
    'typed in the address bar (Chrome)',
    { 'user-agent': CHROME_UA, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
  ],
  ["a link of the gateway's own page (Firefox 78: Referer, same-origin policy)", { 'user-agent': OLD_FIREFOX_UA }],
  ['curl', { 'user-agent': 'curl/8.5.0', accept: '*/*' }],
  ['a client that sends no headers but Host', {}],
];

for (const [what, headers] of REFUSED) {
  test(`cross-site: refused, and nothing reaches the port: ${what}`, async () => {
    const before = target.connections;
    const r = await request(`/?url=${encodeURIComponent(flush())}`, headers);
    assert.equal(r.status, 403);
    assert.match(r.text, /gateway-refused/);
    assert.match(r.text, /pages of other sites/);
    // The user can still open it, from the gateway's own page (a same-origin link).
    assert.ok(r.text.includes(`<a href="/?url=${encodeURIComponent(flush()).replace(/&/g, '&amp;')}">`));
    assert.equal(target.connections, before, 'the target port was not connected to');
  });
}

for (const [what, headers] of SERVED) {
  test(`cross-site: served: ${what}`, async () => {
    const h = { ...headers };
    if (what.includes('Referer')) h.referer = `http://127.0.0.1:${gw.port}/?url=gopher%3A%2F%2Fx%2F`;
    const before = target.connections;
    const r = await request(`/?url=${encodeURIComponent(flush())}`, h);
    assert.equal(r.status, 200);
    assert.equal(target.connections, before + 1);
    assert.equal(target.received.at(-1), 'FLUSHALL\r\n');
  });
}

test('cross-site: the home page (no URL) is served to a navigation from another site; it retrieves nothing', async () => {
  const r = await request('/', {
    'user-agent': CHROME_UA,
    'sec-fetch-site': 'cross-site',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-dest': 'document',
  });
  assert.equal(r.status, 200);
  assert.match(r.text, /<h1>locator gateway<\/h1>/);
});

test('cross-site: view=explain and HEAD are refused too; a POST with a foreign Origin as well', async () => {
  const before = target.connections;
  const img = { 'user-agent': CHROME_UA, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' };
  assert.equal((await request(`/?url=${encodeURIComponent(flush())}&view=explain`, img)).status, 403);
  assert.equal((await request(`/?url=${encodeURIComponent(flush())}`, img, 'HEAD')).status, 403);
  const post = await request(`/?url=${encodeURIComponent(flush())}`, { origin: 'http://evil.example' }, 'POST');
  assert.equal(post.status, 403);
  assert.equal(target.connections, before);
});

test('cross-site: a proxy request (absolute URL) from a client that names no site is served; a subresource of another site is not', async () => {
  const before = target.connections;
  const lynx = await request(flush(), { 'user-agent': 'Lynx/2.9.0 libwww-FM/2.14' });
  assert.equal(lynx.status, 200);
  assert.equal(target.connections, before + 1);
  const img = await request(flush(), {
    'user-agent': CHROME_UA,
    'sec-fetch-site': 'cross-site',
    'sec-fetch-mode': 'no-cors',
    'sec-fetch-dest': 'image',
  });
  assert.equal(img.status, 403);
  assert.equal(target.connections, before + 1);
});

test('cross-site: a redirect stays on the host name the browser used (localhost and 127.0.0.1 are different sites)', async () => {
  const url = `/?url=${encodeURIComponent(`gopher://127.0.0.1:${target.port}/7/find`)}&search=words`;
  const r = await requestTo(gw, url, { headers: { host: `localhost:${gw.port}` } });
  assert.equal(r.status, 303);
  assert.ok(String(r.headers.location).startsWith(`http://localhost:${gw.port}/?url=`), r.headers.location);
});
