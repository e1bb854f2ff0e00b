// `locator resolve` and `locator relativize`: partial forms against a base URL
// (test/data/docs/contract.md). RFC 1808 by default; --rfc3986 for RFC 3986 section 5;
// --draft-1993 for the October 1993 draft's partial form rules.
import type { Readable, Writable } from 'node:stream';
import { resolve, type Rules } from '../operations/resolve.js';
import { relativize } from '../operations/relativize.js';
import { LocatorError, type Diagnostic } from '../core/errors.js';
import { failure } from './io.js';
import { runHere, type Row } from './batch.js';
import { jsonDiagnostic, jsonNullable, jsonString } from './json-text.js';
import { tryParse } from '../schemes/registry.js';
import { redactPartial, redactUrl } from '../operations/redact.js';
import { UsageError, type Command, type Options } from './command.js';
import { JSON_OUTPUT } from './options.js';

export interface ResolveCommandOptions {
  json: boolean;
  rules: Rules;
  /** Show passwords (RFC 1738 6: hidden as **** unless asked). */
  showSecrets?: boolean;
}

/**
 * How BASE, a partial form and a result are written out: with each one's password masked from
 * its own parsed offsets (a "//" partial form read with BASE's scheme, RFC 1808 2.4.3), unless
 * --show-secrets (RFC 1738 6).
 */
function shower(
  base: string,
  showSecrets: boolean | undefined,
): { url: (s: string) => string; partial: (s: string) => string } {
  if (showSecrets === true) return { url: (s) => s, partial: (s) => s };
  const b = tryParse(base);
  const scheme = b instanceof LocatorError ? null : b.scheme;
  return { url: redactUrl, partial: (s) => redactPartial(s, scheme) };
}

function rulesOf(values: Record<string, unknown>): Rules {
  if (values.rfc3986 === true && values['draft-1993'] === true)
    throw new UsageError('--rfc3986 and --draft-1993 exclude each other');
  return values.rfc3986 === true ? 3986 : values['draft-1993'] === true ? 'draft-1993-10' : 1808;
}

function run(fn: () => string): { value: string | null; error: Diagnostic | null } {
  try {
    return { value: fn(), error: null };
  } catch (e) {
    // A failure on one line (typed or not) is that line's row; the others still print.
    return { value: null, error: failure(e) };
  }
}

type Show = ReturnType<typeof shower>;

/**
 * One row per input against BASE (the first argument), in order: `name`'s result, or with --json
 * `{ base, <input>, ok, <output>, error }`; a failed row prints an empty line and a message on
 * standard error, so that output lines stay paired with input lines. Exit 1 when any failed.
 */
function runAgainstBase(
  name: 'resolve' | 'relativize',
  how: {
    input: 'partial' | 'target';
    output: 'href' | 'partial';
    apply: (base: string, input: string, rules: Rules) => string;
    showInput: (show: Show, s: string) => string;
    showOutput: (show: Show, s: string) => string;
    plain: (out: string | null) => string;
  },
  args: string[],
  opts: ResolveCommandOptions,
  stdin: Readable,
  stdout: Writable,
  stderr: Writable,
): Promise<number> {
  const [base, ...inputs] = args;
  if (base === undefined) throw new UsageError(`${name} needs a BASE URL`);
  const show = shower(base, opts.showSecrets);
  const jsonBase = jsonString(show.url(base));
  return runHere(inputs, { stdin, stdout, stderr }, false, (input): Row => {
    const r = run(() => how.apply(base, input, opts.rules));
    const status = r.error === null ? 0 : 1;
    const out = r.value === null ? null : how.showOutput(show, r.value);
    const shownInput = how.showInput(show, input);
    if (opts.json) {
      const line = `{"base":${jsonBase},"${how.input}":${jsonString(shownInput)},"ok":${r.error === null},"${how.output}":${jsonNullable(out)},"error":${r.error === null ? 'null' : jsonDiagnostic(r.error)}}`;
      return { lines: [line], err: '', status, safe: true };
    }
    const err =
      r.error === null
        ? ''
        : `locator ${name}: ${JSON.stringify(shownInput)}: ${r.error.message} (${r.error.code} at ${r.error.offset})\n`;
    return { lines: [how.plain(out)], err, status };
  });
}

