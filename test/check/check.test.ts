// check() (src/check/check.ts, issue 18) with fake probes: the limits in total and per server,
// the delay per server, retries only for temporary failures, one probe per normal form (RFC 1738
// 2.1), syntax and lint before any network use (RFC 1738 2, 5, 6), input order, and the limits
// of --recursive. No network: the probe and the lister of links are fakes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, type CheckOptions, type CheckResult, type CheckInput } from '../../src/check/index.js';
import type { ProbeResult } from '../../src/clients/probe/types.js';
import type { Url } from '../../src/core/url.js';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function answer(over: Partial<ProbeResult> = {}): ProbeResult {
  return { status: 'ok', reason: 'fine', temporary: false, redirects: [], transcript: [], ms: 1, ...over };
}

async function all(inputs: CheckInput[], options: CheckOptions): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for await (const r of check(inputs, options)) out.push(r);
  return out;
}

/** A fake probe that records what it was asked, how many ran at once, in total and per server. */
function recorder(decide: (u: Url, n: number) => Promise<ProbeResult> | ProbeResult = () => answer()) {
  const calls: string[] = [];
  const starts: { host: string; at: number }[] = [];
  let active = 0;
  let maxActive = 0;
  const perHost = new Map<string, number>();
  let maxPerHost = 0;
  const probe = async (u: Url): Promise<ProbeResult> => {
    const host = `${u.host}:${u.port}`;
    calls.push(u.href);
    starts.push({ host, at: Date.now() });
    active++;
    maxActive = Math.max(maxActive, active);
    perHost.set(host, (perHost.get(host) ?? 0) + 1);
    maxPerHost = Math.max(maxPerHost, perHost.get(host) as number);
    try {
      await wait(calls.length % 3);
      return await decide(u, calls.filter((c) => c === u.href).length);
    } finally {
      active--;
      perHost.set(host, (perHost.get(host) as number) - 1);
    }
  };
  return {
    probe,
    calls,
    starts,
    max: () => ({ total: maxActive, perHost: maxPerHost }),
  };
}

test('concurrency: never more probes than --concurrency in total nor --per-host to one server (issue 18)', async () => {
  const rows: [number, number][] = [
    // concurrency, perHost
    [1, 1],
    [3, 2],
    [8, 2],
    [8, 8],
  ];
  for (const [concurrency, perHost] of rows) {
    const rec = recorder();
    const urls = Array.from({ length: 40 }, (_, i) => `http://h${i % 4}.example/${i}`);
    const out = await all(urls, { probe: rec.probe, concurrency, perHost });
    assert.equal(out.length, 40);
    assert.ok(rec.max().total <= concurrency, `total ${rec.max().total} > ${concurrency}`);
    assert.ok(rec.max().perHost <= perHost, `per host ${rec.max().perHost} > ${perHost}`);
    // The limits are reached, not just respected by running one at a time.
    assert.equal(rec.max().total, Math.min(concurrency, 4 * perHost));
  }
});

test('--delay: the starts of two probes to one server are at least the delay apart; other servers do not wait', async () => {
  const rec = recorder();
  const urls = ['http://a.example/1', 'http://a.example/2', 'http://b.example/1', 'http://a.example/3'];
  await all(urls, { probe: rec.probe, delay: 40, perHost: 2 });
  const a = rec.starts.filter((s) => s.host === 'a.example:80').map((s) => s.at);
  assert.equal(a.length, 3);
  for (let i = 1; i < a.length; i++) assert.ok(a[i] - a[i - 1] >= 39, `starts ${a[i] - a[i - 1]} ms apart`);
  // b.example started before the second probe of a.example (it is not held back by a's delay).
  assert.equal(rec.starts[1].host, 'b.example:80');
});

test('retries: only a temporary failure is tried again, at most --retries times (4xx replies, timeouts)', async () => {
  const rec = recorder((u, n) => {
    if (u.path === 'always-temporary')
      return answer({ status: 'broken', reason: '450 busy', reply: '450', temporary: true });
    if (u.path === 'permanent') return answer({ status: 'broken', reason: '550 no such file', reply: '550' });
    if (u.path === 'timeout-once')
      return n === 1 ? answer({ status: 'unreachable', reason: 'timeout', temporary: true }) : answer();
    return answer();
  });
  const rows: [string, number, CheckResult['status'], number][] = [
    // path, retries, status, attempts
    ['always-temporary', 2, 'broken', 3],
    ['permanent', 2, 'broken', 1],
    ['timeout-once', 2, 'ok', 2],
    ['always-temporary', 0, 'broken', 1],
  ];
  for (const [path, retries, status, attempts] of rows) {
    const out = await all([`ftp://h${retries}.example/${path}`], { probe: rec.probe, retries, retryDelay: 1 });
    assert.equal(out[0].status, status, path);
    assert.equal(out[0].attempts, attempts, path);
    assert.equal(rec.calls.filter((c) => c === `ftp://h${retries}.example/${path}`).length, attempts, path);
  }
});

