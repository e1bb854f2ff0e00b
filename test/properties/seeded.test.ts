// Every property of the suite runs from a fixed seed, so that a failure reproduces (style.md:
// "fuzz tests with a fixed seed"): each fast-check run in test/ (fc.assert, fc.check, fc.sample,
// fc.statistics) is given a seed in its last argument, SEED of ./runs.ts or a literal one. A
// property added without one fails here, with its file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers.js';

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|mjs|js)$/.test(name)) out.push(p);
  }
  return out;
}

/**
 * The text of each top-level argument of the call whose "(" is at `open`, skipping strings,
 * template literals, comments and regular expression literals (so a ")" or "," in them counts
 * for nothing). Null when the call does not end.
 */
export function callArguments(src: string, open: number): string[] | null {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  let prev = '('; // the last character that is not white space, for telling a regex from a division
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
    } else if (c === '/' && src[i + 1] === '/') {
      i = src.indexOf('\n', i);
      if (i < 0) return null;
      continue;
    } else if (c === '/' && src[i + 1] === '*') {
      i = src.indexOf('*/', i) + 1;
      if (i <= 0) return null;
      continue;
    } else if (c === '/' && '(,=:[!&|?{};'.includes(prev)) {
      let inClass = false;
      for (i++; i < src.length && (src[i] !== '/' || inClass); i++) {
        if (src[i] === '\\') i++;
        else if (src[i] === '[') inClass = true;
        else if (src[i] === ']') inClass = false;
      }
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        args.push(src.slice(start, i));
        return args.map((a) => a.trim()).filter((a) => a !== '');
      }
    } else if (c === ',' && depth === 1) {
      args.push(src.slice(start, i));
      start = i + 1;
    }
    if (!/\s/.test(c)) prev = c;
  }
  return null;
}

test('callArguments: the top-level arguments, whatever strings, regexes and comments hold', () => {
  const src = `fc.assert(fc.property(a, (x) => f(x, ')', /[)(,]/.test(x), \`\${x})\`), // ) ,\n  ), { seed: SEED, numRuns: 3 })`;
  const args = callArguments(src, src.indexOf('('));
  assert.equal(args?.length, 2);
  assert.equal(args![1], '{ seed: SEED, numRuns: 3 }');
  assert.deepEqual(callArguments('fc.sample(arb)', 9), ['arb']);
});

test('every fast-check run in test/ has a fixed seed', () => {
  const unseeded: string[] = [];
  let runs = 0;
  for (const file of sources(join(ROOT, 'test'))) {
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/\bfc\.(assert|check|sample|statistics)\(/g)) {
      const where = `${relative(ROOT, file)}:${src.slice(0, m.index).split('\n').length}`;
      if (file.endsWith('seeded.test.ts') || src.lastIndexOf('//', m.index) > src.lastIndexOf('\n', m.index)) continue;
      runs++;
      const args = callArguments(src, m.index! + m[0].length - 1);
      if (args === null) unseeded.push(`${where}: fc.${m[1]}( does not end`);
      else if (args.length < 2 || !/seed/i.test(args[args.length - 1]))
        unseeded.push(`${where}: fc.${m[1]} without a seed`);
    }
  }
  assert.ok(runs > 50, `only ${runs} fast-check runs found: is the scan reading test/?`);
  assert.deepEqual(unseeded, []);
});
