#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.mjs in its own Node process (so one benchmark's JIT
// state does not colour the next), or only those whose names contain an argument.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('-'));
let status = 0;
for (const f of readdirSync(dir)
  .filter((n) => n.endsWith('.bench.mjs'))
  .sort()) {
  if (only.length > 0 && !only.some((o) => f.includes(o))) continue;
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, [join(dir, f), ...flags], { stdio: 'inherit' });
  if (r.status !== 0) status = r.status ?? 1;
}
process.exit(status);
