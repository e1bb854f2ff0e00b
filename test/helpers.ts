// Shared test helpers.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

/** The repository root (tests run from .build/test/...). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * The project's shared material (spec texts, corpus, conformance cases, WAIS captures), kept in
 * the repository: test/data (its SOURCES.md says where each part comes from).
 */
export const SHARED = join(ROOT, 'test', 'data');

export function fixture(name: string): string {
  return readFileSync(join(ROOT, 'test', 'fixtures', name), 'utf8');
}

export function shared(path: string): string {
  const p = join(SHARED, path);
  if (!existsSync(p)) throw new Error(`${p} is missing from test/data (see test/data/SOURCES.md)`);
  return readFileSync(p, 'utf8');
}

import type { ParseOptions } from '../src/core/parse.js';
import { parse as coreParse, tryParse as coreTryParse } from '../src/schemes/registry.js';
import { Url } from '../src/core/url.js';
import { LocatorError } from '../src/core/errors.js';

/** parse() followed by the record's invariant check, as every test should parse. */
export function parse(input: string, options?: ParseOptions): Url {
  const u = coreParse(input, options);
  u.assertInvariants();
  return u;
}

/** tryParse() with the invariant check on success; anything thrown but a LocatorError fails. */
export function tryParse(input: string, options?: ParseOptions): Url | LocatorError {
  const u = coreTryParse(input, options);
  if (u instanceof Url) u.assertInvariants();
  else if (!(u instanceof LocatorError)) throw new Error('tryParse returned neither Url nor LocatorError');
  return u;
}

/**
 * One-line summary: scheme | user | password | host | port | path | fragment (curl lib1560
 * style); the port as its written digits, less leading zeros (RFC 1738 3.1).
 */
export function summary(u: Url): string {
  const f = (v: string | number | null) => (v === null ? '-' : String(v));
  return [u.scheme, f(u.user), f(u.password), f(u.host), f(u.portDigits), f(u.path), f(u.fragment)].join(' | ');
}

/** The violation codes with offsets, "code@offset", in order. */
export function codes(u: Url): string {
  return u.violations.map((d) => `${d.code}@${d.offset}`).join(' ');
}

/** The state directory of the real test servers (started by scripts/test.mjs). */
export function serversDir(): string {
  const ts = process.env.LOCATOR_TEST_SERVERS;
  if (!ts)
    throw new Error(
      'LOCATOR_TEST_SERVERS is not set: run the client tests through `npm test` (scripts/test.mjs starts the servers)',
    );
  return ts;
}

/** Reads a whole web stream (for tests with small objects). */
export async function readAll(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(Buffer.from(value));
  }
  return Buffer.concat(parts);
}

/**
 * One test per row [input, want, codes, section], named `section: "input"`: `check` compares the
 * parsed input with `want`; its violations are `codes` (code@offset, in order); it is valid
 * exactly when none of them is an error.
 */
export function rowTests<T>(
  rows: ReadonlyArray<readonly [string, T, string, string]>,
  check: (u: Url, want: T) => void,
): void {
  for (const [input, want, wantCodes, section] of rows) {
    test(`${section}: ${JSON.stringify(input)}`, () => {
      const u = parse(input);
      check(u, want);
      assert.equal(codes(u), wantCodes);
      assert.equal(u.valid, !u.violations.some((d) => d.severity === 'error'));
    });
  }
}

/** The process runs as root (uid 0), as CI does. */
export const IS_ROOT = process.getuid?.() === 0;
const SKIP_ROOT = process.env.LOCATOR_SKIP_ROOT === '1';
let rootOnlyTests = 0;

/**
 * The options of a test that cannot run without root (rlogin: rlogind answers only a reserved
 * source port, RFC 1282, which only root binds; its .rhosts trusts root). Such a test is never
 * skipped in silence: not root, it is skipped with the reason in its skip message, and the
 * file's rootGate() test fails, so that a run that is not root (a CI machine set up wrong)
 * cannot pass without testing rlogin, unless LOCATOR_SKIP_ROOT=1 asks for the skip on purpose.
 */
export function rootOnly(why: string): { skip: string | false } {
  rootOnlyTests++;
  if (IS_ROOT) return { skip: false };
  const how = SKIP_ROOT ? 'skipped on request, LOCATOR_SKIP_ROOT=1' : 'a failure: see the "needs root" test';
  return { skip: `NOT RUN: not root (uid ${process.getuid?.()}): ${why} (${how})` };
}

