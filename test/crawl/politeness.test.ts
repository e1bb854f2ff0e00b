// The politeness engine: per-server turns, delays, the token bucket, pauses asked for by a busy
// server, Retry-After, and the bound on what a long-running gateway keeps. Times are measured as
// lower bounds (a timer never fires before its time), so a loaded machine cannot fail them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Politeness, SWEEP_AT, parseRetryAfter } from '../../src/crawl/politeness.js';

const tick = () => new Promise<void>((r) => setImmediate(r));

/** Starts `n` requests to `server` that each hold their turn `hold` ms; resolves to their start times. */
async function starts(p: Politeness, server: string, n: number, hold = 0): Promise<number[]> {
  const out: number[] = [];
  await Promise.all(
    Array.from({ length: n }, () =>
      p.run(server, async () => {
        out.push(performance.now());
        if (hold > 0) await new Promise((r) => setTimeout(r, hold));
      }),
    ),
  );
  return out;
}

const gaps = (t: number[]) => t.slice(1).map((x, i) => x - t[i]);

test('the delay between starts to one server holds; other servers are not held back by it', async () => {
  const p = new Politeness({ concurrency: 8, perServer: 2, delay: 60 });
  const [a, b] = await Promise.all([starts(p, 'a:70', 4), starts(p, 'b:70', 1)]);
  for (const g of gaps(a)) assert.ok(g >= 59, `gap ${g} ms < 60`);
  // b started at once, while a's second request was still waiting.
  assert.ok(b[0] - a[0] < 50, `b waited ${b[0] - a[0]} ms`);
  assert.deepEqual(
    p.report().map((s) => [s.server, s.requests, s.delay]),
    [
      ['a:70', 4, 60],
      ['b:70', 1, 60],
    ],
  );
});

test('the delay from the end of a request: with one at a time, yes; with several at once, starts only', async () => {
  // A clock moved by hand: request A starts at 0 and ends at 9; B asks at 10.
  for (const [perServer, startsAt10] of [
    [1, false],
    [2, true],
  ] as const) {
    let clock = 0;
    const p = new Politeness({ concurrency: 8, perServer, delay: 10, now: () => clock });
    const releaseA = await p.acquire('a:70');
    clock = 9;
    releaseA();
    clock = 10;
    let started = false;
    const b = p.acquire('a:70').then((release) => {
      started = true;
      return release;
    });
    await tick();
    const startedAt10 = started;
    clock = 19; // a timer the engine set starts B by now
    (await b)();
    assert.equal(startedAt10, startsAt10, `perServer ${perServer}: B started at 10: ${startedAt10}`);
  }
});

test('at most perServer at once to one server, at most concurrency in all', async () => {
  const p = new Politeness({ concurrency: 3, perServer: 2, delay: 0 });
  let now = 0;
  let most = 0;
  let mostA = 0;
  let nowA = 0;
  const job = (server: string) =>
    p.run(server, async () => {
      now++;
      if (server === 'a') nowA++;
      most = Math.max(most, now);
      mostA = Math.max(mostA, nowA);
      await new Promise((r) => setTimeout(r, 5));
      now--;
      if (server === 'a') nowA--;
    });
  await Promise.all([...Array(10)].map(() => job('a')).concat([...Array(10)].map(() => job('b'))));
  assert.equal(mostA, 2);
  assert.equal(most, 3);
});

test('servers take turns: a server with many waiters does not hold the others back', async () => {
  const p = new Politeness({ concurrency: 1, perServer: 1, delay: 0 });
  const order: string[] = [];
  const jobs: Promise<void>[] = [];
  for (let i = 0; i < 5; i++) jobs.push(p.run('busy', async () => void order.push('busy')));
  jobs.push(p.run('other', async () => void order.push('other')));
  await Promise.all(jobs);
  // The first busy request started at once; of the waiters, one more of the busy server's, then
  // the other server's turn came, not after all five of the first.
  assert.deepEqual(order, ['busy', 'busy', 'other', 'busy', 'busy', 'busy']);
});

test('the token bucket: a burst, then starts at `rate` a second on average', async () => {
  const p = new Politeness({ concurrency: 8, perServer: 8, delay: 0, rate: 20, burst: 3 });
  const t = await starts(p, 's', 6);
  // The first three come at once (the burst)...
  assert.ok(t[2] - t[0] < 40, `the burst took ${t[2] - t[0]} ms`);
  // ...and the next three need three tokens at 20 a second: 150 ms at least. (A single gap may be
  // shorter when a timer fired late: the bucket holds the fraction of a token that accrued.)
  assert.ok(t[5] - t[0] >= 148, `six starts in ${t[5] - t[0]} ms, rate 20/s allows no fewer than 150`);
});

