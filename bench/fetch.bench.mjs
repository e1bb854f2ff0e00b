#!/usr/bin/env node
// Client throughput and peak memory: files of 5, 50 and 200 MB over FTP (vsftpd) and 50 MB over
// Gopher (pygopherd) through locator's open() beside curl on the same servers, in one run.
// Times run from the request to the last byte (connect and login included) on both sides:
// curl's own time_total, and bench/fetch-child.mjs for locator (one process per transfer, after
// a warm-up transfer of a small file, as in a running process; one row without it shows a cold
// process: module loading and compilation included). Node's start-up is left out of the time
// but its memory is in the peak. Peak memory: the
// whole process (/usr/bin/time for curl, maxRSS for locator). Starts the real servers itself
// (test/servers/start.sh; needs root the first time, to install them).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const start = spawnSync('bash', [join(root, 'test/servers/start.sh')], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
if (start.status !== 0) {
  console.error('could not start the test servers');
  process.exit(1);
}
const ts = start.stdout.trim();
const stop = () => spawnSync('bash', [join(root, 'test/servers/stop.sh'), ts], { stdio: 'inherit' });
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

function locator(url, warm) {
  const r = spawnSync(process.execPath, [join(root, 'bench/fetch-child.mjs'), url, warm], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`locator ${url}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

function curl(url) {
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', 'RSS %M', 'curl', '-s', '--noproxy', '*', '-o', '/dev/null', '-w', '%{time_total} %{size_download}', url],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`curl ${url}: ${r.stderr}`);
  const [secs, bytes] = r.stdout.trim().split(' ').map(Number);
  const kb = Number(/RSS (\d+)/.exec(r.stderr)?.[1]);
  return { secs, bytes, maxRssKb: kb };
}

try {
  const pub = `${ts}/ftp/root/pub`;
  spawnSync('bash', [
    '-c',
    `head -c 5242880 /dev/urandom > ${pub}/five.bin; head -c 209715200 /dev/urandom > ${pub}/twohundred.bin; chmod a+r ${pub}/*.bin`,
  ]);
  const FTP_WARM = 'ftp://127.0.0.1:2121/hello.txt';
  const GOPHER_WARM = 'gopher://127.0.0.1:7070/0/hello.txt';
  const cases = [
    ['ftp 5 MB', 'ftp://127.0.0.1:2121/pub/five.bin', FTP_WARM],
    ['ftp 50 MB', 'ftp://127.0.0.1:2121/pub/big.bin', FTP_WARM],
    ['ftp 200 MB', 'ftp://127.0.0.1:2121/pub/twohundred.bin', FTP_WARM],
    ['gopher 50 MB', 'gopher://127.0.0.1:7070/9/big.bin', GOPHER_WARM],
    ['ftp 50 MB, cold process', 'ftp://127.0.0.1:2121/pub/big.bin', ''],
  ];
  const rows = [];
  for (const [name, url, warm] of cases) {
    const loc = [];
    const cu = [];
    for (let i = 0; i < ROUNDS; i++) {
      loc.push(locator(url, warm));
      cu.push(curl(url));
    }
    if (loc[0].bytes !== cu[0].bytes)
      throw new Error(`${name}: locator read ${loc[0].bytes} octets, curl ${cu[0].bytes}`);
    const mb = loc[0].bytes / 1048576;
    const lt = median(loc.map((x) => x.secs));
    const ct = median(cu.map((x) => x.secs));
    rows.push({
      object: name,
      'locator MB/s': Math.round(mb / lt),
      'curl MB/s': Math.round(mb / ct),
      'locator / curl': (ct / lt).toFixed(2) + 'x',
      'locator peak MiB': Math.round(median(loc.map((x) => x.maxRssKb)) / 1024),
      'curl peak MiB': Math.round(median(cu.map((x) => x.maxRssKb)) / 1024),
    });
  }
  console.log(
    `fetch: median of ${ROUNDS} transfers each, request to last byte; peak RSS of the whole process; Node ${process.version}`,
  );
  console.table(rows);
} finally {
  stop();
}
