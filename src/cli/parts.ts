// `locator get`, `locator set` and `locator build`: a URL's parts by name, printed, changed and
// put together (docs/cli.md, "get, set and build"). Every name comes from the URL's scheme entry
// (src/operations/parts.ts): a registered scheme's fields are read and set here as a built-in
// scheme's are, with nothing here that knows a scheme.
import { LocatorError, type Diagnostic } from '../core/errors.js';
import type { Url } from '../core/url.js';
import { tryParse } from '../schemes/registry.js';
import { build } from '../operations/build.js';
import {
  INVALID_PART,
  UNKNOWN_PART,
  assertValidResult,
  partNames,
  partsOf,
  rawPartOf,
  withPart,
} from '../operations/parts.js';
import { MASK, redactUrl } from '../operations/redact.js';
import { failure, shownInput } from './io.js';
import { runHere, type Row } from './batch.js';
import { EXIT, UsageError, type Command, type Io, type OptionSpec } from './command.js';
import { JSON_OUTPUT } from './options.js';
import { safeText } from './safe-text.js';
import { parseTemplate, select, type Piece, type Placeholder, type Selector } from './template.js';

/** The names every URL answers in `get`, whatever its scheme: absent parts are empty. */
const GENERIC = ['url', 'scheme', 'user', 'password', 'host', 'port', 'path', 'fragment'];

const SEPARATOR: OptionSpec = {
  type: 'string',
  value: 'SEP',
  default: '/',
  description:
    'The text between the items of a list (segments, keywords, cwd ...): get joins them with it, set and build split a list value at it.',
};

interface GetOptions {
  json: boolean;
  strict: boolean;
  separator: string;
  showSecrets: boolean;
  /** null: every part (--json without --format). */
  pieces: Piece[] | null;
}

/** A row's failure: its message, and whether it is a usage error (exit 2) or the URL's (exit 1). */
class RowError extends Error {
  constructor(
    readonly diagnostic: Diagnostic,
    readonly usage: boolean,
  ) {
    super(diagnostic.message);
  }
}

function rowError(e: unknown): RowError {
  if (e instanceof RowError) return e;
  const usage = e instanceof LocatorError && e.kind === 'usage';
  return new RowError(failure(e), usage);
}

/** The URL of an input line, valid (RFC 1738 5 and its scheme's section), or a RowError. */
function validUrl(input: string): Url {
  const u = tryParse(input);
  if (u instanceof LocatorError) throw new RowError(u.toDiagnostic(), false);
  if (!u.valid) {
    const v = u.violations.find((d) => d.severity === 'error')!;
    throw new RowError(v, false);
  }
  return u;
}

function unknownPart(u: Url, name: string): RowError {
  return new RowError(
    new LocatorError(
      UNKNOWN_PART,
      -1,
      `${u.scheme} URLs have no part "${name}"; their parts: ${partNames(u).join(', ')}`,
    ).toDiagnostic(),
    true,
  );
}

/** The value of one placeholder in `u`, as JSON would hold it (null: the URL has no such part). */
function placeholderValue(u: Url, p: Placeholder, parts: Record<string, unknown>, showSecrets: boolean): unknown {
  const known = GENERIC.includes(p.name) || Object.prototype.hasOwnProperty.call(parts, p.name);
  if (!known) throw unknownPart(u, p.name);
  if (p.name === 'url') return showSecrets ? u.href : redactUrl(u);
  let v: unknown;
  if (p.modifier !== null) {
    v = rawPartOf(u, p.name);
    if (v === undefined)
      throw new RowError(
        new LocatorError(
          INVALID_PART,
          -1,
          `${p.name} has no raw form here: the ${u.scheme} entry gives it decoded only (a list, or text its build writes otherwise)`,
        ).toDiagnostic(),
        true,
      );
  } else {
    v = select(parts[p.name], p.selectors);
    if (p.name === 'port' && v === null && u.portDigits !== null) v = u.portDigits;
  }
  if (p.name === 'password' && !showSecrets && typeof v === 'string') v = MASK;
  return v ?? null;
}

