// The batch rows of `locator parse --json` and `locator normalize` are written by serializers
// that know each row's shape (src/cli/json-text.ts) from the one parse of the line. Their bytes
// must be exactly those of the way they were written before: JSON.stringify() of the record,
// then main.ts's escaping stream (safeJson()). That way is kept here, as the reference, and both
// are compared over the corpus files, every string of the conformance cases, and hostile lines
// (control, bidi and format characters, lone surrogates, quotes and backslashes, passwords made
// of them, a line of a megabyte); then through the command itself, bytes that are not UTF-8
// included, with --jobs 1 and 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, SHARED } from '../helpers.js';
import { tryParse } from '../../src/schemes/registry.js';
import { LocatorError } from '../../src/core/errors.js';
import { failure, shownInput } from '../../src/cli/io.js';
import { safeJson, safeText } from '../../src/cli/safe-text.js';
import { parseRow } from '../../src/cli/parse.js';
import { normalizeRecord, normalizeRow } from '../../src/cli/normalize.js';
import { jsonValue } from '../../src/cli/json-text.js';
import { lintRow } from '../../src/cli/lint.js';
import { lintRecord } from '../../src/operations/lint.js';
import { resolve } from '../../src/operations/resolve.js';
import { relativize } from '../../src/operations/relativize.js';
import {
  MASK,
  maskValue,
  passwordSpans,
  redactPartial,
  redactUrl,
  replaceSpans,
  secretsOf,
  spanSecrets,
  urlPasswordSpans,
} from '../../src/operations/redact.js';

// ---- The reference: the record and its JSON as `locator parse --json` wrote them before. ----

function refParseRecord(input: string, trim: boolean, showSecrets: boolean): Record<string, unknown> {
  const r = tryParse(input, { trim });
  const shown = showSecrets ? input : redactUrl(input);
  if (r instanceof LocatorError) {
    const secrets = showSecrets ? [] : spanSecrets(input, passwordSpans(input));
    return {
      input: shown,
      ok: false,
      valid: false,
      error: maskValue(r.toDiagnostic(), secrets),
      href: null,
      scheme: null,
      user: null,
      password: null,
      host: null,
      port: null,
      portDigits: null,
      explicitPort: false,
      path: null,
      fragment: null,
      fields: {},
      violations: [],
    };
  }
  const j = r.toJSON();
  const spans = showSecrets ? [] : urlPasswordSpans(r);
  if (spans.length > 0) {
    const secrets = secretsOf(r);
    j.href = replaceSpans(r.href, spans);
    if (j.password !== null && j.password !== '') j.password = MASK;
    j.fields = maskValue(j.fields, secrets);
    j.violations = maskValue(j.violations, secrets);
  }
  return { input: shown, ok: true, valid: j.valid, error: null, ...j };
}

function refParseLine(input: string, trim: boolean, show: boolean): string {
  let text: string;
  try {
    text = JSON.stringify(refParseRecord(input, trim, show));
  } catch (e) {
    text = JSON.stringify({ ...refParseRecord('', false, true), input: shownInput(input, show), error: failure(e) });
  }
  return safeJson(text);
}

function refNormalizeLine(input: string, show: boolean): string {
  let rec: Record<string, unknown>;
  try {
    rec = normalizeRecord(input, show);
  } catch (e) {
    rec = {
      input: show ? input : redactUrl(input),
      ok: false,
      href: null,
      error: failure(e),
      valid: false,
      display: null,
    };
  }
  return safeJson(JSON.stringify(rec));
}

/** The row of `locator normalize` (no --json) from the whole record, as it was written. */
function refNormalizePlain(input: string, show: boolean): { lines: string[]; err: string; status: number } {
  let rec: Record<string, unknown>;
  try {
    rec = normalizeRecord(input, show);
  } catch (e) {
    rec = { input: show ? input : redactUrl(input), ok: false, href: null, error: failure(e) };
  }
  const lines = [(rec.href as string | null) ?? ''];
  if (rec.ok === true) return { lines, err: '', status: 0 };
  const e = rec.error as { code: string; offset: number; message: string };
  return {
    lines,
    err: `locator normalize: ${JSON.stringify(rec.input)}: ${e.message} (${e.code} at ${e.offset})\n`,
    status: 1,
  };
}

