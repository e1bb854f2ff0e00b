// The gateway's WAIS search results (RFC 1738 4 over RFC 1738 3.9 and RFC 1625), against
// locator's WAIS server over the three documents of the freeWAIS fixtures: the size a search
// answer gives is shown in the listing and travels with the document's link (the 1993-07 draft's
// wtype/length/wpath), so the document opened from the listing has that size (Content-Length).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { startWaisServer, type WaisServer } from '../../src/clients/wais/server.js';
import { SHARED } from '../helpers.js';

const DOCS = join(SHARED, 'fixtures', 'wais', 'docs');

let gw: Gateway;
let wais: WaisServer;
before(async () => {
  gw = await startGateway({ port: 0, timeout: 15_000 });
  wais = await startWaisServer({ dir: DOCS, database: 'demo' });
});
after(async () => {
  await gw.close();
  await wais.close();
});

test('RFC 1738 3.9: a listed document opened from the listing has the size the search answer gave (Content-Length)', async () => {
  const base = `wais://127.0.0.1:${wais.port}/demo`;
  const r = await fetch(`${gw.url}/?url=${encodeURIComponent(`${base}?burrow`)}`);
  assert.equal(r.status, 200);
  const html = await r.text();
  const rows = [
    ...html.matchAll(
      /<tr><td>[0-9]+<\/td><td><a href="\/\?url=([^"&]+)">([^<]*)<\/a><\/td><td>TEXT<\/td><td>([0-9]*)<\/td>/g,
    ),
  ];
  assert.deepEqual(
    rows.map((m) => [m[2], m[3]]),
    [
      ['Notes on pocket gophers', '636'],
      ['Notes on ferrets', '552'],
    ],
    html,
  );
  for (const [, link, , size] of rows) {
    const url = decodeURIComponent(link);
    assert.ok(url.startsWith(`${base}/TEXT/${size}/`), url);
    const d = await fetch(`${gw.url}/?url=${encodeURIComponent(url)}&view=raw`);
    assert.equal(d.status, 200);
    assert.equal(d.headers.get('content-length'), size);
    const body = Buffer.from(await d.arrayBuffer());
    const name = size === '636' ? 'gophers.txt' : 'ferrets.txt';
    assert.ok(body.equals(readFileSync(join(DOCS, name))), name);
  }
});
