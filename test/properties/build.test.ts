// Properties (issue 17): build() and parse() are inverse for every scheme of the registry
// (RFC 1738 3 and the schemes' sections; src/operations/build.ts). The tests of each scheme build random
// fields and parse them back; here the other way round, for every scheme at once: a valid URL
// of any scheme, parsed, built again from its fields and login, parses to the same fields,
// login and fragment, and building that again gives the same URL (the built form is stable).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { build, decodeText, listSchemes, getScheme, tryParse, LocatorError, type Url } from '../../src/index.js';
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
    '<a@b>',
    'a@b.c',
    '*',
  ),
);
const tail = fc.array(piece, { maxLength: 12 }).map((a) => a.join(''));

// The fragment is raw in the record (Url.fragment) and text in build(): it is decoded between.
const fragmentText = (u: Url) => (u.fragment === null ? null : decodeText(u.fragment, { strict: false }));

function rebuild(u: Url): string {
  return build(u.scheme, {
    ...u.fields,
    user: u.user,
    password: u.password,
    host: u.host,
    port: u.explicitPort ? u.port : null,
    fragment: fragmentText(u),
  });
}

// Two differences this property found, reported in issue 17 for a decision rather than hidden:
// http build() writes a ";" of a path segment as %3B (hsegment allows ";", RFC 1738 3.3), so
// the raw hpath changes though the segments do not; and news:a@ (an empty domain) parses
// valid while build() refuses its message-id. The raw hpath is left out of the comparison
// (the decoded segments stay in), and a news message-id must hold a domain to be sampled.
const fieldsOf = (u: Url) => {
  const { hpath: _raw, ...rest } = u.fields as Record<string, unknown>;
  return rest;
};

const view = (u: Url) => ({
  fields: fieldsOf(u),
  user: u.user,
  password: u.password,
  host: u.host,
  port: u.port,
  fragment: fragmentText(u),
});

test('every scheme with a build has one here', () => {
  assert.ok(SCHEMES.length >= 15, SCHEMES.join(' '));
});

for (const scheme of SCHEMES) {
  test(`property (seed ${SEED}): ${scheme}: a valid URL parsed and built again reads back the same, and its built form is stable`, () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.boolean(), tail, (slashes, rest) => {
        const u = tryParse(`${scheme}:${slashes ? '//' : ''}${rest}`);
        if (u instanceof LocatorError || !u.valid) return;
        if (u.scheme === 'news' && /@$/.test(String(u.fields.messageId ?? ''))) return;
        if (u.explicitPort && u.port === null) return; // over 65535: build takes a port as a number
        let href: string;
        try {
          href = rebuild(u);
        } catch (e) {
          assert.ok(e instanceof LocatorError, String(e));
          assert.fail(`${u.href}: valid, but build refuses its own fields: ${e.code} ${e.message}`);
        }
        const again = tryParse(href);
        assert.ok(!(again instanceof LocatorError), `${u.href} -> ${href}: ${again}`);
        assert.deepEqual(view(again), view(u), `${u.href} -> ${href}`);
        assert.equal(rebuild(again), href, `${u.href} -> ${href}: not stable`);
        checked++;
      }),
      { seed: SEED, numRuns: runs(400) },
    );
    assert.ok(checked > 0, `no valid ${scheme} URL among the samples`);
  });
}
