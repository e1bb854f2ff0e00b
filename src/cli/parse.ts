// `locator parse`: the contract's NDJSON record per input, or the drawn human view.
import { tryParse } from '../schemes/registry.js';
import { LocatorError, type Diagnostic } from '../core/errors.js';
import { failure, shownInput } from './io.js';
import { runRows, jobsOption, schemeModules, type Row, type RowIo } from './batch.js';
import { drawRecord, drawDiagnostics } from './draw.js';
import { jsonDiagnostic } from './json-text.js';
import { RowBytes, asciiBytes } from './row-bytes.js';
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
  const bytes = opts.json ? (input: string, out: RowBytes) => parseJsonRow(input, opts, out) : undefined;
  return runRows(args, io, true, batch.jobs, setup, (input) => parseRow(input, opts), bytes);
}

/**
 * The rows of one input (batch mode runs this in each worker): a failure on one line is that
 * line's row, so that the lines before and after still print. With `json`, the row of
 * parseJsonRow() as text (the batch loops write that one's bytes).
 */
export function parseRow(input: string, opts: ParseCommandOptions): Row {
  const show = opts.showSecrets === true;
  if (opts.json) {
    const out = new RowBytes(1 << 10);
    const status = parseJsonRow(input, opts, out);
    // Without its LF: a row's lines are written each with one.
    return { lines: [out.buf.toString('utf8', 0, out.at - 1)], err: '', status, safe: true };
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

/**
 * The JSON row of one input and its LF, as UTF-8 into `out`; its status (1 when not valid). A
 * failure of this input alone (a bug, a limit of the platform) is its row, written over whatever
 * of the row was written before it.
 */
export function parseJsonRow(input: string, opts: ParseCommandOptions, out: RowBytes): number {
  const start = out.at;
  const show = opts.showSecrets === true;
  try {
    return parseJson(input, opts.trim, show, out);
  } catch (e) {
    out.at = start;
    failedJson(shownInput(input, show), failure(e), out);
    return 1;
  }
}

/** The JSON row of an input that no parse can read: parseRecord()'s shape, written out. */
function failedJson(shown: string, error: unknown, out: RowBytes): void {
  out.ascii('{"input":');
  out.json(shown);
  out.ascii(',"ok":false,"valid":false,"error":');
  writeDiagnostic(error, out);
  out.ascii(
    ',"href":null,"scheme":null,"user":null,"password":null,"host":null,"port":null,"portDigits":null,"explicitPort":false,"path":null,"fragment":null,"fields":{},"violations":[]}\n',
  );
}

/** jsonDiagnostic(d) of json-text.ts, into `out`. */
function writeDiagnostic(d: unknown, out: RowBytes): void {
  const o = d as { code: unknown; severity: unknown; offset: unknown; message: unknown; section: unknown };
  if (isDiagnostic(o)) {
    out.ascii('{"code":');
    out.json(o.code as string);
    out.ascii(',"severity":');
    out.json(o.severity as string);
    out.ascii(',"offset":');
    out.ascii(String(o.offset));
    out.ascii(',"message":');
    out.json(o.message as string);
    out.ascii(',"section":');
    out.jsonNullable(o.section as string | null);
    out.ascii('}');
  } else out.text(jsonDiagnostic(d));
}

/** A diagnostic of the usual shape (see jsonDiagnostic()): its keys in order, plain values. */
function isDiagnostic(o: { code: unknown; severity: unknown; offset: unknown; message: unknown; section: unknown }) {
  if (
    typeof o.code !== 'string' ||
    typeof o.severity !== 'string' ||
    typeof o.offset !== 'number' ||
    !Number.isFinite(o.offset) ||
    typeof o.message !== 'string' ||
    (o.section !== null && typeof o.section !== 'string')
  )
    return false;
  const p = Object.getPrototypeOf(o) as unknown;
  if (p !== Object.prototype && p !== null) return false;
  const keys = Object.keys(o);
  return (
    keys.length === 5 &&
    keys[0] === 'code' &&
    keys[1] === 'severity' &&
    keys[2] === 'offset' &&
    keys[3] === 'message' &&
    keys[4] === 'section'
  );
}

/**
 * The JSON row of one input: the bytes of JSON.stringify(parseRecord(input, trim, showSecrets))
 * as main.ts's escaping stream writes them (safeJson), written field by field from the one parse
 * (RFC 1738 6: the password masked from that parse's offsets), and an LF.
 */
function parseJson(input: string, trim: boolean, showSecrets: boolean, out: RowBytes): number {
  const r = tryParse(input, { trim });
  if (r instanceof LocatorError) {
    const spans = showSecrets ? [] : passwordSpans(input);
    const error = maskValue(r.toDiagnostic(), spanSecrets(input, spans));
    failedJson(replaceSpans(input, spans), error, out);
    return 1;
  }
  const valid = r.valid;
  let href = r.href;
  let password = r.password;
  let fields = r.fields;
  let violations: readonly unknown[] = r.violations;
  let shown = input;
  if (!showSecrets) {
    const spans = urlPasswordSpans(r);
    // With --trim, redactUrl() reads the input as given, which may differ from the trimmed parse.
    if (trim) shown = redactUrl(input);
    else if (spans.length > 0) shown = redactParsed(input, r);
    if (spans.length > 0) {
      const secrets = secretsOf(r);
      href = replaceSpans(href, spans);
      if (password !== null && password !== '') password = MASK;
      fields = maskValue(fields, secrets);
      violations = maskValue(violations, secrets);
    }
  }
  // The values that are parts of the href are copied from its bytes: the host and the path from
  // the record's offsets into it (core/url.ts: each getter is that slice), others as
  // RowBytes.jsonIn() finds them; the href itself, nearly always the input, from the input's.
  out.bytes(K.input);
  const at = out.json(shown);
  out.bytes(valid ? K.validHref : K.notValidHref);
  let from = at;
  if (href === shown && at >= 0) out.jsonCopy(at, 0, href.length);
  else from = out.json(href);
  // A password masked in the href moves the offsets after it: the parts are read from the record.
  const offsets = from >= 0 && href === r.href;
  out.bytes(K.scheme);
  out.json(r.scheme);
  const user = r.user;
  if (user === null && password === null) out.bytes(K.noLogin);
  else {
    out.bytes(K.user);
    out.jsonNullableIn(user, href, from);
    out.bytes(K.password);
    out.jsonNullableIn(password, href, from);
    out.bytes(K.host);
  }
  const hostStart = r.hostStart;
  if (hostStart < 0) out.bytes(K.null);
  else if (offsets) out.jsonCopy(from, hostStart, r.hostEnd - hostStart);
  else out.jsonNullable(r.host);
  const port = r.port;
  const digits = r.portDigits;
  if (port === null && digits === null) out.bytes(r.explicitPort ? K.noPortExplicit : K.noPort);
  else {
    out.bytes(K.port);
    if (port === null) out.bytes(K.null);
    else out.value(port);
    out.bytes(K.portDigits);
    out.jsonNullable(digits);
    out.bytes(r.explicitPort ? K.explicitPath : K.notExplicitPath);
  }
  const pathStart = r.pathStart;
  if (pathStart < 0) out.bytes(K.null);
  else if (offsets) out.jsonCopy(from, pathStart, r.bodyEnd - pathStart);
  else out.jsonNullable(r.path);
  const fragment = r.fragment;
  if (fragment === null) out.bytes(K.noFragment);
  else {
    out.bytes(K.fragment);
    out.jsonIn(fragment, href, from);
    out.bytes(K.fields);
  }
  out.value(fields, href, from);
  if (violations.length === 0) out.bytes(K.noViolations);
  else {
    out.bytes(K.violations);
    for (let i = 0; i < violations.length; i++) {
      if (i > 0) out.byte(44);
      writeDiagnostic(violations[i], out);
    }
    out.bytes(K.end);
  }
  return valid ? 0 : 1;
}

/** The constant parts of a row of parseJson(), as bytes (RowBytes.bytes()). */
const K = {
  input: /* @__PURE__ */ asciiBytes('{"input":'),
  validHref: /* @__PURE__ */ asciiBytes(',"ok":true,"valid":true,"error":null,"href":'),
  notValidHref: /* @__PURE__ */ asciiBytes(',"ok":true,"valid":false,"error":null,"href":'),
  scheme: /* @__PURE__ */ asciiBytes(',"scheme":'),
  noLogin: /* @__PURE__ */ asciiBytes(',"user":null,"password":null,"host":'),
  user: /* @__PURE__ */ asciiBytes(',"user":'),
  password: /* @__PURE__ */ asciiBytes(',"password":'),
  host: /* @__PURE__ */ asciiBytes(',"host":'),
  noPort: /* @__PURE__ */ asciiBytes(',"port":null,"portDigits":null,"explicitPort":false,"path":'),
  noPortExplicit: /* @__PURE__ */ asciiBytes(',"port":null,"portDigits":null,"explicitPort":true,"path":'),
  port: /* @__PURE__ */ asciiBytes(',"port":'),
  null: /* @__PURE__ */ asciiBytes('null'),
  portDigits: /* @__PURE__ */ asciiBytes(',"portDigits":'),
  explicitPath: /* @__PURE__ */ asciiBytes(',"explicitPort":true,"path":'),
  notExplicitPath: /* @__PURE__ */ asciiBytes(',"explicitPort":false,"path":'),
  noFragment: /* @__PURE__ */ asciiBytes(',"fragment":null,"fields":'),
  fragment: /* @__PURE__ */ asciiBytes(',"fragment":'),
  fields: /* @__PURE__ */ asciiBytes(',"fields":'),
  noViolations: /* @__PURE__ */ asciiBytes(',"violations":[]}\n'),
  violations: /* @__PURE__ */ asciiBytes(',"violations":['),
  end: /* @__PURE__ */ asciiBytes(']}\n'),
};

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
