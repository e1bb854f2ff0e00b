#!/usr/bin/env node
// `locator fetch` against curl on the same servers, in one run, rounds interleaved: objects of
// 5, 50 and 200 MB over FTP (vsftpd) and Gopher (pygopherd and gophernicus), and one of 1 GB over
// FTP for the memory (flat in the size of the object?).
//
// Three measures per transfer:
// - request to last byte, warm: bench/fetch-cli-child.mjs runs the fetch command's own code in
//   its process, after a warm-up fetch of a small object from the same server (modules loaded and
//   compiled, as in a running process), output to /dev/null; curl's own time_total, -o /dev/null.
// - the whole process, cold: `node dist/cli/main.js fetch URL > /dev/null` against
//   `curl -s -o /dev/null URL`, wall time from spawn to exit (Node's start-up and module loading
//   included; a few rounds only, on the 50 MB objects).
// - peak memory: the whole process's maximum RSS (getrusage for locator, /usr/bin/time for curl);
//   CPU time, user and system: of the transfer for locator (cpuUsage), of the whole process for
//   curl (/usr/bin/time, 10 ms steps; its start-up is a few ms). A shared machine slows the wall
//   clock of both sides by its load; CPU time moves less with it.
//
// The servers: those of LOCATOR_TEST_SERVERS when set (already running: the objects are made in
// their folders and removed at the end), else started here (test/servers/start.sh; needs root the
// first time, to install them) and stopped at the end. BENCH_ROUNDS (default 7) sets the rounds;
// BENCH_SMOKE=1 makes one round over small objects (a check that it runs, not how fast).
// BENCH_FETCH_BEFORE=DIR adds the same measures for another build of locator in the same rounds
// (DIR holds its dist/ and a copy of bench/fetch-cli-child.mjs): before and after, side by side.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { existsSync, linkSync, rmSync } from 'node:fs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BEFORE = process.env.BENCH_FETCH_BEFORE || null;
const SMOKE = process.env.BENCH_SMOKE === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 7));
const COLD_ROUNDS = Math.min(ROUNDS, 5);
const MB = 1048576;
const SIZES = SMOKE
  ? [['1 MB', MB]]
  : [
      ['5 MB', 5 * MB],
      ['50 MB', 50 * MB],
      ['200 MB', 200 * MB],
    ];
const BIG = SMOKE ? null : ['1 GB', 1024 * MB];