test('duplicates: one probe per normal form (RFC 1738 2.1), every occurrence reported', async () => {
  const rec = recorder();
  const urls = [
    'http://example.com/a',
    'HTTP://Example.COM:80/a',
    'http://example.com/%61',
    'http://example.com/a#frag',
    'http://example.com/b',
    'ftp://example.com/a',
  ];
  const out = await all(urls, { probe: rec.probe });
  assert.deepEqual(rec.calls.sort(), ['ftp://example.com/a', 'http://example.com/a', 'http://example.com/b']);
  assert.deepEqual(
    out.map((r) => `${r.url} ${r.status} ${r.duplicate}`),
    urls.map((u, i) => `${u} ok ${i > 0 && i < 4}`),
  );
});

test('syntax errors and lint errors are invalid before any network use (RFC 1738 2.2, 3.1, 6)', async () => {
  const rec = recorder();
  const rows: [string, string][] = [
    // URL, code
    ['ftp://foo:@host.com/a b', 'unsafe-char'],
    ['nope', 'missing-scheme'],
    ['http://h.example:25/', 'reserved-port'],
    ['gopher://h.example/0a%0d%0aQUIT', 'encoded-delimiter'],
  ];
  const out = await all(
    rows.map((r) => r[0]),
    { probe: rec.probe },
  );
  assert.deepEqual(rec.calls, []);
  assert.deepEqual(
    out.map((r) => `${r.url} ${r.status} ${r.code}`),
    rows.map(([u, code]) => `${u} invalid ${code}`),
  );
  for (const r of out) assert.equal(r.attempts, 0);
});

test('documents: URLs found with extract() carry FILE, line and column (RFC 1738 appendix)', async () => {
  const rec = recorder();
  const text = 'See <URL:http://a.example/x> and\n  ftp://b.example/y, then\n<http://a.example/x>.\n';
  const out = await all([{ file: 'doc.txt', text }, 'http://c.example/'], { probe: rec.probe });
  assert.deepEqual(
    out.map((r) => `${r.where === null ? '-' : `${r.where.file}:${r.where.line}:${r.where.column}`} ${r.url}`),
    [
      'doc.txt:1:5 http://a.example/x',
      'doc.txt:2:3 ftp://b.example/y',
      'doc.txt:3:1 http://a.example/x',
      '- http://c.example/',
    ],
  );
});

test('order: input order by default even when the first URL is the slowest; completion order on request', async () => {
  const slow = (u: Url) => wait(u.path === 'slow' ? 60 : 0).then(() => answer());
  const urls = ['http://a.example/slow', 'http://b.example/fast', 'http://c.example/fast'];
  const inOrder = await all(urls, { probe: slow });
  assert.deepEqual(
    inOrder.map((r) => r.url),
    urls,
  );
  const done = await all(urls, { probe: slow, order: 'completion' });
  assert.equal(done[done.length - 1].url, 'http://a.example/slow');
  assert.equal(done.length, 3);
});

test('window: at most `window` URLs under way or waiting to be reported', async () => {
  let started = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const probe = async (u: Url) => {
    started++;
    if (u.path === 'first') await gate;
    return answer();
  };
  const urls = ['http://a.example/first', ...Array.from({ length: 20 }, (_, i) => `http://b${i}.example/`)];
  const it = check(urls, { probe, window: 5, concurrency: 50, perHost: 50 })[Symbol.asyncIterator]();
  const first = it.next();
  await wait(30);
  assert.equal(started, 5);
  release();
  assert.equal((await first).value?.url, 'http://a.example/first');
  let n = 1;
  while (!(await it.next()).done) n++;
  assert.equal(n, 21);
});

/** A fake Gopher hole: menus and their links, for --recursive. */
const HOLE: Record<string, string[]> = {
  'gopher://g.example/1/': ['gopher://g.example/1/a', 'gopher://g.example/0/x', 'gopher://other.example/1/'],
  'gopher://g.example/1/a': ['gopher://g.example/1/a/b', 'gopher://g.example/0/x', 'gopher://g.example/0/a1'],
  'gopher://g.example/1/a/b': ['gopher://g.example/0/b1', 'gopher://g.example/1/a/b/c'],
  'gopher://g.example/1/a/b/c': ['gopher://g.example/0/c1'],
  'gopher://other.example/1/': ['gopher://other.example/0/z'],
};

