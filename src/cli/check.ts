// `locator check`: the link checker (docs/check.md) over check() of src/check/. URLs as arguments,
// files and standard input read with extract() (RFC 1738 appendix), Markdown and HTML files also
// by their markup (src/check/markup/); one line per URL found (--format github, markdown),
// NDJSON with --json, an HTML page with --html FILE, JUnit XML with --junit FILE; a progress
// line on a terminal. Exit 0 when every URL is ok or redirected, 1 when any is not, 2 usage.
import { readFile } from 'node:fs/promises';
import { constants as osConstants } from 'node:os';
import { check, type CheckOptions, type PolitenessReport } from '../check/index.js';
import { SCOPE_KINDS, type ScopeKind } from '../check/index.js';
import { markup } from '../gateway/html.js';
import { ignoreLines, skipper } from '../check/rules.js';
import { githubAnnotation } from '../check/report-github.js';
import { MarkdownSummary } from '../check/report-markdown.js';
import { acceptRules, accepted, type Accept } from '../check/accept.js';
import { VerdictCache, duration } from '../check/cache.js';
import { withConfig } from '../check/config.js';
import { folderArg } from './folder.js';
import type { CheckStatus } from '../clients/index.js';
import { Url } from '../core/url.js';
import { tryParse } from '../schemes/registry.js';
import { Output } from './io.js';
import { CountProgress } from './progress.js';
import { safeText } from './safe-text.js';
import { replaceWholeSync } from './replace-file.js';
import { netrcHostsArg } from './netrc-hosts.js';
import { EXIT, UsageError, type Command, type Io } from './command.js';
import { ALLOW_PORT, JSON_OUTPUT, NETRC_HOST, NNTP_SERVER, REFUSE_PRIVATE, TIMEOUT } from './options.js';
import {
  HTML_TAIL,
  JUNIT_TAIL,
  STATUSES,
  StreamedReport,
  failing,
  htmlHead,
  htmlRow,
  jsonRecord,
  junitCase,
  junitHead,
  reportResult,
  shown,
  textLine,
} from './check-report.js';
import { commandInputs, type MarkupCommandOptions } from './check-inputs.js';

export {
  failing,
  shown,
  reportText,
  reportResult,
  whereText,
  textLine,
  jsonRecord,
  htmlRow,
  htmlHead,
  htmlReport,
  junitCase,
  junitHead,
  junitReport,
} from './check-report.js';
export type { FormatIn, MarkupCommandOptions } from './check-inputs.js';

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

/** The options that only the crawl of --recursive reads. */
const CRAWL_ONLY = ['scope', 'state', 'max-depth', 'max-urls', 'ignore-robots'] as const;

/** The default --timeout of check, in milliseconds (open()'s is 30000: a checker waits less). */
export const DEFAULT_TIMEOUT = 10000;

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

/** `locator check`: check() over the inputs, reported as text or NDJSON, and --html/--junit files. */
function scopeArg(v: unknown): ScopeKind | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(SCOPE_KINDS as readonly string[]).includes(v))
    throw new UsageError(`--scope takes ${SCOPE_KINDS.join(', ')}, not ${JSON.stringify(v)}`);
  return v as ScopeKind;
}

function rateArg(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^[0-9]{1,6}(\.[0-9]{1,6})?$/.test(v) ? Number(v) : NaN;
  if (!(n > 0)) throw new UsageError(`--rate takes a number of requests a second above 0, not ${JSON.stringify(v)}`);
  return n;
}

/** The User-Agent: --user-agent, and --contact as " (+URL)" (the form crawlers use to name their operator). */
function userAgentArg(agent: unknown, contact: unknown): string | undefined {
  if (agent === undefined && contact === undefined) return undefined;
  const a = typeof agent === 'string' ? agent : 'locator';
  // A header value: visible US-ASCII and spaces only (RFC 9110 5.5), so no line can be injected.
  const ok = (x: string) => /^[\x20-\x7e]*$/.test(x) && x.trim() !== '';
  if (!ok(a)) throw new UsageError(`--user-agent takes printable US-ASCII text, not ${JSON.stringify(a)}`);
  if (contact === undefined) return a;
  if (typeof contact !== 'string' || !ok(contact) || !(tryParse(contact) instanceof Url))
    throw new UsageError(`--contact takes a URL (mailto: or http:), not ${JSON.stringify(contact)}`);
  return `${a} (+${contact})`;
}

