// The round trip of `locator get --json` and `build` (src/operations/parts.ts partsOf(), the
// library's build()), and of `set` (withPart()), for every scheme of the registry:
// - property (fixed seed): a valid URL's parts, built again, read back as the same parts; each
//   part set to the value of the same part of another URL reads back as that value, and every
//   generic part it did not name stays as written;
// - the corpus (test/data/corpus, every line): build(scheme, parts) is the line's normal form,
//   but for the classes below, each asserted with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  build,
  getScheme,
  listSchemes,
  normalize,
  partNames,
  partsOf,
  rawPartOf,
  tryParse,
  withPart,
  LocatorError,
  type Url,
} from '../../src/index.js';
import { ROOT } from '../helpers.js';
import { runs, SEED } from './runs.js';

const SCHEMES = listSchemes()
  .map((s) => s.name)
  .filter((n) => getScheme(n)?.build !== undefined)
  .sort();

const piece = fc.oneof(
  fc.constantFrom(...'abcXYZ019-._~!*$+,;=:@/?&%41%2F%20%25'.match(/%..|./g)!),
  fc.constantFrom(
    '//',
    'h.example',
    '127.0.0.1',
    ':21',
    ':8080',
    'user:pw@',
    ';type=a',
    '%09',
    '?q',
    '#f',
    'a@b.c',
    '*',
  ),
);
const tail = fc.array(piece, { maxLength: 12 }).map((a) => a.join(''));
const sample = (scheme: string) =>
  fc.tuple(fc.boolean(), tail).map(([slashes, rest]) => tryParse(`${scheme}:${slashes ? '//' : ''}${rest}`));

/** The parts that build() takes back: all but the raw forms (http's hpath and search, the generic path). */
function decoded(u: Url): Record<string, unknown> {
  const { hpath: _h, search: _s, path: _p, ...rest } = partsOf(u);
  if (Object.prototype.hasOwnProperty.call(u.fields, 'search')) rest.search = u.fields.search;
  if (Object.prototype.hasOwnProperty.call(u.fields, 'path')) rest.path = u.fields.path;
  return rest;
}

/** The valid URLs the first property sampled, by scheme: the pool of the second. */
const VALID = new Map<string, Url[]>();

const usable = (u: Url | LocatorError): u is Url =>
  !(u instanceof LocatorError) && u.valid && !(u.explicitPort && u.port === null);

for (const scheme of SCHEMES) {
  test(`property (seed ${SEED}): ${scheme}: get --json, then build, reads back the same parts`, () => {
    let checked = 0;
    fc.assert(
      fc.property(sample(scheme), (u) => {
        if (!usable(u)) return;
        const pool = VALID.get(scheme) ?? VALID.set(scheme, []).get(scheme)!;
        if (!pool.some((x) => x.href === u.href)) pool.push(u);
        let href: string;
        try {
          href = build(u.scheme, partsOf(u));
        } catch (e) {
          // The one case build refuses of a valid URL (test/properties/build.test.ts): news:a@.
          if (e instanceof LocatorError && u.scheme === 'news') return;
          throw e;
        }
        const again = tryParse(href);
        assert.ok(!(again instanceof LocatorError), `${u.href} -> ${href}`);
        const { keywords: _k, search: _s, ...mine } = decoded(u);
        const { keywords: _k2, search: _s2, ...theirs } = decoded(again);
        assert.deepEqual(theirs, mine, `${u.href} -> ${href}`);
        checked++;
      }),
      { seed: SEED, numRuns: runs(400) },
    );
    assert.ok(checked > 0, `no valid ${scheme} URL among the samples`);
  });

  test(`property (seed ${SEED}): ${scheme}: set a part to another URL's value: it reads back so, the other generic parts stay as written`, () => {
    const pool = VALID.get(scheme) ?? [];
    let checked = 0;
    // Every ordered pair of the valid samples of the property above (the same seed, so the same pool).
    for (const u of pool.slice(0, 40)) {
      for (const v of pool.slice(0, 40)) {
        const theirs = partsOf(v);
        for (const name of partNames(u)) {
          if (!(name in theirs) || name === 'scheme') continue;
          let out: string;
          try {
            out = withPart(u, name, theirs[name]);
          } catch (e) {
            assert.ok(e instanceof LocatorError, String(e));
            continue; // the value cannot stand in this URL (a user where there is no host ...)
          }
          const n = tryParse(out);
          assert.ok(!(n instanceof LocatorError), `${u.href} | ${name} -> ${out}`);
          if (Object.prototype.hasOwnProperty.call(u.fields, name)) {
            // A field the build writes from others too may read back normalized: it took effect.
            const back = n.fields[name];
            if (JSON.stringify(back) !== JSON.stringify(theirs[name]))
              assert.notDeepEqual(back, u.fields[name], `${u.href} | ${name} -> ${out}`);
          } else assert.deepEqual(partsOf(n)[name], theirs[name], `${u.href} | ${name} -> ${out}`);
          for (const other of ['user', 'password', 'host', 'port', 'fragment']) {
            if (other === name || out === u.href || Object.prototype.hasOwnProperty.call(u.fields, other)) continue;
            if (name === 'user' && other === 'password' && theirs.user === null) continue; // cleared with its user
            assert.equal(rawPartOf(n, other), rawPartOf(u, other), `${u.href} | ${name} -> ${out}: ${other}`);
          }
          checked++;
        }
      }
    }
    assert.ok(checked > 0, `no ${scheme} part was set`);
  });
}

