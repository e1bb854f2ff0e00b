// The CI step of the fuzzing (issue 17): every target of fuzz/targets runs over its seed corpus
// (fuzz/corpus/<target>) and then over deterministic mutations of it (fuzz/mutate.ts, a fixed
// seed) up to a fixed number of executions, FUZZ_RUNS (default 2,000). Any invariant broken, or
// any exception other than a LocatorError, fails the test with the input in hex, which
// `npm run fuzz` and the target's own regression rows can then replay. The long runs, guided by
// coverage, are `npm run fuzz` (scripts/fuzz.mjs); their figures are in fuzz/RESULTS.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generator, mutate } from '../fuzz/mutate.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

const TARGETS = readdirSync(join(root, 'fuzz', 'targets'))
  .filter((f) => f.endsWith('.ts') && f !== 'lib.ts' && f !== 'stream.ts')
  .map((f) => f.slice(0, -3))
  .sort();

function seeds(target: string): Uint8Array[] {
  const dir = join(root, 'fuzz', 'corpus', target);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .filter((f) => !f.endsWith('.md'))
    .map((f) => new Uint8Array(readFileSync(join(dir, f))));
}

test('every fuzz target has a seed corpus', () => {
  assert.ok(TARGETS.length >= 13, `targets: ${TARGETS.join(', ')}`);
  for (const t of TARGETS) assert.ok(seeds(t).length > 0, `fuzz/corpus/${t} is empty`);
});

for (const target of TARGETS) {
  test(`fuzz target ${target}: seeds and ${RUNS} executions in all keep its invariants (seed 1738)`, async () => {
    const { fuzz } = (await import(`../fuzz/targets/${target}.js`)) as { fuzz: (d: Uint8Array) => void };
    const corpus = seeds(target);
    const rand = generator(1738);
    const run = (input: Uint8Array, what: string) => {
      try {
        fuzz(input);
      } catch (e) {
        assert.fail(
          `${target}: ${what} ${Buffer.from(input).toString('hex')} broke an invariant: ${(e as Error).stack}`,
        );
      }
    };
    for (const s of corpus) run(s, 'seed');
    for (let i = corpus.length; i < RUNS; i++) {
      const base = corpus[rand(corpus.length)];
      run(mutate(base, corpus, rand), 'mutation');
    }
  });
}
