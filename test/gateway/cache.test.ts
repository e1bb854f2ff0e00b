// The gateway's cache (docs/gateway.md, "Cache"): 20 browsers asking for one object at once make
// one upstream connection (a counting Gopher server that answers slowly, and pygopherd at
// 127.0.0.1:7070 counted from the gateway's side); entries by normal form, lifetimes by kind,
// the memory bound, never an object fetched with credentials nor a search's answer, and the disk
// folder written under temporary names only.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CACHES, startGateway, type Gateway, type GatewayOptions } from '../../src/gateway/server.js';
import { ObjectCache, cacheable } from '../../src/gateway/cache.js';
import { parse } from '../../src/index.js';
import type { Resource } from '../../src/clients/index.js';
import { fakeServer, type FakeServer } from '../clients/gopher/fakes.js';
import { request } from './request.js';

const MENU = 'iA slow menu\t\terror.host\t1\r\n0Hello\t/hello.txt\t127.0.0.1\t7070\r\n.\r\n';

/** A Gopher server that answers after `ms` and counts its connections. */
function slowServer(ms: number): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    setTimeout(() => socket.end(MENU), ms);
    return true;
  });
}

async function withGateway(options: GatewayOptions, fn: (g: Gateway) => Promise<void>): Promise<void> {
  const g = await startGateway({ port: 0, maxPerClient: 64, ...options });
  try {
    await fn(g);
  } finally {
    await g.close();
  }
}

const at = (url: string) => `/?url=${encodeURIComponent(url)}`;

test('20 browsers at once, one upstream connection; then served from the cache; without a cache, 20', async () => {
  const slow = await slowServer(300);
  try {
    const url = `gopher://127.0.0.1:${slow.port}/1/`;
    await withGateway({ cacheSize: 1024 * 1024 }, async (g) => {
      const all = await Promise.all(Array.from({ length: 20 }, () => request(g, at(url))));
      assert.deepEqual(new Set(all.map((r) => r.status)), new Set([200]));
      assert.equal(new Set(all.map((r) => r.text.replace(/name="token" value="[^"]*"/, ''))).size, 1);
      assert.match(all[0].text, /A slow menu/);
      assert.equal(slow.connections, 1, 'one upstream connection for 20 readers');
      // The same object by another spelling of its URL (the normal form: the default port, "%2F").
      const again = await request(g, at(`gopher://127.0.0.1:${slow.port}/1%2F`));
      assert.equal(again.status, 200);
      assert.equal(slow.connections, 1, 'later readers are served from the cache');
      const s = CACHES.get(g)!.stats;
      assert.deepEqual([s.upstream, s.misses, s.coalesced, s.hits], [1, 1, 19, 1]);
    });
    const before = slow.connections;
    await withGateway({}, async (g) => {
      await Promise.all(Array.from({ length: 20 }, () => request(g, at(url))));
    });
    assert.equal(slow.connections - before, 20, 'no cache (the default): every request goes upstream');
  } finally {
    await slow.close();
  }
});

test('pygopherd: 20 readers of its root menu at once, one upstream request, the same page for each', async () => {
  await withGateway({ cacheSize: 1024 * 1024 }, async (g) => {
    const all = await Promise.all(Array.from({ length: 20 }, () => request(g, at('gopher://127.0.0.1:7070/1/'))));
    assert.deepEqual(new Set(all.map((r) => r.status)), new Set([200]));
    assert.equal(new Set(all.map((r) => r.text)).size, 1);
    assert.equal(CACHES.get(g)!.stats.upstream, 1);
  });
});

test('never kept: a URL with a user or password, a host of --netrc-host, a search (unless cacheSearches)', () => {
  const u = (s: string) => parse(s);
  assert.equal(cacheable(u('gopher://h/1/'), [], false), true);
  assert.equal(cacheable(u('ftp://me:secret@h/f.txt'), [], false), false);
  assert.equal(cacheable(u('ftp://me@h/f.txt'), [], false), false);
  assert.equal(cacheable(u('ftp://h/f.txt'), ['h'], false), false);
  assert.equal(cacheable(u('gopher://h/7/find%09words'), [], false), false);
  assert.equal(cacheable(u('gopher://h/7/find%09words'), [], true), true);
  assert.equal(cacheable(u('wais://h/db?words'), [], false), false);
});

test('a search through the gateway goes upstream every time; cacheSearches keeps it', async () => {
  const slow = await slowServer(10);
  try {
    const url = `gopher://127.0.0.1:${slow.port}/7/find%09words`;
    await withGateway({ cacheSize: 1024 * 1024 }, async (g) => {
      await request(g, at(url));
      await request(g, at(url));
    });
    assert.equal(slow.connections, 2);
    await withGateway({ cacheSize: 1024 * 1024, cacheSearches: true }, async (g) => {
      await request(g, at(url));
      await request(g, at(url));
    });
    assert.equal(slow.connections, 3);
  } finally {
    await slow.close();
  }
});

/** A resource of `text` with the view `view`. */
function resource(text: string, view: string | null = null): Resource {
  return {
    meta: { scheme: 'gopher', url: 'gopher://h/', size: null, contentType: 'text/plain', transcript: [], view },
    body: new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(text));
        c.close();
      },
    }),
  };
}

