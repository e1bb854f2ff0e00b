// The cache of verdicts (src/check/cache.ts) and --accept (src/check/accept.ts): a fresh ok
// verdict answers in place of the probe, a stale one and a broken one are probed again, a file
// that is not a whole cache is refused whole; accepted reply codes make a result ok.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, type CheckResult, type ProbeFunction } from '../../src/check/index.js';
import { VerdictCache, duration } from '../../src/check/cache.js';
import { acceptRules, accepted } from '../../src/check/accept.js';

/** A probe that says ok for /ok and broken for the rest, counting its calls. */
function counting(): { probe: ProbeFunction; calls: string[] } {
  const calls: string[] = [];
  const probe: ProbeFunction = async (u) => {
    calls.push(u.href);
    const ok = u.href.endsWith('/ok');
    return {
      status: ok ? 'ok' : 'broken',
      reason: ok ? '200 OK' : '404 Not Found',
      reply: ok ? '200' : '404',
      temporary: false,
      redirects: [],
      transcript: [],
      ms: 1,
    };
  };
  return { probe, calls };
}

async function all(urls: string[], probe: ProbeFunction): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for await (const r of check(urls, { probe })) out.push(r);
  return out;
}

test('a second run through the cache probes nothing fresh; broken ones again; a stale entry again', async () => {
  let now = 1_000_000;
  const urls = ['http://h/ok', 'http://h/gone', 'ftp://h/ok'];
  const first = counting();
  const c1 = new VerdictCache(60_000, () => now);
  await all(urls, c1.probe(first.probe));
  assert.deepEqual(first.calls.sort(), urls.slice().sort());
  const saved = c1.text();
  const second = counting();
  const c2 = new VerdictCache(60_000, () => now);
  c2.load(saved);
  const results = await all(urls, c2.probe(second.probe));
  assert.deepEqual(second.calls, ['http://h/gone']);
  assert.equal(c2.hits, 2);
  assert.match(results[0].reason, /from the cache/);
  assert.equal(results[0].status, 'ok');
  now += 60_001;
  const third = counting();
  const c3 = new VerdictCache(60_000, () => now);
  c3.load(saved);
  await all(urls, c3.probe(third.probe));
  assert.deepEqual(third.calls.sort(), urls.slice().sort());
});

test('a file that is not a whole cache is refused whole', () => {
  const c = new VerdictCache(1000);
  assert.throws(() => c.load('{"version":1,"entries":{'), SyntaxError);
  assert.throws(() => c.load('{"version":2,"entries":{}}'), SyntaxError);
  assert.throws(
    () =>
      c.load(
        '{"version":1,"entries":{"a":{"status":"ok","reason":"","redirects":[],"at":1},"b":{"status":"broken","reason":"","redirects":[],"at":1}}}',
      ),
    /"b"/,
  );
  assert.equal(c.text(), '{"version":1,"entries":{}}\n', 'nothing of it kept');
  assert.equal(duration('90'), 90_000);
  assert.equal(duration('2h'), 7_200_000);
  assert.equal(duration('1d'), 86_400_000);
  assert.equal(duration('1w'), null);
});

test('--accept: a listed reply code of that scheme makes the result ok, noted; others unchanged', async () => {
  const a = acceptRules(['http:403,500..599', 'ftp:550']);
  const r = (url: string, reply: string): CheckResult => ({
    url,
    status: 'broken',
    reason: reply,
    reply,
    redirects: [],
    where: null,
    parent: null,
    depth: 0,
    attempts: 1,
    duplicate: false,
    notes: [],
    ms: 0,
    transcript: [],
  });
  assert.equal(accepted(r('http://h/x', '403'), a).status, 'ok');
  assert.deepEqual(accepted(r('http://h/x', '503'), a).notes, ['reply 503 accepted (--accept)']);
  assert.equal(accepted(r('http://h/x', '404'), a).status, 'broken');
  assert.equal(accepted(r('gopher://h/x', '403'), a).status, 'broken');
  assert.equal(accepted(r('ftp://h/x', '550'), a).status, 'ok');
  assert.throws(() => acceptRules(['http']), SyntaxError);
  assert.throws(() => acceptRules(['http:5..1']), SyntaxError);
});
