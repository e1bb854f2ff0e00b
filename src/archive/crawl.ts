// The archive crawl (`locator archive`): the crawl engine (../crawl/engine.ts: scope, limits,
// robots.txt, the state folder) walks the URLs; each one is opened once within the politeness
// engine's turn for its server, written to WARC files with recordFetch() (a resource and a
// metadata record), and the links of a menu or listing are read from the same bytes as they are
// written. Resuming from a state folder: the files a killed run left open are repaired and named
// (./resume.ts), and the objects the earlier runs wrote are read back from the WARC files, so
// that an object written just before the kill, whose verdict had not reached the state yet, is
// not written again: each target URI is archived once.

import { readdir, rename, writeFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { LocatorError } from '../core/errors.js';
import { Url } from '../core/url.js';
import { tryParse } from '../schemes/registry.js';
import {
  CONNECTION_CLOSED,
  DEFAULT_TIMEOUT,
  faceOf,
  gatewayFromEnv,
  open,
  type HttpExchange,
  type OpenOptions,
  type Resource,
} from '../clients/index.js';
import { crawl, type CrawlResult, type CrawlSummary, type Visit } from '../crawl/engine.js';
import type { StoredVerdict } from '../crawl/state.js';
import { Politeness, type ServerPoliteness } from '../crawl/politeness.js';
import { RobotsCache, type RobotsReport } from '../crawl/robots-cache.js';
import { robotsFetcher, robotsPlaceOf, type RobotsTap } from '../crawl/robots-fetch.js';
import { serverKey, type ScopeKind } from '../crawl/scope.js';
import { makeFolders } from '../crawl/folders.js';
import { ThreadWarcWriter } from './writer-thread.js';
import { chunksOf } from './spool.js';
import { readWarc } from './reader.js';
import { finishOpenFiles, type Finished } from './resume.js';
import { cdxj, indexWarc, type IndexEntry } from './cdxj.js';
import { ARCHIVE_OPEN_OPTIONS, mediaTypeOf, recordExchange, recordFetch } from './fetch.js';
import { htmlPageLinks, isHtml } from './html-links.js';

/** The verdict of an object that could not be archived: `e` as its reason (and code when typed). */
function failedVerdict(e: unknown, t0: number) {
  const err = e instanceof LocatorError ? e : null;
  return {
    status: 'failed' as const,
    attempts: 1,
    ms: Date.now() - t0,
    reason: e instanceof Error ? e.message : String(e),
    ...(err ? { code: err.code } : {}),
  };
}

/** How long the records given to the writer's thread are gathered into one message (ThreadWriterOptions.gather). */
export const ARCHIVE_GATHER_MS = 20;

/** Past this many octets given to the writer and not yet in the file, a visit waits for its own records. */
export const ARCHIVE_BACKLOG = 64 * 1024 * 1024;

/** The most links kept from one menu or listing (info lines included): the rest is not followed. */
export const ARCHIVE_MAX_LINKS = 10000;

/** The product token matched against robots.txt's user-agent lines (RFC 9309 2.2.1). */
export const ROBOTS_TOKEN = 'locator';

export interface ArchiveOptions {
  /** Where the WARC files go: a folder (an existing one, or a path ending in `/`: made if missing), or a folder and a file name prefix (`out/site`). */
  output: string;
  /** Roll to a new file past this many octets (default 1 GB). */
  maxSize?: number;
  /** Write a revisit record for a payload already written in this run. */
  dedup?: boolean;
  /** Write `<prefix>.cdxj` beside the WARC files at the end: every record of every file of the prefix. */
  index?: boolean;
  /** The warcinfo record's `operator` and `contact` fields. */
  operator?: string;
  contact?: string;
  /** The command line's options, for the warcinfo record (`options`). */
  commandLine?: string;
  scope?: ScopeKind;
  maxDepth?: number;
  maxUrls?: number;
  /** The state folder (resume); null or absent: a temporary one. */
  state?: string | null;
  /** Do not ask robots.txt (--ignore-robots). */
  ignoreRobots?: boolean;
  /** Politeness: ms between the starts of two requests to one server, requests at once to one server and in all. */
  delay?: number;
  perHost?: number;
  concurrency?: number;
  /** Options of every open() (timeout, env ...); the archive's own (transcript, wire line ends) win. */
  open?: OpenOptions;
  /**
   * Octets given to the writer and not yet in the file past which a visit waits for its own
   * records before the crawl goes on (default ARCHIVE_BACKLOG, 64 MiB): memory stays bounded.
   */
  backlog?: number;
}

/** What an archive run did, beside each URL's result. */
export interface ArchiveSummary {
  crawl: Partial<CrawlSummary>;
  /** The WARC files written by this run (names in the folder). */
  files: string[];
  /** The files an earlier, killed run left open, repaired and named on start. */
  repaired: Finished[];
  /** Target URIs found already written by earlier runs (resume). */
  earlier: number;
  /** Records written by this run (warcinfo records not counted). */
  records: number;
  /** The CDXJ index written (its path), or null. */
  index: string | null;
  robots: RobotsReport[];
  politeness: ServerPoliteness[];
}

/** Splits --output into the folder and the prefix of the file names. */
export async function outputOf(output: string): Promise<{ dir: string; prefix: string }> {
  if (output === '') throw new RangeError('archive: the output is empty');
  if (output.endsWith('/')) return { dir: output.slice(0, -1) || '/', prefix: 'locator' };
  const isDir = await stat(output).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (isDir) return { dir: output, prefix: 'locator' };
  return { dir: dirname(output), prefix: basename(output) };
}

/** True for the final name of a WARC file of this prefix (`<prefix>-<date>-<serial>.warc[.gz]`). */
function isWarcOf(prefix: string, name: string): boolean {
  return name.startsWith(prefix + '-') && /-[0-9]{17}-[0-9]{5,}\.warc(\.gz)?$/.test(name.slice(prefix.length));
}

/**
 * The targets written by earlier runs in `dir` under `prefix`: the target URI of each resource,
 * response and revisit record, and the URLs a metadata record says were redirected to one.
 */
async function writtenBefore(dir: string, prefix: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const name of (await readdir(dir)).sort()) {
    if (!isWarcOf(prefix, name)) continue;
    for await (const r of readWarc(join(dir, name), { verify: false })) {
      const target = r.targetUri;
      if (target !== null && (r.type === 'resource' || r.type === 'response' || r.type === 'revisit')) out.add(target);
      if (r.type === 'metadata') {
        const chunks: Buffer[] = [];
        for await (const c of r.block) chunks.push(c);
        for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
          if (line.startsWith('* redirected from ')) out.add(line.slice('* redirected from '.length));
        }
      }
      await r.end();
    }
  }
  return out;
}

