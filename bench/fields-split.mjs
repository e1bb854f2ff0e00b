#!/usr/bin/env node
// Where parse-with-fields time goes (issue 16), one corpus file (argument, default kasztp.txt):
// parse() alone, with scheme/host/port read, with the typed fields made (u.fields), and with the
// fields walked as bench/parse.bench.mjs walks them, beside Node's URL; URLs/s, median of 7
// rounds of 300 ms, ratio to Node's URL. A diagnostic, not part of `npm run bench`.
import { parse } from '../dist/index.js';
import { fieldsWeight } from './lib.mjs';
import { readFileSync } from 'node:fs';
const file = process.argv[2] ?? 'kasztp.txt';
const lines = readFileSync(new URL('../test/data/corpus/' + file, import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean);
const peers = {
  parseOnly: (s) => {
    try {
      const u = parse(s);
      return u.href.length;
    } catch {
      return 0;
    }
  },
  parseHost: (s) => {
    try {
      const u = parse(s);
      return u.scheme.length + (u.host ?? '').length + (u.port ?? 0);
    } catch {
      return 0;
    }
  },
  parseFields: (s) => {
    try {
      const u = parse(s);
      return u.scheme.length + (u.host ?? '').length + (u.port ?? 0) + fieldsWeight(u.fields);
    } catch {
      return 0;
    }
  },
  fieldsMade: (s) => {
    try {
      const u = parse(s);
      return u.scheme.length + (u.host ?? '').length + (u.port ?? 0) + (u.fields ? 1 : 0);
    } catch {
      return 0;
    }
  },
  nodeURL: (s) => {
    try {
      const u = new URL(s);
      return u.protocol.length + u.host.length + u.port.length + u.pathname.length + u.search.length + u.hash.length;
    } catch {
      return 0;
    }
  },
};
const res = {};
for (let r = 0; r < 7; r++)
  for (const [k, f] of Object.entries(peers)) {
    const t0 = process.hrtime.bigint();
    let n = 0;
    let c = 0;
    while (Number(process.hrtime.bigint() - t0) < 3e8) {
      for (const l of lines) n += f(l);
      c += lines.length;
    }
    (res[k] ??= []).push(c / (Number(process.hrtime.bigint() - t0) / 1e9));
  }
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
for (const k in res) console.log(file, k, Math.round(med(res[k])), (med(res[k]) / med(res.nodeURL)).toFixed(2) + 'x');
