#!/usr/bin/env node
// The `locator` command as installed (package.json "bin"; copied to dist/cli/locator.cjs by
// scripts/build-cli.mjs). It runs dist/cli/locator.bundle.cjs, the CLI bundled into one file
// (dist/cli/main.js and what it imports), compiled from the V8 code cache the build made
// beside it (.cache): the command then starts without reading, parsing and compiling a hundred
// modules. A cache that this Node does not accept (another V8 version or flags) is ignored by V8,
// and the bundle is compiled as any script; without the cache file the bin require()s the bundle.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const file = join(__dirname, 'locator.bundle.cjs');
let cachedData;
try {
  cachedData = readFileSync(file + '.cache');
} catch {
  cachedData = undefined;
}
if (cachedData === undefined) require(file);
else {
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
  });
  const m = new Module(file, module);
  m.filename = file;
  // The bundle's import() calls (scripts/build-cli.mjs): a script compiled from a code cache has
  // no loader of its own for them.
  m.importModule = (s) => import(s);
  m.paths = Module._nodeModulePaths(__dirname);
  m.loaded = true;
  script.runInThisContext()(m.exports, Module.createRequire(file), m, file, __dirname);
}