/**
 * One result per partial, in order (RFC 1808 4): the absolute URL, or with --json
 * `{ base, partial, ok, href, error }`.
 */
export async function runResolve(
  args: string[],
  opts: ResolveCommandOptions,
  stdin: Readable,
  stdout: Writable,
  stderr: Writable,
): Promise<number> {
  const how = {
    input: 'partial',
    output: 'href',
    apply: (base: string, partial: string, rules: Rules) => resolve(base, partial, { rfc: rules }),
    showInput: (show: Show, s: string) => show.partial(s),
    showOutput: (show: Show, s: string) => show.url(s),
    plain: (out: string | null) => out ?? '',
  } as const;
  return runAgainstBase('resolve', how, args, opts, stdin, stdout, stderr);
}

/**
 * One shortest partial form per target (RFC 1808 5.2), or with --json
 * `{ base, target, ok, partial, error }`. The empty partial form is printed "<>", as RFC 1808 5.2
 * writes it (resolve reads it back).
 */
export async function runRelativize(
  args: string[],
  opts: ResolveCommandOptions,
  stdin: Readable,
  stdout: Writable,
  stderr: Writable,
): Promise<number> {
  const how = {
    input: 'target',
    output: 'partial',
    apply: (base: string, target: string, rules: Rules) => relativize(base, target, { rfc: rules }),
    showInput: (show: Show, s: string) => show.url(s),
    showOutput: (show: Show, s: string) => show.partial(s),
    plain: (out: string | null) => (out === '' ? '<>' : (out ?? '')),
  } as const;
  return runAgainstBase('relativize', how, args, opts, stdin, stdout, stderr);
}

const OPTIONS: Options = {
  json: JSON_OUTPUT,
  rfc3986: { type: 'boolean', description: 'Use the rules of RFC 3986 section 5 instead of RFC 1808.' },
  'draft-1993': {
    type: 'boolean',
    description: 'Use the partial form rules of the October 1993 draft instead of RFC 1808.',
  },
};

/** The options of resolve and relativize, from the command line. */
function optionsOf(values: Record<string, unknown>): ResolveCommandOptions {
  return { json: values.json === true, rules: rulesOf(values), showSecrets: values['show-secrets'] === true };
}

export const resolveCommand: Command = {
  name: 'resolve',
  synopsis: ['resolve [--json] [--rfc3986 | --draft-1993] BASE [PARTIAL...]'],
  about: [
    'Prints one absolute URL per PARTIAL, in order (the arguments after BASE, or one per line of standard input); a PARTIAL that cannot be resolved gets an empty line, and a message on standard error. --rfc3986 and --draft-1993 exclude each other (docs/resolve.md).',
  ],
  exits: [
    [0, 'every partial form was resolved'],
    [1, 'some could not be'],
  ],
  example: ["'http://a/b/c/d;p?q' ../g '?y'", 'prints http://a/b/g and http://a/b/c/d;p?y'],
  options: OPTIONS,
  run: (args, values, io) => runResolve(args, optionsOf(values), io.stdin, io.stdout, io.stderr),
};

export const relativizeCommand: Command = {
  name: 'relativize',
  synopsis: ['relativize [--json] [--rfc3986 | --draft-1993] BASE [TARGET...]'],
  about: [
    'Prints, for each TARGET, the shortest partial form that resolves against BASE back to it ("<>" for the empty one, as RFC 1808 5.2 writes it), under the rules resolve uses.',
  ],
  exits: [
    [0, 'every target got its partial form'],
    [1, 'some did not'],
  ],
  example: ['http://a/b/c/d http://a/b/g', 'prints ../g'],
  options: OPTIONS,
  run: (args, values, io) => runRelativize(args, optionsOf(values), io.stdin, io.stdout, io.stderr),
};
