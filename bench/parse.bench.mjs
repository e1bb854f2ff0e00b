#!/usr/bin/env node
// parse() throughput against Node's URL, fast-uri and url-parse on every file of
// ../shared/corpus (each line its own string), all in one run. Prints URLs/s (median of the
// rounds) and the ratio to Node's URL. The machines are shared and noisy: read the medians and
// ratios, not single timings.
import { parse as locatorParse } from '../dist/index.js';
import fastUri from 'fast-uri';
import UrlParse from 'url-parse';
import { ROUNDS, MIN_MS, measure, corpusFiles, corpusLines } from './lib.mjs';

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

const files = corpusFiles();
const rows = [];
for (const file of files) {
  const lines = corpusLines(file);
  const results = measure(peers, lines);
  const base = results['node URL'];
  for (const name of Object.keys(peers)) {
    const m = results[name];
    rows.push({
      corpus: file,
      lines: lines.length,
      parser: name,
      'URLs/s': Math.round(m),
      'vs node URL': (m / base).toFixed(2) + 'x',
    });
  }
}

console.log(`parse() throughput, median of ${ROUNDS} rounds of >= ${MIN_MS} ms, Node ${process.version}`);
console.table(rows);
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
