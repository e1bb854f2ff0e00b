#!/usr/bin/env node
// `locator check --recursive` (the crawl) measured, not timed in a test. Four parts, chosen with
// CRAWL_PARTS (a comma list; default all):
// - site: a generated site of CRAWL_N HTML pages (default 2000) of 10 links each (2% broken, some
//   to the FTP and Gopher test servers, a robots.txt Disallow) served by a private nginx on a free
//   loopback port; locator and Debian's LinkChecker (`linkchecker -r 50`) crawl it at the same
//   per-server politeness: at most T requests at once (CRAWL_THREADS, default 10) and no two
//   starts closer than 1000/RATE ms (CRAWL_RATE, default 100): locator `--per-host T --concurrency
//   T --delay 1000/RATE`, LinkChecker `--threads T` and `maxrequestspersecond=RATE`. LinkChecker
//   (director/aggregator.py, wait_for_host) spaces the starts to one host by a random wait drawn
//   from [1/RATE, 6/RATE] s, and from [0.1, 0.6] s unless the server sends a `LinkChecker` header
//   (nginx here sends it); locator spaces them by exactly the delay. Both thus promise the server
//   the same minimum gap; LinkChecker's mean gap is 3.5 times it. Interleaved, CRAWL_ROUNDS rounds
//   (default 3), medians and ranges: wall time, URLs/s, peak RSS (GNU time %M), and the broken
//   links of the HTTP part each finds (locator must find all LinkChecker finds).
// - flat: locator alone (no delay) on sites of CRAWL_N and CRAWL_N2 (default 20000) pages: peak
//   RSS must stay within 20%.
// - big: a generating server (bench/crawl-gen-child.mjs, no disk) of CRAWL_BIG pages (default
//   100000; the issue's target is 10^6): peak RSS, --state bytes per URL, and a run killed
//   (SIGKILL) at half its URLs then resumed with the same --state, timed against a whole run.
// - gopher: a Gopher hole of CRAWL_HOLE items (default 2000) on a second gophernicus (inetd, as
//   test/servers/gophernicus.sh starts the shared one, on a free port; stopped at the end): a root
//   menu of menus of 100 items, one item in 50 pointing at a selector that does not exist;
//   `check --recursive` from the root: URLs reported, broken items found of those written, time.
//   LinkChecker is run on the same root once: it does not check Gopher URLs.
// - polite: `--delay 200 --per-host 1` on a small generated site: the server's arrival times,
//   their minimum gap, and that robots.txt's Disallow path was never fetched.
// Needs dist/ built (`npm run bench crawl` builds), nginx, linkchecker and /usr/bin/time. Uses
// the FTP (2121) and Gopher (7070) test servers when they run (links to them are checked).
// BENCH_SMOKE=1: tiny sizes, one round.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, siteNginx } from './servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/cli/locator.cjs');
const SMOKE = process.env.BENCH_SMOKE === '1';
const env = (k, d) => Number(process.env[k] ?? d);
const PARTS = (process.env.CRAWL_PARTS ?? 'site,flat,big,gopher,polite').split(',');
const N = env('CRAWL_N', SMOKE ? 50 : 2000);
const N2 = env('CRAWL_N2', SMOKE ? 100 : 20000);
const BIG = env('CRAWL_BIG', SMOKE ? 200 : 100000);
const HOLE = env('CRAWL_HOLE', SMOKE ? 200 : 2000);
const ROUNDS = env('CRAWL_ROUNDS', SMOKE ? 1 : 3);
const RATE = env('CRAWL_RATE', 100);
const THREADS = env('CRAWL_THREADS', 10);
// Each run is killed after this many seconds (the machine is shared: nothing runs unbounded).
const TIMEBOX = env('CRAWL_TIMEBOX', SMOKE ? 60 : 900);
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const work = mkdtempSync(join(tmpdir(), 'locator-crawl-bench-'));
chmodSync(work, 0o755); // LinkChecker run as root drops to nobody
const cleanups = [];
const cleanup = () => {
  cleaned = true;
  for (const f of cleanups.reverse()) f();
  rmSync(work, { recursive: true, force: true });
};
let cleaned = false;
process.on('exit', () => cleaned || cleanup());

