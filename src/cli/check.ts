// `locator check`: the link checker (docs/check.md) over check() of src/check/. URLs as arguments,
// files and standard input read with extract() (RFC 1738 appendix), Markdown and HTML files also
// by their markup (src/check/markup/); one line per URL found (--format github, markdown),
// NDJSON with --json, an HTML page with --html FILE, JUnit XML with --junit FILE; a progress
// line on a terminal. Exit 0 when every URL is ok or redirected, 1 when any is not, 2 usage.
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { access, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants } from 'node:fs';
import { check, type CheckInput, type CheckOptions, type CheckResult } from '../check/index.js';
import { formatOf, type MarkupFormat } from '../check/markup/format.js';
import { ignoreLines, skipper } from '../check/rules.js';
import { githubAnnotation } from '../check/report-github.js';
import { MarkdownSummary } from '../check/report-markdown.js';
import { acceptRules, accepted, type Accept } from '../check/accept.js';
import { VerdictCache, duration } from '../check/cache.js';
import { withConfig } from '../check/config.js';
import type { CheckStatus } from '../clients/index.js';
import { Url } from '../core/url.js';
import { tryParse } from '../schemes/registry.js';
import { redactText, redactUrl } from '../operations/redact.js';
import { markup } from '../gateway/html.js';
import { Output } from './io.js';
import { CountProgress } from './progress.js';
import { safeText } from './safe-text.js';
import { netrcHostsArg } from './netrc-hosts.js';
import { EXIT, UsageError, type Command, type Io } from './command.js';
import { ALLOW_PORT, JSON_OUTPUT, NETRC_HOST, NNTP_SERVER, REFUSE_PRIVATE, TIMEOUT } from './options.js';

const STATUSES: readonly CheckStatus[] = ['ok', 'redirected', 'broken', 'refused', 'invalid', 'unreachable'];

/** Statuses that make the exit status 1. */
export function failing(status: CheckStatus): boolean {
  return status !== 'ok' && status !== 'redirected';
}

function whole(name: string, v: unknown, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`--${name} takes a whole number of at least ${min}, not ${JSON.stringify(v)}`);
  }
  return n;
}

function timeoutArg(v: unknown): number {
  if (v === undefined) return DEFAULT_TIMEOUT;
  if (v === 'none') return Infinity;
  const n = whole('timeout', v, 1);
  return n as number;
}

/** --deadline MS|none: undefined when not given (check()'s default: 4 times --timeout). */
function deadlineArg(v: unknown): number | undefined {
  if (v === 'none') return Infinity;
  return whole('deadline', v, 1);
}

/** The default --timeout of check, in milliseconds (open()'s is 30000: a checker waits less). */
export const DEFAULT_TIMEOUT = 10000;

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

const HTML_TAIL = '</tbody>\n</table>\n</body>\n</html>\n';

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

const JUNIT_TAIL = ' </testsuite>\n</testsuites>\n';

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
 * written at the end as the head, those rows and the tail.
 */
class StreamedReport {
  readonly #path: string;
  readonly #dir: string;
  readonly #rows: WriteStream;

  private constructor(path: string, dir: string) {
    this.#path = path;
    this.#dir = dir;
    this.#rows = createWriteStream(join(dir, 'rows'));
    this.#rows.on('error', () => {});
  }