/** A value as text: lists joined with the separator, objects as JSON, controls escaped (\xHH). */
function asText(v: unknown, separator: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return safeText(v, false);
  if (Array.isArray(v))
    return v
      .map((x) => (typeof x === 'object' && x !== null ? asText(x, separator) : asText(x, separator)))
      .join(separator);
  if (typeof v === 'object') return safeText(JSON.stringify(v), false);
  return String(v);
}

/** The row of one input of `get`. */
function getRow(input: string, o: GetOptions, flagUsage: () => void): Row {
  const shown = shownInput(input, o.showSecrets);
  try {
    const u = validUrl(input);
    const parts = partsOf(u);
    if (o.pieces === null) {
      if (!o.showSecrets && typeof parts.password === 'string') parts.password = MASK;
      return { lines: [JSON.stringify({ input: shown, ok: true, parts, error: null })], err: '', status: 0 };
    }
    const values = new Map<string, unknown>();
    for (const p of o.pieces) {
      if (typeof p === 'string') continue;
      const v = placeholderValue(u, p, parts, o.showSecrets);
      if (o.strict && (v === null || (Array.isArray(v) && v.length === 0)))
        throw new RowError(
          new LocatorError(INVALID_PART, -1, `the URL has no ${p.text} (--strict)`).toDiagnostic(),
          false,
        );
      values.set(p.text, v);
    }
    if (o.json)
      return {
        lines: [JSON.stringify({ input: shown, ok: true, parts: Object.fromEntries(values), error: null })],
        err: '',
        status: 0,
      };
    let line = '';
    for (const p of o.pieces) line += typeof p === 'string' ? p : asText(values.get(p.text), o.separator);
    return { lines: [line], err: '', status: 0 };
  } catch (e) {
    const r = rowError(e);
    if (r.usage) flagUsage();
    if (o.json)
      return {
        lines: [JSON.stringify({ input: shown, ok: false, parts: null, error: r.diagnostic })],
        err: '',
        status: 1,
      };
    return { lines: [], err: errLine('get', shown, r.diagnostic), status: 1 };
  }
}

function errLine(command: string, shown: string, d: Diagnostic): string {
  return `locator ${command}: ${JSON.stringify(shown)}: ${d.message} (${d.code}${d.offset >= 0 ? ` at ${d.offset}` : ''})\n`;
}

/** Runs the row function over the inputs; 2 when a row had a usage error, 1 when one failed, else 0. */
async function runParts(args: string[], io: Io, row: (input: string, flagUsage: () => void) => Row): Promise<number> {
  let usage = false;
  const status = await runHere(args, io, false, (input) => row(input, () => (usage = true)));
  return usage ? EXIT.usage : status;
}

// ---------------------------------------------------------------------------------------------
// Assignments: NAME *selector [":raw" / ":json"] "=" VALUE

interface Assignment {
  text: string;
  name: string;
  selectors: Selector[];
  /** raw: the text as written (generic parts); json: the value is JSON. */
  how: 'raw' | 'json' | null;
  value: string;
}

const ASSIGNMENT = /^([A-Za-z][A-Za-z0-9_-]*)((?:\[-?[0-9]+\]|\.[A-Za-z0-9_-]+)*)(?::(raw|json))?=/s;
const SELECTOR = /\[(-?[0-9]+)\]|\.([A-Za-z0-9_-]+)/g;

/** The assignment an argument writes, or null when it is none (then it is a URL). */
export function assignment(arg: string): Assignment | null {
  const m = ASSIGNMENT.exec(arg);
  if (m === null) return null;
  const selectors: Selector[] = [];
  for (const s of m[2].matchAll(SELECTOR)) selectors.push(s[1] !== undefined ? Number(s[1]) : s[2]);
  const how = (m[3] ?? null) as Assignment['how'];
  if (how === 'raw' && selectors.length > 0)
    throw new UsageError(`${arg}: ":raw" sets a whole generic part, not an item of it`);
  return { text: arg, name: m[1], selectors, how, value: arg.slice(m[0].length) };
}

