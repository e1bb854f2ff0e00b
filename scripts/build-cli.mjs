#!/usr/bin/env node
// The installed command (package.json "bin", after `tsc` in `npm run build`):
// - dist/cli/locator.bundle.cjs: dist/cli/main.js and what it imports in one CommonJS file
//   (esbuild; the commands stay loaded on first use, as lazy initialisers in the file). It sits
//   beside main.js, so that its `import.meta.url` (given the bundle's own file: URL) finds
//   ./batch-worker.js and ../../package.json as main.js does.
// - dist/cli/locator.bundle.cjs.cache: V8's code cache of that file after runs of `parse --json`
//   and `normalize` on a line or two and of `--version` (the batch commands and the start-up the
//   benchmarks time), made by scripts/cli-cache.cjs. Other commands compile what they run.
// - dist/cli/locator.cjs: the bin, scripts/locator-bin.cjs, which runs the bundle from the cache.
// Measured in bench/RESULTS.md (Start-up): this is what brings `locator --version` near `node -e ''`.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/cli/locator.bundle.cjs`;

await build({
  entryPoints: [`${root}dist/cli/main.js`],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  // No "#!" line: the bin compiles the file inside a function wrapper, where one is a syntax error.
  banner: {
    js: [
      "'use strict';",
      "const __locatorMetaUrl = require('node:url').pathToFileURL(__filename).href;",
      // import() inside a script compiled from a code cache has no loader in Node 20 (V8 keeps
      // no host options in the cache): the bin lends its own (see below).
      'const __locatorImport = module.importModule ?? ((s) => import(s));',
    ].join('\n'),
  },
  define: { 'import.meta.url': '__locatorMetaUrl' },
});
const shebang = /^#!.*\n/;
{
  // esbuild keeps main.js's "#!" line at the top: removed (see the banner).
  const { readFileSync, writeFileSync } = await import('node:fs');
  // Every import() of the bundle (node:crypto, node:module, --scheme modules) through the bin's.
  const text = readFileSync(out, 'utf8').replace(shebang, '');
  const calls = /(?<![\w$.])import\((?!s\)\))/g;
  writeFileSync(out, text.replace(calls, '__locatorImport('));
}
copyFileSync(`${root}scripts/locator-bin.cjs`, `${root}dist/cli/locator.cjs`);
chmodSync(`${root}dist/cli/locator.cjs`, 0o755);
chmodSync(`${root}dist/cli/main.js`, 0o755);

rmSync(`${out}.cache`, { force: true });
for (const [args, input] of [
  [['parse', '--json'], 'http://h.com/a\nftp://u:p@h.com/x;type=a\n'],
  [['normalize'], 'HTTP://h.com:80/a\n'],
  [['--version'], ''],
]) {
  const r = spawnSync(process.execPath, [`${root}scripts/cli-cache.cjs`, out, ...args], { input, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) {
    console.error(`build-cli: the code cache run of ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
    process.exit(1);
  }
}