/**
 * The test that makes the rootOnly() tests of a file fail loudly when they cannot run: it fails
 * when the process is not root, unless LOCATOR_SKIP_ROOT=1 (then it says how many were skipped).
 */
export function rootGate(what: string): void {
  test(`${what}: the tests that need root run (root, as CI runs; or LOCATOR_SKIP_ROOT=1 to skip them)`, (t) => {
    if (IS_ROOT) return;
    const msg = `${rootOnlyTests} ${what} tests cannot run: this process is not root (uid ${process.getuid?.()})`;
    if (!SKIP_ROOT)
      assert.fail(`${msg}: run the tests as root, as CI does, or set LOCATOR_SKIP_ROOT=1 to skip them on purpose`);
    t.diagnostic(`${msg}: skipped on request (LOCATOR_SKIP_ROOT=1)`);
  });
}

/** How `eachRow` names a row: its input (shown as JSON) and, when rows differ in it, its section. */
export interface RowLabel<R> {
  /** The row's input; by default a tuple's first element, an object's `input`, or the row itself. */
  input?: (row: R) => unknown;
  /** The row's spec section; by default an object's `section`, else none (the title cites it). */
  section?: (row: R) => string;
}

/** How many characters of a row's input a test name shows before it is cut with "…". */
export const ROW_INPUT_WIDTH = 60;

function rowInput(row: unknown): unknown {
  if (Array.isArray(row)) return row[0];
  if (row !== null && typeof row === 'object' && 'input' in row) return (row as { input: unknown }).input;
  return row;
}

function rowSection(row: unknown): string | undefined {
  if (row !== null && typeof row === 'object' && !Array.isArray(row) && 'section' in row) {
    const s = (row as { section: unknown }).section;
    if (typeof s === 'string') return s;
  }
  return undefined;
}

/** A row's input for a test name: JSON (so control characters show escaped), cut at ROW_INPUT_WIDTH. */
export function showInput(input: unknown): string {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = JSON.stringify(input) ?? String(input);
    } catch {
      text = String(input);
    }
    if (text.length <= ROW_INPUT_WIDTH) return text;
  }
  if (text.length > ROW_INPUT_WIDTH) {
    let cut = ROW_INPUT_WIDTH - 1;
    const c = text.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut--; // do not split a surrogate pair
    text = text.slice(0, cut) + '…';
  }
  return typeof input === 'string' ? JSON.stringify(text) : text;
}

/**
 * A table test: one node:test test per row, so that a failing row is reported by itself, named,
 * and the other rows still run. Each test is named `title: section: "input"` (the section when
 * `label.section` or the row gives one); names that would repeat get the row's index, ` #i`.
 * `check` gets the row and its index and may be async. An empty table is a failing test, not a
 * silent pass.
 */
export function eachRow<R>(
  title: string,
  rows: ReadonlyArray<R>,
  check: (row: R, index: number) => void | Promise<void>,
  label: RowLabel<R> = {},
): void {
  if (rows.length === 0) {
    test(`${title}: the table has rows`, () => assert.fail(`${title}: the table is empty`));
    return;
  }
  const names = rows.map((row) => {
    const section = label.section ? label.section(row) : rowSection(row);
    const input = showInput(label.input ? label.input(row) : rowInput(row));
    return section === undefined ? `${title}: ${input}` : `${title}: ${section}: ${input}`;
  });
  const seen = new Map<string, number>();
  for (const n of names) seen.set(n, (seen.get(n) ?? 0) + 1);
  rows.forEach((row, i) => {
    test(seen.get(names[i])! > 1 ? `${names[i]} #${i}` : names[i], () => check(row, i));
  });
}

/** What the noise after a scheme prefix is made of: delimiters, specials, white space, hex digits, non-ASCII, a lone surrogate. */
export const NOISE_ALPHABET = ':/@?#%[]<>.-+ aZ09\t\r\n\u00e9\ud800"\\(),;*_2E3C';

/**
 * The property (seed 1738, 2000 runs): on noise after one of `prefixes`, tryParse throws
 * nothing but a LocatorError; fields never throw; every violation has an offset inside the
 * input and a message; `explain` gives at least one step.
 */
export function assertNoiseSafe(
  prefixes: string[],
  explain: (u: Url) => { steps: string[] },
  alphabet = NOISE_ALPHABET,
): void {
  const noise = fc
    .tuple(fc.constantFrom(...prefixes), fc.string({ unit: fc.constantFrom(...alphabet.split('')), maxLength: 30 }))
    .map(([a, b]) => a + b);
  fc.assert(
    fc.property(noise, (s) => {
      const r = tryParse(s);
      if (r instanceof LocatorError) return;
      void r.fields;
      for (const d of r.violations) assert.ok(d.offset >= 0 && d.offset <= s.length && d.message.length > 0);
      assert.ok(explain(r).steps.length > 0);
    }),
    { seed: 1738, numRuns: 2000 },
  );
}

