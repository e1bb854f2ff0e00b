#!/usr/bin/env node
// lint() throughput on every file of test/data/corpus (each line its own string), against
// parse() alone and Node's URL in the same run: what the checks of RFC 1738 6 cost on top of a
// parse. Also assertAllowed() (the policy, which lints) and redactUrl(). Prints URLs/s (median
// of the rounds) and ratios. The machines are shared and noisy: read the medians and ratios.
import { parse, tryParse, lint, refusals, redactUrl } from '../dist/index.js';
import { ROUNDS, MIN_MS, measure, corpusFiles, corpusLines } from './lib.mjs';

const peers = {
  'node URL': (s) => {
    try {
      return new URL(s).href.length;
    } catch {
      return 0;
    }
  },
  'locator parse': (s) => {
    try {
      return parse(s).href.length;
    } catch {
      return 0;
    }
  },
  'locator lint': (s) => lint(s).length + 1,
  'policy refusals': (s) => {
    const u = tryParse(s);
    return u instanceof Error ? 0 : refusals(u).length + 1;
  },
  redactUrl: (s) => redactUrl(s).length,
};

const files = corpusFiles();
const rows = [];
for (const file of files) {
  const lines = corpusLines(file);
  const results = measure(peers, lines);
  const node = results['node URL'];
  const base = results['locator parse'];
  for (const name of Object.keys(peers)) {
    const m = results[name];
    rows.push({
      corpus: file,
      lines: lines.length,
      function: name,
      'URLs/s': Math.round(m),
      'vs parse': (m / base).toFixed(2) + 'x',
      'vs node URL': (m / node).toFixed(2) + 'x',
    });
  }
}

console.log(`lint() throughput, median of ${ROUNDS} rounds of >= ${MIN_MS} ms, Node ${process.version}`);
console.table(rows);
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
