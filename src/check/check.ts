// check(): the link checker, an operation over the clients (docs/layering.md). URLs given as strings, or
// found in documents with extract() (RFC 1738 appendix), are read and linted before any network
// use (RFC 1738 2, 5, 6), probed once per normal form (RFC 1738 2.1, src/operations/normalize.ts) within the
// limits of the politeness engine (src/crawl/politeness.ts), retried when the failure is
// temporary, and, with `recursive`, the URLs given whose links can be read are the seeds of a
// crawl (src/crawl/engine.ts, ./crawl.ts) that checks what it reaches, breadth first.
//
// Order: results come in input order (default): each URL where it was found; with `recursive`,
// the crawl's results follow as they are reached. A result waits for those before it; at most
// `window` URLs are under way or waiting to be reported, so one slow server holds back at most
// that many. `order: 'completion'` reports each as soon as it is known.
import { Url, expectUrl } from '../core/url.js';
import { LocatorError, UNSAFE_CHAR } from '../core/errors.js';
import { tryParse } from '../schemes/registry.js';
import { lint } from '../operations/lint.js';
import { objectKey } from '../operations/normalize.js';
import { extractStream, type ExtractOptions } from '../extract/index.js';
import {
  DEFAULT_TIMEOUT,
  probe as probeUrl,
  type CheckStatus,
  type ProbeOptions,
  type ProbeResult,
} from '../clients/index.js';
import { Politeness } from '../crawl/politeness.js';
import { RobotsCache } from '../crawl/robots-cache.js';
import { crawl, type CrawlResult } from '../crawl/engine.js';
import { crawlVisitor, hasLinks, robotsFetcher, robotsPlaceOf, ROBOTS_TOKEN, type Seed } from './crawl.js';
import { listChildren, serverKey, type ChildLister } from './recurse.js';
import { DEFAULTS, credentialsOnlyFor, whole } from './options.js';
import { Queue, Signal, sleep } from './schedule.js';
import { probeWithin } from './deadline.js';
import { GopherSoftErrors } from './gopher-soft.js';
import type {
  CheckDocument,
  CheckInput,
  CheckOptions,
  CheckResult,
  Found,
  Occurrence,
  Outcome,
  ProbeFunction,
  Where,
} from './types.js';

export type { CheckStatus } from '../clients/index.js';
export type {
  CheckDocument,
  FoundLink,
  CheckLinks,
  CheckInput,
  Where,
  ProbeFunction,
  CheckOptions,
  CheckResult,
  PolitenessReport,
} from './types.js';

/** How many answers of probes are kept for the later occurrences of their URLs (the newest). */
export const ANSWERS_KEPT = 1000;

/** What is kept of a normal form once its probe is done and its answer is no longer kept: its status. */
const STATUS_CODES: readonly CheckStatus[] = ['ok', 'redirected', 'broken', 'refused', 'invalid', 'unreachable'];
/** Counted against maxUrls, its probe not yet done. */
const UNDER_WAY = -1;

/**
 * The memory of check() is bounded by the window, not by the number of URLs: an occurrence is
 * dropped once reported; of each normal form probed, only its string and a small number are kept
 * (`known`: to probe it once and count it against maxUrls), the answers themselves for the newest
 * ANSWERS_KEPT forms (`answers`). A later occurrence of an older form gets its status, without the
 * reason, and no second probe.
 */