export { robotsPlaceOf } from '../crawl/robots-fetch.js';

/** The octets of HTTP exchanges as captured (sent and received), held until they are written. */
function octetsOf(exchanges: readonly HttpExchange[]): number {
  let n = 0;
  for (const ex of exchanges) {
    for (const c of ex.sent) n += c.byteLength;
    for (const c of ex.received) n += c.byteLength;
  }
  return n;
}

/** Reads a menu's or listing's links from `body` (the face's links), at most ARCHIVE_MAX_LINKS entries. */
async function linksFrom(u: Url, body: ReadableStream<Uint8Array>): Promise<{ links: string[]; note: string | null }> {
  const reader = faceOf(u).links;
  const links: string[] = [];
  if (reader === undefined) {
    await body.cancel().catch(() => {});
    return { links, note: null };
  }
  let entries = 0;
  let note: string | null = null;
  try {
    for await (const link of reader(u, body)) {
      if (++entries > ARCHIVE_MAX_LINKS) {
        note = `more than ${ARCHIVE_MAX_LINKS} entries: the rest were not followed`;
        break;
      }
      if (link !== null) links.push(link);
    }
  } catch (e) {
    note = `the links could not all be read: ${e instanceof Error ? e.message : String(e)}`;
  } finally {
    await body.cancel().catch(() => {});
  }
  return { links, note };
}

/** The most of an HTML page read for its links; the rest of the page is still archived. */
export const ARCHIVE_MAX_PAGE = 2 * 1024 * 1024;

/** Reads a stream to its end, keeping nothing. */
async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  for await (const _ of chunksOf(body));
}