/** What the politeness engine did, one line per server, for standard error (text, github, markdown). */
function politenessLines(p: PolitenessReport): string[] {
  const robots = new Map(p.robots.map((r) => [r.server, r]));
  const lines: string[] = [];
  if (p.robotsIgnored) lines.push('locator check: robots.txt ignored (--ignore-robots)');
  for (const s of p.servers) {
    const r = robots.get(s.server);
    const parts = [`${s.requests} request${s.requests === 1 ? '' : 's'}`];
    if (s.delay > 0) parts.push(`${s.delay} ms between requests`);
    if (r !== undefined) {
      const said =
        r.status === 'found'
          ? `robots.txt: ${r.rules} rule${r.rules === 1 ? '' : 's'}${r.named ? ' for locator' : ''}`
          : r.status === 'unavailable'
            ? 'no robots.txt'
            : `robots.txt unreachable (${r.why}): nothing followed there`;
      parts.push(said);
      if (r.disallowed > 0)
        parts.push(
          `${r.disallowed} URL${r.disallowed === 1 ? '' : 's'} disallowed, not fetched${(r.resumed ?? 0) > 0 ? ` (${r.resumed} in the runs before the resume)` : ''}`,
        );
      if (r.crawlDelay !== null) parts.push(`Crawl-delay ${r.crawlDelay} ms honoured`);
    }
    if (s.retryAfterWaits > 0) parts.push(`${s.retryAfterWaits} Retry-After wait${s.retryAfterWaits === 1 ? '' : 's'}`);
    if (s.backoffWaits > 0)
      parts.push(`${s.backoffWaits} backoff${s.backoffWaits === 1 ? '' : 's'} after busy replies`);
    if (s.longestPause > 0) parts.push(`longest pause ${s.longestPause} ms`);
    lines.push(`locator check: ${s.server} ${parts.join(', ')}`);
  }
  return lines;
}

