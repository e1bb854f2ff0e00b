#!/usr/bin/env node
// parse() throughput against Node's URL, fast-uri, url-parse and whatwg-url on every file of
// test/data/corpus (each line its own string), all in one run. Every parser's fields are really
// read: for locator the scheme's typed fields (`url.fields`, decoded, e.g. an ftp URL's path
// segments and type), the host and port; for the others their components. Prints URLs/s (median
// of the rounds) and the ratio to Node's URL, and the limit: a loop that only reads every char
// code of the corpus once through a 64K table, and parse's share of that rate. The machines are
// shared and noisy: read the medians and ratios, not single timings.
import { parse as locatorParse } from '../dist/index.js';
import fastUri from 'fast-uri';
import UrlParse from 'url-parse';
import whatwgUrl from 'whatwg-url';
import { ROUNDS, MIN_MS, measure, lastRounds, corpusFiles, corpusLines, fieldsWeight } from './lib.mjs';

// The limit: each char code once, looked up in a 64K table, nothing else.
const TABLE = new Uint8Array(65536).fill(1, 33, 127);
function charLoop(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) n += TABLE[s.charCodeAt(i)];
  return n;
}

const peers = {
  locator: (s) => {
    try {
      const u = locatorParse(s);
      return u.scheme.length + (u.host ?? '').length + (u.port ?? 0) + fieldsWeight(u.fields);
    } catch {
      return 0;
    }
  },
  'node URL': (s) => {
    try {
      const u = new URL(s);
      return u.protocol.length + u.host.length + u.port.length + u.pathname.length + u.search.length + u.hash.length;
    } catch {
      return 0;
    }
  },
  'fast-uri': (s) => {
    const r = fastUri.parse(s);
    return (
      (r.scheme ?? '').length + (r.host ?? '').length + (r.port ?? 0) + (r.path ?? '').length + (r.query ?? '').length
    );
  },
  'url-parse': (s) => {
    const u = new UrlParse(s, {});
    return u.protocol.length + u.host.length + u.port.length + u.pathname.length + u.query.length + u.hash.length;
  },
  'whatwg-url': (s) => {
    const u = whatwgUrl.parseURL(s);
    if (u === null) return 0;
    let n = u.scheme.length + (u.port ?? 0) + (u.query ?? '').length + (u.fragment ?? '').length;
    n += typeof u.host === 'string' ? u.host.length : u.host === null ? 0 : 1;
    if (typeof u.path === 'string') return n + u.path.length;
    for (const seg of u.path) n += seg.length;
    return n;
  },
  'limit: char loop': charLoop,
};

const files = corpusFiles();
const rows = [];
for (const file of files) {
  const lines = corpusLines(file);
  const results = measure(peers, lines);
  const base = results['node URL'];
  const limit = results['limit: char loop'];
  for (const name of Object.keys(peers)) {
    const m = results[name];
    rows.push({
      corpus: file,
      lines: lines.length,
      parser: name,
      'URLs/s': Math.round(m),
      'min-max': `${Math.round(Math.min(...lastRounds[name]))}-${Math.round(Math.max(...lastRounds[name]))}`,
      'vs node URL': (m / base).toFixed(2) + 'x',
      'share of limit': ((100 * m) / limit).toFixed(1) + '%',
    });
  }
}

console.log(`parse() throughput, median of ${ROUNDS} rounds of >= ${MIN_MS} ms, Node ${process.version}`);
console.table(rows);
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
