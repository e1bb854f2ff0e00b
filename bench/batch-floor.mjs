#!/usr/bin/env node
// The floor of `locator parse --json --jobs 1` in Node: a program that only reads the lines of
// standard input (a string made of each line's bytes, as the CLI's loop makes it) and writes the
// bytes of the command's output, taken from a file made beforehand, in 64 KiB writes to standard
// output. No parse, no row written: what is left is Node's start-up, the reading and the writing,
// which no serializer or parser can go below.
//   node dist/cli/locator.cjs parse --json < IN > /tmp/out.ndjson
//   node bench/batch-floor.mjs /tmp/out.ndjson < IN > /dev/null
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

const outFd = openSync(process.argv[2], 'r');
const inBuf = Buffer.allocUnsafe(1 << 16);
const outBuf = Buffer.allocUnsafe(1 << 16);
let lines = 0;
let chars = 0;
for (;;) {
  const n = readSync(0, inBuf, 0, inBuf.length, null);
  if (n === 0) break;
  let from = 0;
  for (let lf = inBuf.indexOf(10, from); lf >= 0 && lf < n; lf = inBuf.indexOf(10, from)) {
    chars += inBuf.toString('utf8', from, lf).length;
    lines++;
    from = lf + 1;
  }
  // About as much output as the lines read make (the output is about 9 bytes per input byte).
  for (let want = 9 * n; want > 0;) {
    const m = readSync(outFd, outBuf, 0, outBuf.length, null);
    if (m === 0) break;
    for (let at = 0; at < m;) at += writeSync(1, outBuf, at, m - at);
    want -= m;
  }
}
// The rest of the output.
for (;;) {
  const m = readSync(outFd, outBuf, 0, outBuf.length, null);
  if (m === 0) break;
  for (let at = 0; at < m;) at += writeSync(1, outBuf, at, m - at);
}
closeSync(outFd);
if (lines === -1) console.error(chars);
