// trurl's own test cases (curl/trurl tests.json, vendored in test/data/trurl with its licence;
// test/data/SOURCES.md) through locator's get, set and build: every case that uses --get, --set
// or --json on an http, https, ftp or file URL is mapped to locator's commands (docs/cli.md,
// "trurl's test cases", says how), and either gives trurl's answer or is a row of the table of
// deliberate differences in docs/cli.md, which this test reads: each row must give exactly the
// answer it lists, and a case that gives trurl's answer must not be listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');

interface Case {
  input: { arguments: string[] };
  expected: { stdout: string | unknown[]; returncode: number };
}

const CASES = JSON.parse(readFileSync(join(ROOT, 'test', 'data', 'trurl', 'tests.json'), 'utf8')) as Case[];

const URL_OF_SCHEMES = /^(https?|ftp|file):\/\//i;
const TAKES_VALUE = new Set([
  '--url',
  '-s',
  '--set',
  '-g',
  '--get',
  '--iterate',
  '--trim',
  '--qtrim',
  '--url-file',
  '-f',
  '--append',
  '--replace',
  '--redirect',
]);

/** The cases the adapter maps: --get, --set or --json on an http, https, ftp or file URL. */
export function selected(): Case[] {
  return CASES.filter((c) => {
    const a = c.input.arguments;
    const uses = a.some((x) => ['--get', '-g', '--set', '-s', '--json', '-j'].includes(x));
    return uses && a.some((x) => URL_OF_SCHEMES.test(x));
  });
}

interface Reading {
  urls: string[];
  sets: string[];
  get: string | null;
  json: boolean;
  /** trurl options with no locator equivalent (they make the case a listed difference). */
  other: string[];
}

function read(args: string[]): Reading {
  const r: Reading = { urls: [], sets: [], get: null, json: false, other: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--url') r.urls.push(args[++i]);
    else if (a === '-s' || a === '--set') r.sets.push(args[++i]);
    else if (a === '-g' || a === '--get') r.get = args[++i];
    else if (a === '--json' || a === '-j') r.json = true;
    else if (a.startsWith('-')) {
      r.other.push(a);
      if (TAKES_VALUE.has(a)) i++;
    } else r.urls.push(a);
  }
  return r;
}

/** trurl's part names in locator's: the query of an http URL is its search (RFC 1738 3.3). */
const NAMES: Record<string, string> = { query: 'search' };
const name = (n: string) => NAMES[n] ?? n;

/**
 * A trurl --get template in locator's grammar: {part} and [part] as {part}, {:part} (as written)
 * as {part:raw}, {default:port} as {port}, trurl's path (with its "/") as "/" and the url-path.
 */
export function template(t: string): string {
  return t
    .replace(/[{}]/g, (b) => b + b)
    .replace(
      /\{\{(:?)((?:default:)?)([a-z]+)\}\}|\[([a-z]+)\]/g,
      (_m, colon: string | undefined, def: string | undefined, n: string | undefined, b: string | undefined) => {
        const part = name(n ?? b ?? '');
        const p = part === 'path' ? '/{path' : `{${part}`;
        if ((def ?? '') !== '' && part !== 'port') return `{{${def}${n}}}`;
        return `${p}${colon === ':' ? ':raw' : ''}}`;
      },
    );
}

/** A trurl --set NAME=VALUE (NAME:=VALUE: as written) in locator's form. */
function assignment(s: string): string {
  const m = /^([a-z]+)(:?)=(.*)$/s.exec(s);
  if (m === null) return s;
  return `${name(m[1])}${m[2] === ':' ? ':raw' : ''}=${m[3]}`;
}

function locator(args: string[], stdin = '') {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: stdin, encoding: 'utf8', cwd: ROOT });
  return { status: r.status ?? -1, out: r.stdout };
}

/** trurl's --json answer for one URL, from locator's get --json parts (trurl names, "/" path, port as written). */
function trurlJson(line: string, normal: string): unknown {
  const o = JSON.parse(line) as { ok: boolean; parts: Record<string, unknown> | null };
  if (!o.ok || o.parts === null) return null;
  const p = o.parts;
  const parts: Record<string, unknown> = { scheme: p.scheme };
  for (const k of ['user', 'password', 'host']) if (p[k] !== null && p[k] !== undefined) parts[k] = p[k];
  const port = /^[a-z]+:\/\/[^/]*:([0-9]+)/i.exec(normal)?.[1];
  if (port !== undefined) parts.port = port;
  // trurl's path is the http hpath (without the search) or the url-path, with its "/".
  parts.path = '/' + String(typeof p.hpath === 'string' ? p.hpath : (p.path ?? ''));
  if (typeof p.search === 'string') parts.query = p.search;
  if (p.fragment !== null) parts.fragment = p.fragment;
  return { url: normal, parts };
}