class Engine {
  readonly o: Required<
    Omit<
      CheckOptions,
      | keyof ProbeOptions
      | 'extract'
      | 'probe'
      | 'children'
      | 'skip'
      | 'scope'
      | 'state'
      | 'ignoreRobots'
      | 'rate'
      | 'maxWait'
      | 'onPoliteness'
      | 'gopherSoftErrors'
    >
  >;
  readonly probeOptions: ProbeOptions;
  readonly extractOptions: ExtractOptions | undefined;
  readonly skip: (url: string) => boolean;
  readonly limiter: Politeness;
  /** robots.txt of the servers the crawl reaches (null: `ignoreRobots`). */
  readonly robots: RobotsCache | null;
  /** The URLs given whose links the crawl follows (recursive), with their probes' answers. */
  readonly seeds: Seed[] = [];
  readonly crawlOptions: Pick<CheckOptions, 'scope' | 'state'>;
  readonly onPoliteness: CheckOptions['onPoliteness'];
  readonly ignoreRobots: boolean;
  readonly probe: ProbeFunction | null;
  readonly children: ChildLister;
  /** The soft-error test of Gopher documents (./gopher-soft.ts); null: `gopherSoftErrors: false`. */
  readonly softErrors: GopherSoftErrors | null;
  /** Each normal form counted or probed: UNDER_WAY, or the index of its status in STATUS_CODES. */
  readonly known = new Map<string, number>();
  /** The probes under way, by normal form. */
  readonly running = new Map<string, Promise<Outcome>>();
  /** The answers of the newest probes (at most ANSWERS_KEPT, in the order they came). */
  readonly answers = new Map<string, Outcome>();
  /** Occurrences created and not yet reported (the window). */
  pending = 0;
  readonly changed = new Signal();
  readonly ready = new Queue<Occurrence>();

  constructor(options: CheckOptions) {
    const {
      concurrency,
      perHost,
      delay,
      retries,
      retryDelay,
      recursive,
      maxDepth,
      maxUrls,
      order,
      window,
      deadline,
      extract,
      skip,
      probe,
      children,
      scope,
      state,
      ignoreRobots,
      rate,
      maxWait,
      onPoliteness,
      includeVerbatim,
      gopherSoftErrors,
      ...probeOptions
    } = options;
    if (order !== undefined && order !== 'input' && order !== 'completion') {
      throw new RangeError(`check: order must be "input" or "completion", not ${String(order)}`);
    }
    const timeout = probeOptions.timeout ?? DEFAULT_TIMEOUT;
    this.o = {
      concurrency: whole('concurrency', concurrency, DEFAULTS.concurrency, 1),
      perHost: whole('perHost', perHost, DEFAULTS.perHost, 1),
      delay: whole('delay', delay, DEFAULTS.delay, 0),
      retries: whole('retries', retries, DEFAULTS.retries, 0),
      retryDelay: whole('retryDelay', retryDelay, DEFAULTS.retryDelay, 0),
      recursive: recursive === true,
      maxDepth: whole('maxDepth', maxDepth, DEFAULTS.maxDepth, 0),
      maxUrls: whole('maxUrls', maxUrls, DEFAULTS.maxUrls, 1),
      order: order ?? 'input',
      window: whole('window', window, DEFAULTS.window, 1),
      deadline: whole('deadline', deadline, typeof timeout === 'number' && timeout > 0 ? timeout * 4 : Infinity, 1),
      includeVerbatim: includeVerbatim === true,
    };
    this.probeOptions = credentialsOnlyFor(probeOptions);
    this.extractOptions = extract;
    if (skip !== undefined && typeof skip !== 'function') throw new TypeError('check: skip must be a function');
    this.skip = skip ?? (() => false);
    this.limiter = new Politeness({
      concurrency: this.o.concurrency,
      perServer: this.o.perHost,
      delay: this.o.delay,
      ...(rate !== undefined ? { rate } : {}),
      ...(maxWait !== undefined ? { maxWait } : {}),
      backoff: this.o.retryDelay,
    });
    this.ignoreRobots = ignoreRobots === true;
    this.robots =
      this.o.recursive && !this.ignoreRobots
        ? new RobotsCache(
            ROBOTS_TOKEN,
            robotsFetcher(this.limiter, this.probeOptions, undefined, this.o.deadline),
            this.limiter,
          )
        : null;
    this.crawlOptions = { scope, state };
    if (onPoliteness !== undefined && typeof onPoliteness !== 'function')
      throw new TypeError('check: onPoliteness must be a function');
    this.onPoliteness = onPoliteness;
    this.probe = probe ?? null;
    this.children = children ?? listChildren;
    this.softErrors = gopherSoftErrors === false ? null : new GopherSoftErrors(this);
  }

