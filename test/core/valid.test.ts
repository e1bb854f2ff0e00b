// `valid` read first: where an error is certain without the list (a port over 65535, a missing
// "//", or a character where the scheme's usual form stops that must always be encoded, or a bad
// escape, past the login), the record answers without making the list (src/core/url.ts). The
// answer must be the one the list gives, and the list, read after, must be the one a record that
// never answered `valid` first makes (RFC 1738 2.2, 3.1, 5 and each scheme's section).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ROOT, eachRow, shared, tryParse } from '../helpers.js';
import { Url } from '../../src/core/url.js';
import { parseWith } from '../../src/core/parse.js';
import { SchemeTable } from '../../src/core/scheme.js';
import { listSchemes } from '../../src/schemes/registry.js';
import type { SchemeSpec } from '../../src/schemes/registry.js';

/** The errors of a record whose list is read first, as code@offset. */
function errorsOf(u: Url): string[] {
  return u.violations.filter((d) => d.severity === 'error').map((d) => `${d.code}@${d.offset}`);
}

/**
 * Null when `valid` read first agrees with the list of a second record of the same input, and
 * the first record's list (read after) equals the second's; else what differs.
 */
function disagreement(input: string, trim = false): string | null {
  const a = tryParse(input, { trim });
  if (!(a instanceof Url)) return null;
  const first = a.valid;
  const b = tryParse(input, { trim }) as Url;
  const errors = errorsOf(b);
  if (first !== (errors.length === 0))
    return `${JSON.stringify(input)}: valid ${first}, list ${errors.join(' ') || 'none'}`;
  if (a.valid !== first) return `${JSON.stringify(input)}: valid changed on a second read`;
  const after = JSON.stringify(a.violations);
  if (after !== JSON.stringify(b.violations)) return `${JSON.stringify(input)}: list after valid ${after}`;
  return null;
}

// Every built-in scheme, each with a `validate` that counts its calls (and runs the scheme's own):
// the scheme's rules run when the list is made, so the count tells whether `valid` made it.
let validateCalls = 0;
const counted = new SchemeTable<SchemeSpec>(
  listSchemes().map((spec) => ({
    ...spec,
    validate(url, report) {
      validateCalls++;
      spec.validate?.(url, report);
    },
  })),
);

// How a row's `valid`, read first, is answered: `settled` without the list (false), `usual` by
// the usual form's one search (true, no list either), `list` by the list.
type How = 'settled' | 'usual' | 'list';

// [input, valid, section, how].
const ROWS: Array<[string, boolean, string, How]> = [
  // A character that must always be encoded where the usual form stops (path, fragment, part).
  ['https://webhome.idirect.com/~gmr/', false, 'RFC 1738 2.2 (unsafe "~" in the url-path)', 'settled'],
  ['http://a.b/c#d{e', false, 'RFC 1738 2.2 (unsafe "{" in the fragment)', 'settled'],
  ['http://a.b/c#d#e', false, 'RFC 1738 2.2 (a second "#")', 'settled'],
  ['http://a.b/c#d<e>', false, 'RFC 1738 2.2 (unsafe "<" in the fragment)', 'settled'],
  ['http://a.b/\u00fc', false, 'RFC 1738 2.2 (not US-ASCII)', 'settled'],
  ['http://a.b/\ud83d\ude00', false, 'RFC 1738 2.2 (not US-ASCII: a surrogate pair)', 'settled'],
  ['http://a.b/c\td', false, 'RFC 1738 2.2 (a control character)', 'settled'],
  ['http://a.b/c\u007fd', false, 'RFC 1738 2.2 (DEL)', 'settled'],
  ['HTTP://a.b/~x', false, 'RFC 1738 2.2 (a scheme written in upper case)', 'settled'],
  ['news:comp.infosystems.www~', false, 'RFC 1738 2.2 (unsafe "~" in the scheme part)', 'settled'],
  // A "%" not followed by two hexadecimal digits.
  ['gopher://boombox.micro.umn.edu/9/%G1', false, 'RFC 1738 2.2 (bad escape in the selector)', 'settled'],
  ['http://a.b/c%4', false, 'RFC 1738 2.2 (escape cut by the end)', 'settled'],
  ['http://a.b/c%4#d', false, 'RFC 1738 2.2 (escape cut by the fragment)', 'settled'],
  // A port over 65535; a missing "//".
  ['http://info.cern.ch:99999/doc/', false, 'RFC 1738 3.1 (port over 65535)', 'settled'],
  ['http:/info.cern.ch/doc/', false, 'RFC 1738 3.1 (missing "//")', 'settled'],
  ['ftp:info.cern.ch', false, 'RFC 1738 3.1 (missing "//")', 'settled'],
  // Not by those rules: the list answers (the usual form stops in the login, or does not match
  // at all, or at a character that may stand elsewhere, or the input is trimmed or wrapped).
  ['mailto:a~b@c.org', false, "RFC 1738 2.2 (mailto's usual form does not match)", 'list'],
  ['http://a~b.com/', false, 'RFC 1738 3.1 (the host, judged by the list)', 'list'],
  ['http://[::1]/', false, 'RFC 1738 3.1 (a bracketed literal, judged by the list)', 'list'],
  ['ftp://a b@h.org/', false, 'RFC 1738 3.1 (the user, judged by the list)', 'list'],
  ['http://h.org:/x~', false, 'RFC 1738 3.1 (an empty port)', 'list'],
  ['https://singapore_aberdeen.tripod.com/x', false, 'RFC 1738 3.1 ("_" in a host)', 'list'],
  ['https://groups.yahoo.com/a?dest=/group/x/', false, 'RFC 1738 3.3 ("/" in the search, the scheme rule)', 'list'],
  ['ftp://h.org/a;type=x', false, 'RFC 1738 3.2.2 (a typecode, the scheme rule)', 'list'],
  ['prospero://h.org/a%00b', false, 'RFC 1738 3.11 (an escaped NUL, the scheme rule)', 'list'],
  ['gopher://h.org/%31x', true, 'RFC 1738 3.4 (an escaped type: the usual form stops at its "%")', 'list'],
  // Valid: the usual form's one search answers.
  ['http://a.b/c#', true, 'RFC 1738 2.2 (an empty fragment)', 'usual'],
  ['http://a.b/%7E/x#y', true, 'RFC 1738 2.2 (an escape)', 'usual'],
  ['gopher://h.org/1%7E', true, 'RFC 1738 3.4 (an escape in the selector)', 'usual'],
  ['news:comp.infosystems.www', true, 'RFC 1738 3.6', 'usual'],
  ['http://info.cern.ch:65535/', true, 'RFC 1738 3.1 (the largest port)', 'usual'],
];

