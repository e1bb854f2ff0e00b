// Properties (issue 17): equivalent() is an equivalence relation (RFC 1738 2.2, 3; the schemes'
// normal forms, src/normalize.ts) on samples where equivalent URLs are common: spellings of a
// few URLs that differ in the case of the scheme and host, in escapes of characters that need
// none, in the default port written out, in an empty port, in "<URL:...>" around them. On every
// pair: reflexive, symmetric, and the same as equal normal forms; on every triple: transitive.
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

test(`property (seed ${SEED}): equivalent is transitive`, () => {
  let chains = 0;
  fc.assert(
    fc.property(spelling, spelling, spelling, (a, b, c) => {
      if (!ok(a) || !ok(b) || !ok(c)) return;
      if (equivalent(a, b) && equivalent(b, c)) {
        chains++;
        assert.ok(equivalent(a, c), `${a} ~ ${b} ~ ${c}`);
      }
    }),
    { seed: SEED, numRuns: runs(3000) },
  );
  assert.ok(chains > 0, 'no chain a ~ b ~ c among the samples');
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
