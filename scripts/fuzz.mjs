#!/usr/bin/env node
// Coverage-guided fuzzing of every target in fuzz/targets (issue 17), with jsfuzz: each target is
// bundled to CommonJS with esbuild (jsfuzz instruments what it require()s with istanbul, and
// counts the statements, functions and branches an input reaches), then run for --time seconds
// or about --runs executions, one target after the other (the machines are shared). New inputs
// go to .fuzz/corpus/<target>; the seeds in fuzz/corpus/<target> are read, never written. A crash
// (an invariant broken, an exception other than a LocatorError, a hang past --timeout, memory
// past --rss) is written to .fuzz/crashes/<target> and the script exits 1. jsfuzz's "versifier"
// is off: it blocks jsfuzz's own process for minutes on inputs of a few KB (no executions, and
// no check of the time limit meanwhile). The log of each run is .fuzz/<target>.log.
//
//   npm run fuzz -- --time 60                 # every target, 60 s each
//   npm run fuzz -- --targets parse,ftp --runs 20000
//   npm run fuzz -- --time 600 --json         # one JSON object per target
//
// --timeout (default 60 s) also covers jsfuzz's start: istanbul instruments a bundle of the whole
// library on require, which takes over 10 s on a loaded machine.
// The report per target: executions, the coverage jsfuzz counted once every seed had run and at
// the end, the corpus size, executions per second, and the crash if any.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

function usage(message) {
  if (message) console.error(`fuzz: ${message}`);
  console.error('usage: node scripts/fuzz.mjs [--time S | --runs N] [--targets a,b] [--timeout S] [--rss MB] [--json]');
  process.exit(2);
}

const opts = { time: null, runs: null, targets: null, timeout: 60, rss: 1024, json: false };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const value = () => argv[++i] ?? usage(`${a} needs a value`);
  if (a === '--time') opts.time = Number(value());
  else if (a === '--runs') opts.runs = Number(value());
  else if (a === '--targets') opts.targets = value().split(',');
  else if (a === '--timeout') opts.timeout = Number(value());
  else if (a === '--rss') opts.rss = Number(value());
  else if (a === '--json') opts.json = true;
  else usage(`unknown argument ${a}`);
}
if (opts.time === null && opts.runs === null) opts.time = 60;
for (const k of ['time', 'runs', 'timeout', 'rss'])
  if (opts[k] !== null && !(opts[k] > 0)) usage(`--${k} must be a positive number`);

const all = readdirSync(join(root, 'fuzz/targets'))
  .filter((f) => f.endsWith('.ts') && !['lib.ts', 'stream.ts'].includes(f))
  .map((f) => f.slice(0, -3))
  .sort();
const targets = opts.targets ?? all;
for (const t of targets) if (!all.includes(t)) usage(`no target ${t} (targets: ${all.join(', ')})`);

const esbuild = require('esbuild');
const MAX_INPUT = 4096;
const jsfuzz = require.resolve('jsfuzz/build/src/index.js');

/** Bundles a target to CommonJS for jsfuzz's require hook. */
async function bundle(target) {
  const out = join(root, '.fuzz', `${target}.cjs`);
  // The entry caps an input at MAX_INPUT bytes: jsfuzz's splicing mutations let inputs grow
  // past its own 4 KB limit, and a few long inputs under istanbul would take most of the time.
  await esbuild.build({
    stdin: {
      contents: `import { fuzz as f } from './${target}.ts';\nexport function fuzz(b) { return f(b.length > ${MAX_INPUT} ? b.subarray(0, ${MAX_INPUT}) : b); }\n`,
      resolveDir: join(root, 'fuzz/targets'),
      loader: 'js',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: out,
    logLevel: 'error',
  });
  return out;
}

/** Runs jsfuzz on one target until the time or the runs are spent; resolves to the report. */
function run(target, file) {
  const corpus = join(root, '.fuzz/corpus', target);
  const seeds = join(root, 'fuzz/corpus', target);
  const crashes = join(root, '.fuzz/crashes');
  mkdirSync(corpus, { recursive: true });
  mkdirSync(crashes, { recursive: true });
  const crash = join(crashes, target);
  const args = [
    jsfuzz,
    file.slice(join(root, '.fuzz').length + 1),
    corpus,
    ...(existsSync(seeds) ? [seeds] : []),
    '--exact-artifact-path',
    crash,
    '--timeout',
    String(opts.timeout),
    '--versifier',
    'false',
    '--rss-limit-mb',
    String(opts.rss),
  ];
  return new Promise((resolve) => {
    // jsfuzz ignores SIGINT and forks a worker: it runs in its own process group, which is
    // ended as a whole (SIGKILL after SIGTERM) when the time or the runs are spent.
    const child = spawn(process.execPath, args, {
      cwd: join(root, '.fuzz'),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const start = Date.now();
    const log = createWriteStream(join(root, '.fuzz', `${target}.log`));
    const report = {
      target,
      executions: 0,
      coverageStart: null,
      coverage: 0,
      corpus: 0,
      seconds: 0,
      execPerSecond: 0,
      crash: null,
    };
    let tail = '';
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 2000).unref();
    };
    const timer = opts.time !== null ? setTimeout(stop, opts.time * 1000) : null;
    let units = Infinity;
    const onLine = (line) => {
      log.write(line + '\n');
      const read = /^#0 READ units: (\d+)/.exec(line);
      if (read) units = Number(read[1]);
      const m = /^#(\d+) (\w+)\s+cov: (\d+) corp: (\d+)/.exec(line);
      if (m) {
        report.executions = Number(m[1]);
        report.coverage = Number(m[3]);
        report.corpus = Number(m[4]);
        if (report.coverageStart === null && report.executions >= units) report.coverageStart = report.coverage;
        if (opts.runs !== null && report.executions >= opts.runs) stop();
      }
      if (/crash was written|MEMORY OOM|timeout reached/.test(line)) report.crash = (report.crash ?? '') + line + '\n';
      tail = (tail + line + '\n').slice(-4000);
    };
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    });
    child.stderr.on('data', (d) => {
      tail = (tail + d).slice(-4000);
      log.write(d);
    });
    child.on('exit', () => {
      if (timer) clearTimeout(timer);
      log.end();
      if (!stopped) report.early = `jsfuzz ended before the time or the runs were spent: ${tail.slice(-600)}`;
      stop();
      report.seconds = Math.round((Date.now() - start) / 100) / 10;
      report.execPerSecond = Math.round(report.executions / Math.max(report.seconds, 0.1));
      if (report.crash !== null) {
        report.crash += tail;
        if (existsSync(crash)) report.input = readFileSync(crash).toString('hex').slice(0, 400);
      }
      resolve(report);
    });
  });
}

let failed = false;
mkdirSync(join(root, '.fuzz'), { recursive: true });
for (const target of targets) {
  const file = await bundle(target);
  const r = await run(target, file);
  if (r.crash !== null || r.early) failed = true;
  if (opts.json) console.log(JSON.stringify(r));
  else {
    console.log(
      `${target.padEnd(10)} ${String(r.executions).padStart(9)} execs in ${r.seconds}s (${r.execPerSecond}/s)  coverage ${r.coverageStart ?? '?'} -> ${r.coverage}  corpus ${r.corpus}${r.crash ? '  CRASH' : ''}`,
    );
    if (r.crash) console.log(r.crash);
    if (r.early) console.log(r.early);
  }
}
process.exit(failed ? 1 : 0);
