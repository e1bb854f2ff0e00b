// The reports of `locator check` (docs/check.md): text lines, NDJSON records, the HTML page and JUnit XML (written as the results come).
import { createReadStream, createWriteStream, openSync, unlinkSync, type WriteStream } from 'node:fs';
import { access, mkdtemp, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants } from 'node:fs';
import type { CheckResult } from '../check/index.js';
import type { CheckStatus } from '../clients/index.js';
import { redactText, redactUrl } from '../operations/redact.js';
import { markup } from '../gateway/html.js';
import { safeText } from './safe-text.js';
import { UsageError } from './command.js';

export const STATUSES: readonly CheckStatus[] = ['ok', 'redirected', 'broken', 'refused', 'invalid', 'unreachable'];

/** Statuses that make the exit status 1. */
export function failing(status: CheckStatus): boolean {
  return status !== 'ok' && status !== 'redirected';
}

/** A result as shown: passwords hidden in every URL and in the reason (RFC 1738 6), unless asked. */
export function shown(r: CheckResult, showSecrets: boolean): CheckResult {
  if (showSecrets) return r;
  const url = (s: string) => {
    try {
      return redactUrl(s);
    } catch {
      return redactText(s);
    }
  };
  return {
    ...r,
    url: url(r.url),
    reason: redactText(r.reason),
    redirects: r.redirects.map(url),
    parent: r.parent === null ? null : url(r.parent),
    notes: r.notes.map((n) => redactText(n)),
    transcript: [],
  };
}

/**
 * Characters XML 1.0 does not allow (section 2.2, Char: U+FFFE, U+FFFF, a lone surrogate) and the
 * C0 controls it does allow (TAB, LF, CR: a parser turns them into spaces in an attribute value).
 */
