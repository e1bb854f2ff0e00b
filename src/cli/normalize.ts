// `locator normalize` and `locator equal` (test/data/docs/contract.md): the normal form of each
// URL, and whether two URLs denote the same object under their scheme's rules.
import type { Readable, Writable } from 'node:stream';
import { normalize, toDisplay, equivalent } from '../operations/normalize.js';
import { tryParse } from '../schemes/registry.js';
import { LocatorError } from '../core/errors.js';
import type { Url } from '../core/url.js';
import { failure } from './io.js';
import { jsonDiagnostic, jsonNullable, jsonString } from './json-text.js';
import { runRows, jobsOption, schemeModules, type Row, type RowIo } from './batch.js';
import { redactParsed, redactUrl } from '../operations/redact.js';
import { EXIT, UsageError, type Command } from './command.js';
import { JOBS, JSON_OUTPUT } from './options.js';

export interface NormalizeCommandOptions {
  json: boolean;
  display: boolean;
  /** Show passwords (RFC 1738 6: hidden as **** unless asked). */
  showSecrets?: boolean;
}

/**
 * `{ input, ok, href, error }` for one input, plus `valid` (the normal form is a valid URL) and
 * `display`. Unless `showSecrets`, the password of `input` and of the normal form is "****", each
 * masked from its own parsed offsets (RFC 1738 6).
 */
export function normalizeRecord(input: string, showSecrets = true): Record<string, unknown> {
  const u = tryParse(input);
  if (u instanceof LocatorError) {
    return {
      input: showSecrets ? input : redactUrl(input),
      ok: false,
      href: null,
      error: u.toDiagnostic(),
      valid: false,
      display: null,
    };
  }
  const shown = showSecrets ? input : redactParsed(input, u);
  const href = normalize(u);
  const n = tryParse(href);
  const out = showSecrets ? href : maskedNormalForm(href, n);
  return {
    input: shown,
    ok: true,
    href: out,
    error: null,
    valid: !(n instanceof LocatorError) && n.valid,
    display: toDisplay(out),
  };
}

/** Prints the normal form of each URL (or its display form with --display); exit 1 if one could not be read. */
export async function runNormalize(
  args: string[],
  opts: NormalizeCommandOptions,
  io: RowIo,
  batch: { jobs: number; modules: string[] } = { jobs: 1, modules: [] },
): Promise<number> {
  const setup = { kind: 'normalize' as const, opts: { ...opts }, modules: batch.modules };
  return runRows(args, io, false, batch.jobs, setup, (input) => normalizeRow(input, opts));
}

/**
 * The normal form of `input` as normalizeRecord() writes it (`href`), when the input can be
 * parsed and normalized; null else (the caller then makes the whole record, error and all).
 * Parses the normal form again only to mask its password (RFC 1738 6), and only when it has an
 * "@": without one it has no login (RFC 1738 3.1: "//<user>:<password>@<host>") and nothing to
 * mask. Most lines have none: this is the cost of `locator normalize` without --json.
 */
function plainNormalForm(input: string, showSecrets: boolean): string | null {
  let u: Url | LocatorError;
  let href: string;
  try {
    u = tryParse(input);
    if (u instanceof LocatorError) return null;
    href = normalize(u);
  } catch {
    return null;
  }
  if (showSecrets || href.indexOf('@') < 0) return href;
  return maskedNormalForm(href, tryParse(href));
}

/** A normal form `href` with its password masked, from `n` = tryParse(href) (RFC 1738 6). */
function maskedNormalForm(href: string, n: Url | LocatorError): string {
  return redactUrl(n instanceof LocatorError ? href : n);
}

/** The row of one input, and its message for standard error (batch mode runs this in each worker). */
export function normalizeRow(input: string, opts: NormalizeCommandOptions): Row {
  if (!opts.json && !opts.display) {
    const href = plainNormalForm(input, opts.showSecrets === true);
    if (href !== null) return { lines: [href], err: '', status: 0 };
  }
  let rec: Record<string, unknown>;
  try {
    rec = normalizeRecord(input, opts.showSecrets === true);
  } catch (e) {
    // A failure on one line is that line's row; the lines before and after still print.
    rec = {
      input: opts.showSecrets === true ? input : redactUrl(input),
      ok: false,
      href: null,
      error: failure(e),
      valid: false,
      display: null,
    };
  }
  const status = rec.ok ? 0 : 1;
  if (opts.json) {
    // The bytes of JSON.stringify(rec) as main.ts's escaping stream writes them, field by field.
    const line = `{"input":${jsonString(rec.input as string)},"ok":${rec.ok === true},"href":${jsonNullable(rec.href as string | null)},"error":${rec.error === null ? 'null' : jsonDiagnostic(rec.error)},"valid":${rec.valid === true},"display":${jsonNullable(rec.display as string | null)}}`;
    return { lines: [line], err: '', status, safe: true };
  }
  const lines = [((opts.display ? rec.display : rec.href) as string | null) ?? ''];
  if (rec.ok) return { lines, err: '', status };
  const e = rec.error as { code: string; offset: number; message: string };
  return {
    lines,
    err: `locator normalize: ${JSON.stringify(rec.input)}: ${e.message} (${e.code} at ${e.offset})\n`,
    status,
  };
}

