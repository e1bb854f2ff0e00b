// check --recursive on the crawl engine (src/crawl/engine.ts): what the checker does with each URL
// the crawl reaches (its visitor), and where robots.txt is for it. A URL is probed as any other
// (./check.ts runTask: retries, busy servers, the deadline); a menu or listing has its links
// read by its face (./recurse.ts); a page that may be hypertext (the face's `pages`: http, https,
// file) is read once with open() within the server's turn and its links taken from its markup
// (./markup/: HTML and Markdown, verbatim text left out unless `--include-verbatim`), relative
// ones resolved against it (RFC 1808 4).
import { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { tryParse } from '../schemes/registry.js';
import { faceOf, open, statusOf, type ProbeOptions, type ProbeResult } from '../clients/index.js';
import { CrawlNote, type Visit, type Visitor } from '../crawl/engine.js';
import type { CrawlEntry } from '../crawl/state.js';
import type { Politeness } from '../crawl/politeness.js';
import type { RobotsCache, RobotsPlace } from '../crawl/robots-cache.js';
import { robotsPlaceOf } from '../crawl/robots-fetch.js';
import { serverKey } from '../crawl/scope.js';
import { boundedBody, followable, ListingCut, type ChildLister } from './recurse.js';
import { deadlineSignal } from './deadline.js';
import type { CheckResult } from './types.js';

/** The product token locator's crawls give robots.txt (RFC 9309 2.2.1). */
export const ROBOTS_TOKEN = 'locator';

export { robotsFetcher, robotsPlaceOf } from '../crawl/robots-fetch.js';

/** The most of a page read for its links (as of a fragment's document, ./markup/remote.ts). */
export const MAX_PAGE = 2 * 1024 * 1024;

/** A URL given whose links the crawl reads: its probe's answer, and its result as check() made it. */
export interface Seed {
  url: string;
  u: Url;
  r: ProbeResult;
  attempts: number;
  result: CheckResult;
  reported: boolean;
}

/** A page's text, read for its links. */
interface Page {
  text: string;
  format: 'html' | 'markdown';
  location: string;
  cut: boolean;
  /** The deadline (ms) that stopped the reading, or null when the page was read to its end. */
  late: number | null;
}

/** What the visitor needs of check()'s engine. */
export interface CrawlHost {
  readonly probeOptions: ProbeOptions;
  readonly limiter: Politeness;
  readonly children: ChildLister;
  readonly o: { deadline: number; includeVerbatim: boolean };
  runTask(u: Url, once?: () => Promise<ProbeResult>): Promise<{ r: ProbeResult; attempts: number }>;
}

/** True when a URL's links may be read: a menu or listing, an FTP name found to be a directory, or a page. */
export function hasLinks(u: Url, r: ProbeResult): boolean {
  return followable(u) || r.directory === true || faceOf(u).pages === true;
}

/**
 * The text of a page's body, at most `max` octets (`cut` when there was more). With `late`, a
 * read that fails once `late()` is true (the deadline's signal closed the connection) gives the
 * text read until then instead of the error.
 */
async function readText(
  body: ReadableStream<Uint8Array>,
  max: number,
  late: () => boolean = () => false,
): Promise<{ text: string; cut: boolean }> {
  const bounded = boundedBody(body, max);
  const chunks: Uint8Array[] = [];
  try {
    for await (const c of bounded.body as unknown as AsyncIterable<Uint8Array>) chunks.push(c);
  } catch (e) {
    if (!late()) throw e;
  }
  return { text: new TextDecoder('utf-8').decode(Buffer.concat(chunks)), cut: bounded.cut() };
}

/** A page read with open() (run in its server's turn by runTask): the answer as a probe's, and its text when it is markup. */
async function readPage(host: CrawlHost, u: Url): Promise<{ r: ProbeResult; attempts: number; page: Page | null }> {
  let page: Page | null = null;
  const { r, attempts } = await host.runTask(u, async () => {
    page = null;
    const d = deadlineSignal(host.o.deadline, host.probeOptions.signal, true);
    const started = Date.now();
    try {
      const options = d.signal === undefined ? host.probeOptions : { ...host.probeOptions, signal: d.signal };
      const res = await open(u, options);
      const redirects = res.meta.redirects ?? [];
      const { formatOfType } = await import('./markup/remote.js');
      const { formatOf } = await import('./markup/format.js');
      const format = formatOfType(res.meta.contentType) ?? formatOf(res.meta.url);
      const r: ProbeResult = {
        status: redirects.length > 0 ? 'redirected' : 'ok',
        reason:
          res.meta.status !== undefined ? `HTTP ${res.meta.status} (GET, read for its links)` : 'read for its links',
        temporary: false,
        redirects: redirects.length > 0 ? [...redirects.slice(1), res.meta.url] : [],
        transcript: [],
        ms: 0,
      };
      if (format === null) await res.body.cancel().catch(() => {});
      else {
        // A body cut by the deadline (its read fails with `aborted` once the signal closed the
        // connection, or, read to the close of its connection on Node's client, ends then) gives
        // the links read until then, with a note that the rest were not.
        const { text, cut } = await readText(res.body, MAX_PAGE, () => d.expired());
        page = { text, format, location: res.meta.url, cut, late: d.expired() ? host.o.deadline : null };
      }
      return { ...r, ms: Date.now() - started };
    } catch (e) {
      if (!(e instanceof LocatorError)) throw e;
      const r = statusOf(e);
      return d.expired()
        ? { ...r, status: 'unreachable', reason: `the page was not read within the deadline of ${host.o.deadline} ms` }
        : { ...r, ms: Date.now() - started };
    } finally {
      d.stop();
    }
  });
  return { r, attempts, page };
}

/** The links of a page's markup, as URL strings (relative ones resolved against the page). */
async function* pageLinks(page: Page, verbatim: boolean): AsyncGenerator<string> {
  const { markupLinks } = await import('./markup/index.js');
  for await (const l of markupLinks(page.text, { format: page.format, location: page.location, verbatim })) yield l.url;
  if (page.cut) throw new CrawlNote(`the page is longer than ${MAX_PAGE} octets: the links after that were not read`);
  if (page.late !== null)
    throw new CrawlNote(
      `reading the page stopped at the deadline of ${page.late} ms: the links after that were not read`,
    );
}

/** The links of a menu or listing read in a turn of its server, within the deadline, bounds as notes. */
async function* listingLinks(host: CrawlHost, list: Url): AsyncGenerator<string> {
  const d = deadlineSignal(host.o.deadline, host.probeOptions.signal, false);
  const options = d.signal === undefined ? host.probeOptions : { ...host.probeOptions, signal: d.signal };
  try {
    const links = await host.children(list, options, (server, fn) =>
      host.limiter.run(server, () => {
        d.start();
        return fn();
      }),
    );
    yield* links as AsyncIterable<string>;
  } catch (e) {
    if (d.expired()) throw new CrawlNote(`reading the links stopped at the deadline of ${host.o.deadline} ms`);
    if (e instanceof ListingCut) throw new CrawlNote(e.message);
    throw e;
  } finally {
    d.stop();
  }
}

/**
 * The pages a server's sitemaps list (the `Sitemap:` lines of its robots.txt, RFC 9309 2.2.4;
 * sitemaps.org 0.9, gzip'd or not; a sitemap index's sitemaps read in turn, one level deep), read
 * in turns of their servers, as links of the URL given on that server.
 */
async function* sitemapLinks(host: CrawlHost, robots: RobotsCache, place: RobotsPlace): AsyncGenerator<string> {
  const { readSitemap } = await import('../crawl/sitemap.js');
  const queue = [...(await robots.sitemaps(place))].map((url) => ({ url, index: true }));
  for (let i = 0; i < queue.length && i < MAX_SITEMAPS; i++) {
    const { url, index } = queue[i];
    const u = tryParse(url);
    if (!(u instanceof Url)) continue;
    const entries: { kind: 'url' | 'sitemap'; loc: string }[] = [];
    const notes: string[] = [];
    // Within the deadline, as a menu is read: a server that trickles its sitemap holds no turn forever.
    const d = deadlineSignal(host.o.deadline, host.probeOptions.signal, false);
    const options = d.signal === undefined ? host.probeOptions : { ...host.probeOptions, signal: d.signal };
    try {
      await host.limiter.run(serverKey(u), async () => {
        d.start();
        const res = await open(u, options);
        const gzip = /\.gz$/i.test(res.meta.url) || /gzip/i.test(res.meta.contentType ?? '');
        for await (const e of readSitemap(res.body, gzip, notes)) entries.push(e);
      });
    } catch (e) {
      // Cut at the deadline: the pages listed before are taken, as a menu's links are.
      if (!d.expired()) {
        if (!(e instanceof LocatorError)) throw e;
        continue; // a sitemap that cannot be read costs only its seeds
      }
    } finally {
      d.stop();
    }
    for (const e of entries) {
      if (e.kind === 'url') yield e.loc;
      else if (index) queue.push({ url: e.loc, index: false });
    }
  }
}

/** The most sitemaps read for one server (an index's included). */
export const MAX_SITEMAPS = 50;

/** The listing URL of a name its probe found to be a directory (the face's directoryOf), or null. */
function directoryOf(u: Url): Url | null {
  const href = faceOf(u).directoryOf?.(u) ?? null;
  const d = href === null ? null : tryParse(href);
  return d instanceof Url ? d : null;
}

/**
 * The visitor of check --recursive: a seed (a URL given, probed already) has only its links read;
 * a page to follow is read once with open(); any other URL is probed, and its links read when it
 * is to be followed and has any.
 */
export function crawlVisitor(host: CrawlHost, seeds: Map<string, Seed>, robots: RobotsCache | null = null): Visitor {
  const sitemapsRead = new Set<string>();
  return async (u: Url, entry: CrawlEntry, follow: boolean): Promise<Visit> => {
    const seed = entry.depth === 0 ? seeds.get(entry.url) : undefined;
    let r: ProbeResult;
    let attempts = 1;
    let links: AsyncIterable<string> | null = null;
    const page = follow && faceOf(u).pages === true && !followable(u);
    if (seed !== undefined) {
      r = seed.r;
      attempts = seed.attempts;
    } else if (page) {
      const got = await readPage(host, u);
      r = got.r;
      attempts = got.attempts;
      if (got.page !== null) links = pageLinks(got.page, host.o.includeVerbatim);
    } else {
      ({ r, attempts } = await host.runTask(u));
    }
    const ok = r.status === 'ok' || r.status === 'redirected';
    if (follow && ok && links === null) {
      if (seed !== undefined && page && r.directory !== true) {
        const got = await readPage(host, u);
        if (got.page !== null) links = pageLinks(got.page, host.o.includeVerbatim);
      } else {
        const list = followable(u) ? u : r.directory === true ? directoryOf(u) : null;
        // An FTP directory's listing is on the same server (directoryOf adds a "/"): its links are this URL's.
        if (list !== null) links = listingLinks(host, list);
      }
    }
    // A URL given: the pages its server's sitemaps list are its links too (once per server).
    if (seed !== undefined && follow && robots !== null) {
      const place = robotsPlaceOf(u);
      if (place !== null && !sitemapsRead.has(place.server)) {
        sitemapsRead.add(place.server);
        const own = links;
        links = (async function* () {
          if (own !== null) yield* own;
          yield* sitemapLinks(host, robots, place);
        })();
      }
    }
    return {
      verdict: {
        status: r.status,
        attempts,
        ms: r.ms,
        reason: r.reason,
        ...(r.code !== undefined ? { code: r.code } : {}),
        ...(r.reply !== undefined ? { reply: r.reply } : {}),
        ...(r.redirects.length > 0 ? { redirects: r.redirects } : {}),
      },
      links,
    };
  };
}
