// The formatter's rules hold for every source file (issue 11: no 330-character lines coming back):
// Prettier with the repository's .prettierrc.json, over what `npm run format` writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const prettier = createRequire(import.meta.url).resolve('prettier/bin/prettier.cjs');

test('every source file is formatted (npm run format:check)', () => {
  const r = spawnSync(process.execPath, [prettier, '--check', 'src', 'test', 'bench', 'scripts', 'examples', 'fuzz'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `not formatted (run npm run format):\n${r.stdout}${r.stderr}`);
});
