// The differential test of the parser: the record parse() makes (the delimiters found by the
// scan, violations and fields found on first read) against the eager parser it replaced, kept
// in test/reference/ for this comparison only. Every getter, `fields`, `valid`, `violations`,
// `toJSON()`, the offsets, mayContain(), hostIsPlain() and normalize() must be equal, frozen
// alike, and the same LocatorError must come back where no structure can be read (RFC 1738 2.1,
// 2.2, 3.1, 5). Inputs: every line of the four corpus files (some trimmed, some wrapped), every
// string of the conformance suites, the seeds of the parse and normalize fuzz targets, and the
// hostile patterns of the benchmarks. The lazy parts are read in four orders, in turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.js';
import { differ } from './reference/differential.js';
import { inputOf } from '../fuzz/targets/parse.js';

/** Runs the differential over `inputs`; fails listing the first differences. */
function agree(what: string, inputs: Iterable<string>, variants = true): number {
  const found: string[] = [];
  let n = 0;
  for (const s of inputs) {
    const order = n % 4;
    let d = differ(s, undefined, order);
    if (d === null && variants && n % 5 === 0) d = differ(`  ${s}\t`, { trim: true }, (order + 1) % 4);
    if (d === null && variants && n % 5 === 1) d = differ(`<URL:${s}>`, undefined, (order + 2) % 4);
    if (d !== null && found.push(d) >= 5) break;
    n++;
  }
  assert.deepEqual(found, [], `${what}: the parser differs from the reference`);
  return n;
}