/**
 * Reads an HTML page to its end (the archive wants every octet) and returns its links (the first
 * ARCHIVE_MAX_PAGE octets are read for them).
 */
async function pageLinksFrom(
  location: string,
  body: ReadableStream<Uint8Array>,
): Promise<{ links: string[]; note: string | null }> {
  const parts: Uint8Array[] = [];
  let n = 0;
  for await (const c of chunksOf(body)) {
    if (n < ARCHIVE_MAX_PAGE) parts.push(c);
    n += c.byteLength;
  }
  const text = Buffer.concat(parts).subarray(0, ARCHIVE_MAX_PAGE).toString('utf8');
  let links: string[] = [];
  let note: string | null =
    n > ARCHIVE_MAX_PAGE
      ? `the page is longer than ${ARCHIVE_MAX_PAGE} octets: the links after that were not read`
      : null;
  try {
    links = htmlPageLinks(text, location);
  } catch (e) {
    note = `the links could not be read: ${e instanceof Error ? e.message : String(e)}`;
  }
  return { links, note };
}

/**
 * Archives the URLs reached from `seeds` (WARC 1.1; the crawl of ../crawl/engine.ts): yields each
 * URL's result as the crawl reaches it (`archived`, `earlier` for an object a killed run had
 * written, `skipped` for a search that needs a query, `failed`, `refused` by robots.txt, `invalid`); `summary` is filled at the end, once
 * the files are closed (and the index written).
 */
