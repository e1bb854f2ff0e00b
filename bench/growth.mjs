#!/usr/bin/env node
// Growth of every CLI command with the size of one hostile input line (issue 10, "Linear time
// on every input"). For each command and each repeated pattern, the built CLI (dist/cli/main.js)
// is spawned on one line of 1, 2, 4 and 8 MB (or --sizes), its CPU time taken (median of --runs
// runs, or the best with --best), and the growth ratio per doubling is printed: about 2 for
// linear work, 4 for quadratic. The CPU time of the same command on a one-character line
// (process start-up) is subtracted first, so that start-up does not flatten the ratios. Exits 1 when any ratio is over
// --limit (default 3), 2 on bad arguments.
//
//   node bench/growth.mjs                               # 1-8 MB, median of 3
//   node bench/growth.mjs --sizes 64,128,256,512 --runs 5 --best    # KB sizes end in k: see below
//   node bench/growth.mjs --commands parse,lint --patterns 'http://|%0' --json --timeout 60
//
// Sizes are in KB when every one ends in "k" (64k,128k), else in MB. The machines are shared and
// noisy: read the ratios, not single timings.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

/**
 * The patterns: a prefix, a unit repeated to the size asked, and a suffix. Each is chosen to
 * reach deep code: a path full of the unit, a login full of it, a wrapper nested in itself.
 */
export const PATTERNS = {
  'http://': ['', 'http://', ''],
  '%': ['http://h.com/', '%', ''],
  '%0': ['http://h.com/', '%0', ''],
  'a:': ['', 'a:', ''],
  '/..': ['ftp://h.com', '/..', ''],
  '/a': ['ftp://h.com', '/a', ''],
  '@:': ['http://', '@:', ''],
  '<URL:': ['', '<URL:', 'http://h.com/>'],
  '../': ['', '../', ''],
  'http://h.com/../': ['http://h.com/', '../', ''],
  '{': ['http://h.com/', '{', ''],
  'host label': ['http://', 'a', '/'],
  port: ['http://h.com:', '1', '/'],
};

/**
 * The commands, as spawned: `args` before the input, and how the input is given. Batch
 * commands read it on standard input (an argument is limited to 128 KB by the kernel); `equal`
 * takes exactly two arguments, so a small driver sets process.argv and loads the CLI.
 */
export const COMMANDS = {
  parse: { args: ['parse'] },
  'parse --json': { args: ['parse', '--json'] },
  explain: { args: ['explain'] },
  lint: { args: ['lint'] },
  'lint --json': { args: ['lint', '--json'] },
  normalize: { args: ['normalize'] },
  resolve: { args: ['resolve', 'http://h.com/a/b/c'] },
  relativize: { args: ['relativize', 'http://h.com/a/b/c'] },
  equal: { args: ['equal'], argv: true },
  extract: { args: ['extract'] },
};

/** One line of about `bytes` characters of the pattern. */
export function line(pattern, bytes) {
  const [pre, unit, post] = PATTERNS[pattern];
  const n = Math.max(1, Math.floor((bytes - pre.length - post.length) / unit.length));
  return pre + unit.repeat(n) + post;
}

// Every run goes through this driver: it sets process.argv, loads the CLI, and at exit writes the
// CPU time (user + system, all threads) and peak memory of the process to fd 3. CPU time, not
// wall time: the machines are shared, and a loaded machine stretches wall time, not CPU time.
const DRIVER = `
import { readFileSync, writeSync } from 'node:fs';
const [bin, file, ...args] = process.argv.slice(1);
const extra = file === '-' ? [] : (() => { const s = readFileSync(file, 'utf8'); return [s, s]; })();
process.argv = [process.argv[0], bin, ...args, ...extra];
process.on('exit', () => {
  const c = process.cpuUsage();
  writeSync(3, JSON.stringify({ cpu: (c.user + c.system) / 1000, rss: process.resourceUsage().maxRSS }));
});
await import(bin);
`;

/**
 * One spawned run: CPU milliseconds, peak memory (KB) and bytes written. Rejects past
 * `timeoutMs` of wall time, or on an exit status other than 0 and 1.
 */
