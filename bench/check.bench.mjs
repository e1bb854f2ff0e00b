#!/usr/bin/env node
// `locator check` beside Debian's LinkChecker (`linkchecker`, issue 18) on the same links on
// loopback, for the schemes LinkChecker supports: http (nginx 8080), ftp (vsftpd 2121), news and
// nntp (INN 1119), telnet (telnetd 2323) and file. mailto is left out: LinkChecker asks the
// system's resolver, which knows no test domain. A generated document holds N working and M
// broken links; locator reads it as plain text (extract), LinkChecker as an HTML page of the
// same links (`-r1 --check-extern`: the page and each link once). Each tool runs as a whole
// process (start-up included), both with their defaults (locator: 8 at once, 2 per server;
// LinkChecker: 10 threads, at most 10 HTTP requests a second to one host), interleaved round by
// round; the median of the rounds. Also which broken links each finds, and which working links
// it reports as broken. In the same rounds locator also checks the same links written as a
// Markdown file (`[n](url)` links) and the HTML page LinkChecker reads (its markup readers:
// markdown-it, parse5); their links found and broken set are compared with the plain-text run's.
// Uses the test servers when they run (those of `npm test`), else starts
// them (test/servers/start.sh) and stops them at the end; needs `dist/` built. BENCH_SMOKE=1: a few links, one round.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SMOKE = process.env.BENCH_SMOKE === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 5));
const HTTP_OK = Number(process.env.CHECK_HTTP ?? (SMOKE ? 5 : 200));
const SCALE = SMOKE ? 1 : 4;
// Also locator with --delay 100 (at most 10 starts a second per server: LinkChecker's cap of 10
// HTTP requests a second per host), unless CHECK_POLITE=0; not in the smoke run.
const POLITE = process.env.CHECK_POLITE !== undefined ? process.env.CHECK_POLITE === '1' : !SMOKE;
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

