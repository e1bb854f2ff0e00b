// `locator archive [options] URL...`: crawls from the URLs with the crawl engine (scope, limits,
// robots.txt, politeness, a state folder to resume) and keeps every object reached in WARC 1.1
// files (docs/archive.md). The archive library is loaded only when the command runs.

import { UsageError, EXIT, type Command } from './command.js';
import { JSON_OUTPUT, TIMEOUT, timeoutArg } from './options.js';
import type { ScopeKind } from '../crawl/scope.js';
import { lowerHelperThreads } from './helper-threads.js';
import { folderArg } from './folder.js';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { redactText, redactUrl } from '../operations/redact.js';

const SCOPES = ['server', 'host', 'domain', 'prefix'] as const;

function whole(name: string, v: unknown, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`--${name} takes a whole number of at least ${min}, not ${JSON.stringify(v)}`);
  }
  return n;
}

/** --max-size: octets, or with a unit K, M, G (powers of 1000, as the 1 GB default). */
export function sizeArg(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const m = typeof v === 'string' ? /^([0-9]+)([KMG]?)B?$/i.exec(v) : null;
  const n = m ? Number(m[1]) * { '': 1, K: 1e3, M: 1e6, G: 1e9 }[m[2].toUpperCase() as '' | 'K' | 'M' | 'G'] : NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(
      `--max-size takes a number of octets (K, M or G after it: thousands, millions, billions), not ${JSON.stringify(v)}`,
    );
  return n;
}