/** The politeness section of the HTML report. */
function politenessHtml(p: PolitenessReport): string {
  const lines = politenessLines(p).map((l) => l.replace(/^locator check: /, ''));
  if (lines.length === 0) return '';
  return markup`<h2>Politeness</h2>\n<ul id="politeness">${lines.map((l) => markup`<li>${l}</li>`)}</ul>\n`.value;
}

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
    let politeness: PolitenessReport | null = null;
    const crawling = opts.check?.recursive === true;
    const checkOptions = { ...opts.check, onPoliteness: (p: PolitenessReport) => (politeness = p) };
    for await (const found of check(inputs, checkOptions)) {
      const raw = opts.accept === undefined ? found : accepted(found, opts.accept);
      const r = shown(raw, opts.showSecrets);
      await html?.write(htmlRow(r));
      await junit?.write(junitCase(r));
      counts[r.status]++;
      // A URL robots.txt keeps the crawl from is the site's wish, not a fault of the link: reported
      // `refused`, it does not fail the run.
      if (failing(r.status) && r.code !== 'robots-disallowed') status = EXIT.invalid;
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
    // With --recursive, what the politeness engine did per server, on standard error (the rows of
    // standard output keep one shape): one JSON line with --json, else a line per server.
    const p = politeness as PolitenessReport | null;
    if (p !== null && crawling && format === 'json') io.stderr.write(JSON.stringify({ politeness: p }) + '\n');
    else if (p !== null && (crawling || p.servers.some((s) => s.retryAfterWaits + s.backoffWaits > 0)))
      for (const l of politenessLines(p)) io.stderr.write(safeText(l + '\n'));
    await out.flush();
    const seconds = (Date.now() - started) / 1000;
    await html?.finish(
      htmlHead(counts),
      p !== null && crawling ? HTML_TAIL.replace('</body>', politenessHtml(p) + '</body>') : HTML_TAIL,
    );
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
      'usage error: an unknown or malformed option, a bad option value, an option of the crawl (--scope, --state, --max-depth, --max-urls, --ignore-robots) without --recursive, a report FILE that cannot be written (before any check)',
    ],
    [
      130,
      'interrupted (Ctrl-C; 128 plus the number of SIGTERM or SIGHUP): the verdicts found so far are kept in --cache FILE, no --html or --junit report is written',
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
        'The time a probe, or the reading of a menu, a listing, a page, a robots.txt, a sitemap or a linked document (for its #fragments), may take in all, however slowly the server trickles (--timeout bounds each silence only); past it, the URL is unreachable (a robots.txt not read whole: its server\'s URLs refused). A positive whole number, or "none".',
    },
    retries: {
      type: 'string',
      value: 'N',
      default: '1',
      description:
        'Tries again after a temporary failure (a 4yz FTP or SMTP reply, NNTP 400, HTTP 503, a timeout, a reset; never a permanent answer such as HTTP 404), waiting 1 s, doubled each time.',
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
        'Crawl: also check the links of Gopher menus, FTP directories, Prospero directories (a link whose URL carries ;TARGET=DIRECTORY) and HTML and Markdown pages over http, https and file, breadth first, each URL once, following those in --scope. robots.txt is read for the URLs reached (not for those given). A menu or listing is read only until --max-urls is reached (then its connection is closed), and at most 1 MiB and 10000 links of each; a page at most 2 MiB.',
    },
    'max-depth': {
      type: 'string',
      value: 'N',
      default: '3',
      group: 'Recursion',
      description: 'With --recursive: the levels of menus, listings and pages followed.',
    },
    'max-urls': {
      type: 'string',
      value: 'N',
      default: '1000',
      group: 'Recursion',
      description: 'With --recursive: the URLs checked in all.',
    },
    scope: {
      type: 'string',
      value: 'SCOPE',
      default: 'server',
      group: 'Recursion',
      description:
        'With --recursive: the links followed (the others are checked only): server (the host and port of a URL given), host (any port or scheme), domain (the host and the names below it), prefix (under the folder of a URL given).',
    },
    state: {
      type: 'string',
      value: 'DIR',
      group: 'Recursion',
      description:
        'With --recursive: keep the frontier and the verdicts in DIR (append-only files); run again with the same DIR after a crash or a kill, the crawl resumes, probing nothing it had finished.',
    },
    'ignore-robots': {
      type: 'boolean',
      group: 'Pace',
      description:
        'With --recursive: do not read robots.txt (RFC 9309; read by default with --recursive, never without). Named in the report.',
    },
    rate: {
      type: 'string',
      value: 'N',
      group: 'Pace',
      description: 'Requests a second to one server at most (a token bucket; default: only --delay bounds it).',
    },
    'max-wait': {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '600000',
      group: 'Pace',
      description:
        'The longest wait a server may ask for (Retry-After of a 429 or 503, Crawl-delay); a URL whose server asks for longer is given up.',
    },
    'user-agent': {
      type: 'string',
      value: 'TEXT',
      default: 'locator',
      group: 'Pace',
      description: 'The User-Agent of HTTP requests.',
    },
    contact: {
      type: 'string',
      value: 'URL',
      group: 'Pace',
      description:
        "A way to reach the operator (a mailto: or http: URL), added to the User-Agent as (+URL), as crawlers do, so that a server's keeper can ask for less.",
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
    'include-verbatim': {
      type: 'boolean',
      group: 'Documents',
      description:
        'In Markdown and HTML, also check the URLs of verbatim text: code blocks and code spans, <pre> and <code> (left out by default, as lychee does).',
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
        'Keep the ok and redirected verdicts in FILE with their time, and take a fresh one instead of probing again (broken, refused and unreachable ones are always probed). FILE is written whole at the end, and when the run is interrupted (Ctrl-C, SIGTERM: the verdicts found so far), always to a temporary file then renamed; one that is not such a cache is reported on standard error and ignored.',
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
    'no-gopher-soft-errors': {
      type: 'boolean',
      group: 'gopher: URLs',
      description:
        "Do not compare a Gopher document's short answer with the server's answer to a selector that cannot exist (asked once per server, the first time a document needs it; an equal answer that reads as an error is reported broken, code gopher-soft-error).",
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
      scope: scopeArg(values.scope),
      state:
        typeof values.state === 'string' && values.recursive === true ? folderArg('--state', values.state) : undefined,
      ignoreRobots: values['ignore-robots'] === true ? true : undefined,
      rate: rateArg(values.rate),
      maxWait: whole('max-wait', values['max-wait'], 0),
      userAgent: userAgentArg(values['user-agent'], values.contact),
      includeVerbatim: values['include-verbatim'] === true ? true : undefined,
      order: values.unordered === true ? 'completion' : 'input',
      timeout: timeoutArg(values.timeout),
      deadline: deadlineArg(values.deadline),
      env: io.env,
      newsServer: values['nntp-server'] as string | undefined,
      dnsServers:
        values['dns-server'] === undefined ? undefined : ([] as string[]).concat(values['dns-server'] as string[]),
      smtpProbe: values['smtp-probe'] === true ? true : undefined,
      gopherSoftErrors: values['no-gopher-soft-errors'] === true ? false : undefined,
      smtpServer: values['smtp-server'] as string | undefined,
      policy: { allowPorts: allow, refusePrivateAddresses: values['refuse-private'] === true },
      netrcHosts: netrcHosts.length === 0 ? undefined : netrcHosts,
    };
    // The options of the crawl do nothing without one: given on the command line without
    // --recursive (and well formed), each is a usage error, not an option silently dropped (a
    // config file may hold them for the runs with --recursive).
    if (values.recursive !== true)
      for (const name of CRAWL_ONLY)
        if (given[name] !== undefined)
          throw new UsageError(
            `--${name} needs --recursive: it is an option of the crawl, which only --recursive makes`,
          );
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
    // The verdicts so far, written whole under another name, then renamed: a reader never sees
    // half a cache. Synchronous: at the end, and from a signal handler, which then exits.
    const saveCache = () => {
      if (cache === null || cacheFile === null) return;
      try {
        replaceWholeSync(cacheFile, cache.text());
      } catch (e) {
        io.stderr.write(safeText(`locator check: --cache ${cacheFile} not written: ${(e as Error).message}\n`));
      }
    };
    // Interrupted (Ctrl-C, SIGTERM, SIGHUP): the verdicts found so far are kept in the cache, and
    // the exit is 128 plus the signal's number (130 for Ctrl-C). The --html and --junit reports
    // are not written (their rows' temporary file has no name, and goes with the process).
    const stopListening = exitOnSignals((signal) => {
      io.stderr.write(
        safeText(
          `\nlocator check: interrupted (${signal})${cacheFile !== null ? `; the verdicts so far kept in --cache ${cacheFile}` : ''}${values.html !== undefined || values.junit !== undefined ? '; no report written' : ''}\n`,
        ),
      );
      saveCache();
    });
    let status: number;
    try {
      status = await runCheck(
        args,
        {
          ...(accept !== undefined ? { accept } : {}),
          format,
          errorsOnly: values['errors-only'] === true,
          markup: {
            formatIn,
            plain: values['links-only'] !== true,
            verbatim: values['include-verbatim'] === true,
            ...(base !== undefined ? { base } : {}),
            remote: { timeout: options.timeout, deadline: options.deadline, policy: options.policy, env: io.env },
          },
          json: values.json === true,
          html: typeof values.html === 'string' ? values.html : null,
          junit: typeof values.junit === 'string' ? values.junit : null,
          showSecrets: values['show-secrets'] === true,
          check: options,
        },
        io,
      );
      saveCache();
    } finally {
      stopListening();
    }
    return status;
  },
};

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Until the function it returns is called: on SIGINT, SIGTERM or SIGHUP, `onSignal` (synchronous:
 * the probes under way are not waited for), then the process exits with 128 plus the signal's
 * number, as a shell reports a process the signal ended.
 */
function exitOnSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  const handler = (signal: NodeJS.Signals) => {
    try {
      onSignal(signal);
    } finally {
      process.exit(128 + (osConstants.signals[signal] ?? 2));
    }
  };
  for (const s of SIGNALS) process.on(s, handler);
  return () => {
    for (const s of SIGNALS) process.off(s, handler);
  };
}
