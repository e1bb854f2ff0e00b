#!/usr/bin/env node
// `locator archive` measured, not timed in a test (bench/RESULTS.md, "The archive"). Parts, chosen
// with ARCHIVE_PARTS (a comma list; default all):
// - site: a generated site (ARCHIVE_N HTML pages of 10 links each, default 1000, and ARCHIVE_FILES
//   files of 256 KiB, default 40) served by a private nginx on a free loopback port: `locator
//   archive --per-host 1` against `wget --mirror --warc-file` (Debian's wget: one request at a
//   time, so the same politeness), interleaved, ARCHIVE_ROUNDS rounds (default 3): wall time,
//   objects a second, MB of WARC a second, peak RSS (GNU time %M), and the WARC octets of the
//   objects both kept (the gzip members of their response and request records, from the CDXJ
//   index of each file made by locator's indexer), which must be within 5%.
// - nginx: the same on the shared test nginx (127.0.0.1:8080, test/servers/http.sh), whole.
// - ftp: the vsftpd tree (ftp://127.0.0.1:2121/pub/, a 50 MB file among small ones) the same way
//   (records of the objects: resource and metadata for locator, resource for wget).
// - check: `locator archive` against `locator check --recursive` on the generated site at the same
//   politeness (--per-host 2, no delay: both commands' defaults), interleaved: within 10%.
// Each row has the CPU time (user + system, every thread, GNU time's %U %S) beside the wall time:
// on a shared machine the wall time is the scheduler's as much as the program's.
// Needs dist/ built (`npm run bench archive` builds), nginx, wget, /usr/bin/time; the shared test
// servers for the nginx and ftp parts. BENCH_SMOKE=1: tiny sizes, one round. ARCHIVE_CLI: another build's
// dist/cli/locator.cjs (a copy of dist/ made before a change), for a before and after at the same load.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { freePort, siteNginx } from './servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = process.env.ARCHIVE_CLI ?? join(root, 'dist/cli/locator.cjs');
const { indexWarc } = await import(join(root, 'dist/archive/index.js'));
const SMOKE = process.env.BENCH_SMOKE === '1';
const env = (k, d) => Number(process.env[k] ?? d);
const PARTS = (process.env.ARCHIVE_PARTS ?? 'site,nginx,ftp,check').split(',');
const N = env('ARCHIVE_N', SMOKE ? 50 : 1000);
const FILES = env('ARCHIVE_FILES', SMOKE ? 4 : 40);
const ROUNDS = env('ARCHIVE_ROUNDS', SMOKE ? 1 : 3);
const TIMEBOX = env('ARCHIVE_TIMEBOX', SMOKE ? 60 : 600);
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const range = (a) => `${Math.min(...a).toFixed(2)}-${Math.max(...a).toFixed(2)}`;
const work = mkdtempSync(join(tmpdir(), 'locator-archive-bench-'));
chmodSync(work, 0o755); // nginx's workers run as nobody
const cleanups = [];
let cleaned = false;
const cleanup = () => {
  cleaned = true;
  for (const f of cleanups.reverse()) f();
  rmSync(work, { recursive: true, force: true });
};
process.on('exit', () => cleaned || cleanup());