test('--recursive: menu links breadth first, each URL once, same server only, --max-depth and --max-urls', async () => {
  const listed: string[] = [];
  const children = async (u: Url) => {
    listed.push(u.href);
    return HOLE[u.href] ?? [];
  };
  const rec = recorder();
  const rows: [number, number, string[], string[]][] = [
    // maxDepth, maxUrls, reported (depth url), menus read
    [
      1,
      1000,
      [
        '0 gopher://g.example/1/',
        '1 gopher://g.example/1/a',
        '1 gopher://g.example/0/x',
        '1 gopher://other.example/1/',
      ],
      ['gopher://g.example/1/'],
    ],
    [
      2,
      1000,
      // Breadth first (the crawl engine, src/crawl/): each URL once, 0/x of 1/a not again.
      [
        '0 gopher://g.example/1/',
        '1 gopher://g.example/1/a',
        '1 gopher://g.example/0/x',
        '1 gopher://other.example/1/',
        '2 gopher://g.example/1/a/b',
        '2 gopher://g.example/0/a1',
      ],
      ['gopher://g.example/1/', 'gopher://g.example/1/a'],
    ],
    [0, 1000, ['0 gopher://g.example/1/'], []],
    // maxUrls counts distinct URLs; a menu is read until the first link past the limit, no further
    // (1/a lists 1/a/b first: its 0/x, already counted, is not reached).
    [
      9,
      3,
      ['0 gopher://g.example/1/', '1 gopher://g.example/1/a', '1 gopher://g.example/0/x'],
      ['gopher://g.example/1/', 'gopher://g.example/1/a'],
    ],
  ];
  for (const [maxDepth, maxUrls, reported, menus] of rows) {
    listed.length = 0;
    const out = await all(['gopher://g.example/1/'], {
      probe: rec.probe,
      children,
      recursive: true,
      maxDepth,
      maxUrls,
      ignoreRobots: true, // no robots.txt on the made-up servers (the real ones: test/check/crawl.test.ts)
    });
    // The seed first; the rest by depth (visits of one depth may end in any order).
    assert.equal(`${out[0].depth} ${out[0].url}`, reported[0]);
    assert.deepEqual(
      out.map((r) => `${r.depth} ${r.url}`).sort(),
      [...reported].sort(),
      `maxDepth ${maxDepth} maxUrls ${maxUrls}`,
    );
    assert.deepEqual(listed.sort(), menus.sort(), `maxDepth ${maxDepth} maxUrls ${maxUrls}`);
    // The link 0/x in two menus is reported and probed once (each normal form once).
    assert.ok(out.filter((r) => r.url === 'gopher://g.example/0/x').length <= 1);
    for (const r of out.slice(1)) assert.ok(r.parent !== null && r.where === null);
  }
  const capped = await all(['gopher://g.example/1/'], {
    probe: rec.probe,
    children,
    recursive: true,
    maxUrls: 3,
    ignoreRobots: true,
  });
  assert.match(
    capped[0].notes.join(),
    /the limit of 3 URLs \(maxUrls\) was reached: the rest of the links were not read/,
  );
});

test('--recursive: a menu whose links cannot be read keeps its status and says why in a note', async () => {
  const out = await all(['gopher://g.example/1/'], {
    probe: async () => answer(),
    children: async () => {
      throw new Error('the menu broke off');
    },
    recursive: true,
    ignoreRobots: true,
  });
  assert.equal(out.length, 1);
  assert.equal(out[0].status, 'ok');
  assert.deepEqual(out[0].notes, ['the links could not be read: the menu broke off']);
});

test('options: a bad limit is a RangeError when check() is called; a bad input a TypeError', () => {
  const rows: [CheckOptions][] = [
    [{ concurrency: 0 }],
    [{ perHost: 1.5 }],
    [{ delay: -1 }],
    [{ retries: NaN }],
    [{ maxUrls: 0 }],
  ];
  for (const [o] of rows) assert.throws(() => check([], o), RangeError, JSON.stringify(o));
  assert.throws(() => check(42 as unknown as string[]), TypeError);
});

test('a reader that stops early: no more input is read and no more probes start', async () => {
  let read = 0;
  function* urls() {
    for (let i = 0; i < 1000; i++) {
      read++;
      yield `http://h${i}.example/`;
    }
  }
  const rec = recorder();
  for await (const r of check(urls(), { probe: rec.probe, window: 4 })) {
    assert.equal(r.url, 'http://h0.example/');
    break;
  }
  await wait(20);
  assert.ok(read <= 6, `${read} inputs read`);
  assert.ok(rec.calls.length <= 5, `${rec.calls.length} probes`);
});
