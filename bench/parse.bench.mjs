#!/usr/bin/env node
// parse() throughput against Node's URL, fast-uri, url-parse and whatwg-url on every file of
// test/data/corpus (each line its own string), all in one run. Every parser's fields are really
// read: for locator the scheme's typed fields (`url.fields`, decoded, e.g. an ftp URL's path
// segments and type), the host and port; for the others their components. Prints URLs/s (median
// of the rounds) and the ratio to Node's URL, and the limit: a loop that only reads every char
// code of the corpus once through a 64K table, and parse's share of that rate. Then three more
// tables, each against its Node peer in the same run: parse and read href, host, port and path
// (Node's URL: href, hostname, port, pathname); parse and read `valid` (`URL.canParse`); and
// normalize() (`new URL(s).href`). BENCH_BASELINE=/path/to/dist/index.js adds the same rows for
// another build (e.g. the code before a change), measured in the same rounds: a before/after of
// same-run ratios. The machines are shared and noisy: read the medians and ratios, not single
// timings.
import { parse as locatorParse, normalize as locatorNormalize } from '../dist/index.js';
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

const baseline = process.env.BENCH_BASELINE ? await import(process.env.BENCH_BASELINE) : null;

// Each build's walk is compiled from its own source text (new Function), the shared walk of
// lib.mjs included: two closures of one literal share V8's type feedback, so a baseline build
// in the same process would make this build's property reads polymorphic.
function fieldsPeer(parse) {
  return new Function(
    'parse',
    `'use strict';
    const fieldsWeight = ${fieldsWeight.toString()};
    return (s) => {
      try {
        const u = parse(s);
        return u.scheme.length + (u.host ?? '').length + (u.port ?? 0) + fieldsWeight(u.fields);
      } catch {
        return 0;
      }
    };`,
  )(parse);
}

const peers = {
  ...(baseline ? { 'baseline locator': fieldsPeer(baseline.parse) } : {}),
  locator: fieldsPeer(locatorParse),
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

// The three lighter uses, each beside its Node peer (and the baseline build, if given). Each
// build's function is compiled from its own source text (new Function): two closures of one
// literal share V8's type feedback, so the baseline and this build would make each other's
// property reads polymorphic and slow each other unevenly.
function perBuild(body) {
  return (L) => new Function('L', `'use strict'; const { parse, normalize } = L; return ${body};`)(L);
}
const readPeer = perBuild(`(s) => {
  try {
    const u = parse(s);
    return u.href.length + (u.host ?? '').length + (u.port ?? 0) + (u.path ?? '').length;
  } catch {
    return 0;
  }
}`);
const validPeer = perBuild(`(s) => {
  try {
    return parse(s).valid ? 1 : 2;
  } catch {
    return 0;
  }
}`);
const normalizePeer = perBuild(`(s) => {
  try {
    return normalize(s).length;
  } catch {
    return 0;
  }
}`);
const uses = {
  'href host port path': {
    node: [
      'node URL',
      (s) => {
        try {
          const u = new URL(s);
          return u.href.length + u.hostname.length + u.port.length + u.pathname.length;
        } catch {
          return 0;
        }
      },
    ],
    make: readPeer,
  },
  valid: { node: ['URL.canParse', (s) => (URL.canParse(s) ? 1 : 2)], make: validPeer },
  normalize: {
    node: [
      'new URL(s).href',
      (s) => {
        try {
          return new URL(s).href.length;
        } catch {
          return 0;
        }
      },
    ],
    make: normalizePeer,
  },
};
const useRows = [];
for (const file of files) {
  const lines = corpusLines(file);
  for (const [use, { node, make }] of Object.entries(uses)) {
    const p = {
      ...(baseline ? { 'baseline locator': make(baseline) } : {}),
      locator: make({ parse: locatorParse, normalize: locatorNormalize }),
      [node[0]]: node[1],
    };
    const results = measure(p, lines);
    const base = results[node[0]];
    const row = {
      corpus: file,
      use,
      peer: node[0],
      'peer URLs/s': Math.round(base),
      'locator URLs/s': Math.round(results.locator),
      locator: (results.locator / base).toFixed(2) + 'x',
    };
    if (baseline) row.baseline = (results['baseline locator'] / base).toFixed(2) + 'x';
    useRows.push(row);
  }
}
console.log(`parse() and normalize() beside their Node peers (ratio = locator / peer), median of ${ROUNDS} rounds`);
console.table(useRows);
if (process.argv.includes('--json')) console.log(JSON.stringify({ rows, useRows }));