function listening(port) {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

// The servers of `npm test` when they run (LOCATOR_TEST_SERVERS), else started here and stopped at the end.
let stop = () => {};
if (!(await listening(8080))) {
  const start = spawnSync('bash', [join(root, 'test/servers/start.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (start.status !== 0) {
    console.error('check.bench: could not start the test servers');
    process.exit(1);
  }
  const ts = start.stdout.trim();
  stop = () => spawnSync('bash', [join(root, 'test/servers/stop.sh'), ts], { stdio: 'inherit' });
}
for (const port of [8080, 2121, 1119, 2323]) {
  if (!(await listening(port))) {
    console.error(`check.bench: nothing listens on 127.0.0.1:${port}`);
    stop();
    process.exit(1);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'locator-check-bench-'));
chmodSync(dir, 0o755); // LinkChecker run as root drops to nobody, who must read the files
for (let i = 0; i < 5; i++) writeFileSync(join(dir, `present-${i}.txt`), 'here\n', { mode: 0o644 });

/** [URL, true when it works]: the links of the document. */
const links = [];
for (let i = 0; i < HTTP_OK; i++) links.push([`http://127.0.0.1:8080/hello.txt?page=${i}`, true]);
for (let i = 0; i < 5 * SCALE; i++) links.push([`http://127.0.0.1:8080/missing-${i}.html`, false]);
for (const p of ['hello.txt', 'pub/unix.txt', 'pub/with%20space.txt', 'pub/nested/deeper/inner.txt', 'pub/'])
  links.push([`ftp://127.0.0.1:2121/${p}`, true]);
for (let i = 0; i < 2 * SCALE; i++) links.push([`ftp://127.0.0.1:2121/pub/missing-${i}.txt`, false]);
links.push(['news:first.1@example.test', true], ['news:second.2@example.test', true]);
for (let i = 0; i < SCALE; i++) links.push([`news:missing.${i}@example.test`, false]);
links.push(['nntp://127.0.0.1:1119/local.test/1', true], ['nntp://127.0.0.1:1119/local.test/2', true]);
for (let i = 0; i < SCALE; i++) links.push([`nntp://127.0.0.1:1119/local.test/${900 + i}`, false]);
links.push(['telnet://127.0.0.1:2323/', true], ['telnet://127.0.0.1:2324/', false]);
for (let i = 0; i < 5; i++) links.push([`file://${dir}/present-${i}.txt`, true]);
for (let i = 0; i < SCALE; i++) links.push([`file://${dir}/absent-${i}.txt`, false]);

const text = join(dir, 'links.txt');
writeFileSync(
  text,
  ['Links (bench/check.bench.mjs)', ...links.map(([u], i) => `${i + 1}. <URL:${u}>`), ''].join('\n'),
  {
    mode: 0o644,
  },
);
const html = join(dir, 'links.html');
const esc = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
writeFileSync(
  html,
  `<!DOCTYPE html>\n<html><head><title>links</title></head><body>\n${links.map(([u], i) => `<p><a href="${esc(u)}">${i + 1}</a></p>`).join('\n')}\n</body></html>\n`,
  { mode: 0o644 },
);

const md = join(dir, 'links.md');
// Markdown: the destination in <...> when it holds what would end a bare one (none of these do).
const mdDest = (u) => (/[\s()<>]/.test(u) ? `<${u}>` : u);
writeFileSync(
  md,
  `# Links (bench/check.bench.mjs)\n\n${links.map(([u], i) => `${i + 1}. [link ${i + 1}](${mdDest(u)})`).join('\n')}\n`,
  { mode: 0o644 },
);

function timed(cmd, args, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.error) throw r.error;
  return { secs, out: r.stdout, err: r.stderr, status: r.status };
}

/** locator: the set of URLs it reports as not ok, and the number of URLs it reported. */
function runLocator(extra = [], file = text) {
  const r = timed(process.execPath, [
    join(root, 'dist/cli/main.js'),
    'check',
    '--json',
    '--nntp-server',
    '127.0.0.1:1119',
    ...extra,
    file,
  ]);
  const recs = r.out
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
  // The plain-text run must see every link; a markup run's count is reported (and compared) instead.
  if (file === text ? recs.length !== links.length : recs.length === 0)
    throw new Error(`locator reported ${recs.length} of ${links.length} links: ${r.err}`);
  return {
    secs: r.secs,
    found: recs.length,
    broken: new Set(recs.filter((x) => x.status !== 'ok' && x.status !== 'redirected').map((x) => x.url)),
  };
}

/** LinkChecker: the set of URLs it reports as not valid (CSV, every URL with --verbose). */
function runLinkChecker() {
  const r = timed('linkchecker', ['--no-status', '--verbose', '-r1', '--check-extern', '-o', 'csv', `file://${html}`], {
    NNTP_SERVER: '127.0.0.1:1119',
  });
  const rows = r.out.split('\n').filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('urlname;'));
  const seen = new Set();
  const broken = new Set();
  for (const row of rows) {
    const f = row.split(';');
    const url = f[7];
    if (url === undefined || url === `file://${html}`) continue;
    seen.add(url);
    if (f[6] === 'False') broken.add(url);
  }
  if (seen.size < links.length * 0.9)
    throw new Error(`linkchecker reported ${seen.size} of ${links.length} links: ${r.err.slice(0, 500)}`);
  return { secs: r.secs, broken, seen, found: seen.size };
}

try {
  const loc = [];
  const polite = [];
  const lc = [];
  const locMd = [];
  const locHtml = [];
  for (let i = 0; i < ROUNDS; i++) {
    loc.push(runLocator());
    locMd.push(runLocator([], md));
    locHtml.push(runLocator([], html));
    if (POLITE) polite.push(runLocator(['--delay', '100']));
    lc.push(runLinkChecker());
  }
  const expected = new Set(links.filter(([, ok]) => !ok).map(([u]) => u));
  // LinkChecker writes URLs in its own normal form (e.g. %20 kept, a default port dropped): compare loosely.
  const norm = (u) => u.replace(/\/$/, '');
  const summary = (name, runs) => {
    const secs = median(runs.map((x) => x.secs));
    const found = new Set([...runs[0].broken].map(norm));
    const counts = [...new Set(runs.map((x) => x.found))].join('/');
    const missed = [...expected].filter((u) => !found.has(norm(u)));
    const falseBroken = [...found].filter((u) => !expected.has(u) && ![...expected].some((e) => norm(e) === u));
    return {
      tool: name,
      links: links.length,
      'links found': counts,
      'median s': secs.toFixed(2),
      'URLs/s': (links.length / secs).toFixed(1),
      'broken found': `${expected.size - missed.length} of ${expected.size}`,
      missed: missed.length === 0 ? '-' : missed.join(' '),
      'working reported broken': falseBroken.length === 0 ? '-' : falseBroken.join(' '),
    };
  };
  const a = summary('locator check', loc);
  const b = summary('linkchecker', lc);
  const m = summary('locator check, .md', locMd);
  const h = summary('locator check, .html', locHtml);
  const rows = [a, m, h, ...(POLITE ? [summary('locator check --delay 100', polite)] : []), b];
  // The markup runs against the plain-text run: the same broken set expected, in every round.
  const diff = (name, runs) => {
    const want = new Set([...loc[0].broken].map(norm));
    const out = [];
    for (const [k, r] of runs.entries()) {
      const got = new Set([...r.broken].map(norm));
      const only = [...got].filter((u) => !want.has(u));
      const lacking = [...want].filter((u) => !got.has(u));
      if (only.length + lacking.length > 0)
        out.push(
          `round ${k + 1}: broken only here: ${only.join(' ') || '-'}; broken only in the text run: ${lacking.join(' ') || '-'}`,
        );
    }
    console.log(
      `${name} vs the plain-text run: ${out.length === 0 ? 'the same broken set in every round' : out.join('; ')}`,
    );
  };
  console.log(
    `check: ${links.length} links (${links.filter(([, ok]) => ok).length} working, ${expected.size} broken), median of ${ROUNDS} rounds, whole process; Node ${process.version}`,
  );
  console.table(rows);
  diff('locator check, .md', locMd);
  diff('locator check, .html', locHtml);
  const ratio = (x) => (Number(b['median s']) / Number(x['median s'])).toFixed(2);
  console.log(`locator check / linkchecker: ${ratio(a)}x`);
  console.log(`locator check, .html / linkchecker (the same HTML page): ${ratio(h)}x`);
  console.log(`locator check, .md / linkchecker: ${ratio(m)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
  stop();
}