function jsonValue(a: Assignment): unknown {
  try {
    return JSON.parse(a.value) as unknown;
  } catch {
    throw new UsageError(`${a.name}:json=: ${JSON.stringify(a.value)} is not JSON`);
  }
}

/**
 * The values a text may stand for, in the order they are tried, after the type of the value it
 * replaces (`was`): a number for a number, a list for a list (split at the separator), true or
 * false for a boolean; for a part that is absent (null) or new, text first, then a number, a
 * boolean, a list and JSON. An empty value clears the part (null).
 */
function candidates(text: string, was: unknown, separator: string): unknown[] {
  if (text === '') return [null];
  const asList = () => text.split(separator);
  const asNumber = () => (/^-?[0-9]+$/.test(text) ? [Number(text)] : []);
  const asBool = () => (text === 'true' ? [true] : text === 'false' ? [false] : []);
  if (typeof was === 'number') return asNumber().length > 0 ? asNumber() : [text];
  if (typeof was === 'boolean') return asBool().length > 0 ? asBool() : [text];
  if (Array.isArray(was)) return [asList()];
  if (typeof was === 'string') return [text];
  const out: unknown[] = [text, ...asNumber(), ...asBool()];
  if (text.includes(separator)) out.push(asList());
  else out.push([text]);
  try {
    out.push(JSON.parse(text));
  } catch {
    // not JSON
  }
  return out;
}

/** The whole new value of the part an assignment with selectors changes (a copy of `whole` with the item set). */
function withItem(whole: unknown, selectors: readonly Selector[], item: unknown, a: Assignment): unknown {
  const [s, ...rest] = selectors;
  if (typeof s === 'number') {
    if (!Array.isArray(whole))
      throw new LocatorError(INVALID_PART, -1, `${a.name} is not a list: [${s}] names no item of it`);
    const list = [...(whole as unknown[])];
    const i = s < 0 ? list.length + s : s;
    if (i < 0 || i > list.length)
      throw new LocatorError(
        INVALID_PART,
        -1,
        `${a.name} has ${list.length} items: [${s}] is none of them, nor the next`,
      );
    const inner = rest.length === 0 ? item : withItem(list[i], rest, item, a);
    if (inner === null && rest.length === 0) list.splice(i, 1);
    else list[i] = inner;
    return list;
  }
  if (whole !== null && whole !== undefined && (typeof whole !== 'object' || Array.isArray(whole)))
    throw new LocatorError(INVALID_PART, -1, `${a.name} is not an object: .${s} names no member of it`);
  const obj: Record<string, unknown> = { ...((whole as Record<string, unknown> | null) ?? {}) };
  const inner = rest.length === 0 ? item : withItem(obj[s], rest, item, a);
  if (inner === null) delete obj[s];
  else obj[s] = inner;
  return obj;
}

/** `u` with one assignment made (RFC 1738 3.1 and the scheme's section): the new href. */
function assign(u: Url, a: Assignment, separator: string): string {
  const names = partNames(u);
  if (!names.includes(a.name))
    throw new LocatorError(
      UNKNOWN_PART,
      -1,
      `${u.scheme} URLs have no part "${a.name}"; their parts: ${names.join(', ')}`,
    );
  const parts = partsOf(u);
  const was = parts[a.name];
  const isField = Object.prototype.hasOwnProperty.call(u.fields, a.name);
  if (a.how === 'raw') return withPart(u, a.name, a.value === '' ? null : a.value, { raw: true });
  const inner = a.selectors.length === 0 ? was : select(was, a.selectors);
  const tries =
    a.how === 'json'
      ? [jsonValue(a)]
      : isField
        ? candidates(a.value, inner, separator)
        : [a.value === '' ? null : a.value];
  let first: unknown = null;
  for (const t of tries) {
    const value = a.selectors.length === 0 ? t : withItem(was, a.selectors, t, a);
    try {
      return withPart(u, a.name, value);
    } catch (e) {
      if (!(e instanceof LocatorError) || e.kind === 'usage') throw e;
      first ??= e;
    }
  }
  throw first;
}