let ts = process.env.LOCATOR_TEST_SERVERS;
let stop = () => {};
if (!ts) {
  const start = spawnSync('bash', [join(root, 'test/servers/start.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (start.status !== 0) {
    console.error('could not start the test servers');
    process.exit(1);
  }
  ts = start.stdout.trim();
  stop = () => spawnSync('bash', [join(root, 'test/servers/stop.sh'), ts], { stdio: 'inherit' });
}

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const range = (a) => `${Math.min(...a).toFixed(0)}-${Math.max(...a).toFixed(0)}`;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** One `locator fetch` through the command's code (request to last byte), and its peak RSS. */
function locator(url, warm, tree = root) {
  const r = spawnSync(process.execPath, [join(tree, 'bench/fetch-cli-child.mjs'), url, warm], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`locator ${url}: ${r.stderr}`);
  return JSON.parse(r.stderr.trim().split('\n').at(-1));
}

/** One curl transfer: its time_total (request to last byte), size and peak RSS. */
function curl(url) {
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'RSS %M CPU %U %S',
      'curl',
      '-s',
      '--noproxy',
      '*',
      '-o',
      '/dev/null',
      '-w',
      '%{time_total} %{size_download}',
      url,
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`curl ${url}: ${r.stderr}`);
  const [secs, bytes] = r.stdout.trim().split(' ').map(Number);
  const cpu = /CPU ([0-9.]+) ([0-9.]+)/.exec(r.stderr);
  return {
    secs,
    bytes,
    maxRssKb: Number(/RSS (\d+)/.exec(r.stderr)?.[1]),
    cpuMs: 1000 * (Number(cpu?.[1]) + Number(cpu?.[2])),
  };
}

/** Milliseconds from spawn to exit of a whole process, output to /dev/null. */
function wall(cmd, args) {
  const t0 = nowMs();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = nowMs() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return ms;
}

// The objects: one file of random octets per size, hard-linked into each server's folder.
const FTP_DIR = join(ts, 'ftp/root/pub');
const DIRS = [FTP_DIR, join(ts, 'gopher/root'), join(ts, 'gophernicus/root')];
const made = [];
for (const [name, bytes] of [...SIZES, ...(BIG ? [BIG] : [])]) {
  const file = `bench-${name.replace(' ', '')}.bin`;
  const first = join(FTP_DIR, file);
  if (!existsSync(first)) {
    const r = spawnSync('bash', ['-c', `head -c ${bytes} /dev/urandom > '${first}' && chmod a+r '${first}'`]);
    if (r.status !== 0) throw new Error(`cannot write ${first}`);
    made.push(first);
  }
  for (const d of DIRS.slice(1)) {
    const p = join(d, file);
    if (!existsSync(p)) {
      linkSync(first, p);
      made.push(p);
    }
  }
}

const SERVERS = [
  ['ftp (vsftpd)', (f) => `ftp://127.0.0.1:2121/pub/${f}`, 'ftp://127.0.0.1:2121/hello.txt'],
  ['gopher (pygopherd)', (f) => `gopher://127.0.0.1:7070/9/${f}`, 'gopher://127.0.0.1:7070/0/hello.txt'],
  ['gopher (gophernicus)', (f) => `gopher://127.0.0.1:7071/9/${f}`, 'gopher://127.0.0.1:7071/0/hello.txt'],
];

try {
  const rows = [];
  const cold = [];
  const cases = [];
  for (const [server, urlOf, warm] of SERVERS)
    for (const [size] of SIZES) cases.push([`${server} ${size}`, urlOf(`bench-${size.replace(' ', '')}.bin`), warm]);
  if (BIG) cases.push([`ftp (vsftpd) ${BIG[0]}`, SERVERS[0][1](`bench-${BIG[0].replace(' ', '')}.bin`), SERVERS[0][2]]);
  for (const [name, url, warm] of cases) {
    const loc = [];
    const cu = [];
    const before = [];
    const rounds = name.endsWith('1 GB') ? Math.min(ROUNDS, 3) : ROUNDS;
    for (let i = 0; i < rounds; i++) {
      loc.push(locator(url, warm));
      cu.push(curl(url));
      if (BEFORE) before.push(locator(url, warm, BEFORE));
    }
    const bytes = cu[0].bytes;
    const mb = bytes / MB;
    const lr = loc.map((x) => mb / x.secs);
    const cr = cu.map((x) => mb / x.secs);
    const ratios = loc.map((x, i) => cu[i].secs / x.secs);
    rows.push({
      object: name,
      'locator MB/s (min-max)': `${median(lr).toFixed(0)} (${range(lr)})`,
      'curl MB/s (min-max)': `${median(cr).toFixed(0)} (${range(cr)})`,
      'locator / curl': `${(median(cu.map((x) => x.secs)) / median(loc.map((x) => x.secs))).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`,
      'locator CPU ms': median(loc.map((x) => x.cpuMs)).toFixed(0),
      'curl CPU ms': median(cu.map((x) => x.cpuMs)).toFixed(0),
      'locator peak MiB': (median(loc.map((x) => x.maxRssKb)) / 1024).toFixed(1),
      'curl peak MiB': (median(cu.map((x) => x.maxRssKb)) / 1024).toFixed(1),
      ...(BEFORE
        ? {
            'before / curl': `${(median(cu.map((x) => x.secs)) / median(before.map((x) => x.secs))).toFixed(2)}x`,
            'before peak MiB': (median(before.map((x) => x.maxRssKb)) / 1024).toFixed(1),
          }
        : {}),
    });
    if (name.endsWith(SIZES.at(SMOKE ? 0 : 1)[0]) && !name.includes('gophernicus')) {
      const lw = [];
      const cw = [];
      const bw = [];
      for (let i = 0; i < COLD_ROUNDS; i++) {
        lw.push(wall(process.execPath, [join(root, 'dist/cli/main.js'), 'fetch', url]));
        cw.push(wall('curl', ['-s', '--noproxy', '*', '-o', '/dev/null', url]));
        if (BEFORE) bw.push(wall(process.execPath, [join(BEFORE, 'dist/cli/main.js'), 'fetch', url]));
      }
      cold.push({
        object: name,
        'locator ms (min-max)': `${median(lw).toFixed(0)} (${range(lw)})`,
        'curl ms (min-max)': `${median(cw).toFixed(0)} (${range(cw)})`,
        'locator / curl': `${(median(cw) / median(lw)).toFixed(2)}x`,
        ...(BEFORE ? { 'before ms (min-max)': `${median(bw).toFixed(0)} (${range(bw)})` } : {}),
      });
    }
  }
  const empty = [];
  for (let i = 0; i < COLD_ROUNDS; i++) empty.push(wall(process.execPath, ['-e', '']));
  const version = [];
  for (let i = 0; i < COLD_ROUNDS; i++)
    version.push(wall(process.execPath, [join(root, 'dist/cli/main.js'), '--version']));
  console.log(
    `fetch, request to last byte (warm process): median of ${ROUNDS} rounds (1 GB: ${Math.min(ROUNDS, 3)}), min-max in brackets; peak RSS of the whole process; Node ${process.version}, ${new Date().toISOString()}`,
  );
  console.table(rows);
  console.log(`whole process (cold), wall time spawn to exit, median of ${COLD_ROUNDS}:`);
  console.table(cold);
  console.log(
    `for scale: \`node -e ''\` ${median(empty).toFixed(0)} ms (${range(empty)}), \`locator --version\` ${median(version).toFixed(0)} ms (${range(version)})`,
  );
} finally {
  for (const p of made) rmSync(p, { force: true });
  stop();
}