function refLintLine(input: string, show: boolean): string {
  let rec: ReturnType<typeof lintRecord>;
  try {
    rec = lintRecord(input, { trim: false });
  } catch (e) {
    return safeJson(JSON.stringify({ input: shownInput(input, show), ok: false, diagnostics: [failure(e)] }));
  }
  const spans = show ? [] : passwordSpans(input);
  const text = replaceSpans(input, spans);
  if (spans.length > 0) rec.diagnostics = maskValue(rec.diagnostics, spanSecrets(input, spans));
  return safeJson(JSON.stringify({ input: text, ok: rec.ok, diagnostics: rec.diagnostics }));
}

/** The rows of `locator resolve --json BASE` (or relativize) as they were written. */
function refResolveLines(base: string, partials: string[], op: 'resolve' | 'relativize'): string {
  const b = tryParse(base);
  const scheme = b instanceof LocatorError ? null : b.scheme;
  const partialShown = (s: string) => redactPartial(s, scheme);
  let out = '';
  for (const p of partials) {
    let value: string | null = null;
    let error: unknown = null;
    try {
      value = op === 'resolve' ? resolve(base, p, { rfc: 1808 }) : relativize(base, p, { rfc: 1808 });
    } catch (e) {
      error = failure(e);
    }
    const rec =
      op === 'resolve'
        ? {
            base: redactUrl(base),
            partial: partialShown(p),
            ok: error === null,
            href: value === null ? null : redactUrl(value),
            error,
          }
        : {
            base: redactUrl(base),
            target: redactUrl(p),
            ok: error === null,
            partial: value === null ? null : partialShown(value),
            error,
          };
    out += safeJson(JSON.stringify(rec)) + '\n';
  }
  return out;
}

// ---- The inputs. ----

function corpus(): string[] {
  const dir = join(SHARED, 'corpus');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'));
}

function conformanceStrings(): string[] {
  const dir = join(SHARED, 'conformance');
  const out = new Set<string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    const { cases } = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { cases: Array<Record<string, unknown>> };
    for (const c of cases) {
      for (const k of ['input', 'base', 'rel', 'a', 'b', 'text']) if (typeof c[k] === 'string') out.add(c[k]);
    }
  }
  return [...out];
}

/** Characters JSON or the terminal escaping treat apart, and their neighbours. */
const SPICES = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  '"',
  '\\',
  '/',
  '\x7f',
  '\x80',
  '\x9f',
  '\xa0',
  '\xad',
  '\u00e9',
  '\u061c',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u202a',
  '\u202e',
  '\u2028',
  '\u2029',
  '\u2066',
  '\u2069',
  '\ufeff',
  '\ufffd',
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
  '\udb40\udc41',
  '\u{e007f}',
  '%',
  '%00',
  '%zz',
  '@',
  ':',
  '#',
  '?',
  ';',
  '<',
  '>',
  ' ',
];

const SHAPES = [
  (x: string) => `http://h${x}.com/`,
  (x: string) => `http://h.com/a${x}b?q${x}#f${x}`,
  (x: string) => `ftp://u${x}:p${x}w@h.com/d${x};type=a`,
  (x: string) => `ftp://u:${x}secret${x}@h.com/`,
  (x: string) => `telnet://user:pa${x}ss@h.com:23/`,
  (x: string) => `news://u:p${x}@host/x`,
  (x: string) => `mailto:a${x}@h.com`,
  (x: string) => `gopher://h.com/1${x}sel%09search`,
  (x: string) => `wais://h.com/db?${x}query`,
  (x: string) => `prospero://h.com/a${x};type=file`,
  (x: string) => `file://h.com/etc${x}motd`,
  (x: string) => `<URL:ftp://u:p${x}@h.com/x>`,
  (x: string) => `${x}http://h.com/${x}`,
  (x: string) => `x${x}y:${x}`,
  (x: string) => x,
];