interface SetOptions {
  json: boolean;
  separator: string;
  showSecrets: boolean;
  assignments: Assignment[];
}

/** The row of one input URL of `set`. */
function setRow(input: string, o: SetOptions, flagUsage: () => void): Row {
  const shown = shownInput(input, o.showSecrets);
  try {
    const start = tryParse(input);
    if (start instanceof LocatorError) throw new RowError(start.toDiagnostic(), false);
    let u: Url = start;
    let blame: string | null = null;
    for (const a of o.assignments) {
      const wasValid = u.valid;
      const next = tryParse(assign(u, a, o.separator));
      if (next instanceof LocatorError) throw next;
      u = next;
      if (wasValid && !u.valid) blame = a.name;
      else if (u.valid) blame = null;
    }
    assertValidResult(u, blame);
    const href = o.showSecrets ? u.href : redactUrl(u);
    if (o.json) return { lines: [JSON.stringify({ input: shown, ok: true, href, error: null })], err: '', status: 0 };
    return { lines: [href], err: '', status: 0 };
  } catch (e) {
    const r = rowError(e);
    if (r.usage) flagUsage();
    if (o.json)
      return {
        lines: [JSON.stringify({ input: shown, ok: false, href: null, error: r.diagnostic })],
        err: '',
        status: 1,
      };
    return { lines: [], err: errLine('set', shown, r.diagnostic), status: 1 };
  }
}

// ---------------------------------------------------------------------------------------------
// build

/** The login parts build() takes beside the fields (RFC 1738 3.1), and the fragment. */
const LOGIN = ['user', 'password', 'host', 'port', 'fragment'];

/**
 * build(scheme, fields) from assignments (the library's build(), RFC 1738 4): each text tried as
 * the types candidates() gives, the first combination that builds wins (one field away from
 * text, then two); names no part of the built URL answers are a usage error listing its parts.
 */
export function buildFrom(scheme: string, list: readonly Assignment[], separator: string): string {
  const fields: Record<string, unknown> = {};
  const options: Array<[string, unknown[]]> = [];
  const after: Assignment[] = [];
  for (const a of list) {
    if (a.how === 'raw' || a.name === 'path' || a.name === 'scheme') {
      after.push(a);
      continue;
    }
    if (a.selectors.length > 0) {
      const item = a.how === 'json' ? jsonValue(a) : a.value === '' ? null : a.value;
      fields[a.name] = withItem(fields[a.name] ?? (typeof a.selectors[0] === 'number' ? [] : {}), a.selectors, item, a);
      continue;
    }
    const c =
      a.how === 'json'
        ? [jsonValue(a)]
        : a.name === 'port'
          ? candidates(a.value, 0, separator)
          : LOGIN.includes(a.name)
            ? [a.value === '' ? null : a.value]
            : candidates(a.value, undefined, separator);
    fields[a.name] = c[0];
    if (c.length > 1) options.push([a.name, c.slice(1)]);
  }
  let href: string | null = null;
  let first: unknown = null;
  const attempt = (f: Record<string, unknown>): boolean => {
    try {
      href = build(scheme, f);
      return true;
    } catch (e) {
      if (!(e instanceof LocatorError)) {
        if (e instanceof TypeError) throw new UsageError(e.message);
        throw e;
      }
      first ??= e;
      return false;
    }
  };
  if (!attempt(fields)) {
    search: for (let i = 0; i < options.length; i++) {
      for (const x of options[i][1]) {
        if (attempt({ ...fields, [options[i][0]]: x })) break search;
        for (let j = i + 1; j < options.length; j++)
          for (const y of options[j][1])
            if (attempt({ ...fields, [options[i][0]]: x, [options[j][0]]: y })) break search;
      }
    }
  }
  if (href === null) throw first;
  let u = tryParse(href) as Url;
  for (const a of after) u = tryParse(assign(u, a, separator)) as Url;
  const names = partNames(u);
  for (const a of list) {
    if (!names.includes(a.name))
      throw new LocatorError(
        UNKNOWN_PART,
        -1,
        `${u.scheme} URLs have no part "${a.name}"; their parts: ${names.join(', ')}`,
      );
  }
  assertValidResult(u, null);
  return u.href;
}