const NOT_XML = /[\t\n\r\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A value of a report, shown on one line and in characters that XML 1.0 allows: control
 * characters (LF and CR included) and bidi formatting characters as safeText() shows them
 * (`\xHH`, `\uHHHH`), and U+FFFE, U+FFFF and lone surrogates as `\uHHHH`. A URL or a server's
 * reply can hold any of them (a multi-line reply, a URL given with a LF); the report shows them,
 * never acts on them: no row of the text report is split in two, no JUnit or HTML file is not XML.
 */
export function reportText(s: string): string {
  const t = safeText(s, false);
  NOT_XML.lastIndex = 0;
  if (!NOT_XML.test(t)) return t;
  return t.replace(NOT_XML, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A result with every text of it made one line of XML 1.0 characters (reportText()). */
export function reportResult(r: CheckResult): CheckResult {
  return {
    ...r,
    url: reportText(r.url),
    reason: reportText(r.reason),
    ...(r.code !== undefined ? { code: reportText(r.code) } : {}),
    ...(r.reply !== undefined ? { reply: reportText(r.reply) } : {}),
    redirects: r.redirects.map(reportText),
    where: r.where === null ? null : { ...r.where, file: reportText(r.where.file) },
    parent: r.parent === null ? null : reportText(r.parent),
    notes: r.notes.map(reportText),
  };
}

/** Where a result was found, as text: FILE:LINE:COLUMN, "in PARENT" for a link of a menu or listing, or "". */
export function whereText(r: CheckResult): string {
  if (r.where !== null) return `${r.where.file}:${r.where.line}:${r.where.column}`;
  if (r.parent !== null) return `in ${r.parent}`;
  return '';
}

/** One line of the text report: `[FILE:LINE:COLUMN: ]STATUS URL (REASON)[ -> redirect ...][ in PARENT]`. */
export function textLine(result: CheckResult): string {
  const r = reportResult(result);
  const head = r.where !== null ? `${r.where.file}:${r.where.line}:${r.where.column}: ` : '';
  let line = `${head}${r.status} ${r.url} (${r.reason})`;
  for (const to of r.redirects) line += ` -> ${to}`;
  if (r.parent !== null && r.where === null) line += ` in ${r.parent}`;
  for (const n of r.notes) line += `; ${n}`;
  return line;
}

/** The NDJSON record of a result (docs/check.md). */
export function jsonRecord(r: CheckResult): Record<string, unknown> {
  return {
    url: r.url,
    status: r.status,
    reason: r.reason,
    code: r.code ?? null,
    reply: r.reply ?? null,
    redirects: r.redirects,
    file: r.where?.file ?? null,
    line: r.where?.line ?? null,
    column: r.where?.column ?? null,
    parent: r.parent,
    depth: r.depth,
    attempts: r.attempts,
    duplicate: r.duplicate,
    notes: r.notes,
    ms: r.ms,
  };
}

function tally(results: readonly CheckResult[]): Record<CheckStatus, number> {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<CheckStatus, number>;
  for (const r of results) counts[r.status]++;
  return counts;
}

/** One row of the HTML report (every value escaped, shown as reportText() shows it). */
export function htmlRow(result: CheckResult): string {
  const r = reportResult(result);
  return markup`<tr class="${r.status}"><td>${r.status}</td><td><code>${r.url}</code>${r.redirects.map((to) => markup`<br>&rarr; <code>${to}</code>`)}</td><td>${r.reason}${r.notes.map((n) => markup`<br>${n}`)}</td><td>${whereText(r)}</td></tr>\n`
    .value;
}

/** The HTML report up to its rows: the summary of `counts`. */
export function htmlHead(counts: Record<CheckStatus, number>, title = 'locator check'): string {
  const total = STATUSES.reduce((n, s) => n + counts[s], 0);
  return markup`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<style>
body { font-family: sans-serif; margin: 1em 2em; }
table { border-collapse: collapse; }
td, th { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
tr.broken td:first-child, tr.invalid td:first-child, tr.unreachable td:first-child, tr.refused td:first-child { color: #a00; font-weight: bold; }
tr.ok td:first-child, tr.redirected td:first-child { color: #060; }
</style>
</head>
<body>
<h1>${title}</h1>
<p id="summary">${total} URLs: ${STATUSES.filter((s) => counts[s] > 0).map((s, i) => markup`${i > 0 ? ', ' : ''}<span class="${s}">${s} ${counts[s]}</span>`)}</p>
<table>
<thead><tr><th>status</th><th>URL</th><th>reason</th><th>found at</th></tr></thead>
<tbody>
`.value;
}

export const HTML_TAIL = '</tbody>\n</table>\n</body>\n</html>\n';

/** The HTML report page: a summary of counts and a table of every URL (every value escaped). */
export function htmlReport(results: readonly CheckResult[], title = 'locator check'): string {
  return htmlHead(tally(results), title) + results.map(htmlRow).join('') + HTML_TAIL;
}

/** One testcase of the JUnit report. */
export function junitCase(result: CheckResult): string {
  const r = reportResult(result);
  const name = `${r.url}`;
  const cls = r.where?.file ?? (r.parent !== null ? r.parent : 'arguments');
  const at = whereText(r);
  const inner = !failing(r.status)
    ? markup``
    : r.status === 'unreachable'
      ? markup`<error type="${r.status}" message="${r.reason}">${at}</error>`
      : markup`<failure type="${r.status}" message="${r.reason}">${at}</failure>`;
  return markup`  <testcase classname="${cls}" name="${name}" time="${(r.ms / 1000).toFixed(3)}">${inner}</testcase>\n`
    .value;
}

/** The JUnit report up to its testcases: the counts of `counts`, the time taken. */
export function junitHead(counts: Record<CheckStatus, number>, seconds: number): string {
  const total = STATUSES.reduce((n, s) => n + counts[s], 0);
  const failures = counts.broken + counts.invalid + counts.refused;
  return markup`<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
 <testsuite name="locator check" tests="${total}" failures="${failures}" errors="${counts.unreachable}" skipped="0" time="${seconds.toFixed(3)}">
`.value;
}

export const JUNIT_TAIL = ' </testsuite>\n</testsuites>\n';

/**
 * The JUnit XML report (the format of Ant's JUnit task that CI systems read): one testcase per
 * URL, a `failure` for broken, invalid and refused ones, an `error` for unreachable ones.
 */
export function junitReport(results: readonly CheckResult[], seconds: number): string {
  return junitHead(tally(results), seconds) + results.map(junitCase).join('') + JUNIT_TAIL;
}

/**
 * A report file whose head needs the counts of the end (--html, --junit): its rows are written to
 * a temporary file as the results come (memory does not grow with them), and the report is
 * written at the end as the head, those rows and the tail. The temporary file is read and written
 * through its descriptor only: its name (and its folder) are removed as soon as it is open, so
 * that nothing is left behind however the process ends (Ctrl-C, SIGTERM, SIGKILL).
 */
export class StreamedReport {
  readonly #path: string;
  readonly #fd: number;
  readonly #rows: WriteStream;

  private constructor(path: string, fd: number) {
    this.#path = path;
    this.#fd = fd;
    this.#rows = createWriteStream('', { fd, autoClose: false });
    this.#rows.on('error', () => {});
  }

  /**
   * A report to `path` (given as `option`): a path that cannot be written is a usage error now,
   * before any URL is checked (not after the whole run); then a temporary file for the rows.
   */
  static async open(path: string, option: string): Promise<StreamedReport> {
    try {
      if ((await stat(path).catch(() => null))?.isDirectory() === true)
        throw Object.assign(new Error('it is a folder'), { code: 'EISDIR' });
      await access(path, constants.W_OK);
    } catch (e) {
      const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      try {
        if (!missing) throw e;
        await access(dirname(resolvePath(path)), constants.W_OK);
      } catch (e2) {
        throw new UsageError(`${option} ${path}: the report cannot be written there: ${(e2 as Error).message}`);
      }
    }
    const dir = await mkdtemp(join(tmpdir(), 'locator-check-report-'));
    try {
      const fd = openSync(join(dir, 'rows'), 'w+', 0o600);
      unlinkSync(join(dir, 'rows'));
      return new StreamedReport(path, fd);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async write(text: string): Promise<void> {
    if (!this.#rows.write(text)) await once(this.#rows, 'drain');
  }

  async finish(head: string, tail: string): Promise<void> {
    await new Promise<void>((resolve, reject) => this.#rows.end((e?: Error | null) => (e ? reject(e) : resolve())));
    const fd = this.#fd;
    await pipeline(async function* () {
      yield head;
      yield* createReadStream('', { fd, start: 0, autoClose: false });
      yield tail;
    }, createWriteStream(this.#path));
  }

  /** Closes the rows' file (destroying the stream closes its descriptor, autoClose or not). */
  async discard(): Promise<void> {
    this.#rows.destroy();
  }
}