export function timeRun(command, input, dir, timeoutMs = 600_000) {
  const spec = COMMANDS[command];
  let file = '-';
  let stdin = input + '\n';
  if (spec.argv) {
    file = join(dir, 'input.txt');
    writeFileSync(file, input);
    stdin = '';
  }
  const argv = ['--input-type=module', '-e', DRIVER, BIN, file, ...spec.args];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    let out = 0;
    let err = '';
    let report = '';
    child.stdout.on('data', (b) => {
      out += b.length;
    });
    child.stderr.on('data', (b) => {
      if (err.length < 2000) err += b;
    });
    child.stdio[3].on('data', (b) => {
      report += b;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal !== null) reject(new Error(`${command}: killed by ${signal} (time limit ${timeoutMs / 1000} s)`));
      else if (code !== 0 && code !== 1) reject(new Error(`${command}: exit ${code}: ${err.slice(0, 300)}`));
      else {
        const r = JSON.parse(report);
        resolve({ ms: r.cpu, rss: r.rss, out });
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

const startups = new Map();

/** CPU milliseconds of `command` on a one-character line (start-up), reduced over `runs`; kept per command. */
async function startup(command, dir, runs, reduce, timeoutMs) {
  if (!startups.has(command)) {
    const t = [];
    for (let r = 0; r < runs; r++) t.push((await timeRun(command, 'x', dir, timeoutMs)).ms);
    startups.set(command, reduce(t));
  }
  return startups.get(command);
}

/**
 * Times `command` on `pattern` at each size (bytes): `runs` runs each, reduced by median (or
 * minimum with `best`), less the start-up time. Returns the times and the growth ratio per
 * doubling between successive sizes ((t2 / t1) ^ (1 / log2(s2 / s1)): 2 for linear work, 4 for
 * quadratic). A time under `floorMs` counts as `floorMs`: below that, differences are noise.
 */
export async function growth(command, pattern, sizes, { runs = 3, best = false, floorMs = 20, timeoutMs } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'locator-growth-'));
  try {
    const reduce = best ? (a) => Math.min(...a) : median;
    const base = await startup(command, dir, runs, reduce, timeoutMs);
    const times = [];
    const outs = [];
    const rss = [];
    for (const size of sizes) {
      const input = line(pattern, size);
      const t = [];
      for (let r = 0; r < runs; r++) {
        const { ms, out, rss: kb } = await timeRun(command, input, dir, timeoutMs);
        t.push(ms);
        outs.push(out);
        rss.push(kb);
      }
      times.push(Math.max(0, reduce(t) - base));
    }
    const ratios = [];
    for (let i = 1; i < times.length; i++) {
      const doublings = Math.log2(sizes[i] / sizes[i - 1]);
      ratios.push((Math.max(times[i], floorMs) / Math.max(times[i - 1], floorMs)) ** (1 / doublings));
    }
    return { command, pattern, startup: base, times, ratios, maxOut: Math.max(...outs), maxRssKB: Math.max(...rss) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parseArgs(argv) {
  const o = {
    sizes: [1, 2, 4, 8].map((m) => m << 20),
    runs: 3,
    best: false,
    limit: 3,
    json: false,
    timeoutMs: 600_000,
    commands: Object.keys(COMMANDS),
    patterns: Object.keys(PATTERNS),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--sizes') {
      const parts = next().split(',');
      const kb = parts.every((p) => p.endsWith('k'));
      o.sizes = parts.map((p) => Number(kb ? p.slice(0, -1) : p) * (kb ? 1024 : 1 << 20));
      if (o.sizes.some((s) => !(s > 0))) throw new Error('--sizes takes numbers');
    } else if (a === '--runs') o.runs = Number(next());
    else if (a === '--best') o.best = true;
    else if (a === '--json') o.json = true;
    else if (a === '--limit') o.limit = Number(next());
    else if (a === '--timeout') o.timeoutMs = Number(next()) * 1000;
    else if (a === '--commands') o.commands = next().split(',');
    else if (a === '--patterns') o.patterns = next().split('|');
    else throw new Error(`unknown option ${a}`);
  }
  for (const c of o.commands) if (!(c in COMMANDS)) throw new Error(`unknown command ${c}`);
  for (const p of o.patterns)
    if (!(p in PATTERNS)) throw new Error(`unknown pattern ${p} (separate patterns with "|")`);
  if (!(o.runs >= 1) || !(o.limit > 0)) throw new Error('--runs and --limit take positive numbers');
  return o;
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`growth: ${e.message}`);
    process.exit(2);
  }
  const label = (s) => (s >= 1 << 20 ? `${s / (1 << 20)} MB` : `${s / 1024} KB`);
  if (!o.json) {
    console.log(
      `growth per doubling, ${o.best ? 'best' : 'median'} of ${o.runs} run(s), start-up subtracted; sizes ${o.sizes.map(label).join(', ')}; limit ${o.limit}`,
    );
    console.log(
      `${'command'.padEnd(14)} ${'pattern'.padEnd(18)} ${'CPU ms at each size'.padEnd(34)} ${'ratios'.padEnd(16)} peak MB, output MB`,
    );
  }
  let worst = 0;
  let failed = false;
  for (const command of o.commands) {
    for (const pattern of o.patterns) {
      let r;
      try {
        r = await growth(command, pattern, o.sizes, { runs: o.runs, best: o.best, timeoutMs: o.timeoutMs });
      } catch (e) {
        failed = true;
        if (o.json) console.log(JSON.stringify({ command, pattern, error: e.message }));
        else console.log(`${command.padEnd(14)} ${pattern.padEnd(18)} FAILED: ${e.message}`);
        continue;
      }
      const max = Math.max(...r.ratios);
      worst = Math.max(worst, max);
      const over = max > o.limit;
      if (over) failed = true;
      if (o.json) console.log(JSON.stringify({ ...r, over }));
      else {
        console.log(
          `${command.padEnd(14)} ${pattern.padEnd(18)} ${r.times
            .map((t) => String(Math.round(t)).padStart(7))
            .join(' ')
            .padEnd(34)} ${r.ratios
            .map((x) => x.toFixed(2))
            .join(' ')
            .padEnd(16)} ${Math.round(r.maxRssKB / 1024)}, ${(r.maxOut / 2 ** 20).toFixed(1)}${over ? '  OVER' : ''}`,
        );
      }
    }
  }
  if (!o.json) console.log(`worst ratio ${worst.toFixed(2)}${failed ? ' (FAILED)' : ''}`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
