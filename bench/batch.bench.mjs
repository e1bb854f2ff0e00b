#!/usr/bin/env node
// Batch mode (issue 16): `locator parse --json` and `locator normalize --json` over a file of
// BATCH_LINES lines (default 1,000,000; the corpus of test/data/corpus repeated), with --jobs 1
// and --jobs 2, standard output to /dev/null; beside them the same row function in a loop in one
// process (no I/O: the file's lines in memory). Prints lines/s (median of BATCH_ROUNDS runs), the
// ratio of 2 workers to 1, and the peak resident set of each run (constant memory: it must not
// grow with BATCH_LINES). The machines are shared and noisy: read the medians and ratios.
import { spawn, spawnSync } from 'node:child_process';
import { openSync, closeSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseRow } from '../dist/cli/parse.js';
import { normalizeRow } from '../dist/cli/normalize.js';
import { SMOKE, median, corpusFiles, corpusLines, writeCorpusFile } from './lib.mjs';

const LINES = Number(process.env.BATCH_LINES ?? (SMOKE ? 2000 : 1_000_000));
const ROUNDS = Number(process.env.BATCH_ROUNDS ?? (SMOKE ? 1 : 3));

const dir = mkdtempSync(join(tmpdir(), 'locator-batch-'));
const file = join(dir, 'input.txt');
await writeCorpusFile(file, LINES);
const corpus = corpusFiles().flatMap((f) => corpusLines(f));

function runCli(args) {
  const input = openSync(file, 'r');
  const output = openSync('/dev/null', 'w');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [new URL('./batch-child.mjs', import.meta.url).pathname, ...args], {
    stdio: [input, output, 'pipe'],
    encoding: 'utf8',
  });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  closeSync(input);
  closeSync(output);
  if (r.status !== 0 && r.status !== 1) throw new Error(`locator ${args.join(' ')}: status ${r.status}\n${r.stderr}`);
  const rss = JSON.parse(r.stderr.trim().split('\n').pop()).maxRssKB;
  return { rate: LINES / s, rss };
}

const inProcessLines = corpus.slice(0, Math.min(LINES, 200_000));
function runLoop(row) {
  const t0 = process.hrtime.bigint();
  let n = 0;
  for (const l of inProcessLines) n += row(l).lines[0].length;
  if (n === -1) console.log('');
  return inProcessLines.length / (Number(process.hrtime.bigint() - t0) / 1e9);
}

// The ceiling: the row loop in one process, then in two processes at once (nothing shared),
// over the same lines. Their summed rate over the single one is what two cores give this work
// on this machine; 2 workers cannot do better than that.
const CEILING_LINES = Math.min(LINES, 1_000_000);
function rowLoopProcess(command) {
  return new Promise((res, rej) => {
    const child = spawn(
      process.execPath,
      [new URL('./rowloop-child.mjs', import.meta.url).pathname, file, command, String(CEILING_LINES)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => (code === 0 ? res(JSON.parse(out).rate) : rej(new Error(`rowloop-child: ${code}`))));
  });
}
async function ceiling(command) {
  const one = [];
  const two = [];
  for (let r = 0; r < ROUNDS; r++) {
    one.push(await rowLoopProcess(command));
    const [a, b] = await Promise.all([rowLoopProcess(command), rowLoopProcess(command)]);
    two.push(a + b);
  }
  return { one: median(one), two: median(two) };
}

const rows = [];
const ROWS = {
  parse: (l) => parseRow(l, { json: true, trim: false, showSecrets: false }),
  normalize: (l) => normalizeRow(l, { json: true, display: false, showSecrets: false }),
};
for (const command of ['parse', 'normalize']) {
  const res = { loop: [], 1: [], 2: [], w1: [] };
  const rss = { 1: [], 2: [], w1: [] };
  runLoop(ROWS[command]); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    res.loop.push(runLoop(ROWS[command]));
    for (const jobs of [1, 2]) {
      const m = runCli([command, '--json', '--jobs', String(jobs)]);
      res[jobs].push(m.rate);
      rss[jobs].push(m.rss);
    }
    const m = runCli(['--workers', '1', command]);
    res.w1.push(m.rate);
    rss.w1.push(m.rss);
  }
  const one = median(res.w1);
  const ceil = await ceiling(command);
  rows.push({
    command,
    how: 'row loop, one process, no I/O',
    'lines/s': Math.round(median(res.loop)),
    'vs 1 worker': (median(res.loop) / one).toFixed(2) + 'x',
    'peak RSS MB': '',
  });
  for (const [key, how] of [
    [1, `locator ${command} --json --jobs 1 (this thread)`],
    ['w1', `the same over 1 worker thread`],
    [2, `locator ${command} --json --jobs 2 (2 workers)`],
  ]) {
    rows.push({
      command,
      how,
      'lines/s': Math.round(median(res[key])),
      'vs 1 worker': (median(res[key]) / one).toFixed(2) + 'x',
      'peak RSS MB': (Math.max(...rss[key]) / 1024).toFixed(0),
    });
  }
  rows.push({
    command,
    how: `ceiling: row loop, 2 processes at once / 1 (${CEILING_LINES} lines each)`,
    'lines/s': Math.round(ceil.two),
    'vs 1 worker': (ceil.two / ceil.one).toFixed(2) + 'x of 1 process',
    'peak RSS MB': '',
  });
}
rmSync(dir, { recursive: true, force: true });

console.log(
  `batch mode over ${LINES} lines, median of ${ROUNDS} runs, Node ${process.version}, ${availableParallelism()} cores`,
);
console.table(rows);
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
