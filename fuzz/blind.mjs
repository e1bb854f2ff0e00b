#!/usr/bin/env node
// Blind fuzzing of one target at full speed: its seeds, then the deterministic mutations of
// fuzz/mutate.ts (the CI step's, seed 1738 unless --seed), with no coverage instrumentation, for
// --runs executions. For targets whose check is a differential (fuzz/targets/differential.ts),
// where the count of executions matters more than coverage guidance; `npm run fuzz` is the
// coverage-guided run. Needs the compiled tests (`npx tsc -p tsconfig.test.json`, into .build).
// Prints the count and the rate every 10 s; on a broken invariant, the input in hex, exit 1.
//
//   nice -n 10 node fuzz/blind.mjs --target differential --runs 10000000
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, d) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : d;
};
const target = opt('target', 'differential');
const runs = Number(opt('runs', '1000000'));
const seed = Number(opt('seed', '1738'));
const build = join(root, '.build');
if (!existsSync(join(build, 'fuzz/targets', `${target}.js`))) {
  console.error(`fuzz/blind: no .build/fuzz/targets/${target}.js: run npx tsc -p tsconfig.test.json first`);
  process.exit(2);
}
const { fuzz } = await import(join(build, 'fuzz/targets', `${target}.js`));
const { generator, mutate } = await import(join(build, 'fuzz/mutate.js'));
const dir = join(root, 'fuzz/corpus', target);
const corpus = readdirSync(dir)
  .sort()
  .filter((f) => !f.endsWith('.md'))
  .map((f) => new Uint8Array(readFileSync(join(dir, f))));
const rand = generator(seed);
// Errors are made by the thousand (every refused input): without stack traces they cost little.
// A failing input is run again with them, for the report.
const limit = Error.stackTraceLimit;
Error.stackTraceLimit = 0;
const t0 = Date.now();
let last = t0;
for (let i = 0; i < runs; i++) {
  let input = i < corpus.length ? corpus[i] : mutate(corpus[rand(corpus.length)], corpus, rand);
  if (input.length > 4096) input = input.subarray(0, 4096); // as scripts/fuzz.mjs caps it
  try {
    fuzz(input);
  } catch (e) {
    Error.stackTraceLimit = limit;
    let again = e;
    try {
      fuzz(input);
    } catch (f) {
      again = f;
    }
    console.error(`execution ${i}: ${Buffer.from(input).toString('hex')}\n${again.stack}`);
    process.exit(1);
  }
  if ((i & 1023) === 0 && Date.now() - last > 10000) {
    last = Date.now();
    console.log(`${i} executions, ${Math.round(i / ((last - t0) / 1000))}/s`);
  }
}
console.log(`${runs} executions, no difference, ${Math.round((Date.now() - t0) / 1000)} s (seed ${seed})`);