// fast-check arbitraries that several scheme tests draw from. They are the definitions the tests
// had, so each property (seed 1738) still tries the same values.

/** One character of `s`. */
export const chars = (s: string) => fc.constantFrom(...s.split(''));

/** US-ASCII, the 128 characters 0-127. */
export const ASCII = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join('');
/** RFC 822 atom characters: letters, digits and the specials-free punctuation. */
export const ATEXT = "!#$%&'*+-/=?^_`{|}~abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/** An RFC 822 atom of 1 to 8 characters. */
export const atomArb = fc.array(chars(ATEXT), { minLength: 1, maxLength: 8 }).map((a) => a.join(''));

export const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ] (RFC 1738 5). */
export const newsgroupArb = fc
  .tuple(chars(LETTERS), fc.array(chars(LETTERS + '0123456789-.+_'), { maxLength: 20 }))
  .map(([a, r]) => a + r.join(''));
const alphadigit = chars(LETTERS + '0123456789');
const domainlabel = fc.oneof(
  alphadigit,
  fc.tuple(alphadigit, fc.stringMatching(/^[a-zA-Z0-9-]{0,6}$/), alphadigit).map(([a, m, b]) => a + m + b),
);
const toplabel = fc
  .tuple(chars(LETTERS), fc.stringMatching(/^([a-zA-Z0-9-]{0,6}[a-zA-Z0-9])?$/))
  .map(([a, r]) => a + r);
/** hostname = *[ domainlabel "." ] toplabel (RFC 1738 5), with up to three domain labels. */
export const hostnameArb = fc
  .tuple(fc.array(domainlabel, { maxLength: 3 }), toplabel)
  .map(([d, t]) => [...d, t].join('.'));

/** What must be encoded in a message or content identifier: reserved, "%", TAB, CR LF, "/", "//". */
export const ID_SPICES = ['%', '\t', '\r\n', '/', '//', '@', '#', '?', ';', '<>', ' '];

/** Non-empty text (any code units, up to `maxLength`), or two such around one of `spices`. */
export function spicedText(spices: string[], maxLength = 20) {
  const text = fc.string({ unit: 'binary', minLength: 1, maxLength });
  return fc.oneof(
    text,
    fc.tuple(text, fc.constantFrom(...spices), text).map(([a, b, c]) => a + b + c),
  );
}

/** Up to six pieces, each up to six code units of any text or one of `specials`, joined. */
export function piecesText(specials: string[]) {
  const piece = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom(...specials));
  return fc.array(piece, { maxLength: 6 }).map((a) => a.join(''));
}

/**
 * The property (seed 1738, 500 runs): fields from `fieldsArb`, built with a host and an optional
 * port, parse back to the same fields and the same href, with the port (or `defaultPort`), valid.
 */
export function assertBuildRoundTrip(
  build: (scheme: string, fields: Record<string, unknown>) => string,
  scheme: string,
  fieldsArb: fc.Arbitrary<Record<string, unknown>>,
  defaultPort: number,
): void {
  fc.assert(
    fc.property(fieldsArb, fc.option(fc.integer({ min: 1, max: 65535 })), (f, port) => {
      const href = build(scheme, { ...f, host: 'h.example', port });
      const u = parse(href);
      assert.equal(parse(u.href).href, href);
      assert.deepEqual(u.fields, f);
      assert.equal(u.port, port ?? defaultPort);
      assert.equal(u.valid, true, `${href}: ${JSON.stringify(u.violations)}`);
    }),
    { seed: 1738, numRuns: 500 },
  );
}

/** Awaits a promise that must reject with a LocatorError, and returns that error. */
export async function rejects(p: Promise<unknown>): Promise<LocatorError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LocatorError, `not a LocatorError: ${e}`);
    return e;
  }
  assert.fail('expected a LocatorError');
}

/** The built command (npm test builds it first). */
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

/**
 * Runs the built command with `args`, standard input closed and an environment of PATH and `env`
 * alone (no HOME unless given: no ~/.netrc of the machine's); resolves with its exit code and
 * output once it ends.
 */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...env } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.stdin.end();
    p.on('close', (code) => done({ code, out, err }));
  });
}
