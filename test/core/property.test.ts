// Properties of the scanner with a fixed seed (so a failure reproduces): for random valid URLs
// built from the RFC 1738 section 5 grammar, parse(x).href === x, x is valid, and re-parsing the
// href gives the same offsets; for random strings, parse throws nothing but LocatorError, and for
// any value that is not a string, nothing but a TypeError (API misuse).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, tryParse } from '../helpers.js';
import { parse as rawParse } from '../../src/schemes/registry.js';
import { LocatorError } from '../../src/core/errors.js';

const chars = (s: string) => fc.constantFrom(...s.split(''));
const LOW = 'abcdefghijklmnopqrstuvwxyz';
const HI = LOW.toUpperCase();
const DIGIT = '0123456789';
const UNRESERVED = LOW + HI + DIGIT + "$-_.+!*'(),";
const HEX = '0123456789ABCDEFabcdef';
const escape = fc.tuple(chars(HEX), chars(HEX)).map(([a, b]) => `%${a}${b}`);
const str = (alphabet: string, max = 12) =>
  fc.array(fc.oneof(chars(alphabet), escape), { maxLength: max }).map((a) => a.join(''));

// scheme = 1*[ lowalpha | digit | "+" | "-" | "." ], kept off the registered and x- names
const scheme = fc.stringMatching(/^[a-z][a-z0-9+.-]{0,8}$/).map((s) => `zz${s}`);
const alphadigit = chars(LOW + HI + DIGIT);
const domainlabel = fc.oneof(
  alphadigit,
  fc.tuple(alphadigit, fc.stringMatching(/^[a-zA-Z0-9-]{0,6}$/), alphadigit).map(([a, m, b]) => a + m + b),
);
const toplabel = fc
  .tuple(chars(LOW + HI), fc.stringMatching(/^([a-zA-Z0-9-]{0,6}[a-zA-Z0-9])?$/))
  .map(([a, r]) => a + r);
const hostname = fc.tuple(fc.array(domainlabel, { maxLength: 3 }), toplabel).map(([d, t]) => [...d, t].join('.'));
const hostnumber = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }).map((a) => a.join('.'));
const host = fc.oneof(hostname, hostnumber);
const user = str(UNRESERVED + ';?&=');
const login = fc
  .tuple(
    fc.option(fc.tuple(user, fc.option(user)), { nil: undefined }),
    host,
    fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined }),
  )
  .map(
    ([up, h, p]) =>
      (up ? up[0] + (up[1] !== null ? ':' + up[1] : '') + '@' : '') + h + (p !== undefined ? ':' + p : ''),
  );
const xchars = str(UNRESERVED + ';/?:@&=', 24);
const fragment = fc.option(xchars, { nil: undefined });
const url = fc.oneof(
  fc
    .tuple(scheme, login, fc.option(xchars, { nil: undefined }), fragment)
    .map(([s, l, p, f]) => `${s}://${l}${p !== undefined ? '/' + p : ''}${f !== undefined ? '#' + f : ''}`),
  fc
    .tuple(
      scheme,
      xchars.filter((x) => !x.startsWith('//')),
      fragment,
    )
    .map(([s, p, f]) => `${s}:${p}${f !== undefined ? '#' + f : ''}`),
);

test('property (seed 1738): a URL built from the grammar parses to itself, valid, with stable offsets', () => {
  fc.assert(
    fc.property(url, (x) => {
      const u = parse(x);
      assert.equal(u.href, x);
      assert.deepEqual(
        u.violations.filter((d) => d.severity === 'error'),
        [],
      );
      const again = parse(u.href);
      assert.deepEqual(again.components(), u.components());
      assert.equal(parse(`<URL:${x}>`).components().host?.[0], u.components().host?.[0]);
    }),
    { seed: 1738, numRuns: 3000 },
  );
});

test('property (seed 1738): on any string, parse throws nothing but a LocatorError', () => {
  const noise = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom(...':/@?#%[]<>.-+ aZ09\t\r\n\u00e9\ud800'.split('')), maxLength: 40 }),
    fc
      .tuple(
        fc.constantFrom('http://', 'ftp://', 'file://', 'x:', '<URL:', 'gopher://', 'mailto:', 'news:'),
        fc.string({ unit: 'binary', maxLength: 30 }),
      )
      .map(([a, b]) => a + b),
  );
  fc.assert(
    fc.property(noise, (s) => {
      try {
        const u = rawParse(s);
        u.assertInvariants();
        void u.fields;
        void u.user;
        void u.password;
        void u.port;
        void u.valid;
      } catch (e) {
        if (!(e instanceof LocatorError)) throw e;
        assert.ok(e.offset >= 0 && e.offset <= s.length, `offset ${e.offset} inside the input`);
      }
      const r = tryParse(s);
      for (const d of r instanceof LocatorError ? [r.toDiagnostic()] : r.violations) {
        assert.ok(d.offset >= 0 && d.offset <= s.length);
        assert.ok((d.section ?? '').length > 0 && d.message.length > 0);
      }
    }),
    { seed: 1738, numRuns: 5000 },
  );
});

test('property (seed 1738): every function that takes a URL throws nothing but a LocatorError on a string, a TypeError on a non-string', async () => {
  const { lint } = await import('../../src/operations/lint.js');
  const { normalize, equivalent, toDisplay } = await import('../../src/operations/normalize.js');
  const { explain } = await import('../../src/operations/build.js');
  const { resolve } = await import('../../src/operations/resolve.js');
  const { relativize } = await import('../../src/operations/relativize.js');
  const fns: Array<[string, (v: unknown) => unknown]> = [
    ['parse', (v) => rawParse(v as string)],
    ['tryParse', (v) => tryParse(v as string)],
    ['lint', (v) => lint(v as string)],
    ['normalize', (v) => normalize(v as string)],
    ['equivalent', (v) => equivalent(v as string, 'http://a.com/')],
    ['toDisplay', (v) => toDisplay(v as string)],
    ['explain', (v) => explain(v as string)],
    ['resolve (base)', (v) => resolve(v as string, 'g')],
    ['resolve (partial)', (v) => resolve('http://a.com/b/c', v as string)],
    ['relativize', (v) => relativize('http://a.com/b/c', v as string)],
  ];
  const strings = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc
      .tuple(
        fc.constantFrom('http://', 'ftp://', 'gopher://', 'mailto:', 'news:', 'file://', '<URL:'),
        fc.string({ unit: fc.constantFrom(...':/@?#%;.\r\n aZ09'.split('')), maxLength: 25 }),
      )
      .map(([a, b]) => a + b),
  );
  const others = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.integer(),
    fc.boolean(),
    fc.object(),
    fc.array(fc.string()),
  );
  fc.assert(
    fc.property(strings, others, (s, v) => {
      for (const [name, fn] of fns) {
        try {
          fn(s);
        } catch (e) {
          if (!(e instanceof LocatorError)) throw new Error(`${name}(${JSON.stringify(s)}) threw ${String(e)}`);
        }
        assert.throws(
          () => fn(v),
          (e: unknown) => e instanceof TypeError && e.message.length > 0,
          `${name}(${String(v)})`,
        );
      }
    }),
    { seed: 1738, numRuns: 400 },
  );
});
