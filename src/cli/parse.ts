// `locator parse`: the contract's NDJSON record per input, or the drawn human view.
import { tryParse } from '../schemes/registry.js';
import { LocatorError, type Diagnostic } from '../core/errors.js';
import { failure, shownInput } from './io.js';
import { runRows, jobsOption, schemeModules, type Row, type RowIo } from './batch.js';
import { drawRecord, drawDiagnostics } from './draw.js';
import { jsonDiagnostic, jsonDiagnostics, jsonNullable, jsonString, jsonValue } from './json-text.js';
import type { Command } from './command.js';
import { JOBS, JSON_OUTPUT, TRIM, lineFlags } from './options.js';
import {
  MASK,
  maskValue,
  passwordSpans,
  redactParsed,
  redactUrl,
  replaceSpans,
  secretsOf,
  spanSecrets,
  urlPasswordSpans,
} from '../operations/redact.js';

export interface ParseCommandOptions {
  json: boolean;
  trim: boolean;
  /** Show passwords (RFC 1738 6: hidden unless asked). */
  showSecrets?: boolean;
}

/** The contract JSON of one input (test/data/docs/contract.md, `locator parse`). */
export function parseRecord(input: string, trim = false, showSecrets = true): Record<string, unknown> {
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
    // The href from the parsed offsets; the password field; the fields (an opaque or unknown
    // scheme keeps the login in its scheme part or message id) and the messages by the secrets:
    // a field that holds the password's text is masked even where that text is not the password.
    const secrets = secretsOf(r);
    j.href = replaceSpans(r.href, spans);
    if (j.password !== null && j.password !== '') j.password = MASK;
    j.fields = maskValue(j.fields, secrets);
    j.violations = maskValue(j.violations, secrets);
  }
  return { input: shown, ok: true, valid: j.valid, error: null, ...j };
}

/** Writes the rows of each input to `io.stdout` (its failures there too); exit 1 when one is not valid. */
export async function runParse(
  args: string[],
  opts: ParseCommandOptions,
  io: RowIo,
  batch: { jobs: number; modules: string[] } = { jobs: 1, modules: [] },
): Promise<number> {
  const setup = { kind: 'parse' as const, opts: { ...opts }, modules: batch.modules };
  return runRows(args, io, true, batch.jobs, setup, (input) => parseRow(input, opts));
}

/**
 * The rows of one input (batch mode runs this in each worker): a failure on one line is that
 * line's row, so that the lines before and after still print.
 */
export function parseRow(input: string, opts: ParseCommandOptions): Row {
  const show = opts.showSecrets === true;
  if (opts.json) {
    try {
      return parseJson(input, opts.trim, show);
    } catch (e) {
      return { lines: [failedJson(shownInput(input, show), failure(e))], err: '', status: 1, safe: true };
    }
  }
  let lines: string[] & { status?: number };
  try {
    lines = parseLines(input, opts);
  } catch (e) {
    const error = failure(e);
    lines = [
      `${JSON.stringify(shownInput(input, show))}: not a URL`,
      `  ${error.severity} ${error.code} (${error.section}): ${error.message}`,
      '',
    ];
    lines.status = 1;
  }
  return { lines, err: '', status: lines.status === 0 ? 0 : 1 };
}

/** The JSON row of an input that no parse can read: parseRecord()'s shape, written out. */
function failedJson(shown: string, error: unknown): string {
  return `{"input":${jsonString(shown)},"ok":false,"valid":false,"error":${jsonDiagnostic(error)},"href":null,"scheme":null,"user":null,"password":null,"host":null,"port":null,"portDigits":null,"explicitPort":false,"path":null,"fragment":null,"fields":{},"violations":[]}`;
}

/**
 * The JSON row of one input: the bytes of JSON.stringify(parseRecord(input, trim, showSecrets))
 * as main.ts's escaping stream writes them (safeJson), written field by field from the one parse
 * (RFC 1738 6: the password masked from that parse's offsets).
 */