/** What locator answers to a trurl case: its standard output and whether it succeeded. */
export function answer(c: Case): { out: string; ok: boolean } {
  const r = read(c.input.arguments);
  const sets = r.sets.map(assignment);
  let ok = true;
  let urls = r.urls;
  if (sets.length > 0) {
    const s = locator(['set', '--show-secrets', ...sets], urls.join('\n') + '\n');
    ok &&= s.status === 0;
    urls = s.out.split('\n').filter((x) => x !== '');
  }
  if (r.get !== null) {
    const g = locator(['get', '--show-secrets', '--format', template(r.get), ...urls]);
    return { out: g.out, ok: ok && g.status === 0 };
  }
  const n = locator(['normalize', '--show-secrets', ...urls]);
  ok &&= n.status === 0;
  if (r.json) {
    const normal = n.out.split('\n');
    const g = locator(['get', '--show-secrets', '--json', ...urls]);
    ok &&= g.status === 0;
    const list = g.out
      .split('\n')
      .filter((x) => x !== '')
      .map((line, i) => trurlJson(line, normal[i]))
      .filter((x) => x !== null);
    return { out: JSON.stringify(list), ok };
  }
  return { out: n.out, ok };
}

/** trurl's expected answer in the same terms. */
export function expected(c: Case): { out: string; ok: boolean } {
  const e = c.expected;
  return { out: typeof e.stdout === 'string' ? e.stdout : JSON.stringify(e.stdout), ok: e.returncode === 0 };
}

interface Difference {
  args: string;
  trurl: string;
  locator: string;
  ok: boolean;
  why: string;
}

/** The rows of the table of differences in docs/cli.md (between its two markers). */
function differences(): Map<string, Difference> {
  const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  const start = doc.indexOf('<!-- trurl-differences -->');
  const end = doc.indexOf('<!-- /trurl-differences -->');
  assert.ok(start >= 0 && end > start, 'docs/cli.md holds the table of differences between its markers');
  const rows = new Map<string, Difference>();
  for (const line of doc.slice(start, end).split('\n')) {
    const m = /^\| (\d+) \| `(.*)` \| `(.*)` \| `(.*)`( \(exit [1-9]\))? \| (.+) \|$/.exec(line);
    if (m === null) continue;
    rows.set(m[1], { args: m[2], trurl: m[3], locator: m[4], ok: m[5] === undefined, why: m[6] });
  }
  return rows;
}

/** A value as one line of the table: JSON string text without its quotes (\n for a line break). */
export const cell = (s: string) => JSON.stringify(s).slice(1, -1).replace(/\|/g, '\\u007c');

test("trurl's cases: each gives trurl's answer or is a listed difference with the section that explains it", async () => {
  const cases = selected();
  assert.ok(cases.length >= 60, `${cases.length} cases selected`);
  const table = differences();
  const index = (c: Case) => String(CASES.indexOf(c));
  let same = 0;
  const problems: string[] = [];
  for (const c of cases) {
    const id = index(c);
    const mine = answer(c);
    const theirs = expected(c);
    const row = table.get(id);
    if (mine.out === theirs.out && mine.ok === theirs.ok) {
      same++;
      if (row !== undefined) problems.push(`case ${id} gives trurl's answer but is listed as a difference`);
      continue;
    }
    const line = `| ${id} | \`${JSON.stringify(c.input.arguments).replace(/\|/g, '\\u007c')}\` | \`${cell(theirs.out)}\` | \`${cell(mine.out)}\`${mine.ok ? '' : ' (exit 1)'} | ? |`;
    if (row === undefined) {
      problems.push(`case ${id} is not listed:\n${line}`);
      continue;
    }
    if (row.locator !== cell(mine.out) || row.ok !== mine.ok || row.trurl !== cell(theirs.out))
      problems.push(`case ${id} is listed with another answer:\n${line}`);
    if (!/RFC|draft/.test(row.why)) problems.push(`case ${id}: the reason names no RFC section: ${row.why}`);
  }
  for (const id of table.keys())
    if (!cases.some((c) => index(c) === id)) problems.push(`row ${id} is no selected case`);
  if (process.env.TRURL_DUMP) (await import('node:fs')).writeFileSync(process.env.TRURL_DUMP, problems.join('\n'));
  assert.deepEqual(problems, []);
  assert.ok(same > 0, 'some case gives trurl answer');
});
