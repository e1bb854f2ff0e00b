// The crawl engine over a generated site (./site.ts): breadth first, each normal form once, the
// scope, the depth and URL limits, robots.txt, and resuming after SIGKILL at random points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crawl, type CrawlResult, type CrawlSummary } from '../../src/crawl/engine.js';
import type { StoredVerdict } from '../../src/crawl/state.js';
import { RobotsCache } from '../../src/crawl/robots-cache.js';
import { serverKey } from '../../src/crawl/scope.js';
import { parse } from '../../src/schemes/registry.js';
import { objectKey } from '../../src/operations/normalize.js';
import { SITE, siteVisitor } from './site.js';

async function all(it: AsyncIterable<CrawlResult>): Promise<CrawlResult[]> {
  const out: CrawlResult[] = [];
  for await (const r of it) out.push(r);
  return out;
}

/** The final set of a crawl: each URL's normal form with its status, sorted (which written form of a URL is met first depends on timing). */
const finalSet = (rs: CrawlResult[]) => rs.map((r) => `${objectKey(parse(r.url))} ${r.status}`).sort();

test('every page of the site is reached once, breadth first; other forms of a URL are not visited again', async () => {
  const visits: string[] = [];
  const summary: Partial<CrawlSummary> = {};
  const rs = await all(
    crawl(
      [`${SITE}/p/0.html`],
      siteVisitor(200, (u) => visits.push(u)),
      { maxDepth: 1000 },
      summary,
    ),
  );
  const pages = rs.filter((r) => /\/p\/\d+\.html$/.test(r.url));
  assert.equal(pages.length, 200);
  assert.equal(new Set(visits).size, visits.length, 'a URL visited twice');
  assert.equal(rs.length, visits.length);
  // Breadth first: no result of depth d after one of depth d + 2 (results come as visits end,
  // up to `parallel` visits overlap, so neighbouring depths may interleave).
  let deepest = 0;
  for (const r of rs) {
    assert.ok(r.depth >= deepest - 1, `depth ${r.depth} after ${deepest}`);
    deepest = Math.max(deepest, r.depth);
  }
  // Links to another server are checked, not followed.
  const elsewhere = rs.filter((r) => r.url.startsWith('http://elsewhere.test/'));
  assert.ok(elsewhere.length > 0);
  for (const r of elsewhere) assert.equal(r.follow, false);
  assert.ok(rs.filter((r) => r.status === 'broken').length > 0);
  assert.equal(summary.urls, rs.length);
  assert.equal(summary.resumed, false);
  // Each result names its parent: the page whose links held it.
  for (const r of rs) if (r.depth > 0) assert.match(r.parent ?? '', /\/p\/\d+\.html$/);
});

test('maxDepth and maxUrls bound the crawl, with a note where links were not read', async () => {
  const d1 = await all(crawl([`${SITE}/p/0.html`], siteVisitor(200), { maxDepth: 1 }));
  assert.deepEqual([...new Set(d1.map((r) => r.depth))].sort(), [0, 1]);
  assert.ok(d1.filter((r) => r.depth === 1).every((r) => !r.follow && r.followed !== true));
  const summary: Partial<CrawlSummary> = {};
  const capped = await all(crawl([`${SITE}/p/0.html`], siteVisitor(200), { maxDepth: 1000, maxUrls: 50 }, summary));
  assert.equal(capped.length, 50);
  assert.equal(summary.limited, true);
  assert.ok(
    capped.some((r) =>
      r.notes?.includes('the limit of 50 URLs (maxUrls) was reached: the rest of the links were not read'),
    ),
  );
});

test('scope: server follows the seed server only; prefix follows only under the seed folder', async () => {
  const host = await all(crawl([`${SITE}/p/0.html`], siteVisitor(50), { maxDepth: 1000, scope: 'server' }));
  assert.ok(
    host.every((r) => r.follow === (new URL(r.url).host === 'site.test:8081' && r.depth < 1000) || r.depth === 0),
  );
  const prefix = await all(crawl([`${SITE}/missing/`], siteVisitor(50), { maxDepth: 1000, scope: 'prefix' }));
  assert.equal(prefix.length, 1);
});

test('skip leaves a URL out altogether', async () => {
  const rs = await all(
    crawl([`${SITE}/p/0.html`], siteVisitor(100), { maxDepth: 1000, skip: (u) => u.includes('/missing/') }),
  );
  assert.ok(rs.length > 50);
  assert.ok(rs.every((r) => !r.url.includes('/missing/')));
});

