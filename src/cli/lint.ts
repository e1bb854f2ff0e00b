// `locator lint`: the dangers of RFC 1738 section 6 and every violation, per input; the contract's
// `{ "input", "ok", "diagnostics" }` with --json. Passwords are shown as **** unless
// --show-secrets, in the JSON `input` too (offsets still count the input as given).
import type { Readable, Writable } from 'node:stream';
import type { Diagnostic } from '../core/errors.js';
import { lintRecord } from '../operations/lint.js';
import {
  maskValue,
  passwordSpans,
  redactedOffset,
  replaceSpans,
  spanSecrets,
  type Span,
} from '../operations/redact.js';
import { failure, shownInput } from './io.js';
import { runHere, type Row } from './batch.js';
import { jsonDiagnostic, jsonDiagnostics, jsonString } from './json-text.js';
import { visible, columns } from './draw.js';
import { EXIT, type Command } from './command.js';
import { JSON_OUTPUT, TRIM, lineFlags } from './options.js';

export interface LintCommandOptions {
  json: boolean;
  trim: boolean;
  showSecrets: boolean;
}

/**
 * The human view: the (redacted) input, a line of marks under it ("^" error, "~" warning) at each
 * diagnostic's offset, then one line per diagnostic with its true offset into the input.
 */
function draw(text: string, spans: readonly Span[], list: readonly Diagnostic[]): string[] {
  const line = visible(text);
  const cols = columns(text);
  const width = cols[text.length];
  const marks = new Array(width + 1).fill(' ');
  for (const d of list) {
    const at = d.offset < 0 ? 0 : redactedOffset(spans, d.offset);
    const col = Math.min(cols[Math.min(at, text.length)], width);
    if (marks[col] !== '^') marks[col] = d.severity === 'error' ? '^' : '~';
  }
  const out = ['  ' + line, '  ' + marks.join('').trimEnd()];
  for (const d of list) out.push(`  ${d.severity} ${d.code} at ${d.offset} (${d.section}): ${d.message}`);
  return out;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/** `locator lint`: lint() per input (RFC 1738 6), human or NDJSON; exit 1 when any input has an error. */
export async function runLint(
  args: string[],
  opts: LintCommandOptions,
  stdin: Readable,
  stdout: Writable,
): Promise<number> {
  return runHere(args, { stdin, stdout, stderr: stdout }, true, (input) => lintRow(input, opts));
}

/** The rows of one input; status 1 when it has an error. The JSON row is written field by field. */
export function lintRow(input: string, opts: LintCommandOptions): Row {
  let rec: ReturnType<typeof lintRecord>;
  try {
    rec = lintRecord(input, { trim: opts.trim });
  } catch (e) {
    // A failure on one line is that line's row; the lines before and after still print.
    const d = failure(e);
    const shown = shownInput(input, opts.showSecrets);
    if (opts.json)
      return {
        lines: [`{"input":${jsonString(shown)},"ok":false,"diagnostics":[${jsonDiagnostic(d)}]}`],
        err: '',
        status: EXIT.invalid,
        safe: true,
      };
    return {
      lines: [`${JSON.stringify(shown)}: ${d.severity} ${d.code} (${d.section}): ${d.message}`],
      err: '',
      status: EXIT.invalid,
    };
  }
  const status = rec.ok ? EXIT.ok : EXIT.invalid;
  const spans = opts.showSecrets ? [] : passwordSpans(input);
  const text = replaceSpans(input, spans);
  if (spans.length > 0) {
    // No message quotes a password; this keeps it so should one ever quote a part of the URL.
    rec.diagnostics = maskValue(rec.diagnostics, spanSecrets(input, spans));
  }
  if (opts.json) {
    const line = `{"input":${jsonString(text)},"ok":${rec.ok === true},"diagnostics":${jsonDiagnostics(rec.diagnostics)}}`;
    return { lines: [line], err: '', status, safe: true };
  }
  const errors = rec.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = rec.diagnostics.length - errors;
  if (rec.diagnostics.length === 0) return { lines: [`${JSON.stringify(text)}: no findings`], err: '', status };
  return {
    lines: [
      `${JSON.stringify(text)}: ${count(errors, 'error')}, ${count(warnings, 'warning')}`,
      ...draw(text, spans, rec.diagnostics),
      '',
    ],
    err: '',
    status,
  };
}

export const lintCommand: Command = {
  name: 'lint',
  synopsis: ['lint [--json] [--trim] [URL...]'],
  about: [
    'Reports the dangers of RFC 1738 section 6 (encoded delimiters, ports of other protocols, passwords, unsafe characters) and every violation of the spec, each with its code, severity, offset and section (docs/security.md).',
  ],
  exits: [
    [0, 'no URL has an error (warnings do not count)'],
    [1, 'some URL has an error'],
  ],
  example: ["'ftp://user:secret@host.dom:25/'", 'a password in the URL, and a port registered to another protocol'],
  options: { json: JSON_OUTPUT, trim: TRIM },
  run: (args, values, io) => runLint(args, lineFlags(values), io.stdin, io.stdout),
};
