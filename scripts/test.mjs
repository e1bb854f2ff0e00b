#!/usr/bin/env node
// `npm test`: compiles src and test (type-checking both), then runs every test file with
// Node's own test runner. Extra arguments are passed to `node --test` (e.g. a file filter).
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

rmSync('.build', { recursive: true, force: true });
run('npm', ['run', '--silent', 'build']);
run(process.execPath, [tsc, '-p', 'tsconfig.test.json']);

function find(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}
const filter = process.argv.slice(2);
const files = find('.build/test').filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)));
run(process.execPath, ['--test', '--test-reporter=spec', ...files]);
