// The rule `zero-dependencies` of .dependency-cruiser.cjs lets src/check/markup/ (and only it)
// import markdown-it and parse5 (and no other package): run over a small tree with those packages
// and another one in its node_modules, imported from the markup folder and from elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../helpers.js';

const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

const pkg = (name: string) => ({
  [`node_modules/${name}/package.json`]: JSON.stringify({ name, version: '1.0.0', main: 'index.js' }),
  [`node_modules/${name}/index.js`]: 'module.exports = {};\n',
});

const TREE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [] },
    include: ['src'],
  }),
  ...pkg('markdown-it'),
  ...pkg('parse5'),
  ...pkg('left-pad'),
  // allowed: the markup readers import the two parsers
  'src/check/markup/md.ts': "import m from 'markdown-it';\nexport const md = m;\n",
  'src/check/markup/html.ts': "import p from 'parse5';\nexport const html = p;\n",
  // not allowed: another package from the markup folder, a parser from elsewhere in the checker, or from the core
  'src/check/markup/pad.ts': "import l from 'left-pad';\nexport const pad = l;\n",
  'src/check/check.ts': "import p from 'parse5';\nexport const c = p;\n",
  'src/core/c.ts': "import m from 'markdown-it';\nexport const core = m;\n",
};

test('zero-dependencies: markdown-it and parse5 only from src/check/markup/, and no other package there', () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-markup-layering-'));
  try {
    for (const [path, text] of Object.entries(TREE)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const r = spawnSync(
      process.execPath,
      [DEPCRUISE, '--config', CONFIG, '--output-type', 'json', '--progress', 'none', 'src'],
      { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const out = JSON.parse(r.stdout) as {
      summary: { violations: { rule: { name: string }; from: string; to: string }[] };
    };
    const found = out.summary.violations
      .filter((v) => v.rule.name === 'zero-dependencies')
      .map((v) => `${v.from} -> ${v.to}`)
      .sort();
    assert.deepEqual(found, [
      'src/check/check.ts -> node_modules/parse5/index.js',
      'src/check/markup/pad.ts -> node_modules/left-pad/index.js',
      'src/core/c.ts -> node_modules/markdown-it/index.js',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