// ---------------------------------------------------------------------------------------------
// The corpus: every line.

const CORPUS = ['schemes.txt', 'kasztp.txt', 'node_files.txt', 'isaacs_files.txt'];

/** An escape of a reserved character, or a ";" (which http's build writes %3B in a segment or keyword). */
const RESERVED_ESCAPED = /%(2F|3B|3F|40|3A|3D|26)|;/i;

test('corpus: build(scheme, get --json parts) is the normal form of each line, but for three classes, each asserted', () => {
  const counts = { exact: 0, notValid: 0, sameNormalForm: 0, reservedDecoded: 0 };
  for (const file of CORPUS) {
    for (const line of readFileSync(join(ROOT, 'test', 'data', 'corpus', file), 'utf8').split('\n')) {
      if (line === '') continue;
      const u = tryParse(line);
      // Class 1: not a valid URL (RFC 1738 5 and the scheme's section): get refuses it (exit 1),
      // there are no parts to build from.
      if (u instanceof LocatorError || !u.valid) {
        counts.notValid++;
        continue;
      }
      const built = build(u.scheme, partsOf(u));
      const normal = normalize(u);
      if (built === normal) {
        counts.exact++;
        continue;
      }
      // Class 2: build writes another spelling of the same URL, which normalize() makes the
      // same: an http URL with no path (normalize writes "/": RFC 1738 3.3), a file URL on
      // "localhost" (normalize writes "": RFC 1738 3.10).
      if (normalize(built) === normal) {
        counts.sameNormalForm++;
        continue;
      }
      // Class 3: a field given decoded cannot tell an escaped reserved character from the
      // character (RFC 1738 2.2: "%2F" in a file path, Prospero hsoname or news message-id
      // decodes to "/", which build writes as a separator; http's build writes the ";" of a
      // keyword as %3B): the built URL reads back with the same decoded parts.
      assert.match(line, RESERVED_ESCAPED, `${line}: built ${built}, normal ${normal}`);
      const again = tryParse(built);
      assert.ok(!(again instanceof LocatorError));
      const { hpath: _a, path: _b, search: _c, ...mine } = partsOf(u);
      const { hpath: _d, path: _e, search: _f, ...theirs } = partsOf(again);
      assert.deepEqual(theirs, mine, `${line}: built ${built}`);
      counts.reservedDecoded++;
    }
  }
  // Every line is in one class; the counts are those of the corpus as vendored.
  assert.deepEqual(counts, { exact: 183368, notValid: 6917, sameNormalForm: 3807, reservedDecoded: 3540 });
});