function hostile(): string[] {
  const out: string[] = [];
  for (const shape of SHAPES) for (const s of SPICES) out.push(shape(s));
  // Dense lines, and one of a megabyte.
  out.push('http://h.com/' + '{'.repeat(5000), 'ftp://u:' + '\u202e'.repeat(300) + '@h.com/' + '%'.repeat(300));
  out.push('http://h.com/' + 'a\x1b'.repeat(1 << 19));
  // Hrefs of 4,095, 4,096 and 4,097 characters (RowBytes searches a source of at most 4,096 for
  // the parts it copies, and reads longer ones a character at a time): the same row either side.
  for (const n of [4095, 4096, 4097]) {
    const head = 'ftp://user-name-long:secret-word-long@host.example.com/dir-one/dir-two;type=d#';
    out.push(
      head + 'f'.repeat(n - head.length),
      'http://host.example.com/' + 'p'.repeat(n - 42) + '?q=query-part#frag',
    );
  }
  // A path of segments whose decoded values are not in the href (each search would fail): the
  // values past the search budget are read a character at a time, the row the same.
  let segs = 'ftp://h.example/';
  while (segs.length + 15 <= 4096) segs += 'aaaaaaaaaaa%62/';
  out.push(segs);
  out.push('', ' ', '\r', 'URL:', '<>', '//u:p@h', 'http://u:@h.com/', 'http://:p@h.com/', 'ftp://[::1]:99999/');
  return out;
}

/**
 * Every line with the options the batch benchmarks use (no --trim, passwords hidden); every
 * `every`-th line, and every line holding "@" or ":" after "//", with each other combination too.
 */
function compare(what: string, lines: string[], every = 1): void {
  let checked = 0;
  for (const [n, input] of lines.entries()) {
    const all = n % every === 0 || /\/\/[^/]*[:@]/.test(input);
    for (const trim of all ? [false, true] : [false]) {
      for (const show of all ? [false, true] : [false]) {
        const row = parseRow(input, { json: true, trim, showSecrets: show });
        assert.equal(row.lines.length, 1);
        assert.equal(
          row.lines[0],
          refParseLine(input, trim, show),
          `${what}: parse --json${trim ? ' --trim' : ''}${show ? ' --show-secrets' : ''} of ${JSON.stringify(input).slice(0, 200)}`,
        );
        assert.equal(row.status, JSON.parse(row.lines[0]).valid === true ? 0 : 1);
      }
    }
    for (const show of all ? [false, true] : [false]) {
      const lint = lintRow(input, { json: true, trim: false, showSecrets: show });
      assert.equal(lint.lines[0], refLintLine(input, show), `${what}: lint --json of ${JSON.stringify(input)}`);
      const row = normalizeRow(input, { json: true, display: false, showSecrets: show });
      assert.equal(
        row.lines[0],
        refNormalizeLine(input, show),
        `${what}: normalize --json of ${JSON.stringify(input)}`,
      );
      // Without --json, the row is the record's normal form (its password masked), and its error.
      const plain = normalizeRow(input, { json: false, display: false, showSecrets: show });
      assert.deepEqual(plain, refNormalizePlain(input, show), `${what}: normalize of ${JSON.stringify(input)}`);
    }
    checked++;
  }
  assert.ok(checked > 0);
}

test('parse --json, normalize --json and lint --json rows: the bytes of JSON.stringify + safeJson, over the corpus files', () => {
  compare('corpus', corpus(), 7);
});

test('... over every string of the conformance cases', () => {
  compare('conformance', conformanceStrings());
});

test('... over hostile lines: controls, bidi and format characters, lone surrogates, quotes, passwords of them', () => {
  compare('hostile', hostile());
});