const read = async (r: Resource) => new TextDecoder().decode(await new Response(r.body).arrayBuffer());
const live = new AbortController().signal;

test('lifetimes by kind: a menu kept 5 minutes, a document an hour', async () => {
  let now = 0;
  const cache = new ObjectCache({ size: 1024, now: () => now });
  let fetched = 0;
  const get = (key: string, view: string | null) =>
    cache.open(key, async () => (fetched++, resource(`${key} ${fetched}`, view)), live).then(read);
  assert.equal(await get('menu', 'gopher-menu'), 'menu 1');
  assert.equal(await get('doc', null), 'doc 2');
  now = 5 * 60_000 - 1;
  assert.equal(await get('menu', 'gopher-menu'), 'menu 1');
  now = 5 * 60_000;
  assert.equal(await get('menu', 'gopher-menu'), 'menu 3', 'the menu is fetched again');
  assert.equal(await get('doc', null), 'doc 2');
  now = 60 * 60_000;
  assert.equal(await get('doc', null), 'doc 4');
});

test('bounded: past the size the least recently used go; an object past entryMax reaches its reader uncached', async () => {
  const cache = new ObjectCache({ size: 30, entryMax: 12 });
  let fetched = 0;
  const get = (key: string, text: string) => cache.open(key, async () => (fetched++, resource(text)), live).then(read);
  await get('a', '0123456789');
  await get('b', '0123456789');
  await get('a', 'x');
  await get('c', '0123456789');
  await get('d', '0123456789'); // 40 octets: b, the least recently used, goes
  assert.equal(cache.stats.bytes, 30);
  assert.equal(fetched, 4);
  assert.equal(await get('a', 'fetched again'), '0123456789');
  assert.equal(await get('b', 'fetched again'), 'fetched again');
  const big = 'x'.repeat(100);
  assert.equal(await get('big', big), big);
  assert.equal(await get('big', big), big);
  assert.equal(fetched, 7, 'the large object was fetched each time');
});