  /**
   * A report to `path` (given as `option`): a path that cannot be written is a usage error now,
   * before any URL is checked (not after the whole run); then a temporary folder for the rows.
   */
  static async open(path: string, option: string): Promise<StreamedReport> {
    try {
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
    return new StreamedReport(path, await mkdtemp(join(tmpdir(), 'locator-check-report-')));
  }

  async write(text: string): Promise<void> {
    if (!this.#rows.write(text)) await once(this.#rows, 'drain');
  }

  async finish(head: string, tail: string): Promise<void> {
    await new Promise<void>((resolve, reject) => this.#rows.end((e?: Error | null) => (e ? reject(e) : resolve())));
    const rows = join(this.#dir, 'rows');
    await pipeline(async function* () {
      yield head;
      yield* createReadStream(rows);
      yield tail;
    }, createWriteStream(this.#path));
  }

  async discard(): Promise<void> {
    this.#rows.destroy();
    await rm(this.#dir, { recursive: true, force: true });
  }
}

/** How a document is read: by its name (auto), as plain text, Markdown or HTML. */
export type FormatIn = 'auto' | 'text' | MarkupFormat;

/** What the markup readers are given by the command line. */
export interface MarkupCommandOptions {
  formatIn: FormatIn;
  base?: string;
  plain: boolean;
}

/** The text of a file: URL (its fragment's document), or null when it cannot be read. */
async function readFileUrl(url: string): Promise<string | null> {
  try {
    return await readFile(fileURLToPath(url), 'utf8');
  } catch {
    return null;
  }
}

async function wholeText(source: AsyncIterable<string | Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of source) parts.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c));
  return Buffer.concat(parts).toString('utf8');
}

/** A document read as Markdown or HTML (./check/markup/): the file is read when its links are first asked for. */
function markupInput(
  file: string,
  format: MarkupFormat,
  text: () => Promise<string>,
  location: string | null,
  m: MarkupCommandOptions,
): CheckInput {
  return {
    file,
    links: (async function* () {
      // The parsers are loaded only when a Markdown or HTML document is read.
      const { markupLinks } = await import('../check/markup/index.js');
      yield* markupLinks(await text(), {
        format,
        location,
        ...(m.base !== undefined ? { base: m.base } : {}),
        plain: m.plain,
        read: readFileUrl,
      });
    })(),
  };
}

export interface CheckCommandOptions {
  /** The report on standard output (default text; --json is json). */
  format?: 'text' | 'json' | 'github' | 'markdown';
  /** Only the links that are not ok or redirected on standard output. */
  errorsOnly?: boolean;
  markup?: MarkupCommandOptions;
  /** --accept: reply codes that count as ok, per scheme. */
  accept?: Accept;
  json: boolean;
  html: string | null;
  junit: string | null;
  showSecrets: boolean;
  check: CheckOptions;
}

/** The inputs of the command line: URLs (arguments that parse as URLs), files, "-" for standard input; none: standard input. */
async function commandInputs(args: string[], io: Io, m?: MarkupCommandOptions): Promise<CheckInput[]> {
  const list = args.length === 0 ? ['-'] : args;
  const out: CheckInput[] = [];
  const formatIn = m?.formatIn ?? 'auto';
  for (const a of list) {
    if (a === '-') {
      const stdin = io.stdin as AsyncIterable<string | Uint8Array>;
      if (m !== undefined && (formatIn === 'markdown' || formatIn === 'html')) {
        out.push(markupInput('-', formatIn, () => wholeText(stdin), null, m));
      } else out.push({ file: '-', text: stdin });
      continue;
    }
    if (tryParse(a) instanceof Url) {
      out.push(a);
      continue;
    }
    try {
      await access(a, constants.R_OK);
    } catch (e) {
      throw new UsageError(`${a} is neither a URL nor a file that can be read: ${(e as Error).message}`);
    }
    const format = formatIn === 'auto' ? formatOf(a) : formatIn === 'text' ? null : formatIn;
    if (m !== undefined && format !== null) {
      out.push(markupInput(a, format, () => readFile(a, 'utf8'), pathToFileURL(resolvePath(a)).href, m));
    } else out.push({ file: a, text: createReadStream(a) });
  }
  return out;
}

/** `locator check`: check() over the inputs, reported as text or NDJSON, and --html/--junit files. */
export async function runCheck(args: string[], opts: CheckCommandOptions, io: Io): Promise<number> {
  const inputs = await commandInputs(args, io, opts.markup);
  const format = opts.format ?? (opts.json ? 'json' : 'text');
  const summary = format === 'markdown' ? new MarkdownSummary(opts.errorsOnly === true) : null;
  const out = new Output(io.stdout);
  const progress = io.stderrIsTTY ? new CountProgress(io.stderr) : null;
  const started = Date.now();
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<CheckStatus, number>;
  let status: number = EXIT.ok;
  let html: StreamedReport | null = null;
  let junit: StreamedReport | null = null;
  try {
    // Opened within the try: if the second cannot be opened, the first one's folder is removed.
    if (opts.html !== null) html = await StreamedReport.open(opts.html, '--html');
    if (opts.junit !== null) junit = await StreamedReport.open(opts.junit, '--junit');
    for await (const found of check(inputs, opts.check)) {
      const raw = opts.accept === undefined ? found : accepted(found, opts.accept);
      const r = shown(raw, opts.showSecrets);
      await html?.write(htmlRow(r));
      await junit?.write(junitCase(r));
      counts[r.status]++;
      if (failing(r.status)) status = EXIT.invalid;
      summary?.add(reportResult(r));
      if (format === 'markdown' || (opts.errorsOnly === true && !failing(r.status))) {
        progress?.update(counts);
        continue;
      }
      if (format === 'github') {
        const a = githubAnnotation(reportResult(r));
        if (a !== null) await out.line(a);
      } else await out.line(format === 'json' ? JSON.stringify(jsonRecord(r)) : textLine(r));
      await out.flush();
      progress?.update(counts);
    }
    if (summary !== null) await out.line(summary.text().replace(/\n$/, ''));
    await out.flush();
    const seconds = (Date.now() - started) / 1000;
    await html?.finish(htmlHead(counts), HTML_TAIL);
    await junit?.finish(junitHead(counts, seconds), JUNIT_TAIL);
  } finally {
    progress?.finish();
    await html?.discard();
    await junit?.discard();
  }
  if (format !== 'json') {
    const line = STATUSES.filter((s) => counts[s] > 0).map((s) => `${s} ${counts[s]}`);
    io.stderr.write(safeText(`locator check: ${line.length === 0 ? 'no URL found' : line.join(', ')}\n`));
  }
  return status;
}

export const checkCommand: Command = {
  name: 'check',
  rawStderr: true,
  synopsis: ['check [options] [FILE|URL...]'],
  about: [
    'Checks links of every scheme: arguments that parse as URLs are checked as URLs, others are files ("-" or none: standard input) whose URLs are found as locator extract finds them; Markdown and HTML files (by extension, or --format-in) also by their markup, relative links resolved and fragments checked (docs/check.md). Each URL is probed by the least traffic its scheme allows (locator explain --probe shows it; docs/check.md).',
    'Prints FILE:LINE:COLUMN: STATUS URL (REASON) per URL, STATUS one of ok, redirected, broken, refused, invalid, unreachable; then a count of each on standard error.',
  ],
  exits: [
    [0, 'every URL is ok or redirected'],
    [1, 'some URL is broken, refused, invalid or unreachable'],
    [
      2,
      'usage error: an unknown or malformed option, a bad option value, a report FILE that cannot be written (before any check)',
    ],
  ],
  example: ['--html report.html notes.txt', 'the links of notes.txt, also as an HTML page'],
  options: {
    json: {
      ...JSON_OUTPUT,
      description: 'One JSON object per URL, one per line (NDJSON); the fields are listed in docs/cli.md.',
    },
    unordered: { type: 'boolean', description: 'Report each URL as soon as it is known, not in input order.' },
    timeout: {
      ...TIMEOUT,
      default: String(DEFAULT_TIMEOUT),
      description: 'The silence allowed on any wait of a probe: a positive whole number, or "none" for no limit.',
    },
    deadline: {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '4 times --timeout (none with --timeout none)',
      description:
        'The time a probe, or the reading of a menu or listing, may take in all, however slowly the server trickles (--timeout bounds each silence only); past it, the URL is unreachable. A positive whole number, or "none".',
    },
    retries: {
      type: 'string',
      value: 'N',
      default: '1',
      description: 'Tries again after a temporary failure (a 4xx reply, a timeout), waiting 1 s, doubled each time.',
    },
    'allow-port': ALLOW_PORT,
    'refuse-private': REFUSE_PRIVATE,
    'nntp-server': NNTP_SERVER,
    'netrc-host': {
      ...NETRC_HOST,
      description:
        'Let the probes use the ~/.netrc entries (the default entry included) for HOST. Repeatable. Without it check reads no netrc entry at all: the URLs come from documents, and their servers get no password of yours.',
    },
    concurrency: { type: 'string', value: 'N', default: '8', group: 'Pace', description: 'Probes at once in total.' },
    'per-host': {
      type: 'string',
      value: 'N',
      default: '2',
      group: 'Pace',
      description: 'Probes at once to one server (host and port).',
    },
    delay: {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '0',
      group: 'Pace',
      description: 'The time between the starts of two probes to one server.',
    },
    recursive: {
      type: 'boolean',
      group: 'Recursion',
      description:
        'Also check the links of Gopher menus and FTP directories, following those on the same server. A menu or listing is read only until --max-urls is reached (then its connection is closed), and at most 1 MiB and 10000 links of each.',
    },
    'max-depth': {
      type: 'string',
      value: 'N',
      default: '3',
      group: 'Recursion',
      description: 'With --recursive: the levels of menus and listings followed.',
    },
    'max-urls': {
      type: 'string',
      value: 'N',
      default: '1000',
      group: 'Recursion',
      description: 'With --recursive: the URLs checked in all.',
    },
    format: {
      type: 'string',
      value: 'FORMAT',
      default: 'text',
      group: 'Reports',
      description:
        "The report on standard output: text (a line per URL), json (as --json), github (a GitHub Actions annotation, ::error file=F,line=L,col=C,title=T::MESSAGE, per URL not ok; ::notice for redirected), markdown (a table of counts per file and a table of each file's links, for a CI job summary).",
    },
    'errors-only': {
      type: 'boolean',
      group: 'Reports',
      description:
        'Report on standard output only the URLs that are not ok or redirected (the counts on standard error stay whole; --html and --junit keep every URL).',
    },
    html: { type: 'string', value: 'FILE', group: 'Reports', description: 'Also write an HTML report page to FILE.' },
    junit: {
      type: 'string',
      value: 'FILE',
      group: 'Reports',
      description: 'Also write a JUnit XML report to FILE, for CI systems.',
    },
    'format-in': {
      type: 'string',
      value: 'FORMAT',
      default: 'auto',
      group: 'Documents',
      description:
        'How files are read: auto (Markdown for .md, .markdown, .mdown, .mkd, .mkdn; HTML for .html, .htm, .xhtml; plain text otherwise), text, markdown or html. Standard input is plain text unless markdown or html is given.',
    },
    base: {
      type: 'string',
      value: 'URL',
      default: "the document's own file: URL",
      group: 'Documents',
      description:
        "The base URL of the relative links of Markdown and HTML documents (RFC 1808 4); an HTML document's <base href> wins. A relative link of a file is a file on disk by default.",
    },
    'links-only': {
      type: 'boolean',
      group: 'Documents',
      description:
        'In Markdown and HTML, check only the link destinations of the markup, not the plain-text URLs of its text (found by the RFC 1738 appendix rules).',
    },
    exclude: {
      type: 'string',
      value: 'REGEX',
      multiple: true,
      group: 'Rules',
      description:
        'Neither check nor report the URLs that match REGEX (an ECMAScript regular expression, unanchored). Repeatable.',
    },
    include: {
      type: 'string',
      value: 'REGEX',
      multiple: true,
      group: 'Rules',
      description:
        'Check the URLs that match REGEX even when an --exclude or ignore-file pattern matches them; given with no --exclude and no ignore-file pattern, only those. Repeatable.',
    },
    'exclude-loopback': {
      type: 'boolean',
      group: 'Rules',
      description:
        'Neither check nor report URLs whose host is localhost or a loopback address (127.0.0.0/8, ::1), as written: no name is looked up.',
    },
    'exclude-private': {
      type: 'boolean',
      group: 'Rules',
      description:
        'Neither check nor report URLs whose host is a private or link-local address (10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10), as written.',
    },
    accept: {
      type: 'string',
      value: 'SCHEME:CODES',
      multiple: true,
      group: 'Rules',
      description:
        'Reply codes of SCHEME that count as ok, besides those its probe calls ok: codes and LOW..HIGH ranges separated by commas (http:403,500..599; ftp:550). Repeatable.',
    },
    cache: {
      type: 'string',
      value: 'FILE',
      group: 'Cache',
      description:
        'Keep the ok and redirected verdicts in FILE with their time, and take a fresh one instead of probing again (broken, refused and unreachable ones are always probed). FILE is written whole at the end (a temporary file renamed); one that is not such a cache is reported on standard error and ignored.',
    },
    'max-cache-age': {
      type: 'string',
      value: 'DURATION',
      default: '1d',
      group: 'Cache',
      description:
        'With --cache: how old a verdict may be to be taken: N followed by s, m, h or d (a bare N is seconds).',
    },
    config: {
      type: 'string',
      value: 'FILE',
      default: 'locator-check.json (when it exists)',
      group: 'Rules',
      description:
        'Options from FILE, a JSON object of option names and values ({"exclude": ["^https?://localhost"], "timeout": 5000}); an option given on the command line wins. A FILE that cannot be read or holds an unknown option: exit 2.',
    },
    'ignore-file': {
      type: 'string',
      value: 'FILE',
      default: '.locatorignore (when it exists)',
      group: 'Rules',
      description:
        'More --exclude patterns, one a line; blank lines and lines starting with # are skipped. A FILE given that cannot be read: exit 2.',
    },
    'dns-server': {
      type: 'string',
      value: 'HOST[:PORT]',
      multiple: true,
      default: "the system's",
      group: 'mailto: URLs',
      description: 'A DNS server for the MX and address lookups of mailto: URLs. Repeatable.',
    },
    'smtp-probe': {
      type: 'boolean',
      group: 'mailto: URLs',
      description: 'Also ask the mail exchanger RCPT TO for the address (no message is sent).',
    },
    'smtp-server': {
      type: 'string',
      value: 'HOST[:PORT]',
      default: 'the best MX, port 25',
      group: 'mailto: URLs',
      description: 'With --smtp-probe: the server to ask instead.',
    },
  },
  run: async (args, given, io) => {
    // The config file (locator-check.json in the current directory when it exists): the command line wins.
    const configFile = typeof given.config === 'string' ? given.config : null;
    let values = given;
    try {
      const text = await readFile(configFile ?? 'locator-check.json', 'utf8').catch((e: NodeJS.ErrnoException) => {
        if (configFile === null && e.code === 'ENOENT') return null;
        throw e;
      });
      if (text !== null) values = withConfig(text, checkCommand.options ?? {}, given, ['config', 'help']);
    } catch (e) {
      throw new UsageError(`--config ${configFile ?? 'locator-check.json'}: ${(e as Error).message}`);
    }
    const allow = ([] as unknown[]).concat(values['allow-port'] ?? []).map((p) => whole('allow-port', p, 0) as number);
    const netrcHosts = netrcHostsArg(values['netrc-host']) ?? [];
    const options: CheckOptions = {
      concurrency: whole('concurrency', values.concurrency, 1),
      perHost: whole('per-host', values['per-host'], 1),
      delay: whole('delay', values.delay, 0),
      retries: whole('retries', values.retries, 0),
      recursive: values.recursive === true,
      maxDepth: whole('max-depth', values['max-depth'], 0),
      maxUrls: whole('max-urls', values['max-urls'], 1),
      order: values.unordered === true ? 'completion' : 'input',
      timeout: timeoutArg(values.timeout),
      deadline: deadlineArg(values.deadline),
      env: io.env,
      newsServer: values['nntp-server'] as string | undefined,
      dnsServers:
        values['dns-server'] === undefined ? undefined : ([] as string[]).concat(values['dns-server'] as string[]),
      smtpProbe: values['smtp-probe'] === true ? true : undefined,
      smtpServer: values['smtp-server'] as string | undefined,
      policy: { allowPorts: allow, refusePrivateAddresses: values['refuse-private'] === true },
      netrcHosts: netrcHosts.length === 0 ? undefined : netrcHosts,
    };
    const list = (v: unknown) => ([] as string[]).concat((v as string[] | undefined) ?? []);
    const exclude = list(values.exclude);
    const ignoreFile = typeof values['ignore-file'] === 'string' ? values['ignore-file'] : null;
    try {
      exclude.push(...ignoreLines(await readFile(ignoreFile ?? '.locatorignore', 'utf8')));
    } catch (e) {
      if (ignoreFile !== null) throw new UsageError(`--ignore-file ${ignoreFile}: ${(e as Error).message}`);
    }
    try {
      const skip = skipper({
        include: list(values.include),
        exclude,
        excludeLoopback: values['exclude-loopback'] === true,
        excludePrivate: values['exclude-private'] === true,
      });
      if (skip !== null) options.skip = skip;
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const format = values.format ?? (values.json === true ? 'json' : 'text');
    if (format !== 'text' && format !== 'json' && format !== 'github' && format !== 'markdown') {
      throw new UsageError(`--format takes text, json, github or markdown, not ${JSON.stringify(format)}`);
    }
    const formatIn = values['format-in'] ?? 'auto';
    if (formatIn !== 'auto' && formatIn !== 'text' && formatIn !== 'markdown' && formatIn !== 'html') {
      throw new UsageError(`--format-in takes auto, text, markdown or html, not ${JSON.stringify(formatIn)}`);
    }
    const base = values.base as string | undefined;
    if (base !== undefined && !(tryParse(base) instanceof Url)) {
      throw new UsageError(`--base takes an absolute URL, not ${JSON.stringify(base)}`);
    }
    let accept: Accept | undefined;
    try {
      if (values.accept !== undefined) accept = acceptRules(list(values.accept));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const maxAge = duration(typeof values['max-cache-age'] === 'string' ? values['max-cache-age'] : '1d');
    if (maxAge === null) {
      throw new UsageError(`--max-cache-age takes N with s, m, h or d, not ${JSON.stringify(values['max-cache-age'])}`);
    }
    const cacheFile = typeof values.cache === 'string' ? values.cache : null;
    let cache: VerdictCache | null = null;
    if (cacheFile !== null) {
      cache = new VerdictCache(maxAge);
      let text: string | null = null;
      try {
        text = await readFile(cacheFile, 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
          throw new UsageError(`--cache ${cacheFile}: ${(e as Error).message}`);
      }
      try {
        if (text !== null) cache.load(text);
      } catch (e) {
        io.stderr.write(safeText(`locator check: --cache ${cacheFile} ignored: ${(e as Error).message}\n`));
      }
      options.probe = cache.probe();
    }
    for (const k of Object.keys(options) as (keyof CheckOptions)[]) if (options[k] === undefined) delete options[k];
    const status = await runCheck(
      args,
      {
        ...(accept !== undefined ? { accept } : {}),
        format,
        errorsOnly: values['errors-only'] === true,
        markup: { formatIn, plain: values['links-only'] !== true, ...(base !== undefined ? { base } : {}) },
        json: values.json === true,
        html: typeof values.html === 'string' ? values.html : null,
        junit: typeof values.junit === 'string' ? values.junit : null,
        showSecrets: values['show-secrets'] === true,
        check: options,
      },
      io,
    );
    if (cache !== null && cacheFile !== null) {
      // Written whole under another name, then renamed: a reader never sees half a cache.
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        await writeFile(tmp, cache.text());
        await rename(tmp, cacheFile);
      } catch (e) {
        await rm(tmp, { force: true });
        io.stderr.write(safeText(`locator check: --cache ${cacheFile} not written: ${(e as Error).message}\n`));
      }
    }
    return status;
  },
};
