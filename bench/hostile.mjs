#!/usr/bin/env node
// Hostile input through every library entry (issue 17; the CLI's commands are bench/growth.mjs,
// whose patterns this reuses): one line of 1, 2, 4 and 8 MB (or --sizes) of one repeated
// pattern, given to parse, tryParse, normalize, equivalent, lint, explain, resolve, relativize,
// extract, the streaming extractor (64 KB chunks), decode and encode. Each entry and pattern runs
// in its own process (dist/index.js), which times the call at each size (CPU time, the best of
// --runs) and reports its peak memory; the growth ratio per doubling is printed (about 2 linear,
// 4 quadratic), and the rows are written to bench/RESULTS-hostile.md with --write.
//
//   node bench/hostile.mjs                       # every entry and pattern, 1-8 MB
//   node bench/hostile.mjs --sizes 1,2,4 --entries parse,extract --write
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PATTERNS } from './growth.mjs';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const GROWTH = fileURLToPath(new URL('./growth.mjs', import.meta.url));

export const ENTRIES = {
  parse: 'L.tryParse(s)',
  normalize: 'swallow(() => L.normalize(s))',
  equivalent: 'swallow(() => L.equivalent(s, s))',
  lint: 'swallow(() => L.lint(s))',
  explain: 'swallow(() => L.explain(s))',
  resolve: "swallow(() => L.resolve('http://h.com/a/b/c', s))",
  relativize: "swallow(() => L.relativize('http://h.com/a/b/c', s))",
  extract: '[...L.extract(s)]',
  'extract (stream)': 'stream(s)',
  decode: 'L.decode(s, { strict: false })',
  encode: 'L.encode(s)',
};

// The child: builds each size's line, runs the entry, prints CPU ms per size and the peak RSS.
const CHILD = `
const L = await import(process.env.DIST);
const { line } = await import(process.env.GROWTH);
const swallow = (f) => { try { return f(); } catch (e) { if (!(e instanceof L.LocatorError)) throw e; } };
const stream = (s) => { const x = L.createExtractor(); const out = []; for (let i = 0; i < s.length; i += 65536) out.push(...x.push(s.slice(i, i + 65536))); out.push(...x.end()); return out; };
const [pattern, sizes, runs] = JSON.parse(process.env.ARGS);
const times = [];
for (const size of sizes) {
  const s = line(pattern, size);
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const c = process.cpuUsage();
    ENTRY;
    const d = process.cpuUsage(c);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  times.push(best);
}
console.log(JSON.stringify({ times, rss: process.resourceUsage().maxRSS }));
`;

function measure(entry, pattern, sizes, runs) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD.replace('ENTRY', ENTRIES[entry])], {
    env: { ...process.env, DIST, GROWTH, ARGS: JSON.stringify([pattern, sizes, runs]) },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    timeout: 600_000,
  });
  if (r.status !== 0) return { error: (r.stderr || String(r.signal)).slice(0, 200) };
  return JSON.parse(r.stdout);
}

const argv = process.argv.slice(2);
const opt = (name, d) => {
  const i = argv.indexOf(name);
  return i < 0 ? d : argv[i + 1];
};
const sizes = opt('--sizes', '1,2,4,8')
  .split(',')
  .map((m) => Number(m) * (1 << 20));
const runs = Number(opt('--runs', '1'));
const entries = opt('--entries', Object.keys(ENTRIES).join(',')).split(',');
const patterns = opt('--patterns', Object.keys(PATTERNS).join('|')).split('|');
const floor = 20;
const rows = [];
let worst = 0;
for (const entry of entries) {
  for (const pattern of patterns) {
    const m = measure(entry, pattern, sizes, runs);
    if (m.error) {
      rows.push(`| ${entry} | \`${pattern}\` | failed: ${m.error.replace(/\n/g, ' ')} | | |`);
      console.log(`${entry.padEnd(18)} ${pattern.padEnd(18)} FAILED ${m.error}`);
      continue;
    }
    const ratios = m.times.slice(1).map((t, i) => Math.max(t, floor) / Math.max(m.times[i], floor));
    worst = Math.max(worst, ...ratios);
    const row = [
      entry,
      pattern,
      m.times.map((t) => Math.round(t)).join(' '),
      ratios.map((x) => x.toFixed(2)).join(' '),
      Math.round(m.rss / 1024),
    ];
    rows.push(`| ${row[0]} | \`${row[1]}\` | ${row[2]} | ${row[3]} | ${row[4]} |`);
    console.log(
      `${entry.padEnd(18)} ${pattern.padEnd(18)} ${String(row[2]).padEnd(28)} ${String(row[3]).padEnd(16)} ${row[4]} MB`,
    );
  }
}
console.log(`worst ratio ${worst.toFixed(2)}`);
if (argv.includes('--write')) {
  const mb = sizes.map((s) => s / (1 << 20)).join(', ');
  writeFileSync(
    fileURLToPath(new URL('./RESULTS-hostile.md', import.meta.url)),
    `# Hostile input through the library entries (issue 17)\n\n` +
      `\`node bench/hostile.mjs --sizes ${sizes.map((s) => s / (1 << 20)).join(',')} --runs ${runs} --write\` on ${new Date().toISOString().slice(0, 10)}, ` +
      `Node ${process.version}, a shared 2-core machine (a fuzzer ran beside it: read the ratios, not the times). ` +
      `One line of ${mb} MB of each pattern of bench/growth.mjs; CPU ms at each size (best of ${runs}), the growth ratio per doubling ` +
      `(times under ${floor} ms count as ${floor}; 2 is linear, 4 quadratic), and the peak RSS of the process that ran all sizes. ` +
      `The CLI commands on the same patterns are in RESULTS-growth.md (bench/growth.mjs). Worst ratio: ${worst.toFixed(2)}.\n\n` +
      `| entry | pattern | CPU ms | ratios | peak MB |\n| --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`,
  );
}
