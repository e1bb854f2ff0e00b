// Other projects' URL tests, read by the RFCs: test/data/conformance/*.json (its README says how
// a case is read). Every case whose `expect` is not null runs through the library, one subtest
// per case named by its id and src; a failure shows the expected terms beside what locator gave.
// The counts per file (cases, agree, checked, failed) are printed as test diagnostics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, shared, tryParse } from './helpers.js';
import { Url } from '../src/core/url.js';
import { LocatorError } from '../src/core/errors.js';
import { resolve, type Rules } from '../src/operations/resolve.js';
import { normalize, equivalent } from '../src/operations/normalize.js';
import { extract } from '../src/extract/index.js';
import { explain } from '../src/operations/build.js';

interface Case {
  id: string;
  src: string;
  op: string;
  class: 'agree' | 'A' | 'B' | 'C';
  expect: unknown;
  why?: string;
  input?: string;
  base?: string;
  rel?: string;
  rfc?: number | string;
  strict?: boolean;
  peerHref?: string;
  a?: string;
  b?: string;
  text?: string;
}

type Actual = Record<string, unknown>;

/** The terms of a fatal error: ok false and the thrown code (a crash is not caught). */
function failed(e: unknown): Actual {
  if (e instanceof LocatorError) return { ok: false, valid: false, error: e.code };
  throw e;
}

/** A parse result in the README's terms. */
function parseTerms(input: string): Actual {
  const u = tryParse(input);
  if (!(u instanceof Url)) return failed(u);
  const login = u.hasLogin;
  const codes = (severity: string) => u.violations.filter((d) => d.severity === severity).map((d) => d.code);
  return {
    ok: true,
    error: null,
    valid: u.valid,
    href: u.href,
    scheme: u.scheme,
    user: u.user,
    password: u.password,
    rawUser: u.rawUser,
    rawPassword: u.rawPassword,
    host: u.host,
    hostLower: u.host === null ? null : u.host.toLowerCase(),
    port: u.port,
    explicitPort: u.explicitPort,
    netloc: login ? u.href.slice(u.schemePartStart + 2, u.loginEnd) : null,
    rest: u.href.slice(login ? u.loginEnd : u.schemePartStart, u.bodyEnd),
    path: u.path,
    fragment: u.fragment,
    fields: u.fields,
    errors: codes('error'),
    warnings: codes('warning'),
  };
}

function rules(rfc: number | string | undefined): Rules {
  if (rfc === undefined) return 1808;
  if (rfc === 1808 || rfc === '1808') return 1808;
  if (rfc === 3986 || rfc === '3986') return 3986;
  if (rfc === 'draft-1993-10') return rfc;
  throw new Error(`unknown rfc ${JSON.stringify(rfc)}`);
}

/** True when `href` is the peer's href or denotes the same object (README: sameAsPeer). */
function sameAs(href: string, peerHref: string): boolean {
  if (href === peerHref) return true;
  try {
    return equivalent(href, peerHref);
  } catch (e) {
    if (e instanceof LocatorError) return false;
    throw e;
  }
}

/** The FTP commands that name the object, in order (README: explain `commands`). */
const FTP_COMMAND = /^(CWD|TYPE|RETR|NLST|LIST)( |$)/;

function str(c: Case, key: 'input' | 'base' | 'rel' | 'a' | 'b' | 'text'): string {
  const v = c[key];
  if (typeof v !== 'string') throw new Error(`case ${c.id}: op ${c.op} needs a string "${key}"`);
  return v;
}