test('robots.txt: a disallowed URL is not visited and is reported refused, with the rule; fetched once per server', async () => {
  let fetches = 0;
  const robots = new RobotsCache('locator', async () => {
    fetches++;
    return { kind: 'found', text: 'User-agent: *\nDisallow: /p/1\n' };
  });
  const visits: string[] = [];
  const rs = await all(
    crawl(
      [`${SITE}/p/0.html`],
      siteVisitor(30, (u) => visits.push(u)),
      {
        maxDepth: 1000,
        robots,
        robotsPlace: (u) => ({
          server: serverKey(u),
          url: `http://${serverKey(u)}/robots.txt`,
          path: u.path === null ? '/' : '/' + u.path,
        }),
      },
    ),
  );
  const refused = rs.filter((r) => r.status === 'refused');
  assert.ok(refused.length > 0);
  for (const r of refused) {
    assert.match(r.url, /\/p\/1/);
    assert.equal(r.code, 'robots-disallowed');
    assert.equal(r.reason, "not fetched: the server's robots.txt disallows it (Disallow: /p/1, RFC 9309 2.2.2)");
    assert.ok(!visits.includes(r.url));
  }
  assert.equal(fetches, 2); // site.test:8081 and elsewhere.test:80
  const report = robots.report().find((x) => x.server === 'site.test:8081')!;
  assert.equal(report.disallowed, refused.filter((r) => r.url.toLowerCase().startsWith(SITE)).length);
});

test("robots.txt unreachable: everything on that server disallowed (RFC 9309 2.3.1.4), with why; the seed is the operator's and is visited", async () => {
  const robots = new RobotsCache('locator', async () => ({ kind: 'unreachable', why: 'HTTP 503' }));
  const rs = await all(
    crawl([`${SITE}/p/0.html`], siteVisitor(30), {
      robots,
      robotsPlace: (u) => ({ server: serverKey(u), url: 'x', path: '/' }),
    }),
  );
  assert.equal(rs[0].depth, 0);
  assert.equal(rs[0].status, 'ok');
  const found = rs.filter((r) => r.depth > 0);
  assert.ok(found.length > 0);
  for (const r of found) {
    assert.equal(r.status, 'refused');
    assert.match(r.reason, /could not be read \(HTTP 503\).*RFC 9309 2\.3\.1\.4/);
  }
});