  async probeFunction(): Promise<ProbeFunction> {
    return this.probe ?? probeUrl;
  }

  /**
   * Probes one normal form (or runs `once` instead of the probe), as tries() does; a Gopher
   * document's short answer is then compared with its server's answer to a selector that cannot
   * exist (./gopher-soft.ts), outside the turn of the probe (the baseline takes a turn of its own).
   */
  async runTask(u: Url, once?: () => Promise<ProbeResult>): Promise<Outcome> {
    const o = await this.tries(u, once);
    if (o.r.sample === undefined) return o;
    if (this.softErrors === null) {
      const { sample: _, ...r } = o.r;
      return { ...o, r };
    }
    return { ...o, r: await this.softErrors.judge(u, o.r) };
  }

  /**
   * Probes one normal form (or runs `once` instead of the probe): in a turn of its server, again
   * after a temporary failure (with backoff), after the wait a busy server asked for.
   */
  async tries(u: Url, once?: () => Promise<ProbeResult>): Promise<Outcome> {
    const probe = await this.probeFunction();
    const host = serverKey(u);
    for (let attempt = 1; ; attempt++) {
      // `once`: another request than the probe (a page read for its links), in the same turn.
      const r = await this.limiter.run(
        host,
        () => once?.() ?? probeWithin(probe, u, this.probeOptions, this.o.deadline),
      );
      const retry = r.temporary && (r.status === 'broken' || r.status === 'unreachable');
      if (r.busy === true) {
        // The server asked to be left alone (429/503 with Retry-After, FTP 421, NNTP 400, ...):
        // every request to it waits, not only this one's retry (src/crawl/politeness.ts).
        const wait = this.limiter.pause(host, r.retryAfter ?? null);
        if (wait > this.limiter.maxWait) {
          const note = `the server asked to wait ${Math.ceil(wait / 1000)} s, more than the longest wait honoured (${Math.ceil(this.limiter.maxWait / 1000)} s): not tried again`;
          return { r: { ...r, reason: `${r.reason}; ${note}` }, attempts: attempt };
        }
        if (attempt > this.o.retries) return { r, attempts: attempt };
        continue;
      }
      this.limiter.calm(host);
      if (!retry || attempt > this.o.retries) return { r, attempts: attempt };
      await sleep(this.o.retryDelay * 2 ** (attempt - 1));
    }
  }

  /** The probe of a normal form: started once; its answer kept among the newest, its status kept for good. */
  outcome(key: string, u: Url): { outcome: Promise<Outcome>; duplicate: boolean } {
    const kept = this.answers.get(key);
    if (kept !== undefined) return { outcome: Promise.resolve(kept), duplicate: true };
    const running = this.running.get(key);
    if (running !== undefined) return { outcome: running, duplicate: true };
    const status = this.known.get(key);
    if (status !== undefined && status !== UNDER_WAY) {
      // Probed long ago: its status is known, its reason is no longer kept (see the head of Engine).
      const r: ProbeResult = {
        status: STATUS_CODES[status] as ProbeResult['status'],
        reason: 'as an earlier occurrence of the same URL (its reason is no longer kept)',
        temporary: false,
        redirects: [],
        transcript: [],
        ms: 0,
      };
      return { outcome: Promise.resolve({ r, attempts: 1 }), duplicate: true };
    }
    this.known.set(key, UNDER_WAY);
    const outcome = this.runTask(u).then((o) => {
      this.running.delete(key);
      this.known.set(key, STATUS_CODES.indexOf(o.r.status));
      this.answers.set(key, { r: { ...o.r, transcript: [] }, attempts: o.attempts });
      if (this.answers.size > ANSWERS_KEPT) this.answers.delete(this.answers.keys().next().value as string);
      return o;
    });
    this.running.set(key, outcome);
    return { outcome, duplicate: false };
  }