// ---------------------------------------------------------------------------------------------
// The commands

function separatorOf(values: Record<string, unknown>): string {
  const s = values.separator;
  if (s === undefined) return '/';
  if (s === '') throw new UsageError('--separator cannot be empty');
  return s as string;
}

export const getCommand: Command = {
  name: 'get',
  synopsis: ['get --format TEMPLATE [--strict] [--separator SEP] [URL...]', 'get --json [--format TEMPLATE] [URL...]'],
  about: [
    'Prints parts of each URL by name, through a template: {scheme}, {user}, {password} (**** unless --show-secrets), {host}, {port} (the default when none is written), {port:written}, {path} (the url-path after its "/"), {fragment}, {url}, and every field of the scheme by its name ({selector}, {gophertype}, {ftptype}, {segments}, {segments[2]}, {segments[-1]}, {group}, {article} ...).',
    'Parts are decoded (RFC 1738 2.2; octets that are not UTF-8 show as U+FFFD, control characters as \\xHH); {NAME:raw} is the part as written. A list is joined with --separator. "{{" and "}}" are literal braces. A part the URL lacks is empty (--strict: an error). A name the scheme has no part of is a usage error naming its parts.',
    'With --json, one object per URL: {"input", "ok", "parts", "error"}, parts holding each placeholder of --format by its text, or, without --format, every part of the URL (what build takes back).',
  ],
  exits: [
    [0, 'every URL gave its parts'],
    [1, 'some input is not a valid URL, or lacks a part under --strict'],
    [2, "usage error: a malformed template, or a name that is no part of a URL's scheme"],
  ],
  example: ["--format '{host} {port} {selector}' 'gopher://h.example/0a%20b'", 'prints h.example 70 a b'],
  options: {
    format: {
      type: 'string',
      value: 'TEMPLATE',
      short: 'f',
      description: 'What to print for each URL: text with {NAME} placeholders (grammar in docs/cli.md).',
    },
    json: { ...JSON_OUTPUT, description: 'One JSON object per URL: input, ok, parts, error (docs/cli.md).' },
    strict: { type: 'boolean', description: 'A part the URL lacks is an error (exit 1) instead of empty text.' },
    separator: SEPARATOR,
  },
  run: (args, values, io) => {
    const format = values.format as string | undefined;
    if (format === undefined && values.json !== true) throw new UsageError('get needs --format TEMPLATE (or --json)');
    const o: GetOptions = {
      json: values.json === true,
      strict: values.strict === true,
      separator: separatorOf(values),
      showSecrets: values['show-secrets'] === true,
      pieces: format === undefined ? null : parseTemplate(format),
    };
    return runParts(args, io, (input, flag) => getRow(input, o, flag));
  },
};

