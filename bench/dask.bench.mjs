#!/usr/bin/env node
// locator inside Dask (issue 16, "Beyond one machine"): scripts/dask-locator.py over DASK_LINES
// lines (default 4,000,000: the corpus of test/data/corpus repeated) on a LocalCluster of 1 and
// of 2 workers, beside one `locator parse --json` process over the same file. Prints rows/s
// (median of DASK_ROUNDS runs, rows/s from the driver's start to the merged file written, so the
// cluster's start-up is counted) and the ratio of 2 workers to 1. Needs /usr/bin/python3 with
// Debian's python3-distributed. The machines are shared and noisy: read the medians and ratios.
import { spawnSync } from 'node:child_process';
import { rmSync, mkdtempSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMOKE, median, writeCorpusFile } from './lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// 4M lines and 32 MiB partitions by default: each partition is one Node process, whose start and
// JIT warm-up (about a second) would dominate smaller ones.
const LINES = Number(process.env.DASK_LINES ?? (SMOKE ? 2000 : 4_000_000));
const ROUNDS = Number(process.env.DASK_ROUNDS ?? (SMOKE ? 1 : 3));
const BLOCK = process.env.DASK_BLOCKSIZE ?? (SMOKE ? '16KiB' : '32MiB');

const dir = mkdtempSync(join(tmpdir(), 'locator-dask-bench-'));
const file = join(dir, 'input.txt');
await writeCorpusFile(file, LINES);

function timeDask(workers) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(
    '/usr/bin/python3',
    [
      join(root, 'scripts', 'dask-locator.py'),
      'parse',
      '--workers',
      String(workers),
      '--blocksize',
      BLOCK,
      '--out',
      join(dir, 'out.ndjson'),
      file,
    ],
    { encoding: 'utf8' },
  );
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`dask-locator.py failed (${r.status}):\n${r.stderr}`);
  return LINES / s;
}

function timeSingle() {
  const inFd = openSync(file, 'r');
  // Into a file, as the driver writes its output: the same disk traffic on both sides.
  const outFd = openSync(join(dir, 'single.ndjson'), 'w');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'main.js'), 'parse', '--json'], {
    stdio: [inFd, outFd, 'pipe'],
  });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  closeSync(inFd);
  closeSync(outFd);
  if (r.status !== 0 && r.status !== 1) throw new Error(`locator parse failed (${r.status})`);
  return LINES / s;
}

const runs = { single: [], one: [], two: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    runs.single.push(timeSingle());
    runs.one.push(timeDask(1));
    runs.two.push(timeDask(2));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const fmt = (xs) =>
  `${Math.round(median(xs)).toLocaleString('en')} (${Math.round(Math.min(...xs)).toLocaleString('en')}-${Math.round(Math.max(...xs)).toLocaleString('en')})`;
console.log(`dask: locator parse --json over ${LINES.toLocaleString('en')} lines, block ${BLOCK}, ${ROUNDS} rounds`);
console.log('| run | rows/s median (min-max) |');
console.log('| --- | ---: |');
console.log(`| one locator process, no Dask | ${fmt(runs.single)} |`);
console.log(`| Dask LocalCluster, 1 worker | ${fmt(runs.one)} |`);
console.log(`| Dask LocalCluster, 2 workers | ${fmt(runs.two)} |`);
console.log(`2 workers / 1 worker: ${(median(runs.two) / median(runs.one)).toFixed(2)}x`);
