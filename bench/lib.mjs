// Shared by the benchmarks: the corpus, one timed round, medians. The machines are shared and
// noisy: every benchmark reports medians of several rounds and ratios measured in the same run.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_DIR = new URL('../test/data/corpus/', import.meta.url).pathname;
// BENCH_SMOKE=1 (the CI smoke test, test/bench.test.ts): one short round over the first lines of
// each corpus file, to check that each benchmark runs, never how fast.
export const SMOKE = process.env.BENCH_SMOKE === '1';
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 9));
export const MIN_MS = Number(process.env.BENCH_MIN_MS ?? (SMOKE ? 1 : 150));

/** The corpus files (*.txt), sorted. */
export function corpusFiles() {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort();
}

/** The non-empty lines of a corpus file, each its own string. */
export function corpusLines(file) {
  const lines = readFileSync(join(CORPUS_DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  return SMOKE ? lines.slice(0, 300) : lines;
}

/** Items per second of `fn` over `items`, repeated for at least MIN_MS. */
export function timeOnce(fn, items) {
  let sink = 0;
  let n = 0;
  const t0 = process.hrtime.bigint();
  let t = t0;
  do {
    for (let i = 0; i < items.length; i++) sink += fn(items[i]);
    n += items.length;
    t = process.hrtime.bigint();
  } while (Number(t - t0) / 1e6 < MIN_MS);
  if (sink === -1) console.log('');
  return n / (Number(t - t0) / 1e9);
}

export const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[s.length >> 1];
};

/** The rates of every round of the last measure(), by name (for min-max columns). */
export const lastRounds = {};

/** Medians of ROUNDS interleaved rounds (after one warm-up) for each named function. */
export function measure(peers, items) {
  const results = Object.fromEntries(Object.keys(peers).map((k) => [k, []]));
  for (const fn of Object.values(peers)) timeOnce(fn, items);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(peers)) results[name].push(timeOnce(fn, items));
  }
  for (const [k, v] of Object.entries(results)) lastRounds[k] = v;
  return Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v)]));
}

/** Writes `lines` lines to `file`: the lines of every corpus file, repeated as often as needed. */
export async function writeCorpusFile(file, lines) {
  const { createWriteStream } = await import('node:fs');
  const { once } = await import('node:events');
  const corpus = corpusFiles().flatMap((f) => corpusLines(f));
  const w = createWriteStream(file);
  let chunk = [];
  for (let i = 0; i < lines; i++) {
    chunk.push(corpus[i % corpus.length]);
    if (chunk.length === 10000 || i === lines - 1) {
      if (!w.write(chunk.join('\n') + '\n')) await once(w, 'drain');
      chunk = [];
    }
  }
  w.end();
  await once(w, 'finish');
}

/** The summed lengths of a fields record's strings (arrays and nested records included): how
 * the parse benchmarks read every typed field. */
export function fieldsWeight(v) {
  if (typeof v === 'string') return v.length;
  if (typeof v === 'number') return 1;
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) for (const x of v) n += fieldsWeight(x);
  else for (const k in v) n += fieldsWeight(v[k]);
  return n;
}