function lines(file: string): string[] {
  return readFileSync(join(ROOT, 'test/data/corpus', file), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

for (const file of ['kasztp.txt', 'node_files.txt', 'isaacs_files.txt', 'schemes.txt']) {
  test(`differential: every line of ${file} reads the same as with the eager parser`, () => {
    const all = lines(file);
    assert.ok(all.length > 1000);
    assert.equal(agree(file, all), all.length);
  });
}

/** Every string in a JSON value. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

test('differential: every string of the conformance suites reads the same', () => {
  const dir = join(ROOT, 'test/data/conformance');
  const all = new Set<string>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const data = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { cases: unknown };
    for (const s of strings(data.cases)) all.add(s);
  }
  assert.ok(all.size > 5000, `${all.size} strings`);
  agree('conformance', all);
});

test('differential: the seeds of the parse and normalize fuzz targets read the same', () => {
  const all: string[] = [];
  for (const target of ['parse', 'normalize']) {
    const dir = join(ROOT, 'fuzz/corpus', target);
    for (const f of readdirSync(dir).filter((f) => !f.endsWith('.md'))) {
      const bytes = new Uint8Array(readFileSync(join(dir, f)));
      all.push(inputOf(bytes), new TextDecoder().decode(bytes));
    }
  }
  assert.ok(all.length > 200);
  agree('fuzz seeds', all);
});

test('differential: the hostile patterns of the benchmarks read the same, short and 64 KB long', async () => {
  const growth = join(ROOT, 'bench/growth.mjs');
  const { PATTERNS, line } = (await import(growth)) as {
    PATTERNS: Record<string, [string, string, string]>;
    line: (pattern: string, bytes: number) => string;
  };
  const all: string[] = [];
  for (const [name, [pre, unit, post]] of Object.entries(PATTERNS)) {
    for (let k = 1; k <= 4; k++) all.push(pre + unit.repeat(k) + post);
    all.push(line(name, 65536));
  }
  assert.ok(all.length >= 60);
  agree('hostile', all);
});

// The edges of the one search that judges the usual URL (and of where the checks resume when it
// stops short), of normalize()'s shortcut, of the empty login and of the scheme tried first.
const EDGES = [
  // the search stops in the path, the fragment, at an escape, after a user info or host number
  'http://h.example/a~b',
  'http://h.example/~',
  'http://h.example/a%zzb~',
  'http://h.example/a%41b~c',
  'http://h.example/a#b~c',
  'http://h.example/a#~',
  'http://h.example#b c',
  'http://h.example:80/a b#c d',
  'http://h.example:/a b',
  'http://h.example:99999/a b',
  'ftp://u:p@h.example/a b',
  'ftp://u:p:q@h.example/a b',
  'ftp://u@v@h.example/a b',
  'ftp://u%41:p%zz@h.example/a b',
  'ftp://u@/a b',
  'http://1.2.3.4/a b',
  'http://1.2.3.256/a b',
  'http://01.2.3.4/a b',
  'http://1.2.3/a b',
  'http://1.2.3.4.5/a b',
  'http://a-.b/c d',
  'http://-a.b/c d',
  'http://a..b/c d',
  'http://a.1b/c d',
  'http://a--b.c/d e',
  'http://a_b.c/d e',
  'file:///a b',
  'file://localhost/a b',
  'file://:80/a b',
  'mailto:a b',
  'mailto:a%40b',
  'mailto:a%4',
  'news:a#b c',
  'telnet://u:p@h.example/',
  'x-y:a b',
  // normalize()'s shortcut: in normal form or one step away
  'http://h.example/a?b/c#d',
  'http://h.example/a#',
  'http://h.example',
  'http://h.example:81/a',
  'http://h.example:080/a',
  'http://H.example/a',
  'HTTP://h.example/a',
  'http://u@h.example/a',
  'http://h.example/a%41',
  'file://localhost/a',
  'file:///a',
  'file://h.example/a;b',
  'ftp://h.example/a;type=I',
  'ftp://h.example/a;type=i',
  'gopher://h.example/1a',
  'telnet://h.example',
  'http://-a.b/c',
  'http://a..b/c',
  // the empty login, and the scheme of the last URL tried first
  'file:///',
  'file:///#',
  'file:///a@b:c',
  'http:///a',
  'http://#a',
  'http:',
  'https:x',
  'http:x',
  'Http://h.example/',
  'HTTP://h.example/',
  'httpx://h.example/',
  'http+x://h.example/',
  // a scheme's usual form (found in one search, with the scheme's own rules in it) and one step from it
  'http://h.example/a?b',
  'http://h.example/a?b?c',
  'http://h.example/a?b/c',
  'http://h.example/a?',
  'http://h.example/?',
  'http://h.example/a?b%2Fc#d?e/f',
  'http://h.example/a?b%zz',
  'http://h.example?a',
  'http://h.example:65535/a?b',
  'http://h.example:65536/a?b',
  'http://h.example:0065535/a',
  'http://h.example:/a',
  'http://u@h.example/a',
  'https://h.example/a;b=c/d:e@f&g',
  'https://h.example/a?b;c:d@e&f=g+h',
  'https://h.example/#',
  'https://h.example/a#b#c',
  'https://1.2.3.4/a?b',
  'https://1.2.3.04/a?b',
  'file:///a;b',
  'file://h.example/a%3Bb',
  'file://h.example',
  'file://h.example/',
  'file://h.example:/a',
  'file://h.example:21/a',
  'file://u@h.example/a',
  'file:///a#b;c',
  'file:/a',
  'file:',
  'ftp://h.example/a/b;type=a',
  'ftp://h.example/a/b;TYPE=D#x',
  'ftp://h.example/a/b;type=x',
  'ftp://h.example/a/b;type=an',
  'ftp://h.example/a;b/c',
  'ftp://h.example/a;type=i/b',
  'ftp://u:p@h.example:21/a%3Bb;type=i',
  'ftp://u:p:q@h.example/',
  'ftp://u%zz@h.example/',
  'ftp://:p@h.example/',
  'ftp://u@h.example:99999/',
  'telnet://h.example',
  'telnet://h.example/',
  'telnet://h.example/x',
  'telnet://u:p@h.example:23/#x',
  'rlogin://h.example/',
  'tn3270://u@h.example',
  'gopher://h.example/',
  'gopher://h.example/1a%09b',
  'gopher://h.example/%31a',
  'gopher://h.example/1a%0Db',
  'gopher://h.example/1a%0ab',
  'gopher://h.example/1a%00b',
  'gopher://u@h.example/1a',
  'nntp://h.example/comp.x',
  'nntp://h.example/comp.x/123',
  'nntp://h.example/comp.x/',
  'nntp://h.example/comp.x/123456789012345',
  'nntp://h.example/comp.x/1234567890123456',
  'nntp://h.example/1comp',
  'nntp://h.example/comp%2Ex',
  'nntp://h.example',
  'nntp:comp.x/1',
  'news:*',
  'news:*#a',
  'news:**',
  'news:comp.x+y_z-1',
  'news:1comp',
  'news:a@b.example',
  'news:a@b@c.example',
  'news:@b.example',
  'news:a@1.2.3.4',
  'news:a@01.2.3.4',
  'news:a@b-.example',
  'news://a@b.example',
  'news:/a@b.example',
  'news:a%41@b.example',
  'mailto:a@b.example',
  'mailto:a.b@c.d',
  'mailto:a..b@c',
  'mailto:a.@c',
  'mailto:a@b.',
  'mailto:a@b?c',
  'mailto:a%25b@c',
  'mailto:a%2Cb@c',
  'mailto:a%2cb@c',
  'mailto:a%40b@c',
  'mailto:a@b@c',
  'mailto://a@b',
  'mailto:/a@b',
  'mailto:',
  'wais://h.example/db',
  'wais://h.example/db?a+b;c',
  'wais://h.example/db?a/b',
  'wais://h.example/db/t/p',
  'wais://h.example/db/t',
  'wais://h.example/db/t/12/p',
  'wais://h.example/db/t/1=a;2=b;',
  'wais://h.example/d;b',
  'wais://h.example/',
  'wais://h.example',
  'prospero://h.example/a/b',
  'prospero://h.example/a/b;x=y',
  'prospero://h.example/a/b;x=y;x=z',
  'prospero://h.example/a/b;x',
  'prospero://h.example/a/b;=y',
  'prospero://h.example/a%00b',
  'prospero://h.example/a%01b;x=%41',
  'prospero://h.example/',
  'prospero://h.example',
  // normalize(): the usual form up to a character that must be encoded, and past the list's cap
  'http://h.example/~a',
  'http://h.example/a?b~c',
  'http://h.example/a#b~',
  'http://h.example/a#b#c',
  'http://h.example/a\u00e9',
  'http://h.example/a\u0001b',
  'http://h.example/a b',
  'http://h~x.example/a',
  'http://H.example/~a',
  'http://h.example:99999/~',
  'http://u@h.example/~',
  'ftp://u:p@h.example/a~b;type=i',
  'ftp://h.example/a;b~',
  'telnet://h.example/~',
  'nntp://h.example/a~',
  'news:a~b',
  'mailto:a~b@c',
  'file:///a~b',
  'file://h.example/a;b~',
  'wais://h.example/db?a~b',
  'prospero://h.example/a;x=1;x=2~',
  `http://h.example/a?${'/'.repeat(120)}~`,
  `http://h.example/${'~'.repeat(120)}`,
  `ftp://h.example/${';'.repeat(120)}~`,
];

test('differential: the edges of the fast paths read the same, in every order after one another', () => {
  const all: string[] = [];
  for (const a of EDGES) for (const b of EDGES.slice(0, 12)) all.push(b, a);
  agree('edges', all);
});
