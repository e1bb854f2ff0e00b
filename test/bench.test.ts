// The benchmarks' smoke test (issue 16): CI checks that each benchmark of parse, resolve and
// normalize, batch mode, and `locator check` beside LinkChecker (issue 18) runs to the end (BENCH_SMOKE=1: one short round over a few lines),
// never that it is fast. `npm run bench` gives the figures (bench/RESULTS.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers.js';

test('bench/run.mjs parse resolve batch dask: each benchmark runs and prints its table (BENCH_SMOKE=1)', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'run.mjs'), 'parse', 'resolve', 'batch', 'dask'], {
    env: { ...process.env, BENCH_SMOKE: '1' },
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(r.status, 0, r.stderr);
  for (const name of ['parse.bench.mjs', 'resolve.bench.mjs', 'batch.bench.mjs', 'dask.bench.mjs'])
    assert.match(r.stdout, new RegExp(`== ${name}`));
  for (const what of [
    "'limit: char loop'",
    "'whatwg-url'",
    "'locator normalize'",
    '--jobs 2',
    'Dask LocalCluster, 2 workers',
  ]) {
    assert.ok(r.stdout.includes(what), `${what} missing from\n${r.stdout}`);
  }
});

test('bench/run.mjs check: locator check (text, Markdown, HTML) beside linkchecker on loopback links, and the Markdown reading cost, run and print their tables (BENCH_SMOKE=1)', () => {
  // The real servers of the client tests (scripts/test.mjs starts them for this file).
  assert.ok(process.env.LOCATOR_TEST_SERVERS, 'LOCATOR_TEST_SERVERS is not set: run through `npm test`');
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'run.mjs'), 'check'], {
    env: { ...process.env, BENCH_SMOKE: '1' },
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /== check\.bench\.mjs/);
  assert.match(r.stdout, /== check-markup\.bench\.mjs/);
  for (const what of [
    "'locator check'",
    "'locator check, .md'",
    "'locator check, .html'",
    "'linkchecker'",
    'URLs/s',
    'broken found',
    'locator check / linkchecker: ',
    "'markupLinks (markdown)'",
    'links/s',
    'peak RSS MiB',
  ]) {
    assert.ok(r.stdout.includes(what), `${what} missing from\n${r.stdout}`);
  }
  // locator finds every broken link of the document (the column reads "N of N").
  assert.match(r.stdout, /'locator check'.*'([0-9]+) of \1'/);
  // The Markdown and HTML files of the same links: the broken set of the plain-text run.
  assert.match(r.stdout, /locator check, \.md vs the plain-text run: the same broken set in every round/);
  assert.match(r.stdout, /locator check, \.html vs the plain-text run: the same broken set in every round/);
  // The Markdown reader finds every link of the generated document.
  assert.match(r.stdout, /markupLinks: ([0-9]+) of \1 links found/);
});

test('bench/run.mjs crawl: check --recursive beside linkchecker on a generated site, peak RSS at two sizes, a run killed and resumed, the server-recorded delay (BENCH_SMOKE=1)', () => {
  assert.ok(process.env.LOCATOR_TEST_SERVERS, 'LOCATOR_TEST_SERVERS is not set: run through `npm test`');
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'run.mjs'), 'crawl'], {
    env: { ...process.env, BENCH_SMOKE: '1' },
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /== crawl\.bench\.mjs/);
  // locator finds every broken link of the site, and none LinkChecker finds is missed.
  assert.match(r.stdout, /'locator --per-host.*'([0-9]+) of \1'/);
  assert.match(
    r.stdout,
    /site: throughput locator\/LinkChecker [0-9.]+x; broken found by LinkChecker and not locator: none/,
  );
  assert.match(r.stdout, /flat: peak RSS at [0-9]+ pages/);
  assert.match(r.stdout, /big: [0-9]+ pages: [0-9]+ URLs in [0-9.]+ s .*bytes\/URL \(target < 200\); exit/);
  assert.match(r.stdout, /big: killed \(SIGKILL\) after [0-9]+ lines.*resumed: [0-9]+ lines/);
  assert.match(r.stdout, /gopher: a hole of [0-9]+ items .* missing menus ([0-9]+) of \1\)/);
  assert.match(r.stdout, /polite: [0-9]+ requests .* requests for the Disallow path \/private\/: 0 \(target 0\)/);
});
