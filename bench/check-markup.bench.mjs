#!/usr/bin/env node
// The cost of reading a Markdown document for `locator check`: a generated ~5 MB Markdown file
// with 20,000 links (inline links, reference links and their definitions, autolinks, and
// plain-text URLs in the prose), read with no network at all. Each round runs, in a child
// process of its own and interleaved: (1) only reading the file and loading the modules (the floor of time and memory);
// (2) markupLinks() of dist/check/markup/index.js, the reader `locator check` uses (markdown-it,
// then the RFC 1738 appendix rules over the text), consuming every link it yields; (3) the same
// with `plain: false` (markup destinations only); (4) extract() of dist/extract/ over the same
// file as plain text; (5) the whole `locator check --exclude '.*'` process (the file read and
// its links found, then all of them left out, so nothing is probed nor reported). Reported: links
// found, the time of the reading alone (in the child, after the file is read) and links per
// second, the whole process's wall time, and its peak RSS (process.resourceUsage().maxRSS, or
// /usr/bin/time -v for the CLI); medians of the rounds. Needs `dist/` built. BENCH_SMOKE=1: a
// small document, one round.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SMOKE = process.env.BENCH_SMOKE === '1';
const CHILD = process.env.CHECK_MARKUP_CHILD;

if (CHILD !== undefined) {
  // The child: one way of reading the file; prints {links, secs, maxRSS (KiB)}.
  const file = process.argv[2];
  const text = readFileSync(file, 'utf8');
  // The modules are loaded before the clock starts: the time is the reading alone.
  const { markupLinks } = await import(pathToFileURL(join(root, 'dist/check/markup/index.js')).href);
  const { extract } = await import(pathToFileURL(join(root, 'dist/extract/index.js')).href);
  let n = 0;
  const t0 = process.hrtime.bigint();
  if (CHILD === 'markdown' || CHILD === 'markdown-noplain') {
    for await (const l of markupLinks(text, {
      format: 'markdown',
      location: pathToFileURL(file).href,
      plain: CHILD === 'markdown',
    }))
      if (l.url !== '') n++;
  } else if (CHILD === 'text') {
    for (const m of extract(text)) if (m.url !== '') n++;
  } else if (CHILD !== 'read') throw new Error(`unknown child mode ${CHILD}`);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(JSON.stringify({ links: n, secs, maxRSS: process.resourceUsage().maxRSS, bytes: text.length }));
  process.exit(0);
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 5));
const LINKS = Number(process.env.MARKUP_LINKS ?? (SMOKE ? 200 : 20_000));
const BYTES = Number(process.env.MARKUP_BYTES ?? (SMOKE ? 50_000 : 5_000_000));
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

// The document: a heading every 100 links; each link in a paragraph of prose padded to reach
// BYTES in all. Of each 10 links: 7 inline, 1 reference (with its definition at the end),
// 1 autolink, 1 plain-text URL in the prose. Every URL distinct and absolute.
const schemes = [
  (i) => `http://127.0.0.1:8080/docs/page-${i}.html`,
  (i) => `ftp://127.0.0.1:2121/pub/file-${i}.txt`,
  (i) => `gopher://127.0.0.1:7070/0/item-${i}`,
  (i) => `https://example.test/a/b/c?q=${i}&r=x`,
  (i) => `news:msg.${i}@example.test`,
];
const words =
  'the archive of the project keeps its notes and listings where a reader can follow each reference to the server that holds it ';
const perLink = Math.max(0, Math.floor(BYTES / LINKS) - 60);
const pad = words.repeat(Math.ceil(perLink / words.length) + 1).slice(0, perLink);
const parts = ['# Links (bench/check-markup.bench.mjs)', ''];
const defs = [];
for (let i = 0; i < LINKS; i++) {
  if (i % 100 === 0) parts.push(`## Part ${i / 100 + 1}`, '');
  const url = schemes[i % schemes.length](i);
  const k = i % 10;
  const link =
    k < 7
      ? `[the page ${i}](${url})`
      : k === 7
        ? `[the page ${i}][ref-${i}]`
        : k === 8
          ? `<${url}>`
          : `the URL ${url} as text`;
  if (k === 7) defs.push(`[ref-${i}]: ${url}`);
  parts.push(`${pad.slice(0, pad.length >> 1)} ${link}, and \`code ${i}\` ${pad.slice(pad.length >> 1)}.`, '');
}
parts.push(...defs, '');
const doc = parts.join('\n');

const dir = mkdtempSync(join(tmpdir(), 'locator-markup-bench-'));
const file = join(dir, 'big.md');
writeFileSync(file, doc);

function child(mode) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), file], {
    encoding: 'utf8',
    env: { ...process.env, CHECK_MARKUP_CHILD: mode },
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`child ${mode}: ${r.stderr}`);
  return { ...JSON.parse(r.stdout), wall };
}

/** The whole CLI: `locator check --exclude '.*'` under /usr/bin/time -v (peak RSS from its report). */
function cli() {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, join(root, 'dist/cli/main.js'), 'check', '--exclude', '.*', file],
    { encoding: 'utf8' },
  );
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr ?? '');
  if (r.error || rss === null) throw new Error(`locator check --exclude: ${r.error ?? r.stderr}`);
  return { links: null, secs: null, maxRSS: Number(rss[1]), wall };
}

try {
  const modes = [
    ['read the file only', () => child('read')],
    ['markupLinks (markdown)', () => child('markdown')],
    ['markupLinks, plain: false', () => child('markdown-noplain')],
    ['extract (as plain text)', () => child('text')],
    ["locator check --exclude '.*'", cli],
  ];
  const runs = modes.map(() => []);
  for (let r = 0; r < ROUNDS; r++) for (const [k, [, run]] of modes.entries()) runs[k].push(run());
  const rows = modes.map(([name], k) => {
    const rs = runs[k];
    const counts = [...new Set(rs.map((x) => x.links))].join('/');
    const secs = rs[0].secs === null ? null : median(rs.map((x) => x.secs));
    const links = rs[0].links;
    return {
      'read by': name,
      'links found': rs[0].links === null ? '(not reported)' : counts,
      'reading s': secs === null ? '-' : secs.toFixed(3),
      'links/s': secs === null || links === 0 ? '-' : Math.round(links / secs),
      'MB/s': secs === null || links === 0 ? '-' : (doc.length / 1e6 / secs).toFixed(1),
      'process s': median(rs.map((x) => x.wall)).toFixed(2),
      'peak RSS MiB': (median(rs.map((x) => x.maxRSS)) / 1024).toFixed(0),
    };
  });
  console.log(
    `check-markup: a Markdown file of ${(doc.length / 1e6).toFixed(2)} MB (UTF-16 units ${doc.length}) with ${LINKS} links (${LINKS - (LINKS / 10) * 1} of markup, ${LINKS / 10} as plain text), no network; median of ${ROUNDS} rounds, each way in its own process; Node ${process.version}`,
  );
  console.table(rows);
  const md = rows[1];
  console.log(
    `markupLinks: ${md['links found']} of ${LINKS} links found (expected ${LINKS}); plain: false: ${rows[2]['links found']} (expected ${LINKS - LINKS / 10})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