test('a page rendered from a kept object is kept with it: asked the same way again, sent whole without rendering', async () => {
  await withGateway({ cacheSize: 1024 * 1024 }, async (g) => {
    const stats = CACHES.get(g)!.stats;
    const menu = at('gopher://127.0.0.1:7070/1/');
    const first = await request(g, menu);
    assert.equal(first.status, 200);
    assert.equal(stats.pageHits, 0);
    const second = await request(g, menu);
    assert.equal(stats.pageHits, 1, 'the second request is the kept page');
    assert.equal(second.text, first.text);
    assert.equal(second.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(second.headers['content-length'], String(second.body.length));
    assert.equal(second.headers['content-security-policy'], first.headers['content-security-policy']);
    const head = await request(g, menu, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(stats.pageHits, 2);
    // Another charset of a text, another spelling of the URL: pages of their own, rendered once each.
    const text = 'gopher://127.0.0.1:7070/0/hello.txt';
    await request(g, at(text));
    const cp437 = await request(g, `${at(text)}&charset=cp437`);
    assert.match(cp437.text, /aria-current="true">CP437/);
    assert.equal(stats.pageHits, 2);
    assert.equal((await request(g, `${at(text)}&charset=cp437`)).text, cp437.text);
    assert.equal(stats.pageHits, 3);
    const other = await request(g, at('gopher://127.0.0.1:7070/1%2F'));
    assert.equal(other.status, 200);
    assert.equal(stats.pageHits, 3, 'another spelling renders its own page (it names its URL)');
    assert.equal(stats.upstream, 2, 'one upstream request per object');
  });
});

test('kept pages go with their entry: gone when it expires, counted in the memory bound', async () => {
  let now = 0;
  const cache = new ObjectCache({ size: 1024, now: () => now });
  const r = await cache.open('menu', async () => resource('0123456789', 'gopher-menu'), live);
  await read(r);
  cache.keepPage(r, 'page a', new Uint8Array(100));
  assert.equal(cache.stats.bytes, 110);
  assert.equal(cache.page('menu', 'page a')?.length, 100);
  assert.equal(cache.page('menu', 'page b'), null);
  // A page of a resource the cache did not give is not kept.
  cache.keepPage(resource('x', 'gopher-menu'), 'page c', new Uint8Array(1));
  assert.equal(cache.page('menu', 'page c'), null);
  now = 5 * 60_000;
  assert.equal(cache.page('menu', 'page a'), null, 'expired with its entry');
  const again = await cache.open('menu', async () => resource('fresh', 'gopher-menu'), live);
  assert.equal(await read(again), 'fresh');
  assert.equal(cache.page('menu', 'page a'), null, 'a new entry has no page of the old one');
  // A page rendered from the old entry is not kept on the new one.
  cache.keepPage(r, 'page a', new Uint8Array(100));
  assert.equal(cache.page('menu', 'page a'), null);
  assert.equal(cache.stats.bytes, 5);
});

test('a failure reaches every reader waiting, and is not kept', async () => {
  const cache = new ObjectCache({ size: 1024 });
  let calls = 0;
  const failing = async () => {
    calls++;
    await new Promise((r) => setTimeout(r, 20));
    throw new Error('upstream down');
  };
  const all = await Promise.allSettled(Array.from({ length: 5 }, () => cache.open('k', failing, live)));
  assert.deepEqual(
    all.map((r) => r.status),
    ['rejected', 'rejected', 'rejected', 'rejected', 'rejected'],
  );
  assert.equal(calls, 1);
  await assert.rejects(cache.open('k', failing, live));
  assert.equal(calls, 2);
});

test('the upstream request is aborted only when every reader waiting for it has gone', async () => {
  const cache = new ObjectCache({ size: 1024 });
  let upstream: AbortSignal | undefined;
  const never = (s: AbortSignal) => {
    upstream = s;
    return new Promise<Resource>(() => {});
  };
  const a = new AbortController();
  const b = new AbortController();
  const pa = cache.open('k', never, a.signal);
  const pb = cache.open('k', never, b.signal);
  a.abort();
  await assert.rejects(pa, /went away/);
  assert.equal(upstream?.aborted, false, 'one reader is still waiting');
  b.abort();
  await assert.rejects(pb, /went away/);
  assert.equal(upstream?.aborted, true);
});

test('on disk: kept across caches, written under a temporary name then renamed, leftovers removed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-cache-'));
  writeFileSync(join(dir, '.tmp-leftover'), 'half');
  const first = new ObjectCache({ size: 1024, dir });
  assert.equal(await read(await first.open('gopher://h/0/a', async () => resource('kept'), live)), 'kept');
  // The write happens after the answer: wait for the file.
  for (let i = 0; i < 100 && readdirSync(dir).filter((n) => !n.startsWith('.')).length === 0; i++)
    await new Promise((r) => setTimeout(r, 10));
  const names = readdirSync(dir);
  assert.equal(names.length, 1, names.join(' '));
  assert.match(names[0], /^[0-9a-f]{64}$/);
  const second = new ObjectCache({ size: 1024, dir });
  let fetched = 0;
  const again = await second.open('gopher://h/0/a', async () => (fetched++, resource('new')), live);
  assert.equal(await read(again), 'kept');
  assert.equal(fetched, 0);
  assert.equal(second.stats.hits, 1);
});

test('upstream politeness: at most upstreamPerServer requests at once to one server, whatever the readers', async () => {
  let now = 0;
  let most = 0;
  const server = await fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    now++;
    most = Math.max(most, now);
    setTimeout(() => {
      now--;
      socket.end(MENU);
    }, 100);
    return true;
  });
  try {
    const urls = Array.from({ length: 8 }, (_, i) => at(`gopher://127.0.0.1:${server.port}/1/m${i}`));
    await withGateway({ upstreamPerServer: 1 }, async (g) => {
      const all = await Promise.all(urls.map((u) => request(g, u)));
      assert.deepEqual(new Set(all.map((r) => r.status)), new Set([200]));
    });
    assert.equal(most, 1);
    most = 0;
    await withGateway({}, async (g) => {
      await Promise.all(urls.map((u) => request(g, u)));
    });
    assert.equal(most, 4, 'the default: 4 at once');
  } finally {
    await server.close();
  }
});
