// Properties (issue 17): equivalent() is an equivalence relation (RFC 1738 2.2, 3; the schemes'
// normal forms, src/operations/normalize.ts) on samples where equivalent URLs are common: spellings of a
// few URLs that differ in the case of the scheme and host, in escapes of characters that need
// none, in the default port written out, in an empty port, in "<URL:...>" around them. On every
// pair: reflexive, symmetric, and the same as equal normal forms; on triples of spellings of one
// URL: transitive, and apart from a spelling with another meaning (see below).
// And normalize() is idempotent and keeps the URL equivalent to itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { equivalent, normalize, tryParse, LocatorError } from '../../src/index.js';
import { runs, SEED } from './runs.js';

const BASES = [
  ['http', 'www.example.com', '80', '/a/b;c?d'],
  ['ftp', 'ftp.example.com', '21', '/pub/a%2Fb;type=i'],
  ['gopher', 'gopher.example.com', '70', '/1/dir'],
  ['nntp', 'news.example.com', '119', '/comp.lang/12'],
  ['telnet', 'host.example.com', '23', '/'],
  ['wais', 'wais.example.com', '210', '/db?query'],
  ['x-thing', 'h.example', '', '/p/q'],
] as const;

const upper = (s: string, mask: number) =>
  [...s].map((c, i) => ((mask >> (i % 30)) & 1 ? c.toUpperCase() : c)).join('');
const escapeSome = (s: string, mask: number) =>
  [...s]
    .map((c, i) =>
      /[a-z0-9]/i.test(c) && (mask >> (i % 30)) & 1 ? '%' + c.charCodeAt(0).toString(16).padStart(2, '0') : c,
    )
    .join('');

const spelling = fc
  .tuple(
    fc.nat(BASES.length - 1),
    fc.nat(),
    fc.nat(),
    fc.nat(),
    fc.nat(3),
    fc.boolean(),
    fc.constantFrom('', '#f', '#F'),
  )
  .map(([b, m1, m2, m3, port, wrap, frag]) => {
    const [scheme, host, dflt, path] = BASES[b];
    const p = port === 1 && dflt ? ':' + dflt : port === 2 ? ':' : port === 3 ? ':8000' : '';
    const url = `${upper(scheme, m1)}://${upper(host, m2)}${p}${escapeSome(path, m3)}${frag}`;
    return wrap ? `<URL:${url}>` : url;
  });

const ok = (s: string) => !(tryParse(s) instanceof LocatorError);

test(`property (seed ${SEED}): equivalent is reflexive and symmetric, and the same as equal normal forms`, () => {
  let equal = 0;
  fc.assert(
    fc.property(spelling, spelling, (a, b) => {
      if (!ok(a) || !ok(b)) return;
      assert.ok(equivalent(a, a), a);
      const ab = equivalent(a, b);
      assert.equal(equivalent(b, a), ab, `${a} ~ ${b}`);
      assert.equal(normalize(a) === normalize(b), ab, `${a} ~ ${b}`);
      if (ab) equal++;
    }),
    { seed: SEED, numRuns: runs(2000) },
  );
  assert.ok(equal > 0, 'no equivalent pair among the samples: the property would say nothing');
});

// Transitivity, so that it can fail: equivalent() compares normal forms, and equality of strings
// is transitive whatever normalize() does, so "a ~ b and b ~ c imply a ~ c" over pairs the
// function itself found equivalent could never fail. Here the generator knows the answer: a, b
// and c are three different spellings of one URL (RFC 1738 2.1: the scheme's case; 3.1: the
// host's case, the default port written or not, an empty port; 2.2: escapes of unreserved
// characters, hex digits in either case; the appendix's "<URL:...>"), so a ~ b, b ~ c and a ~ c
// must all hold; and d, the same spelling with one change of meaning (another port, another
// host, another fragment), is equivalent to none of them.

/** Escapes some letters and digits of `s` (never inside an escape), hex digits in either case. */
const escapeUnreserved = (s: string, mask: number, upperHex: boolean) => {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      out += s.slice(i, i + 3);
      i += 2;
    } else if (/[a-z0-9]/i.test(c) && (mask >> (i % 30)) & 1) {
      const h = c.charCodeAt(0).toString(16).padStart(2, '0');
      out += '%' + (upperHex ? h.toUpperCase() : h);
    } else out += c;
  }
  return out;
};

/** One spelling of base `b` with fragment `frag`: each choice keeps the meaning. */
const sameUrl = (b: number, frag: string) =>
  fc
    .tuple(fc.nat(), fc.nat(), fc.nat(), fc.boolean(), fc.nat(2), fc.boolean())
    .map(([m1, m2, m3, hexCase, port, wrap]) => {
      const [scheme, host, dflt, path] = BASES[b];
      const p = port === 1 && dflt ? ':' + dflt : port === 2 ? ':' : '';
      const url = `${upper(scheme, m1)}://${upper(host, m2)}${p}${escapeUnreserved(path, m3, hexCase)}${frag}`;
      return wrap ? `<URL:${url}>` : url;
    });

/** `url` with one change of meaning: a port that is not the default, another host, another fragment. */
const changeMeaning = (url: string, how: number) => {
  const u = url.startsWith('<URL:') ? url.slice(5, -1) : url;
  const slash = u.indexOf('/', u.indexOf('//') + 2);
  const hash = u.indexOf('#');
  const host = u.slice(0, slash).replace(/:\d*$/, '');
  if (how === 0) return `${host}:8000${u.slice(slash)}`;
  if (how === 1) return u.replace('//', '//x'); // another host
  return (hash < 0 ? u : u.slice(0, hash)) + (u.slice(hash + 1) === 'f' ? '#g' : '#f');
};

const chain = fc
  .tuple(fc.nat(BASES.length - 1), fc.constantFrom('', '#f', '#F'), fc.nat(2))
  .chain(([b, frag, how]) => fc.tuple(sameUrl(b, frag), sameUrl(b, frag), sameUrl(b, frag), fc.constant(how)));

test(`property (seed ${SEED}): equivalent is transitive over different spellings of one URL, and tells a change of meaning`, () => {
  let distinct = 0;
  fc.assert(
    fc.property(chain, ([a, b, c, how]) => {
      const d = changeMeaning(b, how);
      assert.ok(ok(a) && ok(b) && ok(c) && ok(d), `${a} | ${b} | ${c} | ${d}`);
      if (a !== b && b !== c && a !== c) distinct++;
      assert.ok(equivalent(a, b), `${a} ~ ${b}`);
      assert.ok(equivalent(b, c), `${b} ~ ${c}`);
      assert.ok(equivalent(a, c), `${a} ~ ${b} ~ ${c}, but not ${a} ~ ${c}`);
      assert.ok(!equivalent(a, d) && !equivalent(c, d), `${a} ~ ${c}, yet one of them ~ ${d} (${how})`);
    }),
    { seed: SEED, numRuns: runs(3000) },
  );
  assert.ok(distinct > runs(3000) / 2, `only ${distinct} triples of three different spellings`);
});

test(`property (seed ${SEED}): normalize is idempotent and its result is equivalent to the input`, () => {
  fc.assert(
    fc.property(spelling, (a) => {
      if (!ok(a)) return;
      const n = normalize(a);
      assert.equal(normalize(n), n, a);
      assert.ok(equivalent(a, n), `${a} ~ ${n}`);
    }),
    { seed: SEED, numRuns: runs(1000) },
  );
});
