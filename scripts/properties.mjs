#!/usr/bin/env node
// The long run of the property tests in test/properties (issue 17): builds, then runs them with
// FC_RUNS runs each (default 100,000) and FC_SEED (default: a new one, printed, so that a failure
// can be replayed with FC_SEED=<seed>). CI runs the same tests with few runs and the seed 1738.
//
//   npm run properties                       # 100,000 runs, a fresh seed
//   FC_RUNS=20000 FC_SEED=42 npm run properties
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env };
env.FC_RUNS ??= '100000';
env.FC_SEED ??= String(Math.floor(Math.random() * 2 ** 31));
console.log(`properties: FC_RUNS=${env.FC_RUNS} FC_SEED=${env.FC_SEED}`);
const r = spawnSync('npm', ['test', '--', 'test/properties'], { cwd: root, env, stdio: 'inherit' });
process.exit(r.status ?? 1);