function parseJson(input: string, trim: boolean, showSecrets: boolean): Row {
  const r = tryParse(input, { trim });
  if (r instanceof LocatorError) {
    const spans = showSecrets ? [] : passwordSpans(input);
    const error = maskValue(r.toDiagnostic(), spanSecrets(input, spans));
    return { lines: [failedJson(replaceSpans(input, spans), error)], err: '', status: 1, safe: true };
  }
  const valid = r.valid;
  let href = r.href;
  let password = r.password;
  let fields = r.fields;
  let violations: readonly unknown[] = r.violations;
  let shown = input;
  if (!showSecrets) {
    // With --trim, redactUrl() reads the input as given, which may differ from the trimmed parse.
    shown = trim ? redactUrl(input) : redactParsed(input, r);
    const spans = urlPasswordSpans(r);
    if (spans.length > 0) {
      const secrets = secretsOf(r);
      href = replaceSpans(href, spans);
      if (password !== null && password !== '') password = MASK;
      fields = maskValue(fields, secrets);
      violations = maskValue(violations, secrets);
    }
  }
  const port = r.port;
  const line = `{"input":${jsonString(shown)},"ok":true,"valid":${valid},"error":null,"href":${jsonString(href)},"scheme":${jsonString(r.scheme)},"user":${jsonNullable(r.user)},"password":${jsonNullable(password)},"host":${jsonNullable(r.host)},"port":${port === null ? 'null' : jsonValue(port)},"portDigits":${jsonNullable(r.portDigits)},"explicitPort":${r.explicitPort},"path":${jsonNullable(r.path)},"fragment":${jsonNullable(r.fragment)},"fields":${jsonValue(fields)},"violations":${jsonDiagnostics(violations)}}`;
  return { lines: [line], err: '', status: valid ? 0 : 1, safe: true };
}

/** The drawn view of one input; `status` 1 when not valid. */
function parseLines(input: string, opts: ParseCommandOptions): string[] & { status?: number } {
  const rec = parseRecord(input, opts.trim, opts.showSecrets === true);
  const lines: string[] & { status?: number } = [];
  lines.status = rec.valid === true ? 0 : 1;
  const r = tryParse(input, { trim: opts.trim });
  const mask = opts.showSecrets ? [] : passwordSpans(input);
  const shownInput = replaceSpans(input, mask);
  if (r instanceof LocatorError) {
    lines.push(
      `${JSON.stringify(shownInput)}: not a URL`,
      ...drawDiagnostics(shownInput, [rec.error as Diagnostic], mask),
      '',
    );
    return lines;
  }
  lines.push(
    `${JSON.stringify(shownInput)}: ${r.valid ? 'valid' : 'not valid'} ${r.scheme} URL`,
    ...drawRecord(r, shownInput, !opts.showSecrets),
  );
  const fields = rec.fields as Record<string, unknown>;
  const password = r.password === null || r.password === '' || opts.showSecrets ? r.password : MASK;
  for (const [k, v] of [
    ['user', r.user],
    ['password', password],
    ['port', r.port ?? r.portDigits],
    ...Object.entries(fields),
  ] as Array<[string, unknown]>) {
    if (v !== null && v !== undefined) lines.push(`  ${k}: ${JSON.stringify(v)}`);
  }
  lines.push(...drawDiagnostics(shownInput, rec.violations as Diagnostic[], mask), '');
  return lines;
}

export const parseCommand: Command = {
  name: 'parse',
  synopsis: ['parse [--json] [--trim] [--jobs N] [URL...]'],
  about: [
    'Shows each URL with every part drawn under it (offsets in UTF-16 code units of the input as given) and every violation of RFC 1738 and its drafts, with its code and section. With --json, the fields of docs/cli.md.',
  ],
  exits: [
    [0, 'every URL is valid'],
    [1, 'some URL is not valid, or not readable at all (batch mode still prints a result for every line)'],
  ],
  example: ["'ftp://myname@host.dom/%2Fetc/motd;type=a'", 'the parts of an FTP URL'],
  options: { json: JSON_OUTPUT, trim: TRIM, jobs: JOBS },
  run: (args, values, io) =>
    runParse(args, lineFlags(values), io, {
      jobs: jobsOption(values.jobs),
      modules: schemeModules(values, io.env),
    }),
};
