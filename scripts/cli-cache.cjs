// Makes the V8 code cache of the bundled CLI (scripts/build-cli.mjs): compiles BUNDLE as
// scripts/locator-bin.cjs does (from the cache made so far, if any), runs it with the rest of
// the arguments, and when it exits writes BUNDLE.cache: the bytecode of every function the run
// compiled, so that the installed command starts without compiling them.
//   node scripts/cli-cache.cjs BUNDLE ARGS...
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const file = process.argv[2];
process.argv.splice(1, 1);
let cachedData;
try {
  cachedData = readFileSync(file + '.cache');
} catch {
  cachedData = undefined;
}
const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), {
  filename: file,
  cachedData,
});
process.on('exit', () => writeFileSync(file + '.cache', script.createCachedData()));
const m = new Module(file, module);
m.filename = file;
m.importModule = (s) => import(s);
m.paths = Module._nodeModulePaths(dirname(file));
script.runInThisContext()(m.exports, Module.createRequire(file), m, file, dirname(file));
