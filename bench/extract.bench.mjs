#!/usr/bin/env node
// extract() throughput against linkify-it on the same text, in one run: MB/s (median of the
// rounds, MB = 10^6 UTF-8 bytes), the ratio to linkify-it, and how many URLs each finds,
// with the wrapped URLs (broken across lines, RFC 1738 appendix) that linkify-it cuts short.
//
// The text: the four spec texts of test/data/spec, and generated mail and news messages (prose,
// bare URLs, <URL:...> and <...> wrapped across lines with indentation, after hyphens and
// under "> " quotes), repeated to about BENCH_MB megabytes.
//
// linkify-it comes from the devDependency (`npm run bench`); set LINKIFY_PATH to a directory
// where it is installed instead (e.g. `npm install --prefix /tmp/linkify linkify-it` and
// LINKIFY_PATH=/tmp/linkify). Without it, only locator is measured.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extract } from '../dist/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const MIN_MS = Number(process.env.BENCH_MIN_MS ?? 300);
const TARGET_MB = Number(process.env.BENCH_MB ?? 4);

async function loadLinkify() {
  const dir = process.env.LINKIFY_PATH;
  try {
    if (dir === undefined || dir === '') return (await import('linkify-it')).default;
    let pkg = resolve(dir);
    if (existsSync(join(pkg, 'node_modules', 'linkify-it'))) pkg = join(pkg, 'node_modules', 'linkify-it');
    const meta = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    const entry = meta.exports?.['.']?.import ?? meta.module ?? meta.main;
    return (await import(pathToFileURL(join(pkg, entry)).href)).default;
  } catch (e) {
    console.log(`linkify-it not found (${e.code ?? e.message}): measuring locator alone.`);
    return null;
  }
}

// ---- the text --------------------------------------------------------------------------------

let seed = 1738;
const rnd = (n) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
};
const pick = (a) => a[rnd(a.length)];

const WORDS = (
  'the a of to and in is that for it as with was on be by this are from at or an which have not ' +
  'server file document protocol gopher archive mirror pointer please try again note warning draft ' +
  'Jürgen café naïve résumé 10:30 3:4 Re: Subject: a:b (see below) "quoted" it\'s e.g. i.e. etc.'
).split(' ');
const HOSTS = [
  'info.cern.ch',
  'ds.internic.net',
  'ftp.w3.org',
  'gopher.micro.umn.edu',
  'quake.think.com',
  'uu.psi.com',
  'prospero.isi.edu',
  'www.acl.lanl.gov',
  'boombox.micro.umn.edu',
];
const SEGS = [
  'pub',
  'www',
  'doc',
  'rfc',
  'internet-drafts',
  'draft-ietf-uri-url-03.txt',
  'rfc1738.txt',
  'hypertext',
  'WWW',
  'Addressing',
  'URL',
  'Overview.html',
  'gopher_protocol',
  'Gopher+',
  'wais',
  'doc-ids.txt',
];

function url() {
  const k = rnd(10);
  if (k < 4) return `http://${pick(HOSTS)}/${pick(SEGS)}/${pick(SEGS)}`;
  if (k < 7) return `ftp://${pick(HOSTS)}/${pick(SEGS)}/${pick(SEGS)}/${pick(SEGS)}`;
  if (k < 8) return `gopher://${pick(HOSTS)}/11/${pick(SEGS)}`;
  if (k < 9) return `mailto:${pick(['timbl', 'masinter', 'mpm', 'uri'])}@${pick(HOSTS)}`;
  return `news:comp.infosystems.${pick(['www', 'gopher', 'wais'])}`;
}

/** A line-broken wrapper: breaks at random points, inside the host, after hyphens. */
function wrapped(quote) {
  const u = url();
  const open = rnd(3) === 0 ? '<' : '<URL:';
  const cut = 6 + rnd(u.length - 8);
  const hy = u.indexOf('-', 8);
  const at = hy > 0 && rnd(2) === 0 ? hy + 1 : cut;
  return `${open}${u.slice(0, at)}\n${quote}${' '.repeat(rnd(8))}${u.slice(at)}>`;
}