test('jsonValue(): the text of safeJson(JSON.stringify(v)) for plain data of every kind', () => {
  const values: unknown[] = [
    null,
    true,
    0,
    -0,
    1.5,
    -1e21,
    NaN,
    Infinity,
    '',
    'a"b\\c\u2028\u202e\ud800\x7f',
    [],
    [undefined, () => 1, Symbol('s'), null, 'x', [1, [2]]],
    {},
    { b: 1, a: undefined, 2: 'two', 1: 'one', f: () => 1, n: { m: ['\u200b'] } },
    Object.assign(Object.create(null), { k: 'v' }),
    { toJSON: () => ({ x: 1 }) },
    new Date(0),
    Object.freeze({ frozen: Object.freeze(['a']) }),
  ];
  for (const v of values) assert.equal(jsonValue(v), safeJson(JSON.stringify(v) ?? 'null'), String(JSON.stringify(v)));
});

test('the command writes the same bytes: invalid UTF-8, CR LF, a lone CR, with --jobs 1 and 2', () => {
  const text = [...hostile().filter((l) => !l.includes('\n') && l.length < 1000), ...corpus().slice(0, 3000)];
  const bytes = Buffer.concat([
    Buffer.from(text.join('\n') + '\n'),
    Buffer.from([0x66, 0x74, 0x70, 0x3a, 0x2f, 0x2f, 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x2f, 0x0d, 0x0a]),
    Buffer.from('http://u:p\u00e9@h.com/\r\n'),
    Buffer.from([0x68, 0x3a, 0xe2, 0x80]),
  ]);
  // The lines as the command reads them: decoded as UTF-8 (each bad byte U+FFFD), split at LF,
  // a CR before the LF trimmed.
  const lines = bytes.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const inputs = lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const expected = {
    parse: inputs.map((l) => refParseLine(l, false, false) + '\n').join(''),
    normalize: inputs.map((l) => refNormalizeLine(l, false) + '\n').join(''),
  };
  for (const command of ['parse', 'normalize'] as const) {
    for (const jobs of ['1', '2']) {
      const r = spawnSync(process.execPath, [CLI, command, '--json', '--jobs', jobs], {
        input: bytes,
        maxBuffer: 1 << 28,
      });
      assert.equal(r.status, 1, r.stderr.toString());
      assert.ok(r.stdout.equals(Buffer.from(expected[command])), `${command} --jobs ${jobs}: bytes differ`);
    }
  }
  // Without --json: the normal forms on standard output, escaped for the terminal (safeText).
  const plain = inputs.map((l) => safeText(refNormalizePlain(l, false).lines[0]) + '\n').join('');
  for (const jobs of ['1', '2']) {
    const r = spawnSync(process.execPath, [CLI, 'normalize', '--jobs', jobs], { input: bytes, maxBuffer: 1 << 28 });
    assert.equal(r.status, 1, r.stderr.toString());
    assert.ok(r.stdout.equals(Buffer.from(plain)), `normalize --jobs ${jobs}: bytes differ`);
  }
});

test('resolve --json and relativize --json write the same bytes, partial forms and passwords included', () => {
  const partials = [
    ...hostile().filter((l) => !l.includes('\n') && l.length < 1000),
    '../g',
    'g?y#s',
    '//u:secret@other.com/x',
    '',
    '%zz',
    'ftp://v:pw@h.com/',
  ];
  for (const base of ['ftp://u:secret@h.com/a/b;type=a', 'http://a/b/c/d;p?q', 'news:x']) {
    for (const op of ['resolve', 'relativize'] as const) {
      const input = Buffer.from(partials.join('\n') + '\n');
      const r = spawnSync(process.execPath, [CLI, op, '--json', base], { input, maxBuffer: 1 << 28 });
      assert.ok(r.status === 0 || r.status === 1, r.stderr.toString());
      // The lines as the command reads them (a lone surrogate is U+FFFD in UTF-8; CR LF ends a line).
      const read = input.toString('utf8').split('\n').slice(0, -1);
      const lines = read.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
      assert.equal(r.stdout.toString(), refResolveLines(base, lines, op), `${op} --json ${base}`);
    }
  }
});
