#!/usr/bin/env node
// resolve() and normalize() throughput beside Node's URL on the corpus of test/data/corpus, all
// in one run. For resolve, each corpus line becomes one partial form (in turn: an absolute path,
// a relative path, "../" and a path, "./" and the last segment with the search, a net path, a
// query) resolved against a base of the same scheme (the first line's host, with a deep path),
// the way a page's links are (and against two bases in turn, which resolve() cannot keep);
// Node's `new URL(rel, base)` resolves the same strings (by the WHATWG URL Standard, so the
// results differ in places: this compares speed, not answers). For normalize, each line
// as it is, beside `new URL(line).href` (Node's own normalization). Prints partials/s or URLs/s
// (median of the rounds) and the ratio to Node. The machines are shared and noisy: read the
// medians and ratios, not single timings.
import { resolve, normalize, parse } from '../dist/index.js';
import { ROUNDS, MIN_MS, timeOnce, median, corpusLines } from './lib.mjs';

const FILES = ['kasztp.txt', 'node_files.txt', 'isaacs_files.txt', 'schemes.txt'];

function measure(peers, items, reference) {
  const results = Object.fromEntries(Object.keys(peers).map((k) => [k, []]));
  for (const fn of Object.values(peers)) timeOnce(fn, items); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(peers)) results[name].push(timeOnce(fn, items));
  }
  const base = median(results[reference]);
  return Object.keys(peers).map((name) => ({ name, rate: median(results[name]), ratio: median(results[name]) / base }));
}

/** The partial forms of one corpus file, and the base they are resolved against. */
function partials(lines) {
  const refs = [];
  let base = null;
  for (const line of lines) {
    let u;
    try {
      u = new URL(line);
    } catch {
      continue;
    }
    if (!['http:', 'https:', 'ftp:', 'file:'].includes(u.protocol)) continue;
    base ??= `${u.protocol}//${u.host}/a/b/c/d.html?q=1`;
    if (!base.startsWith(u.protocol)) continue;
    const path = u.pathname;
    const rel = path.slice(1);
    const last = path.slice(path.lastIndexOf('/') + 1);
    switch (refs.length % 6) {
      case 0:
        refs.push(path + u.search);
        break;
      case 1:
        refs.push(rel);
        break;
      case 2:
        refs.push('../' + rel);
        break;
      case 3:
        refs.push('./' + last + u.search);
        break;
      case 4:
        refs.push(`//${u.host}${path}`);
        break;
      default:
        refs.push(u.search === '' ? '?x=' + last : u.search);
        break;
    }
  }
  return { base, refs };
}

const rows = [];
for (const file of FILES) {
  const lines = corpusLines(file);
  const { base, refs } = partials(lines);
  if (base === null || refs.length === 0) continue;
  const baseUrl = parse(base);
  const baseURL = new URL(base);
  // resolve() keeps the last base it read (src/operations/resolve.ts); two bases in turn read the base on
  // every call, as for links that each come with their own base.
  const base2 = base.replace('/a/b/c/d.html?q=1', '/x/y/z.html');
  let turn = 0;
  let turnNode = 0;
  const peers = {
    'locator resolve (RFC 1808)': (r) => resolve(base, r).length,
    'locator resolve (RFC 3986)': (r) => resolve(base, r, { rfc: 3986 }).length,
    'locator resolve, parsed base': (r) => resolve(baseUrl, r).length,
    'node new URL(rel, base)': (r) => new URL(r, base).href.length,
    'node new URL(rel, URL)': (r) => new URL(r, baseURL).href.length,
    'locator resolve, two bases in turn': (r) => resolve((turn ^= 1) === 1 ? base : base2, r).length,
    'node new URL(rel, base), two bases in turn': (r) => new URL(r, (turnNode ^= 1) === 1 ? base : base2).href.length,
  };
  for (const m of measure(peers, refs, 'node new URL(rel, base)')) {
    rows.push({
      bench: 'resolve',
      corpus: file,
      items: refs.length,
      what: m.name,
      'per s': Math.round(m.rate),
      'vs node': m.ratio.toFixed(2) + 'x',
    });
  }
  const urls = lines.filter((l) => {
    try {
      normalize(l);
      new URL(l);
      return true;
    } catch {
      return false;
    }
  });
  const npeers = {
    'locator normalize': (s) => normalize(s).length,
    'node new URL(s).href': (s) => new URL(s).href.length,
  };
  for (const m of measure(npeers, urls, 'node new URL(s).href')) {
    rows.push({
      bench: 'normalize',
      corpus: file,
      items: urls.length,
      what: m.name,
      'per s': Math.round(m.rate),
      'vs node': m.ratio.toFixed(2) + 'x',
    });
  }
}

console.log(
  `resolve() and normalize() throughput, median of ${ROUNDS} rounds of >= ${MIN_MS} ms, Node ${process.version}`,
);
console.table(rows);
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
