// The crawl engine: one frontier, one scope, one robots cache and one politeness engine for every
// tool that walks a space of URLs (`locator check --recursive`, and whatever keeps what it
// fetches). Breadth first: the URLs are checked in the order found, each normal form once
// (RFC 1738 2.1: objectKey). What is done with a URL is the visitor's (a probe and the links of
// a menu, a listing or a page for the checker; a fetch written to an archive for a keeper); the
// engine decides which URLs are visited, which are followed, what robots.txt forbids, and keeps
// its state on disk (./state.ts), so that memory stays flat and a killed crawl resumes.
import { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { tryParse } from '../schemes/registry.js';
import { objectKey } from '../operations/normalize.js';
import { CrawlState, type CrawlEntry, type StoredVerdict } from './state.js';
import { SeenSet } from './seen.js';
import { Scope, type ScopeKind } from './scope.js';
import type { RobotsCache, RobotsPlace } from './robots-cache.js';

/**
 * Thrown by a visitor's links to end them with a note of its own words (a listing cut at a bound,
 * a deadline): the note is kept as it is, the links read before it are taken.
 */
export class CrawlNote extends Error {}

/**
 * What a visitor found for one URL: its verdict, and the links to follow when it was asked to read
 * them. The verdict may be a promise that settles after the links are taken (a keeper whose
 * records are still being written): the crawl goes on with the links at once, and the verdict is
 * kept in the state once it is known, so that a verdict in the state still means its work is
 * done (a run killed before it visits the URL again when resumed).
 */
export interface Visit {
  verdict: StoredVerdict | Promise<StoredVerdict>;
  /** The links found (when `follow` was true and the object has links), read as they come. */
  links?: AsyncIterable<string> | Iterable<string> | null;
}

/**
 * Visits one URL of the crawl: checks it (and, when `follow` is true, reads its links). It makes
 * its requests within the politeness engine's limits. It must not throw for what a server or the
 * network did: that is a verdict.
 */
export type Visitor = (url: Url, entry: CrawlEntry, follow: boolean) => Promise<Visit>;

export interface CrawlOptions {
  /** How far links are followed from the seeds (default `server`): see ./scope.ts. */
  scope?: ScopeKind;
  /** Links are followed down to this depth (seeds are depth 0; default 10). */
  maxDepth?: number;
  /** The most URLs the crawl takes in (default 100,000): links past it are not read. */
  maxUrls?: number;
  /** A URL this says true of is left out altogether (--include/--exclude, .locatorignore). */
  skip?: (url: string) => boolean;
  /** robots.txt, asked before each visit of a URL found by following links; null (--ignore-robots): not asked. */
  robots?: RobotsCache | null;
  /** Where a URL's robots.txt is (the face's `robots`), or null when its scheme has none. */
  robotsPlace?: (u: Url) => RobotsPlace | null;
  /** The state folder (--state DIR): kept, and resumed when it holds a crawl; null: a temporary one. */
  state?: string | null;
  /**
   * Visits under way at once (default 16); the politeness engine limits requests below that. A
   * visit whose verdict is a promise leaves its place once its links are taken; up to 4 times
   * this many verdicts (64 at least) may be awaited so.
   */
  parallel?: number;
  /**
   * Called when no visit is under way and the crawl only waits for verdicts given as promises: at
   * its end, or when the most verdicts allowed are awaited (a keeper that gathers its writes
   * sends them now).
   */
  settle?: () => void;
}

/** One URL's verdict, as the crawl reports it. */
export interface CrawlResult extends StoredVerdict {
  url: string;
  /** The URL whose links held it, or null for a seed. */
  parent: string | null;
  depth: number;
  /** True when it was in scope and its links were to be read. */
  follow: boolean;
  /** True when this verdict was reached by an earlier run of the same state (--state) and is reported again. */
  resumed: boolean;
}

/** What the engine says about a run, beside the results. */
export interface CrawlSummary {
  urls: number;
  resumed: boolean;
  /** Octets of torn writes cut off when the state was opened. */
  torn: number;
  /** Octets of the state folder at the end. */
  stateBytes: number;
  /** True when maxUrls stopped the reading of links. */
  limited: boolean;
}

export const CRAWL_DEFAULTS = { maxDepth: 10, maxUrls: 100_000, parallel: 16 } as const;

/** The links of one page are written to the state in batches of this many. */
const BATCH = 256;

/** The URLs of this many pages whose links were taken last are kept, so that their links' results name them without reading urls.log. */
const PARENTS_KEPT = 1024;

/** The visits whose verdicts are awaited (their links taken) may be this many times `parallel`, or 64 if more. */
const SETTLING_PER_SLOT = 4;
const SETTLING_LEAST = 64;

/**
 * Crawls from `seeds` (RFC 1738 URLs, or ignored when a state is resumed: its seeds are those of
 * the first run), visiting each URL once; yields each verdict as it is reached, the verdicts of
 * an earlier run first when resuming. `summary` is filled when the iteration ends.
 */
export async function* crawl(
  seeds: Iterable<string>,
  visit: Visitor,
  options: CrawlOptions = {},
  summary?: Partial<CrawlSummary>,
): AsyncGenerator<CrawlResult> {
  const whole = (name: string, v: number | undefined, d: number, min: number) => {
    const x = v ?? d;
    if (!Number.isSafeInteger(x) || x < min)
      throw new RangeError(`crawl: ${name} must be a whole number >= ${min}, not ${String(v)}`);
    return x;
  };
  const maxDepth = whole('maxDepth', options.maxDepth, CRAWL_DEFAULTS.maxDepth, 0);
  const maxUrls = whole('maxUrls', options.maxUrls, CRAWL_DEFAULTS.maxUrls, 1);
  const parallel = whole('parallel', options.parallel, CRAWL_DEFAULTS.parallel, 1);
  const scope = new Scope(options.scope ?? 'server');
  const skip = options.skip ?? (() => false);
  const state = new CrawlState(options.state ?? null);
  const seen = new SeenSet();
  let stopped = false;
  let count = 0;
  let limited = false;
  const keyOf = (s: string): { u: Url | null; key: string } => {
    const u = tryParse(s);
    return u instanceof Url ? { u, key: objectKey(u) } : { u: null, key: s };
  };
  try {
    if (state.opened.resumed) {
      for (const e of state.entries()) {
        seen.add(keyOf(e.url).key);
        count++;
        if (e.parent === -1) {
          const u = tryParse(e.url);
          if (u instanceof Url) scope.addSeed(u);
        }
      }
      for (const { entry, verdict } of state.verdicts()) {
        yield {
          ...verdict,
          url: entry.url,
          parent: entry.parent < 0 ? null : state.entry(entry.parent).url,
          depth: entry.depth,
          follow: entry.follow,
          resumed: true,
        };
      }
    } else {
      const batch: Omit<CrawlEntry, 'id'>[] = [];
      for (const s of seeds) {
        if (typeof s !== 'string') throw new TypeError('crawl: each seed must be a URL string');
        if (skip(s)) continue;
        const { u, key } = keyOf(s);
        if (!seen.add(key)) continue;
        if (u !== null) scope.addSeed(u);
        if (count >= maxUrls) {
          limited = true;
          break;
        }
        count++;
        batch.push({ depth: 0, parent: -1, follow: u !== null && maxDepth > 0, url: s });
      }
      state.add(batch);
    }

    const results: CrawlResult[] = [];
    let wake: (() => void) | null = null;
    const fire = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    let running = 0;
    let failure: { e: unknown } | null = null;
    /** Ids of the pages whose links were taken last, with their URLs (at most PARENTS_KEPT). */
    const parents = new Map<number, string>();
    const parentUrl = (id: number): string | null => {
      if (id < 0) return null;
      return parents.get(id) ?? state.entry(id).url;
    };

    /**
     * `running` counts the visits under way (at most `parallel`); `settling` those whose links are
     * taken and whose verdict is still to come (a keeper's writes), at most `settlingMost`: a
     * visit leaves its place to the next URL as soon as its links are taken.
     */
    let settling = 0;
    const settlingMost = Math.max(parallel * SETTLING_PER_SLOT, SETTLING_LEAST);
    const run = async (e: CrawlEntry, release: () => void): Promise<void> => {
      const parsed = tryParse(e.url);
      let verdict: StoredVerdict;
      let followed = false;
      if (!(parsed instanceof Url)) {
        const err = parsed as LocatorError;
        verdict = { status: 'invalid', attempts: 0, ms: 0, reason: err.detail, code: err.code };
      } else {
        // robots.txt governs what the crawl reaches by following links: the URLs it starts from
        // are the operator's own choice, as a person's request through the gateway is.
        const place = options.robots && e.depth > 0 ? (options.robotsPlace?.(parsed) ?? null) : null;
        const answer = place !== null ? await options.robots!.ask(place) : null;
        if (answer !== null && !answer.allowed) {
          verdict = { status: 'refused', attempts: 0, ms: 0, reason: answer.reason, code: 'robots-disallowed' };
        } else {
          const v = await visit(parsed, e, e.follow);
          // A verdict to come that fails while the links are read is this visit's failure (the
          // crawl's, as a visitor's throw is), not an unhandled rejection.
          if (v.verdict instanceof Promise) v.verdict.catch(() => {});
          let notes: string[] = [];
          if (e.follow && v.links) {
            followed = true;
            notes = await take(e, v.links);
          }
          if (v.verdict instanceof Promise) {
            release();
            verdict = await v.verdict;
          } else verdict = v.verdict;
          if (notes.length > 0) verdict = { ...verdict, notes: [...(verdict.notes ?? []), ...notes] };
        }
      }
      if (followed) verdict = { ...verdict, followed: true };
      // The reader stopped (a `break` out of the results): the state is closed, nothing more is kept.
      if (stopped) return;
      state.done(e.id, verdict);
      results.push({
        ...verdict,
        url: e.url,
        parent: parentUrl(e.parent),
        depth: e.depth,
        follow: e.follow,
        resumed: false,
      });
    };

    /** Takes the links of `e` into the crawl; returns notes on what was not taken. */
    const take = async (e: CrawlEntry, links: AsyncIterable<string> | Iterable<string>): Promise<string[]> => {
      const batch: Omit<CrawlEntry, 'id'>[] = [];
      const notes: string[] = [];
      parents.set(e.id, e.url);
      if (parents.size > PARENTS_KEPT) parents.delete(parents.keys().next().value as number);
      /** Takes one link; false when no more may be taken (maxUrls). */
      const takeOne = (link: string): boolean => {
        if (skip(link)) return true;
        const { u, key } = keyOf(link);
        if (seen.has(key)) return true;
        if (count >= maxUrls) {
          limited = true;
          notes.push(`the limit of ${maxUrls} URLs (maxUrls) was reached: the rest of the links were not read`);
          return false;
        }
        seen.add(key);
        count++;
        batch.push({
          depth: e.depth + 1,
          parent: e.id,
          follow: u !== null && e.depth + 1 < maxDepth && scope.has(u),
          url: link,
        });
        if (batch.length >= BATCH && !stopped) {
          state.add(batch);
          batch.length = 0;
        }
        return true;
      };
      // Links read as they come (a listing's reader) are awaited one by one; a list already read
      // (a page's links) is taken in one pass, without a turn of the event loop per link.
      const it = (links as AsyncIterable<string>)[Symbol.asyncIterator]
        ? (links as AsyncIterable<string>)[Symbol.asyncIterator]()
        : null;
      try {
        if (it === null) {
          for (const link of links as Iterable<string>) if (!takeOne(link)) break;
        } else {
          for (;;) {
            const r = await it.next();
            if (r.done || !takeOne(r.value)) break;
          }
        }
      } catch (err) {
        notes.push(
          err instanceof CrawlNote
            ? err.message
            : `the links could not be read: ${err instanceof Error ? err.message : String(err)}`,
        );
      } finally {
        if (!stopped) state.add(batch);
        await it?.return?.();
      }
      // New URLs may start now, while this one's verdict is still to come (a visitor whose
      // verdict waits on its writes).
      fire();
      return notes;
    };

    for (;;) {
      let exhausted = false;
      while (running < parallel && running + settling < settlingMost) {
        const e = state.next();
        if (e === null) {
          exhausted = true;
          break;
        }
        running++;
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          running--;
          settling++;
          fire();
        };
        const end = () => {
          if (released) settling--;
          else running--;
          fire();
        };
        run(e, release).then(end, (err: unknown) => {
          failure ??= { e: err };
          end();
        });
      }
      if (results.length > 0) {
        const out = results.splice(0, results.length);
        for (const r of out) yield r;
        continue;
      }
      if (failure !== null) throw (failure as { e: unknown }).e;
      if (running === 0 && settling === 0 && exhausted) break;
      // No visit under way (none left, or the most verdicts allowed are awaited): only verdicts
      // to wait for, which the visitor may hasten.
      if (running === 0 && settling > 0) options.settle?.();
      await new Promise<void>((r) => (wake = r));
    }
  } finally {
    stopped = true;
    if (summary !== undefined) {
      summary.urls = count;
      summary.resumed = state.opened.resumed;
      summary.torn = state.opened.torn.urls + state.opened.torn.done;
      summary.stateBytes = state.bytes;
      summary.limited = limited;
    }
    state.close();
  }
}