export async function* archiveCrawl(
  seeds: Iterable<string>,
  options: ArchiveOptions,
  summary: Partial<ArchiveSummary> = {},
): AsyncGenerator<CrawlResult> {
  const backlog = options.backlog ?? ARCHIVE_BACKLOG;
  if (!(Number.isFinite(backlog) && backlog >= 0))
    throw new RangeError(`archive: backlog must be a number of octets >= 0, not ${String(options.backlog)}`);
  const { dir, prefix } = await outputOf(options.output);
  makeFolders(dir);
  const repaired = await finishOpenFiles(dir);
  const archived = options.state ? await writtenBefore(dir, prefix) : new Set<string>();
  const earlier = archived.size;
  const politeness = new Politeness({
    concurrency: options.concurrency ?? 8,
    perServer: options.perHost ?? 2,
    delay: options.delay ?? 0,
  });
  const openOptions: OpenOptions = { ...(options.open ?? {}), ...ARCHIVE_OPEN_OPTIONS };
  // The gateways (`*_proxy`, `no_proxy`: RFC 1738 4) of the environment as the run starts, read
  // once for the run instead of at every open() (listing the environment's names cost 2% of a
  // crawl's main thread).
  if (openOptions.gateway === undefined)
    openOptions.gateway = gatewayFromEnv(openOptions.env ?? (process.env as Record<string, string | undefined>));
  // A robots.txt is read within 4 times the timeout, as `check --recursive` reads it by default
  // (its --deadline): one sent an octet at a time would otherwise hold its server's crawl for
  // ever; one not read whole by then is unreachable (RFC 9309 2.3.1.4: the server's URLs refused).
  const timeout = openOptions.timeout ?? DEFAULT_TIMEOUT;
  const robots = options.ignoreRobots
    ? null
    : new RobotsCache(
        ROBOTS_TOKEN,
        robotsFetcher(
          politeness,
          openOptions,
          (url) => keepRobots(url),
          Number.isFinite(timeout) && timeout > 0 ? timeout * 4 : Infinity,
        ),
        politeness,
      );
  const info: Record<string, string> = { robots: options.ignoreRobots ? 'ignore' : 'obey' };
  if (options.operator !== undefined) info.operator = options.operator;
  if (options.contact !== undefined) info.contact = options.contact;
  if (options.commandLine !== undefined) info.options = options.commandLine;
  // The records of 20 ms go to the writer's thread in one message (the crawl does not wait for
  // them: a page's links are taken before its records are written). Measured on a site's archive
  // of 1,242 objects, one request at a time, 2 cores: a message per turn of the event loop
  // 1.36-1.41 s, CPU 2.18 s; batches of 20 ms (32 records at most) 1.17-1.23 s, CPU 1.86-1.91 s.
  const writer = new ThreadWarcWriter({
    dir,
    prefix,
    maxSize: options.maxSize,
    dedup: options.dedup === true,
    info,
    gather: ARCHIVE_GATHER_MS,
  });
  let records = 0;

  /**
   * Writes the exchanges that ended whole (each response and request once), given to the writer
   * at once (a redirect's records and its target's go in one message, so that a kill does not
   * find a redirect written without what it led to); fails with the first failure.
   */
  const writeExchanges = async (exchanges: readonly HttpExchange[]): Promise<void> => {
    const all = await Promise.allSettled(
      exchanges.map(async (ex) => {
        const w = await recordExchange(writer, ex);
        if (w !== null) {
          archived.add(ex.url);
          records += 2;
        }
      }),
    );
    for (const r of all) if (r.status === 'rejected') throw r.reason;
  };

  /**
   * Each robots.txt fetched is kept, as wget, Heritrix and grab-site keep it (the evidence of the
   * policy the crawl obeyed): over http and https its exchanges (a redirect, a 404 too) as
   * response and request records, as the crawl's other exchanges; over Gopher the reply as a
   * resource and the exchange as a metadata record. RobotsCache fetches it once per server in a
   * run; one an earlier run wrote (`--state`) is not written again. One cut at the parser's limit
   * (its exchange not read to its end) is not kept: a record holds a whole reply.
   */
  const robotsKept = new Set<string>();
  /** The writes under way (pages' records, robots.txt's): the crawl does not wait for them; the close does. */
  const writes = new Set<Promise<unknown>>();
  const pending = (p: Promise<unknown>) => {
    const settled: Promise<unknown> = p.then(
      (): boolean => writes.delete(settled),
      (): boolean => writes.delete(settled),
    );
    writes.add(settled);
  };
  /** robots.txt kept by this run, by URL: whether its records were written (a link to it waits for them). */
  const robotsWritten = new Map<string, Promise<boolean>>();
  const keepRobots = (url: string): RobotsTap => {
    const exchanges: HttpExchange[] = [];
    const keep = async (got: { resource: Resource; octets: Uint8Array; whole: boolean } | null): Promise<void> => {
      if (exchanges.length > 0) {
        const ended = await Promise.all(exchanges.map((ex) => ex.ended));
        // Taken as this run's at once (before the records are written), so that a link to the
        // robots.txt visited meanwhile does not write it again; given back if its write fails.
        const mine = exchanges.filter((ex, i) => ended[i] && !archived.has(ex.url));
        const all = mine.map(async (ex) => {
          let written = false;
          try {
            written = (await recordExchange(writer, ex)) !== null;
          } finally {
            if (written) records += 2;
            else {
              archived.delete(ex.url);
              robotsKept.delete(ex.url);
            }
          }
          return written;
        });
        mine.forEach((ex, i) => {
          archived.add(ex.url);
          robotsKept.add(ex.url);
          robotsWritten.set(
            ex.url,
            all[i]!.catch(() => false),
          );
        });
        await Promise.all(all);
        return;
      }
      if (got === null || !got.whole) return;
      const target = got.resource.meta.url || url;
      if (archived.has(target) || archived.has(url)) return;
      archived.add(target);
      archived.add(url);
      robotsKept.add(target);
      robotsKept.add(url);
      const { octets } = got;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(octets);
          c.close();
        },
      });
      const written = recordFetch(writer, url, { ...got.resource, body }).then(
        () => {
          records += 2;
          return true;
        },
        () => {
          archived.delete(target);
          archived.delete(url);
          robotsKept.delete(target);
          robotsKept.delete(url);
          return false;
        },
      );
      robotsWritten.set(target, written);
      robotsWritten.set(url, written);
      await written;
    };
    return {
      options: { transcript: true, httpCapture: (e) => exchanges.push(e) },
      // The robots.txt's answer goes to the crawl at once; its records are written meanwhile
      // (the first ones would otherwise wait for the writer's thread to start), and the archive
      // is closed only once they are.
      done: (got) => {
        pending(keep(got).catch(() => {}));
        return Promise.resolve();
      },
    };
  };

  /**
   * A URL's turn with its server (the politeness engine) lasts until its exchange with the server
   * has ended; the records of an HTTP exchange, held in memory by then, are written after the
   * turn, so that the next request to the server does not wait for the writer. The links go to
   * the crawl at once; the verdict waits for the records (a verdict kept in the state means the
   * records are in the files), and says `failed` when they could not be written. So the crawl
   * does not wait for the writer's thread to start, nor for each page's records to be written
   * before its links are followed.
   */
  const visit = async (u: Url, _entry: unknown, follow: boolean): Promise<Visit> => {
    let writing: { done: Promise<void>; urls: string[]; octets: number } | null = null;
    const t0 = Date.now();
    // A writer whose thread has stopped can keep nothing more: the crawl ends with its error
    // (thrown, no verdict kept: a resumed run visits the URL again), and no server is asked for
    // what could not be kept.
    const stopped = () => {
      if (writer.failure !== null) throw writer.failure;
    };
    stopped();
    const v = await politeness.run(serverKey(u), () => {
      stopped();
      return fetchOne(u, follow, t0, (done, urls, octets) => {
        writing = { done, urls, octets };
        pending(done);
      });
    });
    const w = writing as { done: Promise<void>; urls: string[]; octets: number } | null;
    if (w === null) return v;
    const verdict = w.done.then(
      () => v.verdict,
      (e: unknown) => {
        for (const url of w.urls) archived.delete(url);
        if (writer.failure !== null) throw writer.failure;
        return failedVerdict(e, t0);
      },
    );
    // Past `backlog` octets on their way to the file (its own counted, whether or not given to
    // the writer yet), the visit waits for its records before it leaves its place: the crawl's
    // memory is bounded by octets, not only by visits.
    if (writer.backlog + w.octets > backlog) return { ...v, verdict: await verdict };
    return { ...v, verdict };
  };

  const fetchOne = async (
    u: Url,
    follow: boolean,
    t0: number,
    later: (done: Promise<void>, urls: string[], octets: number) => void,
  ): Promise<Visit> => {
    let r: Resource;
    // The HTTP exchanges of this URL (its redirects, then its object), as they crossed the wire.
    const exchanges: HttpExchange[] = [];
    try {
      r = await open(u, { ...openOptions, httpCapture: (e) => exchanges.push(e) });
    } catch (e) {
      const err = e instanceof LocatorError ? e : null;
      // An HTTP error status (a 404) was an exchange too: kept as exchanged, as web archives
      // keep it, so that a replay answers as the server did.
      const unseen = exchanges.filter((ex) => !archived.has(ex.url));
      later(
        writeExchanges(unseen).catch(() => {}),
        [],
        octetsOf(unseen),
      );
      return {
        verdict: {
          // A search (a Gopher type 7, a WAIS database) has no object without a query.
          status: err?.code === 'needs-input' ? 'skipped' : 'failed',
          attempts: 1,
          ms: Date.now() - t0,
          reason: e instanceof Error ? e.message : String(e),
          ...(err ? { code: err.code } : {}),
        },
      };
    }
    const target = r.meta.url || u.href;
    // The links are read against the URL asked for when nothing redirected it: the client's
    // meta.url hides its password (****), which its children would then carry to the server.
    const redirected = (r.meta.redirects?.length ?? 0) > 0;
    const at = redirected ? tryParse(target) : u;
    const listed = at instanceof Url ? at : u;
    const base = redirected ? target : u.href;
    const hasLinks =
      follow && (r.meta.kind === 'menu' || r.meta.kind === 'listing') && faceOf(listed).links !== undefined;
    // A page (the face's `pages`) given as HTML: its links are read from its markup.
    const isPage = follow && !hasLinks && faceOf(listed).pages === true && isHtml(r.meta.contentType);
    const last = exchanges.at(-1);
    const overHttp = last !== undefined && last.url === r.meta.url;
    const type = mediaTypeOf(r.meta);
    if (archived.has(target) || archived.has(u.href)) {
      // Written already: by an earlier run killed before its verdict was kept, or by this run
      // under another URL that redirected to the same object.
      const got = hasLinks
        ? await linksFrom(listed, r.body)
        : isPage
          ? await pageLinksFrom(base, r.body)
          : (await r.body.cancel().catch(() => {}), null);
      // A robots.txt this run kept when it read it, reached as a link too: archived by this run,
      // once its records are written (its verdict waits for them).
      const robotsTxt = robotsKept.has(target) || robotsKept.has(u.href);
      const verdict: StoredVerdict = {
        status: robotsTxt ? 'archived' : 'earlier',
        attempts: 1,
        ms: Date.now() - t0,
        reason: robotsTxt ? type : `${target} was archived before; not written again`,
        ...(got?.note ? { notes: [got.note] } : {}),
      };
      const robotsWrite = robotsTxt ? (robotsWritten.get(target) ?? robotsWritten.get(u.href)) : undefined;
      return {
        verdict:
          robotsWrite === undefined
            ? verdict
            : robotsWrite.then((ok) => {
                if (ok) return verdict;
                if (writer.failure !== null) throw writer.failure;
                return failedVerdict(new Error(`the records of ${target} could not be written`), t0);
              }),
        links: got?.links ?? null,
      };
    }
    archived.add(target);
    archived.add(u.href);
    let got: { links: string[]; note: string | null } | null = null;
    try {
      if (overHttp) {
        // The object is the last exchange's response: the octets go to the records as they
        // crossed the connection; the decoded body is read here for its links, or drained.
        got = isPage ? await pageLinksFrom(base, r.body) : (await drain(r.body), null);
        const whole = await Promise.all(exchanges.map((ex) => ex.ended));
        if (!whole.every(Boolean)) throw new LocatorError(CONNECTION_CLOSED, -1, 'the HTTP exchange did not end');
        later(writeExchanges(exchanges), [target, u.href], octetsOf(exchanges));
      } else {
        let body = r.body;
        let links: Promise<{ links: string[]; note: string | null }> | null = null;
        if (hasLinks) {
          const [a, b] = r.body.tee();
          body = a;
          links = linksFrom(listed, b);
        }
        try {
          // An HTTP redirect to another scheme: its exchanges, then the object.
          await writeExchanges(exchanges);
          const written = await recordFetch(writer, u.href, { ...r, body });
          records += written.metadata ? 2 : 1;
        } catch (e) {
          if (links !== null) await links.catch(() => null);
          throw e;
        }
        got = links !== null ? await links : null;
      }
    } catch (e) {
      // The object could not be read whole: nothing of it was written (the writer writes whole records only).
      archived.delete(target);
      archived.delete(u.href);
      return {
        verdict: failedVerdict(e, t0),
      };
    }
    return {
      verdict: {
        status: 'archived',
        attempts: 1,
        ms: Date.now() - t0,
        reason: type,
        ...(r.meta.redirects && r.meta.redirects.length > 0 ? { redirects: [...r.meta.redirects, target] } : {}),
        ...(got?.note ? { notes: [got.note] } : {}),
      },
      links: got?.links ?? null,
    };
  };

  const crawlSummary: Partial<CrawlSummary> = {};
  let files: string[] = [];
  try {
    yield* crawl(
      seeds,
      visit,
      {
        scope: options.scope,
        maxDepth: options.maxDepth,
        maxUrls: options.maxUrls,
        state: options.state ?? null,
        robots,
        robotsPlace: robotsPlaceOf,
        parallel: Math.max(options.concurrency ?? 8, 1) * 2,
        // The last records are not held for the rest of the gathering time.
        settle: () => writer.flush(),
      },
      crawlSummary,
    );
  } finally {
    // Every record given is written before the files are closed: a crawl stopped by its reader,
    // or by an error, still leaves each exchange whole (its request with its response).
    while (writes.size > 0) await Promise.all(writes);
    files = await writer.close();
  }
  let index: string | null = null;
  if (options.index) {
    const entries: IndexEntry[] = [];
    for (const name of (await readdir(dir)).sort()) {
      if (!isWarcOf(prefix, name)) continue;
      entries.push(...(await indexWarc(join(dir, name))));
    }
    index = join(dir, `${prefix}.cdxj`);
    const tmp = `${index}.${process.pid}.tmp`;
    await writeFile(tmp, cdxj(entries));
    await rename(tmp, index);
  }
  Object.assign(summary, {
    crawl: crawlSummary,
    files,
    repaired,
    earlier,
    records,
    index,
    robots: robots?.report() ?? [],
    politeness: politeness.report(),
  } satisfies ArchiveSummary);
}