export const setCommand: Command = {
  name: 'set',
  synopsis: ['set [--json] [--separator SEP] URL NAME=VALUE...', 'set [--json] [--separator SEP] NAME=VALUE... < URLS'],
  about: [
    "Changes parts of a URL by name and keeps every other character as written: the generic parts (scheme, user, password, host, port, path, fragment) and the fields of its scheme (selector, search, ftptype, segments[1], group ...), each value given decoded and encoded by the scheme's rules (RFC 1738 2.2 and the scheme's section). NAME= clears an optional part. NAME:raw=TEXT puts a generic part in as written; NAME:json=VALUE gives a field a JSON value; a list is split at --separator.",
    'An argument of the form NAME[...]=VALUE is an assignment; the first argument that is not one is the URL. With no URL argument, the URLs are read from standard input, one per line, and each is changed (batch mode). The result must be a valid URL of its scheme: else an error naming the part (exit 1).',
  ],
  exits: [
    [0, 'every URL was changed'],
    [1, 'some input is not a URL, or a value cannot stand in its part, or the result is not valid'],
    [2, "usage error: no assignment, or a name that is no part of the URL's scheme"],
  ],
  example: ["'ftp://h.example/pub/a.txt' ftptype=a name='b c.txt'", 'prints ftp://h.example/pub/b%20c.txt;type=a'],
  options: {
    json: { ...JSON_OUTPUT, description: 'One JSON object per URL: input, ok, href, error.' },
    separator: SEPARATOR,
  },
  run: (args, values, io) => {
    const urls: string[] = [];
    const assignments: Assignment[] = [];
    for (const arg of args) {
      const a = urls.length === 0 ? assignment(arg) : null;
      if (a !== null) assignments.push(a);
      else if (urls.length === 0) urls.push(arg);
      else {
        const b = assignment(arg);
        if (b === null)
          throw new UsageError(`set takes one URL (then its assignments); ${JSON.stringify(arg)} is a second`);
        assignments.push(b);
      }
    }
    if (assignments.length === 0) throw new UsageError('set needs at least one NAME=VALUE');
    const o: SetOptions = {
      json: values.json === true,
      separator: separatorOf(values),
      showSecrets: values['show-secrets'] === true,
      assignments,
    };
    return runParts(urls, io, (input, flag) => setRow(input, o, flag));
  },
};

export const buildCommand: Command = {
  name: 'build',
  synopsis: ['build [--json] [--separator SEP] SCHEME NAME=VALUE...'],
  about: [
    "Puts a URL together from its parts, by the names get prints them under: the library's build() (the scheme's own rules encode each value), then the url-path and any NAME:raw= put in as written. A value is read as text, or as the number, list (split at --separator) or JSON its field takes; NAME:json=VALUE gives it exactly.",
  ],
  exits: [
    [0, 'the URL was built'],
    [1, 'the parts do not make a valid URL of the scheme'],
    [2, "usage error: no scheme, or a name that is no part of the scheme's URLs"],
  ],
  example: ["gopher host=h.example gophertype=0 selector='a b'", 'prints gopher://h.example/0a%20b'],
  options: {
    json: { ...JSON_OUTPUT, description: 'One JSON object: scheme, ok, href, error.' },
    separator: SEPARATOR,
  },
  run: async (args, values, io) => {
    const [scheme, ...rest] = args;
    if (scheme === undefined || assignment(scheme) !== null) throw new UsageError('build needs a SCHEME first');
    const list = rest.map((arg) => {
      const a = assignment(arg);
      if (a === null) throw new UsageError(`${JSON.stringify(arg)} is not NAME=VALUE`);
      return a;
    });
    const show = values['show-secrets'] === true;
    let href: string | null = null;
    let error: Diagnostic | null = null;
    let status: number = EXIT.ok;
    try {
      href = buildFrom(scheme, list, separatorOf(values));
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const r = rowError(e);
      error = r.diagnostic;
      status = r.usage ? EXIT.usage : EXIT.invalid;
    }
    const shown = href === null || show ? href : redactUrl(href);
    if (values.json === true) io.stdout.write(JSON.stringify({ scheme, ok: href !== null, href: shown, error }) + '\n');
    else if (shown !== null) io.stdout.write(shown + '\n');
    if (error !== null && values.json !== true)
      io.stderr.write(
        `locator build: ${error.message} (${error.code}${error.offset >= 0 ? ` at ${error.offset}` : ''})\n`,
      );
    return status;
  },
};
