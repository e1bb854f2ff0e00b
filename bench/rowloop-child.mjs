// The batch benchmark's ceiling (bench/batch.bench.mjs): runs a command's row function over the
// first LINES lines of FILE in a loop, in this process, no I/O but reading the file first, and
// prints the lines/s of the loop. Two of these at once show what two cores give this work when
// nothing is shared between the two: the most that 2 workers can reach.
import { readFileSync } from 'node:fs';
import { parseRow } from '../dist/cli/parse.js';
import { normalizeRow } from '../dist/cli/normalize.js';

const [file, command, count] = process.argv.slice(2);
const ROWS = {
  parse: (l) => parseRow(l, { json: true, trim: false, showSecrets: false }),
  normalize: (l) => normalizeRow(l, { json: true, display: false, showSecrets: false }),
};
const row = ROWS[command];
const lines = readFileSync(file, 'utf8').split('\n').slice(0, Number(count));
const t0 = process.hrtime.bigint();
let n = 0;
for (const l of lines) n += row(l).lines[0].length;
const s = Number(process.hrtime.bigint() - t0) / 1e9;
process.stdout.write(JSON.stringify({ rate: lines.length / s, n }) + '\n');