/** Exit 0 when A and B are equivalent, 1 when not (or when one cannot be read), 2 for usage. */
export async function runEqual(
  args: string[],
  opts: { json: boolean; ignoreFragment: boolean; showSecrets?: boolean },
  stdout: Writable,
  stderr: Writable,
): Promise<number> {
  if (args.length !== 2) throw new UsageError(`equal takes exactly two URLs, got ${args.length}`);
  const [a, b] = args;
  // Each URL written out (A, B and their normal forms) has its password masked from its own
  // parsed offsets, unless --show-secrets (RFC 1738 6).
  const show = (x: string) => (opts.showSecrets === true ? x : redactUrl(x));
  let eq: boolean | null = null;
  let error: ReturnType<LocatorError['toDiagnostic']> | null = null;
  let which: string | null = null;
  try {
    which = 'a';
    const na = normalize(a);
    which = 'b';
    const nb = normalize(b);
    which = null;
    eq = equivalent(na, nb, { ignoreFragment: opts.ignoreFragment });
  } catch (e) {
    if (!(e instanceof LocatorError)) throw e;
    error = e.toDiagnostic();
  }
  if (opts.json) {
    const normal = [a, b].map((x) => {
      const u = tryParse(x);
      return u instanceof LocatorError ? null : show(normalize(u));
    });
    stdout.write(
      JSON.stringify({
        a: show(a),
        b: show(b),
        ok: error === null,
        equivalent: eq === true,
        normal,
        error,
        errorIn: which,
      }) + '\n',
    );
  } else if (error !== null) {
    stderr.write(
      `locator equal: ${JSON.stringify(show(which === 'a' ? a : b))}: ${error.message} (${error.code} at ${error.offset})\n`,
    );
  } else {
    stdout.write(eq ? 'equivalent\n' : `not equivalent:\n  ${show(normalize(a))}\n  ${show(normalize(b))}\n`);
  }
  return eq === true ? EXIT.ok : EXIT.invalid;
}

export const normalizeCommand: Command = {
  name: 'normalize',
  synopsis: ['normalize [--json] [--display] [--jobs N] [URL...]'],
  about: [
    'The normal form: scheme and host in lower case, the default port dropped, escapes in normal form (docs/resolve.md), then the rules of the scheme.',
  ],
  exits: [
    [0, 'every URL was normalized'],
    [1, 'some input is not a URL'],
  ],
  example: ["'HTTP://Example.COM:80/%7euser'", 'prints http://example.com/%7Euser'],
  options: {
    json: JSON_OUTPUT,
    display: {
      type: 'boolean',
      description: 'Show escapes of printable characters decoded (reversible, draft 1994-03).',
    },
    jobs: JOBS,
  },
  run: (args, values, io) =>
    runNormalize(
      args,
      {
        json: values.json === true,
        display: values.display === true,
        showSecrets: values['show-secrets'] === true,
      },
      io,
      { jobs: jobsOption(values.jobs), modules: schemeModules(values, io.env) },
    ),
};

export const equalCommand: Command = {
  name: 'equal',
  synopsis: ['equal [--json] [--ignore-fragment] A B'],
  about: [
    "A and B denote the same object when their normal forms (those of locator normalize) are equal, under their scheme's rules.",
  ],
  exits: [
    [0, 'A and B denote the same object'],
    [1, 'they do not, or one of them is not a URL'],
  ],
  example: ["'http://h.com:80/%7Ea' 'HTTP://H.COM/~a'", 'exit 0: the same object'],
  options: {
    json: { ...JSON_OUTPUT, description: 'One JSON object: a, b, ok, equivalent, normal, error, errorIn.' },
    'ignore-fragment': { type: 'boolean', description: 'Compare without the fragment ids.' },
  },
  run: (args, values, io) =>
    runEqual(
      args,
      {
        json: values.json === true,
        ignoreFragment: values['ignore-fragment'] === true,
        showSecrets: values['show-secrets'] === true,
      },
      io.stdout,
      io.stderr,
    ),
};
