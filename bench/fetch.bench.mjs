#!/usr/bin/env node
// Client throughput and peak memory: the 50 MB FTP file (vsftpd) and the 50 MB Gopher file
// (pygopherd) through `locator fetch` beside `curl` on the same servers, in one run. Both run
// as processes writing to /dev/null under /usr/bin/time (elapsed seconds, peak RSS). Also a
// 5 MB file, to show that locator's peak memory does not grow with the file.
// Starts the real servers itself (test/servers/start.sh; needs root the first time, to install).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const start = spawnSync('bash', [join(root, 'test/servers/start.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
if (start.status !== 0) {
  console.error('could not start the test servers');
  process.exit(1);
}
const ts = start.stdout.trim();
const stop = () => spawnSync('bash', [join(root, 'test/servers/stop.sh'), ts], { stdio: 'inherit' });

function measure(cmd, args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const last = r.stderr.trim().split('\n').at(-1) ?? '';
  const [secs, kb] = last.split(' ').map(Number);
  if (r.status !== 0 || !Number.isFinite(secs)) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return { secs, kb };
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

try {
  // a 5 MB file beside the 50 MB ones, for the memory comparison
  spawnSync('bash', ['-c', `head -c 5242880 /dev/urandom > ${ts}/ftp/root/pub/five.bin && chmod a+r ${ts}/ftp/root/pub/five.bin`]);
  const cases = [
    ['ftp 50 MB', 'ftp://127.0.0.1:2121/pub/big.bin', 50 * 1048576],
    ['ftp 5 MB', 'ftp://127.0.0.1:2121/pub/five.bin', 5 * 1048576],
    ['gopher 50 MB', 'gopher://127.0.0.1:7070/9/big.bin', 50 * 1048576],
  ];
  const rows = [];
  for (const [name, url, bytes] of cases) {
    const loc = [];
    const curl = [];
    for (let i = 0; i < ROUNDS; i++) {
      loc.push(measure(process.execPath, [join(root, 'dist/cli/main.js'), 'fetch', '-q', '--no-gateway', url]));
      curl.push(measure('curl', ['-s', '--noproxy', '*', '-o', '/dev/null', url]));
    }
    const lt = median(loc.map((x) => x.secs));
    const ct = median(curl.map((x) => x.secs));
    rows.push({
      object: name,
      'locator MB/s': (bytes / 1048576 / lt).toFixed(0),
      'curl MB/s': (bytes / 1048576 / ct).toFixed(0),
      'locator / curl': (ct / lt).toFixed(2) + 'x',
      'locator peak MB': (median(loc.map((x) => x.kb)) / 1024).toFixed(0),
      'curl peak MB': (median(curl.map((x) => x.kb)) / 1024).toFixed(0),
    });
  }
  console.log(`fetch: median of ${ROUNDS} runs each (whole process: start-up, transfer, exit), Node ${process.version}`);
  console.table(rows);
} finally {
  stop();
}