/** Runs one case through the library and returns its terms. */
function run(c: Case): Actual {
  switch (c.op) {
    case 'parse':
      return parseTerms(str(c, 'input'));
    case 'resolve': {
      let href: string;
      try {
        href = resolve(str(c, 'base'), str(c, 'rel'), {
          rfc: rules(c.rfc),
          ...(c.strict === undefined ? {} : { strict: c.strict }),
        });
      } catch (e) {
        return failed(e);
      }
      const out: Actual = { ok: true, error: null, href };
      if (typeof c.peerHref === 'string') out.sameAsPeer = sameAs(href, c.peerHref);
      return out;
    }
    case 'normalize':
      try {
        return { ok: true, error: null, href: normalize(str(c, 'input')) };
      } catch (e) {
        return failed(e);
      }
    case 'equal':
      try {
        return { ok: true, error: null, equivalent: equivalent(str(c, 'a'), str(c, 'b')) };
      } catch (e) {
        return failed(e);
      }
    case 'extract': {
      const urls = [...extract(str(c, 'text'))].map((m) => m.url);
      return { urls, first: urls.length > 0 ? urls[0] : null };
    }
    case 'explain':
      try {
        const x = explain(str(c, 'input'));
        return {
          ok: true,
          error: null,
          protocol: x.protocol,
          host: x.host,
          port: x.port,
          steps: x.steps,
          commands: x.steps.filter((s) => FTP_COMMAND.test(s)),
        };
      } catch (e) {
        return failed(e);
      }
    default:
      throw new Error(`case ${c.id}: unknown op ${JSON.stringify(c.op)}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The README's deep subset: every key of `want` matches; `$absent` (null or missing), `$in` (any
 * listed value), `$includes` (an array holding it), `$excludes` (an array not holding it).
 * Arrays match element by element, with the same length.
 */
export function matches(want: unknown, got: unknown): boolean {
  if (Array.isArray(want)) {
    return Array.isArray(got) && got.length === want.length && want.every((w, i) => matches(w, got[i]));
  }
  if (!isObject(want)) return Object.is(want, got) || (want === 0 && got === 0);
  const keys = Object.keys(want);
  if (keys.length === 1 && keys[0].startsWith('$')) {
    const arg = want[keys[0]];
    switch (keys[0]) {
      case '$absent':
        if (arg !== true) throw new Error(`$absent takes true, not ${JSON.stringify(arg)}`);
        return got === null || got === undefined;
      case '$in':
        if (!Array.isArray(arg)) throw new Error('$in takes an array');
        return arg.some((w) => matches(w, got));
      case '$includes':
        return Array.isArray(got) && got.some((g) => matches(arg, g));
      case '$excludes':
        return Array.isArray(got) && !got.some((g) => matches(arg, g));
      default:
        throw new Error(`unknown matcher ${keys[0]}`);
    }
  }
  if (!isObject(got)) return false;
  return keys.every((k) => matches(want[k], got[k]));
}

/** The keys of `want` that `got` does not match, for the failure message. */
function mismatches(want: Record<string, unknown>, got: Actual): string[] {
  return Object.keys(want).filter((k) => !matches(want[k], got[k]));
}

test('the matcher of the conformance README', () => {
  assert.equal(matches({ a: 1 }, { a: 1, b: 2 }), true);
  assert.equal(matches({ a: 1, b: 2 }, { a: 1 }), false);
  assert.equal(matches({ a: null }, {}), false);
  assert.equal(matches({ a: { $absent: true } }, {}), true);
  assert.equal(matches({ a: { $absent: true } }, { a: null }), true);
  assert.equal(matches({ a: { $absent: true } }, { a: '' }), false);
  assert.equal(matches({ a: { $in: [null, ''] } }, { a: '' }), true);
  assert.equal(matches({ a: { $in: [false, { $absent: true }] } }, {}), true);
  assert.equal(matches({ a: { $in: [false, { $absent: true }] } }, { a: true }), false);
  assert.equal(matches({ a: { $includes: 'x' } }, { a: ['y', 'x'] }), true);
  assert.equal(matches({ a: { $includes: 'x' } }, { a: 'x' }), false);
  assert.equal(matches({ a: { $excludes: 'x' } }, { a: ['y'] }), true);
  assert.equal(matches({ a: { $excludes: 'x' } }, { a: ['x'] }), false);
  assert.equal(matches({ f: { search: null } }, { f: { search: null, keywords: [] } }), true);
  assert.equal(matches({ c: ['a', 'b'] }, { c: ['a', 'b', 'c'] }), false);
  assert.equal(matches({ port: 80 }, { port: '80' }), false);
  assert.throws(() => matches({ a: { $near: 1 } }, { a: 1 }), /unknown matcher/);
});

const DIR = join(SHARED, 'conformance');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

test('the conformance folder holds the seven suites of its README', () => {
  assert.deepEqual(FILES, [
    'cpython-urlparse.json',
    'curl-lib1560.json',
    'derived-checks.json',
    'fast-uri.json',
    'linkify-it.json',
    'perl-uri.json',
    'wpt-urltestdata.json',
  ]);
});

const totals = { cases: 0, agree: 0, checked: 0, failed: 0 };

for (const file of FILES) {
  test(`conformance: ${file}`, async (t) => {
    const data = JSON.parse(shared(join('conformance', file))) as { cases: Case[] };
    const counts = { cases: data.cases.length, agree: 0, checked: 0, failed: 0 };
    for (const c of data.cases) {
      if (c.class === 'agree') counts.agree++;
      if (c.expect === null) continue; // class C: no RFC defines the answer
      counts.checked++;
      await t.test(`${c.id} [${c.src}]`, () => {
        if (!isObject(c.expect)) throw new Error(`case ${c.id}: expect is neither null nor an object`);
        let got: Actual;
        try {
          got = run(c);
        } catch (e) {
          counts.failed++;
          throw e;
        }
        if (!matches(c.expect, got)) {
          counts.failed++;
          const args = Object.fromEntries(
            ['input', 'base', 'rel', 'rfc', 'strict', 'a', 'b', 'text', 'peerHref']
              .filter((k) => k in c)
              .map((k) => [k, c[k as keyof Case]]),
          );
          assert.fail(
            [
              `${file} ${c.id} (${c.src}), class ${c.class}: ${c.op} ${JSON.stringify(args)}`,
              `  differs in: ${mismatches(c.expect, got).join(', ')}`,
              `  expect: ${JSON.stringify(c.expect)}`,
              `  actual: ${JSON.stringify(got)}`,
              ...(c.why ? [`  why: ${c.why}`] : []),
            ].join('\n'),
          );
        }
      });
    }
    for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += counts[k];
    const line = `${file}: cases ${counts.cases}, agree ${counts.agree}, checked ${counts.checked}, failed ${counts.failed}`;
    t.diagnostic(line);
    console.log(`conformance ${line}`);
  });
}

test('conformance: totals', () => {
  const line = `all files: cases ${totals.cases}, agree ${totals.agree}, checked ${totals.checked}, failed ${totals.failed}`;
  console.log(`conformance ${line}`);
  assert.equal(totals.cases, 1989, 'the README counts 1,989 cases');
  assert.equal(totals.failed, 0, line);
});
