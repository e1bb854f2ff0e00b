#!/usr/bin/env node
// parse() throughput against Node's URL, fast-uri and url-parse on every file of
// ../shared/corpus (each line its own string), all in one run. Prints URLs/s (median of the
// rounds) and the ratio to Node's URL. The machines are shared and noisy: read the medians and
// ratios, not single timings.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse as locatorParse } from '../dist/index.js';
import fastUri from 'fast-uri';
import UrlParse from 'url-parse';

const corpusDir = new URL('../../shared/corpus/', import.meta.url).pathname;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const MIN_MS = Number(process.env.BENCH_MIN_MS ?? 150);

const peers = {
  locator: (s) => {
    try {
      return locatorParse(s).href.length;
    } catch {
      return 0;
    }
  },
  'node URL': (s) => {
    try {
      return new URL(s).href.length;
    } catch {
      return 0;
    }
  },
  'fast-uri': (s) => {
    const r = fastUri.parse(s);
    return (r.host ?? '').length + (r.path ?? '').length;
  },
  'url-parse': (s) => new UrlParse(s, {}).href.length,
};

function timeOnce(fn, lines) {
  let sink = 0;
  let n = 0;
  const t0 = process.hrtime.bigint();
  let t = t0;
  do {
    for (let i = 0; i < lines.length; i++) sink += fn(lines[i]);
    n += lines.length;
    t = process.hrtime.bigint();
  } while (Number(t - t0) / 1e6 < MIN_MS);
  if (sink === -1) console.log('');
  return n / (Number(t - t0) / 1e9);
}

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[s.length >> 1];
};

const files = readdirSync(corpusDir).filter((f) => f.endsWith('.txt')).sort();
const rows = [];
for (const file of files) {
  const lines = readFileSync(join(corpusDir, file), 'utf8').split('\n').filter((l) => l !== '');
  const results = {};
  for (const name of Object.keys(peers)) results[name] = [];
  for (const fn of Object.values(peers)) timeOnce(fn, lines); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(peers)) results[name].push(timeOnce(fn, lines));
  }
  const base = median(results['node URL']);
  for (const name of Object.keys(peers)) {
    const m = median(results[name]);
    rows.push({ corpus: file, lines: lines.length, parser: name, 'URLs/s': Math.round(m), 'vs node URL': (m / base).toFixed(2) + 'x' });
  }
}

console.log(`parse() throughput, median of ${ROUNDS} rounds of >= ${MIN_MS} ms, Node ${process.version}`);
console.table(rows);
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