  /** Creates the occurrence of `url` and starts its check. */
  add(url: string, where: Where | null, parent: string | null, depth: number, found: Found = {}): Occurrence {
    const occ: Occurrence = {
      url,
      where,
      parent,
      depth,
      found,
      result: null,
      settled: Promise.resolve(),
    };
    this.pending++;
    occ.settled = this.settle(occ).then(
      () => this.done(occ),
      (e: unknown) => {
        occ.result = this.result(occ, { status: 'unreachable', reason: `internal error: ${String(e)}` });
        this.done(occ);
      },
    );
    return occ;
  }

  done(occ: Occurrence): void {
    if (this.o.order === 'completion') this.ready.push(occ);
    this.changed.fire();
  }

  result(occ: Occurrence, r: Partial<CheckResult> & { status: CheckStatus; reason: string }): CheckResult {
    const notes = occ.found.note === undefined ? (r.notes ?? []) : [occ.found.note, ...(r.notes ?? [])];
    return {
      url: occ.url,
      redirects: [],
      where: occ.where,
      parent: occ.parent,
      depth: occ.depth,
      attempts: 0,
      duplicate: false,
      ms: 0,
      transcript: [],
      ...r,
      notes,
    };
  }

  /** Syntax and lint first (RFC 1738 2, 5, 6: no byte is sent for an invalid URL), then the shared probe. */
  async settle(occ: Occurrence): Promise<void> {
    const decide = occ.found.decide;
    if (decide !== undefined) {
      // What the reader left to decide (a fragment's document): read now, in a slot of its server.
      const { decide: _, ...found } = occ.found;
      occ.found = { ...found, ...(await decide((host, fn) => this.limiter.run(host, fn))) };
    }
    if (occ.found.verdict !== undefined) {
      occ.result = this.result(occ, occ.found.verdict);
      return;
    }
    const u = tryParse(occ.url);
    if (u instanceof LocatorError) {
      occ.result = this.result(occ, { status: 'invalid', reason: u.detail, code: u.code });
      return;
    }
    const errors = lint(u).filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      const d = errors[0];
      occ.result = this.result(occ, {
        status: 'invalid',
        reason: `${d.message} (${d.code} at ${d.offset}, ${d.section})`,
        code: d.code,
      });
      return;
    }
    if (occ.found.cutAt !== undefined) {
      // The text ran on through a character a bare URL may not hold (RFC 1738 2.2), which the
      // parser let pass: still not a URL as written, and the shorter one is not probed instead.
      const at = occ.found.cutAt.length;
      occ.result = this.result(occ, {
        status: 'invalid',
        reason: `the text runs on past ${JSON.stringify(occ.found.cutAt)} through ${JSON.stringify(occ.url.slice(at, at + 1))}, which may not appear unencoded (RFC 1738 2.2)`,
        code: UNSAFE_CHAR,
      });
      return;
    }
    const key = objectKey(u);
    const task = this.outcome(key, u);
    const { r, attempts } = await task.outcome;
    const duplicate = task.duplicate;
    occ.result = this.result(occ, {
      status: r.status,
      reason: r.reason,
      ...(r.code !== undefined ? { code: r.code } : {}),
      ...(r.reply !== undefined ? { reply: r.reply } : {}),
      redirects: r.redirects,
      attempts,
      duplicate,
      ms: r.ms,
      transcript: duplicate ? [] : r.transcript,
    });
    if (!this.o.recursive || duplicate || occ.depth >= this.o.maxDepth) return;
    if (r.status !== 'ok' && r.status !== 'redirected') return;
    // --recursive: the URLs given whose links can be read are the seeds of the crawl
    // (src/crawl/engine.ts), run once they are all reported; the crawl reports what it reaches.
    // Occurrences are the URLs given alone (depth 0): the crawl reports what it reaches.
    if (hasLinks(u, r)) {
      occ.deferred = true;
      this.seeds.push({ url: occ.url, u, r, attempts, result: occ.result, reported: false });
    }
  }

  /** Reads the inputs into occurrences, holding back while the window is full. */
  async produce(inputs: Iterable<CheckInput> | AsyncIterable<CheckInput>, top: Queue<Occurrence>): Promise<void> {
    // False once the reader of the results has stopped (a `break` out of the loop): stop reading.
    const room = async (): Promise<boolean> => {
      while (this.pending >= this.o.window && !this.closed) await this.changed.wait();
      return !this.closed;
    };
    for await (const input of inputs as AsyncIterable<CheckInput>) {
      if (typeof input === 'string') {
        if (this.skip(input)) continue;
        if (!(await room())) return;
        top.push(this.add(input, null, null, 0));
        this.changed.fire();
        continue;
      }
      if (input !== null && typeof input === 'object' && 'links' in input && typeof input.file === 'string') {
        for await (const l of input.links) {
          if (this.skip(l.url)) continue;
          if (!(await room())) return;
          const found: Found = { note: l.note, cutAt: l.cutAt, verdict: l.verdict, decide: l.decide };
          top.push(this.add(l.url, { file: input.file, line: l.line, column: l.column }, null, 0, found));
          this.changed.fire();
        }
        continue;
      }
      if (input === null || typeof input !== 'object' || typeof input.file !== 'string') {
        throw new TypeError('check: each input must be a URL string or { file, text }');
      }
      const text = (input as CheckDocument).text;
      const source = typeof text === 'string' ? [text] : text;
      for await (const m of extractStream(source, { ...this.extractOptions, written: true })) {
        if (this.skip(m.written?.why === 'run-on' ? m.written.text : m.url)) continue;
        if (!(await room())) return;
        const where = { file: input.file, line: m.line, column: m.column };
        // The document as written: a URL the text runs on past is reported as the whole run,
        // never as the shorter URL before it; ignored white space is noted.
        const w = m.written;
        if (w?.why === 'run-on') top.push(this.add(w.text, where, null, 0, { cutAt: m.url }));
        else if (w?.why === 'white-space') {
          const note = `white space in the wrapper ignored (RFC 1738 appendix): written ${JSON.stringify(w.text)}`;
          top.push(this.add(m.url, where, null, 0, { note }));
        } else top.push(this.add(m.url, where, null, 0));
        this.changed.fire();
      }
    }
  }

  /** True once the results are no longer read. */
  closed = false;

  async *run(inputs: Iterable<CheckInput> | AsyncIterable<CheckInput>): AsyncGenerator<CheckResult> {
    try {
      yield* this.results(inputs);
    } finally {
      this.closed = true;
      this.changed.fire();
    }
  }

  async *results(inputs: Iterable<CheckInput> | AsyncIterable<CheckInput>): AsyncGenerator<CheckResult> {
    const top = new Queue<Occurrence>();
    let finished = false;
    let failure: { e: unknown } | null = null;
    const producing = this.produce(inputs, top).then(
      () => {
        finished = true;
        this.changed.fire();
      },
      (e: unknown) => {
        finished = true;
        failure = { e };
        this.changed.fire();
      },
    );
    const emit = (occ: Occurrence): CheckResult | null => {
      this.pending--;
      this.changed.fire();
      const r = occ.result as CheckResult;
      occ.result = null;
      // A seed of the crawl is reported by the crawl (crawlResults()), with what it found.
      return occ.deferred === true ? null : r;
    };
    if (this.o.order === 'input') {
      // Each occurrence is reported in the order found, and let go once reported (the links the
      // crawl finds are reported by crawlResults(), after these).
      for (;;) {
        while (top.length === 0 && !finished) await this.changed.wait();
        const next = top.shift();
        if (next === undefined) break;
        await next.settled;
        const r = emit(next);
        if (r !== null) yield r;
      }
    } else {
      for (;;) {
        while (this.ready.length === 0 && !(finished && this.pending === 0)) await this.changed.wait();
        const next = this.ready.shift();
        if (next === undefined) break;
        const r = emit(next);
        if (r !== null) yield r;
      }
    }
    await producing;
    if (failure !== null) throw (failure as { e: unknown }).e;
    if (this.o.recursive) yield* this.crawlResults();
    this.onPoliteness?.({
      servers: this.limiter.report(),
      robots: this.robots?.report() ?? [],
      robotsIgnored: this.ignoreRobots,
    });
  }

  /**
   * --recursive: the crawl from the seeds (the URLs given whose links can be read), breadth first,
   * each normal form once, within the scope and the limits; the seeds themselves were reported.
   */
  async *crawlResults(): AsyncGenerator<CheckResult> {
    if (this.seeds.length === 0 || this.closed) return;
    const seedOf = new Map(this.seeds.map((s) => [s.url, s]));
    const visit = crawlVisitor(this, seedOf, this.robots);
    for await (const c of crawl(
      this.seeds.map((s) => s.url),
      visit,
      {
        scope: this.crawlOptions.scope,
        state: this.crawlOptions.state ?? null,
        maxDepth: this.o.maxDepth,
        // The URLs given are counted against maxUrls too (they were reported before the crawl).
        maxUrls: Math.max(1, this.o.maxUrls - this.known.size + this.seeds.length),
        skip: this.skip,
        robots: this.robots,
        robotsPlace: robotsPlaceOf,
        parallel: Math.max(1, this.o.concurrency * 2),
      },
    )) {
      // A URL an earlier run did not fetch for robots.txt: counted in this run's report too.
      if (c.resumed && c.code === 'robots-disallowed' && this.robots !== null) {
        const u = tryParse(c.url);
        const place = u instanceof Url ? robotsPlaceOf(u) : null;
        if (place !== null) await this.robots.carry(place);
      }
      const seed = c.depth === 0 ? seedOf.get(c.url) : undefined;
      if (seed !== undefined) {
        if (seed.reported) continue;
        seed.reported = true;
        // The seed as check() found it, with what the crawl adds (links not read).
        yield { ...seed.result, notes: [...seed.result.notes, ...(c.notes ?? [])] };
        continue;
      }
      yield fromCrawl(c);
    }
    // A seed the crawl did not report (a resumed state that began from other URLs) is reported all the same.
    for (const s of this.seeds) if (!s.reported) yield s.result;
  }
}

