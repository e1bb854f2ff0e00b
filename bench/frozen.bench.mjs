#!/usr/bin/env node
// Reads of frozen arrays against plain ones, on the Node that runs this file (run it with each
// Node to compare: `node bench/frozen.bench.mjs` and `/path/to/node22 bench/frozen.bench.mjs`).
//
// 1. Synthetic: 200,000 arrays of 1-8 short strings (the shape of http's segments and keywords,
//    ftp's segments and cwd), the same contents frozen and plain, read by an indexed loop, by
//    for...of, by .length alone, and through a function that sees both kinds (polymorphic).
// 2. The library: the array fields of the records of the corpus files (http segments and
//    keywords, ftp segments and cwd, ...), as parse() gives them (frozen), against plain copies
//    of the same arrays, read the same ways; then the cost of making them: Object.freeze of a
//    fresh array of the same contents against none.
// CPU time (process.cpuUsage) of each pass, passes interleaved, median of ROUNDS; ratio
// frozen / plain per round, median and range (the machine is shared: read the ratios).
//   FROZEN_ROUNDS=9 node bench/frozen.bench.mjs [--json]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, corpusFiles } from './lib.mjs';

const ROUNDS = Number(process.env.FROZEN_ROUNDS ?? 9);
const { tryParse } = await import('../dist/index.js');

const cpu = (f) => {
  const t0 = process.cpuUsage();
  const r = f();
  const d = process.cpuUsage(t0);
  if (r === -1) console.log('');
  return (d.user + d.system) / 1000;
};
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

// The readers. Each is used with plain arrays and frozen ones alike (as a caller's code is), so
// their inline caches see both kinds of elements (PACKED_ELEMENTS and its frozen kind).
function readIndexed(arrays) {
  let n = 0;
  for (let k = 0; k < arrays.length; k++) {
    const a = arrays[k];
    for (let i = 0; i < a.length; i++) n += a[i].length;
  }
  return n;
}
function readOf(arrays) {
  let n = 0;
  for (const a of arrays) for (const s of a) n += s.length;
  return n;
}
function readLength(arrays) {
  let n = 0;
  for (let k = 0; k < arrays.length; k++) n += arrays[k].length;
  return n;
}
// One reader per kind (monomorphic): what a loop over only one kind compiles to.
const monoIndexed = [readIndexed.toString(), readIndexed.toString()].map((src) => new Function(`return ${src}`)());
const monoOf = [readOf.toString(), readOf.toString()].map((src) => new Function(`return ${src}`)());

function pairs(plain, frozen, label, rows) {
  const tests = [
    ['indexed loop, one reader for both', (x) => readIndexed(x), (x) => readIndexed(x)],
    ['indexed loop, a reader per kind', (x) => monoIndexed[0](x), (x) => monoIndexed[1](x)],
    ['for...of, one reader for both', (x) => readOf(x), (x) => readOf(x)],
    ['for...of, a reader per kind', (x) => monoOf[0](x), (x) => monoOf[1](x)],
    ['.length only', (x) => readLength(x), (x) => readLength(x)],
  ];
  for (const [name, fp, ff] of tests) {
    const tp = [];
    const tf = [];
    for (let r = 0; r < ROUNDS; r++) {
      tp.push(cpu(() => fp(plain)));
      tf.push(cpu(() => ff(frozen)));
    }
    const ratios = tf.map((t, i) => t / tp[i]);
    rows.push({
      set: label,
      read: name,
      'plain ms': median(tp).toFixed(1),
      'frozen ms': median(tf).toFixed(1),
      'frozen/plain': median(ratios).toFixed(2) + 'x',
      range: `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
    });
  }
}

const rows = [];

// 1. Synthetic.
const WORDS = ['usr', 'local', 'share', 'doc', 'index.html', 'a', 'pub', 'README', 'x%20y', 'src'];
const synth = [];
for (let i = 0; i < 200000; i++) {
  const n = 1 + (i % 8);
  const a = [];
  for (let j = 0; j < n; j++) a.push(WORDS[(i + j * 7) % WORDS.length]);
  synth.push(a);
}
const synthPlain = synth.map((a) => a.slice());
const synthFrozen = synth.map((a) => Object.freeze(a.slice()));
// 5 passes over the set per timed run, so that a run is tens of milliseconds.
const times5 = (list) => [0, 1, 2, 3, 4].flatMap(() => list);
pairs(times5(synthPlain), times5(synthFrozen), 'synthetic, 200,000 arrays x 5', rows);

// 2. The library's records.
const recordArrays = [];
for (const f of corpusFiles()) {
  for (const line of readFileSync(join(CORPUS_DIR, f), 'utf8').split('\n')) {
    if (line === '') continue;
    const r = tryParse(line);
    if (r instanceof Error) continue;
    const fields = r.fields;
    for (const k of Object.keys(fields)) {
      const v = fields[k];
      if (Array.isArray(v) && v.every((e) => typeof e === 'string')) recordArrays.push(v);
    }
  }
}
const allFrozen = recordArrays.every((a) => Object.isFrozen(a));
const libFrozen = [];
for (let i = 0; i < 10; i++) for (const a of recordArrays) libFrozen.push(a);
const libPlain = libFrozen.map((a) => a.slice());
pairs(
  libPlain,
  libFrozen,
  `the records' array fields (${recordArrays.length} arrays x 10, frozen: ${allFrozen})`,
  rows,
);

// The cost of making them: a fresh copy of each (as a scheme's fields() builds it), frozen or not.
{
  const tp = [];
  const tf = [];
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    tp.push(
      cpu(() => {
        for (const a of libFrozen) sink += a.slice().length;
      }),
    );
    tf.push(
      cpu(() => {
        for (const a of libFrozen) sink += Object.freeze(a.slice()).length;
      }),
    );
  }
  const ratios = tf.map((t, i) => t / tp[i]);
  rows.push({
    set: `the records' array fields, made (${libFrozen.length})`,
    read: 'copy, then Object.freeze or not',
    'plain ms': median(tp).toFixed(1),
    'frozen ms': median(tf).toFixed(1),
    'frozen/plain': median(ratios).toFixed(2) + 'x',
    range: `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
  });
  if (sink === -1) console.log('');
}

console.log(`frozen vs plain arrays, Node ${process.version}, median of ${ROUNDS} rounds (CPU time)`);
console.table(rows);
if (process.argv.includes('--json')) console.log(JSON.stringify({ node: process.version, rows }));