eachRow('valid read first equals the list', ROWS, ([input, want, , how]) => {
  validateCalls = 0;
  const u = parseWith(counted, input);
  assert.equal(u.valid, want);
  assert.equal(validateCalls, how === 'list' ? 1 : 0, `the list made (${how} expected)`);
  assert.equal(u.valid, want, 'a second read');
  assert.equal(validateCalls, how === 'list' ? 1 : 0, 'a second read makes no list');
  const v = tryParse(input) as Url;
  assert.equal(errorsOf(v).length === 0, want, `the list of ${input}: ${errorsOf(v).join(' ')}`);
  assert.equal(disagreement(input), null);
  // The list, read after the answer, is made then (once).
  void u.violations;
  assert.equal(validateCalls, how === 'usual' ? 0 : 1);
});

test('valid read first, x- and unknown schemes: no usual form, the list answers', () => {
  for (const input of ['x-foo:~', 'foo://h/~']) {
    const u = tryParse(input);
    assert.ok(u instanceof Url);
    assert.equal(u.valid, false);
    assert.equal(disagreement(input), null);
  }
});

test('valid read first, trimmed input: the list answers, and agrees', () => {
  const u = tryParse('  http://a.b/~x \t', { trim: true });
  assert.ok(u instanceof Url);
  assert.equal(u.valid, false);
  assert.equal(disagreement('  http://a.b/~x \t', true), null);
  assert.equal(disagreement('<URL:http://a.b/~x>'), null);
});

function lines(file: string): string[] {
  return shared(`corpus/${file}`)
    .split('\n')
    .filter((l) => l !== '');
}

test('valid read first agrees with the list on every corpus line and conformance string', () => {
  const found: string[] = [];
  let n = 0;
  let invalid = 0;
  const inputs = new Set<string>();
  for (const file of ['kasztp.txt', 'node_files.txt', 'isaacs_files.txt', 'schemes.txt']) {
    for (const l of lines(file)) inputs.add(l);
  }
  const dir = join(ROOT, 'test/data/conformance');
  const strings = (v: unknown): void => {
    if (typeof v === 'string') inputs.add(v);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) strings(x);
  };
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    strings((JSON.parse(readFileSync(join(dir, f), 'utf8')) as { cases: unknown }).cases);
  }
  for (const s of inputs) {
    const d = disagreement(s);
    if (d !== null && found.push(d) >= 5) break;
    const u = tryParse(s);
    if (u instanceof Url && !u.valid) invalid++;
    n++;
  }
  assert.deepEqual(found, []);
  // The rows above answer by each rule; here the inputs must include many invalid ones.
  assert.ok(n > 150000 && invalid > 6000, `${n} inputs, ${invalid} invalid`);
});

test('property (seed 1738): valid read first agrees with the list on noise after every scheme', () => {
  const prefixes = [
    'http://h.org/',
    'http://h.org:80/a?',
    'http://h.org',
    'https://u:p@h.org/',
    'ftp://u@h.org/a;type=',
    'ftp://h.org/',
    'gopher://h.org/1',
    'gopher://h.org/7a%09',
    'mailto:',
    'news:',
    'nntp://h.org/g/',
    'telnet://u@h.org',
    'wais://h.org/db?',
    'wais://h.org/db/t/',
    'file:///',
    'file://h.org/',
    'prospero://h.org/a;',
    'mid:',
    'cid:',
    'afs://h.org/',
    'rlogin://u@h.org',
    'tn3270://h.org',
    'x-y:',
    'http:',
    'HTTP://H.ORG/',
    'Gopher://h.org/1',
    'URL:http://h.org/',
  ];
  const noise = fc
    .tuple(
      fc.constantFrom(...prefixes),
      fc.string({
        unit: fc.constantFrom(...'~{%G4aZ09#/?;=:@.- <>"\u00e9\t\u007f\ud83d\ude00'.split('')),
        maxLength: 16,
      }),
    )
    .map(([a, b]) => a + b);
  fc.assert(
    fc.property(noise, (s) => {
      assert.equal(disagreement(s), null);
    }),
    { seed: 1738, numRuns: 20000 },
  );
});