test('a crawl killed with SIGKILL at random points and started again re-visits nothing finished and ends with the same set', async () => {
  const n = 1500;
  const whole = await all(crawl([`${SITE}/p/0.html`], siteVisitor(n), { maxDepth: 1000 }));
  const want = finalSet(whole);
  // A fixed seed for the kill times (the test reproduces).
  let seed = 20261129;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const child = join(import.meta.dirname, 'crawl-child.js');
  for (let round = 0; round < 3; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'locator-crawl-kill-'));
    try {
      const log = join(dir, 'visits.log');
      const state = join(dir, 'state');
      // Kill twice at random points, then let a third run finish.
      for (let kill = 0; kill < 2; kill++) {
        const p = spawn(process.execPath, [child, state, String(n), log], { stdio: 'ignore' });
        // Killed while it works: once it has visited something in this run, after a random while.
        const before = existsSync(log) ? readFileSync(log, 'utf8').length : 0;
        for (let i = 0; i < 500 && (existsSync(log) ? readFileSync(log, 'utf8').length : 0) <= before; i++)
          await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, random() * 300));
        p.kill('SIGKILL');
        await new Promise((r) => p.once('exit', r));
      }
      const finishedBefore = new Set<string>();
      if (existsSync(join(state, 'done.log'))) {
        const { CrawlState } = await import('../../src/crawl/state.js');
        const s = new CrawlState(state);
        for (const { entry } of s.verdicts()) finishedBefore.add(entry.url);
        s.close();
      }
      const visitsBefore = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
      const again: string[] = [];
      const summary: Partial<CrawlSummary> = {};
      const rs = await all(
        crawl(
          [`${SITE}/p/0.html`],
          siteVisitor(n, (u) => again.push(u)),
          { state, maxDepth: 1000 },
          summary,
        ),
      );
      assert.ok(visitsBefore > 0);
      assert.equal(summary.resumed, true);
      // The kills came in the middle of the crawl: some verdicts were on disk, not all.
      assert.ok(
        finishedBefore.size > 0 && finishedBefore.size < want.length,
        `${finishedBefore.size} of ${want.length} finished before`,
      );
      for (const u of again) assert.ok(!finishedBefore.has(u), `${u} was finished before the kill and visited again`);
      assert.deepEqual(finalSet(rs), want);
      assert.equal(rs.filter((r) => r.resumed).length, finishedBefore.size);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test(
  'a verdict given as a promise: the links are taken at once and the next URLs visited while it waits, up to max(4 x parallel, 64) visits under way or awaited; the crawl ends when each has come',
  { timeout: 30_000 },
  async () => {
    const n = 300;
    const pages = siteVisitor(n);
    const held: Array<() => void> = [];
    let visits = 0;
    const visitor = async (u: Parameters<typeof pages>[0], e: unknown, follow: boolean) => {
      visits++;
      const v = await pages(u, e, follow);
      const verdict = new Promise<StoredVerdict>((resolve) =>
        held.push(() => resolve({ ...(v.verdict as StoredVerdict), reason: 'settled' })),
      );
      return { ...v, verdict };
    };
    const rs: CrawlResult[] = [];
    const done = (async () => {
      for await (const r of crawl([`${SITE}/p/0.html`], visitor, { maxDepth: 1000, parallel: 2 })) rs.push(r);
    })();
    // No verdict has come: the crawl went on with the links (2 visits at a time, each leaving its
    // place once its links were taken) until 64 visits were under way or awaited, and stopped there.
    for (let i = 0; i < 200 && visits < 64; i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(visits, 64, `${visits} visits before any verdict`);
    assert.equal(rs.length, 0);
    // The verdicts come one by one; the crawl ends when the last has come, with each URL's.
    while (true) {
      const next = held.shift();
      if (next !== undefined) next();
      await new Promise((r) => setImmediate(r));
      if (held.length === 0) {
        const end = await Promise.race([done.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))]);
        if (end) break;
      }
    }
    await done;
    const whole = await all(crawl([`${SITE}/p/0.html`], siteVisitor(n), { maxDepth: 1000 }));
    assert.deepEqual(finalSet(rs), finalSet(whole));
    assert.equal(rs.length, visits);
    for (const r of rs) assert.equal(r.reason, 'settled');
  },
);

test(
  'settle is called when only verdicts are left to wait for, and not while URLs are left to visit',
  { timeout: 30_000 },
  async () => {
    const n = 120;
    const pages = siteVisitor(n);
    const held: Array<() => void> = [];
    let visits = 0;
    let visitsAtSettle = -1;
    const visitor = async (u: Parameters<typeof pages>[0], e: unknown, follow: boolean) => {
      visits++;
      const v = await pages(u, e, follow);
      const verdict = new Promise<StoredVerdict>((resolve) => held.push(() => resolve(v.verdict as StoredVerdict)));
      return { ...v, verdict };
    };
    // The verdicts come only when the crawl says it waits for nothing else (as a keeper's gathered
    // writes are sent then): without the call the crawl would never end.
    const settle = () => {
      if (visitsAtSettle < 0) visitsAtSettle = visits;
      for (const f of held.splice(0)) f();
    };
    const rs = await all(crawl([`${SITE}/p/0.html`], visitor, { maxDepth: 1000, parallel: 4, settle }));
    const whole = await all(crawl([`${SITE}/p/0.html`], siteVisitor(n), { maxDepth: 1000 }));
    assert.deepEqual(finalSet(rs), finalSet(whole));
    // Called first when the 64 verdicts awaited at most had stopped the crawl, or at its end.
    assert.ok(visitsAtSettle >= Math.min(64, rs.length), `settle called after ${visitsAtSettle} visits`);
  },
);

test(
  'a verdict given as a promise that fails ends the crawl with its error, as a visitor that throws does',
  { timeout: 30_000 },
  async () => {
    const pages = siteVisitor(50);
    let visits = 0;
    const visitor = async (u: Parameters<typeof pages>[0], e: unknown, follow: boolean) => {
      const v = await pages(u, e, follow);
      // The fifth visit's verdict fails while the crawl reads other links.
      const failing = ++visits === 5;
      const verdict = new Promise<StoredVerdict>((resolve, reject) =>
        setTimeout(() => (failing ? reject(new Error('the verdict failed')) : resolve(v.verdict as StoredVerdict)), 5),
      );
      return { ...v, verdict };
    };
    await assert.rejects(all(crawl([`${SITE}/p/0.html`], visitor, { maxDepth: 1000 })), /the verdict failed/);
  },
);