/** A crawl's verdict as check() reports it. */
function fromCrawl(c: CrawlResult): CheckResult {
  return {
    url: c.url,
    status: c.status as CheckStatus,
    reason: c.reason,
    ...(c.code !== undefined ? { code: c.code } : {}),
    ...(c.reply !== undefined ? { reply: c.reply } : {}),
    redirects: c.redirects ?? [],
    where: null,
    parent: c.parent,
    depth: c.depth,
    attempts: c.attempts,
    duplicate: false,
    ms: c.ms,
    transcript: [],
    notes: c.notes ?? [],
    ...(c.resumed ? { resumed: true } : {}),
  };
}

/**
 * Checks URLs (RFC 1738 3): each string of `inputs` is a URL, each `{ file, text }` a document whose
 * URLs are found with extract() (RFC 1738 appendix). Yields one CheckResult per occurrence, in
 * input order unless `order: 'completion'`. A URL with a syntax error or a lint finding of
 * severity error (RFC 1738 2, 5, 6) is `invalid`, with no network use; the others are probed once
 * per normal form (RFC 1738 2.1), within the limits, and retried after a temporary failure.
 * Options are checked when called: a RangeError for a bad one. The `user` and `password` options
 * are dropped (no server gets them); a netrc entry is used only for a host of `netrcHosts`.
 */
export function check(
  inputs: Iterable<CheckInput> | AsyncIterable<CheckInput>,
  options: CheckOptions = {},
): AsyncIterable<CheckResult> {
  if (inputs === null || typeof inputs !== 'object' || !(Symbol.iterator in inputs || Symbol.asyncIterator in inputs)) {
    throw new TypeError('check: the inputs must be an iterable of URL strings and { file, text } documents');
  }
  const engine = new Engine(options);
  return { [Symbol.asyncIterator]: () => engine.run(inputs) };
}

/** A URL string or record, checked on its own (RFC 1738 3): the first result of check(). */
export async function checkOne(url: string | Url, options: CheckOptions = {}): Promise<CheckResult> {
  expectUrl(url, 'checkOne: the URL');
  for await (const r of check([typeof url === 'string' ? url : url.href], options)) return r;
  throw new Error('check yielded nothing');
}