/** A site of `n` pages (p/<i>.html, 10 links each, 2% to missing pages) and `files` binary files linked from page 0. */
function writeSite(dir, n, files) {
  const site = join(dir, 'site');
  mkdirSync(join(site, 'p'), { recursive: true });
  mkdirSync(join(site, 'f'), { recursive: true });
  writeFileSync(join(site, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  writeFileSync(join(site, 'index.html'), '<!DOCTYPE html>\n<html><body><a href="/p/0.html">start</a></body></html>\n');
  for (let i = 0; i < files; i++) writeFileSync(join(site, `f/${i}.bin`), randomBytes(256 * 1024));
  for (let i = 0; i < n; i++) {
    const links = [2 * i + 1, 2 * i + 2].filter((k) => k < n).map((k) => `/p/${k}.html`);
    let r = i;
    while (links.length < 10) {
      r = (r * 1103515245 + 12345) % 2147483648;
      links.push(`/p/${r % n}.html`);
    }
    if (i % 5 === 0) links[9] = `/missing/${i}.html`;
    if (i === 0) for (let f = 0; f < files; f++) links.push(`/f/${f}.bin`);
    writeFileSync(
      join(site, `p/${i}.html`),
      `<!DOCTYPE html>\n<html><head><title>${i}</title></head><body>\n${links.map((u, j) => `<a href="${u}">${j}</a>`).join('\n')}\n</body></html>\n`,
    );
  }
  spawnSync('chmod', ['-R', 'a+rX', dir]);
}

/** A private nginx serving dir/site on a free port; its port. */
const nginx = (dir) => siteNginx(dir, cleanups);

/**
 * Runs a command under /usr/bin/time; resolves { secs, rss (KiB), cpu (user + system s, all its threads), status,
 * err }. Killed after TIMEBOX s.
 */
function run(cmd, args, cwd = work) {
  const rssFile = join(work, `rss-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const p = spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', rssFile, cmd, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
      cwd,
    });
    let err = '';
    p.stderr.on('data', (d) => {
      if (err.length < 1 << 16) err += d;
    });
    const timer = setTimeout(() => process.kill(-p.pid, 'SIGKILL'), TIMEBOX * 1000);
    p.on('close', (status) => {
      clearTimeout(timer);
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      let rss = NaN;
      let cpu = NaN;
      try {
        const m = /([\d.]+) ([\d.]+) (\d+)\s*$/.exec(readFileSync(rssFile, 'utf8'));
        if (m !== null) {
          cpu = Number(m[1]) + Number(m[2]);
          rss = Number(m[3]);
        }
      } catch {}
      resolve({ secs, rss, cpu, status, err });
    });
  });
}

/**
 * What a folder of WARC files holds, by locator's indexer: per target URI of an object record
 * (response, resource, revisit), the octets in the files of its records (the object's and, for
 * the same URI, its request or metadata record), and the files' total size.
 */
async function contents(dir) {
  const perUri = new Map();
  let total = 0;
  for (const name of readdirSync(dir).filter((n) => /\.warc(\.gz)?$/.test(n))) {
    const entries = await indexWarc(join(dir, name));
    const objects = new Set(
      entries.filter((e) => ['response', 'resource', 'revisit'].includes(e.type)).map((e) => e.targetUri),
    );
    for (const e of entries) {
      if (e.targetUri === null || !objects.has(e.targetUri)) continue;
      perUri.set(e.targetUri, (perUri.get(e.targetUri) ?? 0) + e.length);
    }
    total += readFileSync(join(dir, name)).length;
  }
  return { perUri, total };
}

const locatorArchive = (out, url, extra) =>
  run(process.execPath, [CLI, 'archive', '-o', out + '/', '--max-depth', '50', '--max-urls', '2000000', ...extra, url]);

const wget = (out, url) =>
  run(
    'wget',
    ['--mirror', '--no-verbose', '--no-config', `--warc-file=${join(out, 'wget')}`, '-P', join(out, 'files'), url],
    out,
  );

/** locator archive beside wget --mirror --warc-file on `url`, ROUNDS interleaved rounds. */
async function againstWget(name, url, extra, alsoArgs = null) {
  const loc = [];
  const wg = [];
  const also = [];
  let last = null;
  for (let i = 0; i < ROUNDS; i++) {
    const a = join(work, `${name}-loc-${i}`);
    const b = join(work, `${name}-wget-${i}`);
    mkdirSync(a);
    mkdirSync(b);
    const l = await locatorArchive(a, url, extra);
    const w = await wget(b, url);
    if (alsoArgs !== null) {
      const c = join(work, `${name}-also-${i}`);
      mkdirSync(c);
      const x = await locatorArchive(c, url, alsoArgs);
      x.contents = await contents(c);
      also.push(x);
      rmSync(c, { recursive: true, force: true });
    }
    l.contents = await contents(a);
    w.contents = await contents(b);
    loc.push(l);
    wg.push(w);
    last = { a, b };
    if (i < ROUNDS - 1) {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  }
  const lc = loc.at(-1).contents;
  const wc = wg.at(-1).contents;
  const common = [...lc.perUri.keys()].filter((u) => wc.perUri.has(u));
  const sum = (m) => common.reduce((s, u) => s + m.get(u), 0);
  const locBytes = sum(lc.perUri);
  const wgetBytes = sum(wc.perUri);
  const row = (tool, runs) => {
    const secs = runs.map((r) => r.secs);
    const objs = runs.at(-1).contents.perUri.size;
    return {
      part: name,
      tool,
      objects: objs,
      'median s': median(secs).toFixed(2),
      's range': range(secs),
      'objects/s': (objs / median(secs)).toFixed(1),
      'WARC MB/s': (runs.at(-1).contents.total / 1e6 / median(secs)).toFixed(2),
      'WARC MB': (runs.at(-1).contents.total / 1e6).toFixed(2),
      'peak RSS MB': (median(runs.map((r) => r.rss)) / 1024).toFixed(1),
      'CPU s': median(runs.map((r) => r.cpu)).toFixed(2),
      'CPU ms/object': ((1000 * median(runs.map((r) => r.cpu))) / objs).toFixed(3),
      exit: runs.map((r) => r.status).join(','),
    };
  };
  rmSync(last.a, { recursive: true, force: true });
  rmSync(last.b, { recursive: true, force: true });
  const rows = [row(`locator archive ${extra.join(' ')}`, loc), row('wget --mirror --warc-file', wg)];
  if (alsoArgs !== null) rows.push(row(`locator archive ${alsoArgs.join(' ')}`, also));
  const size = {
    part: name,
    'objects both kept': common.length,
    'only locator': lc.perUri.size - common.length,
    'only wget': wc.perUri.size - common.length,
    'locator octets (common)': locBytes,
    'wget octets (common)': wgetBytes,
    'locator / wget': (locBytes / wgetBytes).toFixed(3),
    'throughput locator / wget': (median(wg.map((r) => r.secs)) / median(loc.map((r) => r.secs))).toFixed(2),
  };
  return { rows, size };
}

const results = {
  date: new Date().toISOString(),
  uptime: spawnSync('uptime', { encoding: 'utf8' }).stdout.trim(),
  nproc: spawnSync('nproc', { encoding: 'utf8' }).stdout.trim(),
};
console.log(`archive.bench: ${results.date}; ${results.uptime}`);

let siteUrl = null;
if (PARTS.includes('site') || PARTS.includes('check')) {
  const dir = join(work, 'site');
  mkdirSync(dir);
  writeSite(dir, N, FILES);
  siteUrl = `http://127.0.0.1:${await nginx(dir)}/`;
}

if (PARTS.includes('site')) {
  // One request at a time, as wget; and the default of two at once to the server.
  const r = await againstWget('site', siteUrl, ['--per-host', '1'], ['--per-host', '2']);
  console.table(r.rows);
  console.table([r.size]);
  results.site = r;
}
if (PARTS.includes('nginx')) {
  const r = await againstWget('nginx', 'http://127.0.0.1:8080/', ['--per-host', '1']);
  console.table(r.rows);
  console.table([r.size]);
  results.nginx = r;
}
if (PARTS.includes('ftp')) {
  const r = await againstWget('ftp', 'ftp://127.0.0.1:2121/pub/', ['--per-host', '1']);
  console.table(r.rows);
  console.table([r.size]);
  results.ftp = r;
}
if (PARTS.includes('check')) {
  const arch = [];
  const chk = [];
  for (let i = 0; i < ROUNDS; i++) {
    const a = join(work, `check-loc-${i}`);
    mkdirSync(a);
    arch.push(await locatorArchive(a, siteUrl, []));
    rmSync(a, { recursive: true, force: true });
    chk.push(
      await run(process.execPath, [
        CLI,
        'check',
        '--recursive',
        '--json',
        '--max-depth',
        '50',
        '--max-urls',
        '2000000',
        siteUrl,
      ]),
    );
  }
  const rows = [
    ['locator archive', arch],
    ['locator check --recursive', chk],
  ].map(([tool, runs]) => ({
    part: 'check',
    tool,
    'median s': median(runs.map((r) => r.secs)).toFixed(2),
    's range': range(runs.map((r) => r.secs)),
    'peak RSS MB': (median(runs.map((r) => r.rss)) / 1024).toFixed(1),
    'CPU s': median(runs.map((r) => r.cpu)).toFixed(2),
    'CPU s range': range(runs.map((r) => r.cpu)),
    exit: runs.map((r) => r.status).join(','),
  }));
  const ratio = median(arch.map((r) => r.secs)) / median(chk.map((r) => r.secs));
  console.table(rows);
  console.log(`archive / check wall time: ${ratio.toFixed(2)} (target <= 1.10)`);
  results.check = { rows, ratio };
}
results.uptimeEnd = spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();
console.log(`archive.bench: done; ${results.uptimeEnd}`);
writeFileSync(join(root, '.build', 'archive-bench.json'), JSON.stringify(results, null, 2));
cleanup();