/** Writes a site of `n` pages under dir/site: p/<i>.html with 10 links each. */
function writeSite(dir, n) {
  const site = join(dir, 'site');
  mkdirSync(join(site, 'p'), { recursive: true });
  mkdirSync(join(site, 'private'), { recursive: true });
  writeFileSync(join(site, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  writeFileSync(join(site, 'private/0.html'), '<html><body>private</body></html>\n');
  // The crawl starts at / (LinkChecker follows only URLs under the one given).
  writeFileSync(join(site, 'index.html'), '<!DOCTYPE html>\n<html><body><a href="/p/0.html">start</a></body></html>\n');
  const broken = [];
  for (let i = 0; i < n; i++) {
    // 2i+1, 2i+2: a binary tree, every page within depth log2(n); then pseudo-random pages.
    const t = [2 * i + 1, 2 * i + 2].filter((k) => k < n);
    const links = t.map((k) => `/p/${k}.html`);
    let r = i;
    while (links.length < 10) {
      r = (r * 1103515245 + 12345) % 2147483648;
      links.push(`/p/${r % n}.html`);
    }
    // 2% of the links broken: one in five pages has one missing page (its own, so each is distinct).
    if (i % 5 === 0) {
      links[9] = `/missing/${i}.html`;
      broken.push(`/missing/${i}.html`);
    }
    if (i % 97 === 1) links[8] = 'ftp://127.0.0.1:2121/pub/unix.txt';
    if (i % 97 === 2) links[8] = 'gopher://127.0.0.1:7070/0/hello.txt';
    if (i === 0) links[7] = '/private/0.html';
    writeFileSync(
      join(site, `p/${i}.html`),
      `<!DOCTYPE html>\n<html><head><title>${i}</title></head><body>\n${links.map((u, j) => `<a href="${u}">${j}</a>`).join('\n')}\n</body></html>\n`,
    );
  }
  spawnSync('chmod', ['-R', 'a+rX', dir]);
  return broken;
}

/** A private nginx serving dir/site on a free port; its port. */
const nginx = (dir) => siteNginx(dir, cleanups, '  add_header LinkChecker 1 always;\n');

/** The generating server (bench/crawl-gen-child.mjs) of `pages` pages; its port and process. */
async function generator(pages, log = false) {
  const p = spawn(process.execPath, [join(root, 'bench/crawl-gen-child.mjs'), String(pages), log ? '1' : '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => p.kill('SIGTERM'));
  const port = await new Promise((resolve) => p.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return { port, proc: p };
}

/**
 * Runs cmd under /usr/bin/time -f %M (unless bare), counting stdout lines as they come; `onLine`
 * sees each. Resolves { secs, rss (KiB), lines, status, signal, err }. Killed after TIMEBOX s.
 */
function run(cmd, args, { onLine, bare = false, keep = false } = {}) {
  const rssFile = join(work, `rss-${Math.random().toString(36).slice(2)}`);
  const argv = bare ? [cmd, ...args] : ['/usr/bin/time', '-f', '%M', '-o', rssFile, cmd, ...args];
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    // Its own process group, so that the time box kills the command under /usr/bin/time too.
    const p = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let lines = 0;
    let rest = '';
    const out = [];
    let err = '';
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (d) => {
      const parts = (rest + d).split('\n');
      rest = parts.pop();
      for (const l of parts) {
        lines++;
        if (keep) out.push(l);
        onLine?.(l, p);
      }
    });
    p.stderr.on('data', (d) => {
      if (err.length < 1 << 20) err += d;
    });
    const timer = setTimeout(() => process.kill(-p.pid, 'SIGKILL'), TIMEBOX * 1000);
    p.on('close', (status, signal) => {
      clearTimeout(timer);
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      let rss = NaN;
      try {
        rss = Number(/(\d+)\s*$/.exec(readFileSync(rssFile, 'utf8'))?.[1]);
      } catch {}
      resolve({ secs, rss, lines, status, signal, err, out, timedOut: secs >= TIMEBOX });
    });
  });
}

const locatorArgs = (url, extra) => [
  CLI,
  'check',
  '--recursive',
  '--json',
  '--max-depth',
  '50',
  '--max-urls',
  '2000000',
  ...extra,
  url,
];

/** locator on a site: time, RSS, URLs reported, and the HTTP URLs it calls broken. */
async function locator(url, extra) {
  const r = await run(process.execPath, locatorArgs(url, extra), { keep: true });
  const recs = r.out.filter((l) => l.startsWith('{"url"')).map((l) => JSON.parse(l));
  const broken = new Set(
    recs
      .filter((x) => x.url.startsWith('http') && !['ok', 'redirected', 'refused'].includes(x.status))
      .map((x) => x.url),
  );
  return { ...r, out: undefined, urls: recs.length, broken };
}

/** LinkChecker on a site at RATE requests a second per host and THREADS threads. */
async function linkchecker(url) {
  const cfg = join(work, 'linkcheckerrc');
  writeFileSync(cfg, `[checking]\nmaxrequestspersecond=${RATE}\nthreads=${THREADS}\n`, { mode: 0o644 });
  const r = await run(
    'linkchecker',
    ['-f', cfg, '--no-status', '--verbose', '-r', '50', '--threads', String(THREADS), '-o', 'csv', url],
    { keep: true },
  );
  const seen = new Set();
  const broken = new Set();
  for (const row of r.out) {
    if (row === '' || row.startsWith('#') || row.startsWith('urlname;')) continue;
    const f = row.split(';');
    if (f[7] === undefined) continue;
    seen.add(f[7]);
    if (f[6] === 'False' && f[7].startsWith('http')) broken.add(f[7]);
  }
  return { ...r, out: undefined, urls: seen.size, broken };
}

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
const results = { date: new Date().toISOString(), uptime: spawnSync('uptime', { encoding: 'utf8' }).stdout.trim() };
console.log(`crawl.bench: ${results.date}; ${results.uptime}`);

if (PARTS.includes('site')) {
  const dir = join(work, 'site-n');
  mkdirSync(dir);
  const expected = writeSite(dir, N);
  const port = await nginx(dir);
  const url = `http://127.0.0.1:${port}/`;
  const polite = [
    '--per-host',
    String(THREADS),
    '--concurrency',
    String(THREADS),
    '--delay',
    String(Math.round(1000 / RATE)),
  ];
  const loc = [];
  const lc = [];
  for (let i = 0; i < ROUNDS; i++) {
    loc.push(await locator(url, polite));
    lc.push(await linkchecker(url));
  }
  const abs = (u) => `http://127.0.0.1:${port}${u}`;
  const row = (name, runs) => {
    const secs = median(runs.map((x) => x.secs));
    const urls = median(runs.map((x) => x.urls));
    const found = runs[0].broken;
    const missed = expected.filter((u) => !found.has(abs(u)));
    return {
      tool: name,
      pages: N,
      'URLs reported': urls,
      'median s': fmt(secs),
      's (all)': runs.map((x) => fmt(x.secs)).join(' '),
      'URLs/s': fmt(urls / secs),
      'peak RSS MB': fmt(median(runs.map((x) => x.rss)) / 1024),
      'broken found': `${expected.length - missed.length} of ${expected.length}`,
      'timed out': runs.some((x) => x.timedOut) ? 'yes' : '-',
    };
  };
  const a = row(`locator ${polite.join(' ')}`, loc);
  const b = row(`linkchecker --threads ${THREADS}, ${RATE}/s`, lc);
  console.table([a, b]);
  const lcOnly = [...lc[0].broken].filter((u) => !loc[0].broken.has(u));
  console.log(
    `site: throughput locator/LinkChecker ${fmt(Number(a['URLs/s']) / Number(b['URLs/s']), 2)}x; ` +
      `broken found by LinkChecker and not locator: ${lcOnly.length === 0 ? 'none' : lcOnly.join(' ')}`,
  );
  if (loc[0].timedOut) console.log(`locator stderr: ${loc[0].err.slice(-400)}`);
  results.site = { a, b, lcOnly };
}

if (PARTS.includes('flat')) {
  const rows = [];
  for (const n of [N, N2]) {
    const dir = join(work, `flat-${n}`);
    mkdirSync(dir);
    writeSite(dir, n);
    const port = await nginx(dir);
    const runs = [];
    for (let i = 0; i < ROUNDS; i++) runs.push(await locator(`http://127.0.0.1:${port}/`, []));
    const secs = median(runs.map((x) => x.secs));
    rows.push({
      pages: n,
      'URLs reported': median(runs.map((x) => x.urls)),
      'median s': fmt(secs),
      'URLs/s': fmt(median(runs.map((x) => x.urls)) / secs),
      'peak RSS MB (median)': fmt(median(runs.map((x) => x.rss)) / 1024),
      'peak RSS MB (all)': runs.map((x) => fmt(x.rss / 1024)).join(' '),
      'timed out': runs.some((x) => x.timedOut) ? 'yes' : '-',
    });
    rmSync(join(dir, 'site'), { recursive: true, force: true });
  }
  console.table(rows);
  const g = Number(rows[1]['peak RSS MB (median)']) / Number(rows[0]['peak RSS MB (median)']);
  console.log(`flat: peak RSS at ${N2} pages / at ${N} pages = ${fmt(g, 2)} (target <= 1.20)`);
  results.flat = rows;
}

if (PARTS.includes('big')) {
  const { port } = await generator(BIG);
  const url = `http://127.0.0.1:${port}/p/0.html`;
  const stateA = join(work, 'state-a');
  const whole = await run(process.execPath, locatorArgs(url, ['--state', stateA]));
  const du = (d) => {
    let n = 0;
    for (const f of readdirSync(d, { recursive: true })) {
      const s = statSync(join(d, f));
      if (s.isFile()) n += s.size;
    }
    return n;
  };
  const bytes = du(stateA);
  const urls = whole.lines - 1; // the last line is the politeness report
  console.log(
    `big: ${BIG} pages: ${urls} URLs in ${fmt(whole.secs)} s (${fmt(urls / whole.secs)} URLs/s), peak RSS ` +
      `${fmt(whole.rss / 1024)} MB (target < 256), state ${bytes} bytes = ${fmt(bytes / urls)} bytes/URL (target < 200)` +
      `${whole.timedOut ? ' TIMED OUT' : ''}; exit ${whole.status}`,
  );
  rmSync(stateA, { recursive: true, force: true });
  // Killed with SIGKILL after half the URLs are reported, then resumed with the same --state.
  const stateB = join(work, 'state-b');
  let killedAt = 0;
  const first = await run(process.execPath, locatorArgs(url, ['--state', stateB]), {
    bare: true,
    onLine: (_, p) => {
      if (++killedAt === Math.floor(urls / 2)) p.kill('SIGKILL');
    },
  });
  const resumed = await run(process.execPath, locatorArgs(url, ['--state', stateB]));
  console.log(
    `big: killed (${first.signal}) after ${killedAt} lines, ${fmt(first.secs)} s; resumed: ${resumed.lines - 1} lines, ` +
      `${fmt(resumed.secs)} s = ${fmt((100 * resumed.secs) / whole.secs)}% of the whole run (target <= 55%); ` +
      `peak RSS ${fmt(resumed.rss / 1024)} MB; exit ${resumed.status}`,
  );
  if (resumed.status !== whole.status) console.log(`resumed stderr: ${resumed.err.slice(-600)}`);
  results.big = { urls, whole, bytes, first, resumed };
}

if (PARTS.includes('gopher')) {
  // The hole: gophermaps of 100 items each under h/<k>/, one item in 50 a missing selector.
  const dir = join(work, 'hole');
  const root = join(dir, 'root');
  const menus = Math.ceil(HOLE / 100);
  const port = await freePort();
  const expected = [];
  const top = ['iA generated Gopher hole'];
  for (let k = 0; k < menus; k++) {
    mkdirSync(join(root, `h/${k}`), { recursive: true });
    top.push(`1Menu ${k}\t/h/${k}`);
    const lines = [];
    for (let i = k * 100; i < Math.min(HOLE, (k + 1) * 100); i++) {
      if (i % 50 === 49) {
        // Host and port written out: gophernicus leaves out a local selector it cannot find.
        // Half of them a missing text (type 0), half a missing menu (type 1).
        const t = i % 100 === 49 ? '0' : '1';
        lines.push(`${t}Missing ${i}\t/h/${k}/missing-${i}\t127.0.0.1\t${port}`);
        expected.push(`${t}/h/${k}/missing-${i}`);
      } else {
        writeFileSync(join(root, `h/${k}/${i}.txt`), `item ${i}\n`);
        lines.push(`0Item ${i}\t/h/${k}/${i}.txt`);
      }
    }
    writeFileSync(join(root, `h/${k}/gophermap`), lines.join('\n') + '\n');
  }
  writeFileSync(join(root, 'gophermap'), top.join('\n') + '\n');
  spawnSync('chmod', ['-R', 'a+rX', dir]);
  const conf = join(dir, 'inetd.conf');
  writeFileSync(
    conf,
    `127.0.0.1:${port} stream tcp nowait _gophernicus /usr/sbin/gophernicus gophernicus -h 127.0.0.1 -p ${port} -r ${root} -nv -ns\n`,
  );
  const inetd = spawn('/usr/sbin/inetutils-inetd', ['-d', `--pidfile=${dir}/inetd.pid`, conf], { stdio: 'ignore' });
  cleanups.push(() => inetd.kill('SIGTERM'));
  await new Promise((res) => setTimeout(res, 500));
  const url = `gopher://127.0.0.1:${port}/1/`;
  // gophernicus holds each connection 1-2 s after an object it found (measured: 1.9-2.0 s for a
  // 3-octet file, 5 ms for a missing one), so one request at a time would make the hole a test of
  // its linger; this server is the bench's own, so 16 at once.
  const r = await run(process.execPath, locatorArgs(url, ['--per-host', '16', '--concurrency', '16']), { keep: true });
  const recs = r.out.filter((l) => l.startsWith('{"url"')).map((l) => JSON.parse(l));
  const broken = new Set(recs.filter((x) => !['ok', 'redirected'].includes(x.status)).map((x) => x.url));
  const found = expected.filter((sel) => broken.has(`gopher://127.0.0.1:${port}/${sel}`));
  const foundOf = (t) => `${found.filter((x) => x[0] === t).length} of ${expected.filter((x) => x[0] === t).length}`;
  const others = [...broken].filter((u) => !expected.some((sel) => u.endsWith(sel)));
  const lc = await linkchecker(url);
  console.log(
    `gopher: a hole of ${HOLE} items in ${menus} menus: locator reported ${recs.length} URLs in ${fmt(r.secs)} s ` +
      `(${fmt(recs.length / r.secs)} URLs/s), broken found ${found.length} of ${expected.length} (missing texts ${foundOf('0')}, missing menus ${foundOf('1')})` +
      `${others.length > 0 ? `, others not ok: ${others.slice(0, 5).join(' ')}` : ''}; peak RSS ${fmt(r.rss / 1024)} MB; ` +
      `exit ${r.status}${r.timedOut ? ' TIMED OUT' : ''}; LinkChecker on the same root: ${lc.urls} URLs, ` +
      `${[...lc.broken].length} broken (exit ${lc.status})`,
  );
  results.gopher = { urls: recs.length, found: found.length, expected: expected.length, others, lc: lc.urls };
}

if (PARTS.includes('polite')) {
  const pages = SMOKE ? 10 : 40;
  const { port } = await generator(pages, true);
  const r = await run(
    process.execPath,
    locatorArgs(`http://127.0.0.1:${port}/p/0.html`, ['--delay', '200', '--per-host', '1']),
  );
  const log = (await (await fetch(`http://127.0.0.1:${port}/__log`)).text())
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split(' '));
  const times = log.map(([t]) => Number(t)).sort((x, y) => x - y);
  let gap = Infinity;
  for (let i = 1; i < times.length; i++) gap = Math.min(gap, times[i] - times[i - 1]);
  const privateFetched = log.filter(([, , p]) => p.startsWith('/private/')).length;
  console.log(
    `polite: ${log.length} requests in ${fmt(r.secs)} s; minimum gap ${fmt(gap)} ms (target >= 200); ` +
      `requests for the Disallow path /private/: ${privateFetched} (target 0); exit ${r.status}`,
  );
  results.polite = { requests: log.length, gap, privateFetched };
}

cleanup();
process.exit(0);