test('pause(): a Retry-After holds every request to that server for exactly the wait asked', async () => {
  const p = new Politeness({ concurrency: 4, perServer: 4, delay: 0 });
  await starts(p, 's', 1);
  const at = performance.now();
  assert.equal(p.pause('s', 120), 120);
  const [[t], [u]] = await Promise.all([starts(p, 's', 1), starts(p, 'other', 1)]);
  assert.ok(t - at >= 119, `started ${t - at} ms after a pause of 120`);
  assert.ok(u < t, 'another server is not paused');
  const s = p.report().find((r) => r.server === 's')!;
  assert.equal(s.retryAfterWaits, 1);
  assert.equal(s.longestPause, 120);
});

test('pause() without Retry-After: backoff doubling with jitter in its upper half; calm() starts it again', () => {
  let r = 0;
  const p = new Politeness({ concurrency: 1, perServer: 1, delay: 0, backoff: 100, random: () => r });
  r = 0;
  assert.equal(p.pause('s', null), 50); // [50, 100]
  r = 1;
  assert.equal(p.pause('s', null), 200); // [100, 200]
  r = 0.5;
  assert.equal(p.pause('s', null), 300); // [200, 400]
  p.calm('s');
  r = 1;
  assert.equal(p.pause('s', null), 100);
  assert.equal(p.report()[0].backoffWaits, 4);
});

test('pause(): a wait past maxWait pauses nothing and says how long was asked', async () => {
  const p = new Politeness({ concurrency: 1, perServer: 1, delay: 0, maxWait: 1000 });
  assert.equal(p.pause('s', 3_600_000), 3_600_000);
  const at = performance.now();
  await starts(p, 's', 1);
  assert.ok(performance.now() - at < 500);
});

test('setCrawlDelay(): the longer of the option and the Crawl-delay is in force for that server', async () => {
  const p = new Politeness({ concurrency: 4, perServer: 4, delay: 10 });
  p.setCrawlDelay('slow', 80);
  const t = await starts(p, 'slow', 3);
  for (const g of gaps(t)) assert.ok(g >= 79, `gap ${g} < Crawl-delay 80`);
  const s = p.report().find((r) => r.server === 'slow')!;
  assert.equal(s.crawlDelay, 80);
  assert.equal(s.delay, 80);
});

test('keepStats false: idle servers are swept once SWEEP_AT are kept, so a gateway keeps no state per server ever asked', async () => {
  const p = new Politeness({ concurrency: 64, perServer: 1, delay: 0, keepStats: false });
  for (let i = 0; i < SWEEP_AT + 10; i++) await p.run(`h${i}:70`, async () => {});
  await tick();
  assert.ok(p.servers <= SWEEP_AT, `${p.servers} server states kept`);
  const q = new Politeness({ concurrency: 64, perServer: 1, delay: 0 });
  for (let i = 0; i < 50; i++) await q.run(`h${i}:70`, async () => {});
  assert.equal(q.servers, 50);
});

test('release is idempotent', async () => {
  const p = new Politeness({ concurrency: 1, perServer: 1, delay: 0 });
  const r = await p.acquire('s');
  r();
  r();
  assert.equal(p.active, 0);
  const r2 = await p.acquire('s');
  assert.equal(p.active, 1);
  r2();
});

test('options are checked', () => {
  assert.throws(() => new Politeness({ concurrency: 0, perServer: 1, delay: 0 }), RangeError);
  assert.throws(() => new Politeness({ concurrency: 1, perServer: 1.5, delay: 0 }), RangeError);
  assert.throws(() => new Politeness({ concurrency: 1, perServer: 1, delay: -1 }), RangeError);
});

test('parseRetryAfter (RFC 9110 10.2.3): delay-seconds, the three HTTP-date forms, garbage', () => {
  const now = Date.UTC(1994, 10, 6, 8, 49, 0);
  const rows: [string | null, number | null][] = [
    ['120', 120_000],
    [' 0 ', 0],
    ['Sun, 06 Nov 1994 08:49:37 GMT', 37_000], // IMF-fixdate
    ['Sunday, 06-Nov-94 08:49:37 GMT', 37_000], // obsolete RFC 850
    ['Sun Nov  6 08:49:37 1994', 37_000], // asctime
    ['Sat, 05 Nov 1994 08:49:37 GMT', 0], // in the past
    ['1.5', null],
    ['-3', null],
    ['soon', null],
    ['', null],
    [null, null],
    ['99999999999999999999999', Number.MAX_SAFE_INTEGER],
  ];
  for (const [v, want] of rows) assert.equal(parseRetryAfter(v, now), want, String(v));
});
