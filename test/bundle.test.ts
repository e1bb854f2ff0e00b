// The parser bundle holds no networking code: what the package root imports statically reaches
// no node:* module (the clients are imported only when open() needs them), so it runs in a
// browser. Checked on the compiled output, by following static imports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ROOT } from './helpers.js';

function staticImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)) {
    out.push(m[1] ?? m[2]);
  }
  return out;
}

test('dist/index.js and everything it imports statically use no node:* module', () => {
  const seen = new Set<string>();
  const stack = [join(ROOT, 'dist', 'index.js')];
  const bad: string[] = [];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const spec of staticImports(f)) {
      if (spec.startsWith('node:') || !spec.startsWith('.')) bad.push(`${f.slice(ROOT.length)} imports ${spec}`);
      else stack.push(resolve(dirname(f), spec));
    }
  }
  assert.ok(seen.size > 10, `followed ${seen.size} modules`);
  assert.deepEqual(bad, []);
});
