// The repository stands alone: the data the tests, benchmarks and scripts read is in test/data
// (test/data/SOURCES.md), never in a folder beside the repository, so that a clone of it alone
// passes `npm install && npm test`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ROOT, SHARED } from './helpers.js';

/** The files git tracks, as paths from the repository's root. */
function tracked(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
}

test('the shared material is read from test/data, inside the repository', () => {
  assert.equal(relative(ROOT, SHARED), join('test', 'data'));
  for (const part of ['spec', 'corpus', 'conformance', join('fixtures', 'wais'), 'docs']) {
    assert.ok(existsSync(join(SHARED, part)), `${part} is missing from test/data`);
  }
  assert.match(readFileSync(join(SHARED, 'SOURCES.md'), 'utf8'), /where each|provenance/i);
});

test('no file of the repository reaches for a folder beside it (code, scripts, docs)', () => {
  // A path that climbs out of the repository to the material laid beside it (the parent folder,
  // then "shared": as one path, as join()'s arguments, or the work folder's absolute path). The
  // patterns are built from parts, so that this file holds no such path itself.
  const [up, name] = ['\\.\\.', 'shared'];
  const climbs = [
    new RegExp(`${up}/${name}\\b`),
    new RegExp(`'${up}',\\s*'${name}'`),
    new RegExp(`"${up}",\\s*"${name}"`),
    new RegExp(`/work/${name}\\b`),
  ];
  const found: string[] = [];
  for (const file of tracked()) {
    if (file.startsWith('test/data/')) continue;
    if (!/\.(ts|mts|js|mjs|cjs|sh|py|json|md)$/.test(file) && !file.startsWith('.ci/')) continue;
    const path = resolve(ROOT, file);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    for (const re of climbs) {
      const m = re.exec(text);
      if (m) found.push(`${file}: ${JSON.stringify(m[0])}`);
    }
  }
  assert.deepEqual(found, []);
});
