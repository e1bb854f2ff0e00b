#!/usr/bin/env node
// The batch CLI against trurl (curl's command-line URL tool), each run a whole process with its
// start-up, reading a file on standard input and writing to /dev/null:
//   trurl --json  /  locator parse --json --jobs 1 and 2
//   trurl (plain) /  locator normalize --jobs 1 and 2
// over the corpus files (test/data/corpus) repeated (BATCH_TRURL_REPEAT, default 10: about 2M
// lines) and kasztp.txt alone; then the start-up on empty input beside `node -e ''`. Rounds run
// the commands in turn (trurl, then each locator run), so that a ratio is taken within one round
// and its median reported (the machine is shared and noisy: read the ratios, not the rates).
// Peak RSS is the kernel's figure for the child (/usr/bin/time -f %M when present). Standard
// output and error go to /dev/null.
//
//   TRURL=/path/to/trurl node bench/batch-trurl.bench.mjs
//   LOCATOR_BIN=/tmp/old-cli/dist/cli/main.js ... (another build of the command)
//   LOCATOR_BEFORE=/tmp/old-cli/dist/cli/main.js ... (that build's rows too, in the same rounds)
// Without TRURL (or with a path that does not run) the trurl rows are skipped, said in one line.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS_DIR, SMOKE, corpusFiles, median } from './lib.mjs';

const ROUNDS = Number(process.env.BATCH_ROUNDS ?? (SMOKE ? 1 : 5));
const REPEAT = Number(process.env.BATCH_TRURL_REPEAT ?? (SMOKE ? 1 : 10));
const STARTS = Number(process.env.BATCH_STARTS ?? (SMOKE ? 3 : 21));
const BIN = process.env.LOCATOR_BIN ?? fileURLToPath(new URL('../dist/cli/locator.cjs', import.meta.url));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

let trurl = process.env.TRURL ?? null;
if (trurl !== null && spawnSync(trurl, ['--version'], { encoding: 'utf8' }).status !== 0) trurl = null;
if (trurl === null) {
  console.log(
    `trurl rows skipped: TRURL ${process.env.TRURL === undefined ? 'is not set' : `(${process.env.TRURL}) does not run`}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'locator-trurl-'));
const big = join(dir, 'corpus.txt');
const corpusText = corpusFiles()
  .map((f) => readFileSync(join(CORPUS_DIR, f), 'utf8').replace(/\n?$/, '\n'))
  .join('');
writeFileSync(big, corpusText.repeat(REPEAT));
const kasztp = join(CORPUS_DIR, 'kasztp.txt');
const empty = join(dir, 'empty.txt');
writeFileSync(empty, '');
const countLines = (f) =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter((l, i, a) => i < a.length - 1 || l !== '').length;

/**
 * One run: wall seconds and peak RSS in KB (null when /usr/bin/time is missing). Standard error
 * goes to /dev/null: trurl writes a note there for each URL it refuses (a quarter of the corpus
 * lines), and a pipe read by this process would slow it down.
 */
const timeFile = join(dir, 'time.txt');
function runOnce(cmd, args, input) {
  const fdIn = openSync(input, 'r');
  const fdOut = openSync('/dev/null', 'w');
  const argv = TIME === null ? [cmd, ...args] : [TIME, '-o', timeFile, '-f', '%M', cmd, ...args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { stdio: [fdIn, fdOut, fdOut] });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  closeSync(fdIn);
  closeSync(fdOut);
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')}: status ${r.status}`);
  return { s, rssKB: TIME === null ? null : Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) };
}

const BEFORE = process.env.LOCATOR_BEFORE ?? null;
const BINS =
  BEFORE === null
    ? [['', BIN]]
    : [
        ['', BIN],
        ['before: ', BEFORE],
      ];
const locator = (bin, args) => [process.execPath, [bin, ...args]];
const SETS = [
  {
    name: 'parse --json',
    trurl: ['--json', '-f', '-'],
    locator: [
      ['parse', '--json', '--jobs', '1'],
      ['parse', '--json', '--jobs', '2'],
    ],
  },
  {
    name: 'plain / normalize',
    trurl: ['-f', '-'],
    locator: [
      ['normalize', '--jobs', '1'],
      ['normalize', '--jobs', '2'],
    ],
  },
];

const rows = [];
for (const [label, file] of [
  [`the 4 corpus files x ${REPEAT}`, big],
  ['kasztp', kasztp],
]) {
  const lines = countLines(file);
  for (const set of SETS) {
    const runs = { trurl: [] };
    const keys = [];
    for (const [tag, bin] of BINS) for (const args of set.locator) keys.push({ key: tag + args.join(' '), bin, args });
    for (const k of keys) runs[k.key] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (trurl !== null) runs.trurl.push(runOnce(trurl, set.trurl, file));
      for (const k of keys) runs[k.key].push(runOnce(...locator(k.bin, k.args), file));
    }
    const rate = (k) => Math.round(lines / median(runs[k].map((x) => x.s)));
    const ratio = (k) => (trurl === null ? '' : median(runs[k].map((x, i) => runs.trurl[i].s / x.s)).toFixed(2) + 'x');
    const rss = (k) => (TIME === null ? '' : (Math.max(...runs[k].map((x) => x.rssKB)) / 1024).toFixed(0));
    const input = `${label} (${lines} lines)`;
    if (trurl !== null)
      rows.push({
        input,
        command: `trurl ${set.trurl.join(' ')}`,
        'lines/s': rate('trurl'),
        'vs trurl': '1.00x',
        'peak RSS MB': rss('trurl'),
      });
    for (const k of keys) {
      rows.push({
        input,
        command: `${k.key.startsWith('before: ') ? 'before: ' : ''}locator ${k.args.join(' ')}`,
        'lines/s': rate(k.key),
        'vs trurl': ratio(k.key),
        'peak RSS MB': rss(k.key),
      });
    }
  }
}

// Start-up: each command on empty input (or --version), beside `node -e ''`, in turn.
const starts = [
  ["node -e ''", process.execPath, ['-e', '']],
  ...BINS.flatMap(([tag, bin]) => [
    [`${tag}locator --version`, process.execPath, [bin, '--version']],
    [`${tag}locator parse --json`, process.execPath, [bin, 'parse', '--json']],
    [`${tag}locator normalize`, process.execPath, [bin, 'normalize']],
  ]),
  ...(trurl === null ? [] : [['trurl --json', trurl, ['--json', '-f', '-']]]),
];
const times = starts.map(() => []);
for (let r = 0; r < STARTS; r++) starts.forEach(([, cmd, args], i) => times[i].push(runOnce(cmd, args, empty).s));
const base = times[0];
const startRows = starts.map(([name], i) => ({
  command: name,
  'ms (median)': (median(times[i]) * 1000).toFixed(1),
  "vs node -e ''": median(times[i].map((t, k) => t / base[k])).toFixed(2) + 'x',
}));
rmSync(dir, { recursive: true, force: true });

console.log(
  `batch against trurl: ${BINS.map(([t, b]) => t + b).join(', ')}, median of ${ROUNDS} rounds (start-up: ${STARTS}), Node ${process.version}, ${availableParallelism()} cores, load ${(
    await import('node:os')
  )
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.table(rows);
console.table(startRows);
if (process.argv.includes('--json')) console.log(JSON.stringify({ rows, startRows }));
