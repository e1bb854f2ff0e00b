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
