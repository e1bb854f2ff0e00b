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

/**
 * Runs `jobs` (server names) through `p` on a mocked clock (node:test's MockTimers: setTimeout and
 * Date), moving it 1 ms at a time up to `until`; resolves to each start as [server, ms]. The
 * engine's own grant times, exactly: a loaded machine cannot shift them.
 */
async function startsOnClock(
  t: { mock: { timers: { tick(ms: number): void } } },
  p: Politeness,
  jobs: string[],
  until: number,
): Promise<[string, number][]> {
  const out: [string, number][] = [];
  const all = Promise.all(jobs.map((server) => p.run(server, async () => void out.push([server, Date.now()]))));
  await tick();
  for (let ms = 0; ms < until; ms++) {
    t.mock.timers.tick(1);
    await tick();
  }
  // Not all started by `until`: fail with what did (awaiting them would wait on a clock no one moves).
  assert.equal(out.length, jobs.length, `by ${until} ms only these started: ${JSON.stringify(out)}`);
  await all;
  return out;
}

test('the delay between starts to one server holds; other servers are not held back by it', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const p = new Politeness({ concurrency: 8, perServer: 2, delay: 60 });
  const started = await startsOnClock(t, p, ['a:70', 'a:70', 'a:70', 'a:70', 'b:70'], 200);
  // b starts at once, while a's second request waits its 60 ms; a's starts are 60 ms apart.
  assert.deepEqual(started, [
    ['a:70', 0],
    ['b:70', 0],
    ['a:70', 60],
    ['a:70', 120],
    ['a:70', 180],
  ]);
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

test('the token bucket: a burst, then starts at `rate` a second', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const p = new Politeness({ concurrency: 8, perServer: 8, delay: 0, rate: 20, burst: 3 });
  const started = await startsOnClock(t, p, ['s', 's', 's', 's', 's', 's'], 200);
  // The first three at once (the burst), then one token each 50 ms at 20 a second.
  assert.deepEqual(
    started.map(([, ms]) => ms),
    [0, 0, 0, 50, 100, 150],
  );
});

test('pause(): a Retry-After holds every request to that server for exactly the wait asked', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const p = new Politeness({ concurrency: 4, perServer: 4, delay: 0 });
  await startsOnClock(t, p, ['s'], 0);
  assert.equal(p.pause('s', 120), 120);
  const started = await startsOnClock(t, p, ['s', 'other'], 200);
  // Another server is not paused; s starts when the 120 ms are over, not a tick before.
  assert.deepEqual(started, [
    ['other', 0],
    ['s', 120],
  ]);
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

test('setCrawlDelay(): the longer of the option and the Crawl-delay is in force for that server', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const p = new Politeness({ concurrency: 4, perServer: 4, delay: 10 });
  p.setCrawlDelay('slow', 80);
  const started = await startsOnClock(t, p, ['slow', 'slow', 'slow', 'fast', 'fast'], 300);
  // The Crawl-delay counts from when it was set (robots.txt just read): slow's first start waits it too.
  assert.deepEqual(started, [
    ['fast', 0],
    ['fast', 10],
    ['slow', 80],
    ['slow', 160],
    ['slow', 240],
  ]);
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