export const archiveCommand: Command = {
  name: 'archive',
  synopsis: ['archive [options] -o DIR|PREFIX URL...'],
  about: [
    'Crawls from each URL (the links of Gopher menus, FTP listings and HTML pages followed) and writes every object reached to WARC 1.1 files, one gzip member per record: for http and https a response and a request record of the octets exchanged on the connection (redirects and error statuses too), for every other scheme a resource record of the object and a metadata record of the protocol exchange, with block and payload digests (docs/archive.md). Each robots.txt read is kept too, once per server (a 404 as exchanged). Prints a line per URL: archived, earlier (written by an earlier run of the same --state), skipped (a search that needs a query), failed, refused (robots.txt) or invalid, the URL and the media type or the reason; with --json one object per URL.',
    'With --state DIR a run that was stopped, or killed, resumes where it stopped: the WARC files it left open are repaired (a torn last record cut off) and named, and no object is written twice.',
    "On Linux the threads Node starts for V8's background work run at a nice value raised by 10 during the crawl (LOCATOR_HELPER_NICE=N: by N, 0: not at all), so that they yield to the crawl and its writer on a small machine.",
  ],
  exits: [
    [0, 'every URL was archived (or refused by robots.txt)'],
    [1, 'a URL given is not a valid URL'],
    [3, 'an object could not be retrieved (the others are archived)'],
    [
      70,
      "internal error (a bug in locator: please report it), or the WARC writer's thread stopped (warc-writer-failed: the URLs not written have no verdict in --state, a resumed run visits them)",
    ],
  ],
  example: [
    '-o out/ --index gopher://127.0.0.1:7070/',
    'the Gopher hole in out/locator-*.warc.gz, and out/locator.cdxj',
  ],
  options: {
    output: {
      type: 'string',
      short: 'o',
      value: 'DIR|PREFIX',
      group: 'Output',
      description:
        'Where the WARC files go: a folder (one that exists, or a path ending in "/", made if missing), the files then named locator-DATE-SERIAL.warc.gz, or a folder and a prefix (out/site: out/site-DATE-SERIAL.warc.gz). Required.',
    },
    'max-size': {
      type: 'string',
      value: 'SIZE',
      unit: 'octets',
      default: '1G',
      group: 'Output',
      description:
        'A new file is started when a record would take one past SIZE (K, M, G: thousands, millions, billions).',
    },
    dedup: {
      type: 'boolean',
      group: 'Output',
      description:
        'An object whose payload was already written in this run is written as a revisit record referring to the first.',
    },
    index: {
      type: 'boolean',
      group: 'Output',
      description:
        'At the end, write PREFIX.cdxj beside the files: a sorted CDXJ line for each record of every file of the prefix.',
    },
    operator: {
      type: 'string',
      value: 'TEXT',
      group: 'Output',
      description: 'Who runs the archive, for the warcinfo record.',
    },
    contact: {
      type: 'string',
      value: 'TEXT',
      group: 'Output',
      description: 'How to reach the operator (a mail address or a URL), for the warcinfo record.',
    },
    scope: {
      type: 'string',
      value: 'SCOPE',
      default: 'server',
      group: 'Crawl',
      description:
        "Which links are followed: server (the seeds' hosts and ports), host, domain, or prefix (under a seed's folder).",
    },
    'max-depth': {
      type: 'string',
      value: 'N',
      default: '10',
      group: 'Crawl',
      description: 'The levels of links followed from the seeds.',
    },
    'max-urls': {
      type: 'string',
      value: 'N',
      default: '100000',
      group: 'Crawl',
      description: 'The URLs taken in, in all.',
    },
    state: {
      type: 'string',
      value: 'DIR',
      group: 'Crawl',
      description: 'Keep the crawl in DIR, and resume the crawl DIR holds (its seeds are those of the first run).',
    },
    'ignore-robots': {
      type: 'boolean',
      group: 'Crawl',
      description: 'Do not read robots.txt (http, https and Gopher servers); none is then archived.',
    },
    delay: {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '0',
      group: 'Pace',
      description: 'The time between the starts of two requests to one server (a robots.txt Crawl-delay raises it).',
    },
    'per-host': {
      type: 'string',
      value: 'N',
      default: '2',
      group: 'Pace',
      description: 'Requests at once to one server (host and port).',
    },
    concurrency: { type: 'string', value: 'N', default: '8', group: 'Pace', description: 'Requests at once in total.' },
    timeout: TIMEOUT,
    json: JSON_OUTPUT,
  },
  run: async (args, values, io) => {
    const output = values.output;
    if (typeof output !== 'string' || output === '') throw new UsageError('archive needs --output DIR|PREFIX');
    if (args.length === 0 && typeof values.state !== 'string')
      throw new UsageError('archive needs at least one URL (or --state DIR to resume)');
    const scope = (values.scope ?? 'server') as string;
    if (!(SCOPES as readonly string[]).includes(scope))
      throw new UsageError(`--scope takes ${SCOPES.join(', ')}, not ${JSON.stringify(scope)}`);
    // The folder of the files (as outputOf() reads -o) and the state's: checked before any fetch.
    folderArg('--output', output.endsWith('/') || isFolder(output) ? output : dirname(output));
    const state = typeof values.state === 'string' ? folderArg('--state', values.state) : null;
    const options = {
      output,
      maxSize: sizeArg(values['max-size']),
      dedup: values.dedup === true,
      index: values.index === true,
      operator: values.operator as string | undefined,
      contact: values.contact as string | undefined,
      scope: scope as ScopeKind,
      maxDepth: whole('max-depth', values['max-depth'], 0),
      maxUrls: whole('max-urls', values['max-urls'], 1),
      state,
      ignoreRobots: values['ignore-robots'] === true,
      delay: whole('delay', values.delay, 0),
      perHost: whole('per-host', values['per-host'], 1),
      concurrency: whole('concurrency', values.concurrency, 1),
      open: { timeout: timeoutArg(values.timeout), env: io.env },
      commandLine: commandLine(values),
    };
    const { archiveCrawl } = await import('../archive/index.js');
    // Before the crawl starts its writer's thread, which keeps its priority (helper-threads.ts).
    lowerHelperThreads(io.env);
    const json = values.json === true;
    const summary: Parameters<typeof archiveCrawl>[2] = {};
    let failed = 0;
    let invalid = 0;
    const showSecrets = values['show-secrets'] === true;
    for await (const got of archiveCrawl(args, options, summary)) {
      const r = showSecrets ? got : hidden(got);
      if (r.status === 'failed') failed++;
      if (r.status === 'invalid') invalid++;
      if (json) io.stdout.write(JSON.stringify(r) + '\n');
      else io.stdout.write(`${r.status}  ${r.url}  ${r.reason}\n`);
    }
    const c = summary.crawl ?? {};
    io.stderr.write(
      `locator archive: ${c.urls ?? 0} URLs, ${summary.records ?? 0} records written in ${(summary.files ?? []).length} files` +
        (c.resumed ? `, resumed (${summary.earlier ?? 0} objects written before)` : '') +
        ((summary.repaired ?? []).length > 0 ? `, ${(summary.repaired ?? []).length} files left open repaired` : '') +
        (summary.index ? `; index ${summary.index}` : '') +
        '\n',
    );
    return invalid > 0 ? EXIT.invalid : failed > 0 ? EXIT.network : EXIT.ok;
  },
};

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A row with the passwords in its URLs and its reason shown as "****" (RFC 1738 6), as every command shows them. */
function hidden<R extends { url: string; reason: string; parent?: string | null }>(r: R): R {
  const url = (u: string) => {
    try {
      return redactUrl(u);
    } catch {
      return redactText(u);
    }
  };
  return {
    ...r,
    url: url(r.url),
    reason: redactText(r.reason),
    ...(typeof r.parent === 'string' ? { parent: url(r.parent) } : {}),
  };
}

/** The options of the run as they would be written, for the warcinfo record (no URL, no secret). */
function commandLine(values: Record<string, unknown>): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === false || k === 'json' || k === 'help') continue;
    out.push(v === true ? `--${k}` : `--${k}=${String(v)}`);
  }
  return out.join(' ');
}