function message() {
  const quote = rnd(3) === 0 ? '> ' : '';
  const lines = [
    `From: ${pick(['Jim', 'Tim', 'Mark'])} <${pick(['jim', 'timbl'])}@${pick(HOSTS)}>`,
    `Subject: Re: ${pick(WORDS)} ${pick(WORDS)}`,
    `Date: Tue, 20 Dec 1994 10:30:00 +0100`,
    '',
  ];
  for (let p = 0; p < 4; p++) {
    let line = quote;
    for (let w = 0; w < 40; w++) {
      const r = rnd(40);
      let piece;
      if (r === 0) piece = url() + pick(['', '', '.', ',', ')']);
      else if (r === 1) piece = wrapped(quote);
      else if (r === 2) piece = `<${url()}>`;
      else piece = pick(WORDS);
      const nl = piece.lastIndexOf('\n');
      line += piece + ' ';
      if ((nl < 0 ? line.length : line.length - nl) > 66) {
        lines.push(line.trimEnd());
        line = quote;
      }
    }
    lines.push(line.trimEnd(), quote.trimEnd());
  }
  lines.push('-- ', pick(['Jim', 'Tim', 'Mark']), '', '');
  return lines.join('\n');
}

const specDir = new URL('../test/data/spec/', import.meta.url).pathname;
const specs = readdirSync(specDir)
  .filter((f) => f.endsWith('.txt'))
  .sort()
  .map((f) => readFileSync(join(specDir, f), 'utf8'));
let mail = '';
while (Buffer.byteLength(mail) < 400_000) mail += message();
const units = { 'spec texts': specs.join('\n'), 'mail and news': mail };
const repeatTo = (unit) => {
  let t = unit;
  while (Buffer.byteLength(t) < TARGET_MB * 1e6) t += unit;
  return t;
};
const corpora = Object.fromEntries(Object.entries(units).map(([k, u]) => [k, repeatTo(u)]));

// ---- measuring -------------------------------------------------------------------------------

function timeOnce(fn, text, mb) {
  let n = 0;
  let sink = 0;
  const t0 = process.hrtime.bigint();
  let t = t0;
  do {
    sink += fn(text);
    n++;
    t = process.hrtime.bigint();
  } while (Number(t - t0) / 1e6 < MIN_MS);
  if (sink === -1) console.log('');
  return (n * mb) / (Number(t - t0) / 1e9);
}

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[s.length >> 1];
};

const LinkifyIt = await loadLinkify();
const peers = {
  locator: (t) => {
    let n = 0;
    for (const _ of extract(t)) n++;
    return n;
  },
};
let linkifyDefault = null;
if (LinkifyIt !== null) {
  linkifyDefault = new LinkifyIt();
  const strict = new LinkifyIt({}, { fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  peers['linkify-it'] = (t) => linkifyDefault.match(t)?.length ?? 0;
  peers['linkify-it (fuzzy off)'] = (t) => strict.match(t)?.length ?? 0;
}

const rows = [];
for (const [corpus, text] of Object.entries(corpora)) {
  const mb = Buffer.byteLength(text) / 1e6;
  for (const fn of Object.values(peers)) timeOnce(fn, text, mb); // warm-up
  const results = Object.fromEntries(Object.keys(peers).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, fn] of Object.entries(peers)) results[name].push(timeOnce(fn, text, mb));
  const base = results['linkify-it'] ? median(results['linkify-it']) : null;
  for (const name of Object.keys(peers)) {
    const m = median(results[name]);
    rows.push({
      corpus: `${corpus} (${mb.toFixed(1)} MB)`,
      extractor: name,
      'MB/s': Number(m.toFixed(1)),
      'vs linkify-it': base === null ? '-' : (m / base).toFixed(2) + 'x',
      'URLs found': peers[name](text),
    });
  }
}

console.log(`extract() throughput, median of ${ROUNDS} rounds of >= ${MIN_MS} ms, Node ${process.version}`);
console.table(rows);

// The wrapped URLs (a line break inside the wrapper) and what linkify-it makes of them.
const unit = units['spec texts'] + '\n' + units['mail and news'];
const found = [...extract(unit)];
const wrappedMatches = found.filter((m) => /[\r\n]/.test(unit.slice(m.start, m.end)));
const summary = {
  'locator: URLs in one copy of both texts': found.length,
  'wrapped across lines': wrappedMatches.length,
};
if (linkifyDefault !== null) {
  const theirs = linkifyDefault.match(unit) ?? [];
  let exact = 0;
  let cut = 0;
  let missed = 0;
  for (const m of wrappedMatches) {
    const inside = theirs.filter((l) => l.index >= m.start && l.index < m.end);
    if (inside.some((l) => l.raw === m.url)) exact++;
    else if (inside.length > 0) cut++;
    else missed++;
  }
  Object.assign(summary, {
    'linkify-it: URLs in one copy of both texts': theirs.length,
    'of the wrapped: linkify-it finds whole': exact,
    'of the wrapped: linkify-it cuts short': cut,
    'of the wrapped: linkify-it misses entirely': missed,
  });
}
console.table(summary);
if (process.argv.includes('--json')) console.log(JSON.stringify({ rows, summary }));
