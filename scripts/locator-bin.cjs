#!/usr/bin/env node
// The `locator` command as installed (package.json "bin"; written to dist/cli/locator.cjs by
// scripts/build-cli.mjs, which fills in TEXT). `--version` is answered here, from package.json,
// without loading the CLI. Any other command line runs one of the bundles of the CLI
// (dist/cli/main.js and what it imports): locator.text.cjs for the commands in TEXT (and for
// --help and usage errors), which holds no network client, gateway or checker;
// locator.fetch.cjs and locator.archive.cjs for fetch and archive, each with that command only;
// locator.bundle.cjs, all of it, for the others. Each is compiled from the V8 code cache the
// build made beside it (.cache): the command then starts without reading, parsing and compiling
// a hundred modules. A cache that this Node does not accept (another V8 version or flags) is
// ignored by V8, and the bundle is compiled as any script; without the cache file the bin
// require()s the bundle.
'use strict';
const { readFileSync, writeSync } = require('node:fs');
const { join } = require('node:path');

const TEXT = [];
const [first, second] = process.argv.slice(2);

if (first === '--version' || first === '-V') {
  const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  try {
    writeSync(1, `${version}\n`);
  } catch (e) {
    // A reader that went away (`locator --version | true`) is no error, as in main.js; a
    // non-blocking standard output that is full takes the stream's way.
    if (e.code === 'EAGAIN') process.stdout.write(`${version}\n`);
    else if (e.code !== 'EPIPE') throw e;
  }
} else {
  const text = first === undefined || first.startsWith('-') || TEXT.includes(first);
  const help = first === 'help' && (second === undefined || TEXT.includes(second));
  // fetch and archive each in a bundle of its own (a one-shot fetch, and an archive, start
  // without the other commands' code).
  const own = first === 'fetch' || first === 'archive' ? `locator.${first}.cjs` : 'locator.bundle.cjs';
  run(join(__dirname, text || help ? 'locator.text.cjs' : own));
}

function run(file) {
  const vm = require('node:vm');
  const Module = require('node:module');
  let cachedData;
  try {
    cachedData = readFileSync(file + '.cache');
  } catch {
    cachedData = undefined;
  }
  if (cachedData === undefined) {
    require(file);
    return;
  }
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const m = new Module(file, module);
  m.filename = file;
  // The bundle's import() calls (scripts/build-cli.mjs): a script compiled from a code cache has
  // no loader of its own for them.
  m.importModule = (s) => import(s);
  m.paths = Module._nodeModulePaths(__dirname);
  m.loaded = true;
  script.runInThisContext()(m.exports, Module.createRequire(file), m, file, __dirname);
}
