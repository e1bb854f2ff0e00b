// check(): the link checker of issue 18 ("operations over clients"). URLs given as strings, or
// found in documents with extract() (RFC 1738 appendix), are read and linted before any network
// use (RFC 1738 2, 5, 6), probed once per normal form (RFC 1738 2.1, src/normalize.ts) within the
// limits of ./limiter.ts, retried when the failure is temporary, and, with `recursive`, the links
// of Gopher menus and FTP listings on the same server are checked too (./recurse.ts).
//
// Order: results come in input order (default): each URL where it was found, and after a
// followed menu or listing the links found in it (depth first). A result waits for those before
// it; at most `window` URLs are under way or waiting to be reported, so one slow server holds
// back at most that many. `order: 'completion'` reports each as soon as it is known.
import { Url, expectUrl } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { tryParse } from '../schemes/registry.js';
import { lint } from '../lint.js';
import { objectKey } from '../normalize.js';
import { extractStream, type ExtractOptions, type TextSource } from '../extract/index.js';
import type { TranscriptLine } from '../clients/types.js';
import type { CheckStatus, ProbeOptions, ProbeResult } from '../clients/probe/types.js';
import { HostLimiter } from './limiter.js';
import { followable, listChildren, serverKey, type ChildLister } from './recurse.js';

export type { CheckStatus } from '../clients/probe/types.js';

/** A document to read URLs from: a name for the report and its text (a string or chunks of text or UTF-8 bytes). */
export interface CheckDocument {
  file: string;
  text: string | TextSource;
}

/** What check() takes: URL strings (checked as given) and documents (read with extract()). */
export type CheckInput = string | CheckDocument;

/** Where a URL was found: the document and the 1-based line and column of its first character. */
export interface Where {
  file: string;
  line: number;
  column: number;
}

/** The probe check() calls for each distinct URL: `probe` of locator/clients by default. */
export type ProbeFunction = (url: Url, options: ProbeOptions) => Promise<ProbeResult>;

export interface CheckOptions extends ProbeOptions {
  /** Probes at once, in total (default 8). */
  concurrency?: number;
  /** Probes at once to one server, host and port (default 2). */
  perHost?: number;
  /** Milliseconds between the starts of two probes to the same server (default 0). */
  delay?: number;
  /** Tries again after a temporary failure (a 4xx reply of FTP/NNTP/SMTP, a timeout): this many times (default 1). */
  retries?: number;
  /** Milliseconds before the first retry, doubled for each further one (default 1000). */
  retryDelay?: number;
  /** Follow the links of Gopher menus and FTP directory listings on the same server (default false). */
  recursive?: boolean;
  /** With `recursive`: how many levels below the URLs given (default 3). */
  maxDepth?: number;
  /** With `recursive`: how many distinct URLs to check at most, those given included (default 1000). */
  maxUrls?: number;
  /** `input` (default): results in input order (see the head of this file); `completion`: as they are known. */
  order?: 'input' | 'completion';
  /** How many URLs may be under way or waiting to be reported at once (default 1000). */
  window?: number;
  /** The options of extract() for documents. */
  extract?: ExtractOptions;
  /** The probe (default: `probe` of src/clients/probe/): tests pass a fake. */
  probe?: ProbeFunction;
  /** What --recursive reads the links of a menu or listing with (default: ./recurse.ts). */
  children?: ChildLister;
  /**
   * The hosts whose netrc entries (the `default` entry included) a probe may use (`--netrc-host`).
   * The URLs checked come from documents, menus and listings, not from the user: without this,
   * no netrc entry is read at all (`netrc: false`), so no password goes to a server a document names.
   */
  netrcHosts?: string[];
}

/** The report on one occurrence of a URL. */
export interface CheckResult {
  /** The URL as found (a wrapper and `URL:` removed); passwords are the caller's to hide (src/redact.ts). */
  url: string;
  status: CheckStatus;
  /** Why: the reply code and text, the violation, or the error's message. */
  reason: string;
  /** The diagnostic or error code that decided it, when one did. */
  code?: string;
  /** The protocol's reply code, when there was one. */
  reply?: string;
  /** The URLs the redirects went to, in order. */
  redirects: string[];
  /** Where it was found; null for a URL given as a string (or found by --recursive: see `parent`). */
  where: Where | null;
  /** The menu or listing it was found in (--recursive), else null. */
  parent: string | null;
  /** 0 for the URLs given and found in documents; one more per menu or listing followed. */
  depth: number;
  /** How many probes were sent for its normal form (0 for invalid; retries count). */
  attempts: number;
  /** True when an earlier occurrence of the same normal form was probed, and this one shares its answer. */
  duplicate: boolean;
  /** Notes: links of a menu left out by maxUrls, a listing that could not be read. */
  notes: string[];
  /** Milliseconds the probes took (the last try). */
  ms: number;
  /** What was sent and received, when `transcript` was asked for. */
  transcript: TranscriptLine[];
}

const DEFAULTS = {
  concurrency: 8,
  perHost: 2,
  delay: 0,
  retries: 1,
  retryDelay: 1000,
  maxDepth: 3,
  maxUrls: 1000,
  window: 1000,
};

function whole(name: string, v: number | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !(Number.isSafeInteger(v) || v === Infinity) || v < min) {
    throw new RangeError(`check: ${name} must be a whole number of at least ${min}, not ${String(v)}`);
  }
  return v;
}

/** One URL found: where, how deep, and its report once known. */
interface Occurrence {
  url: string;
  where: Where | null;
  parent: string | null;
  depth: number;
  /** The server whose links --recursive follows from here (that of the URL given); null for a URL given. */
  home: string | null;
  children: Occurrence[];
  result: CheckResult | null;
  settled: Promise<void>;
}

/** The outcome of a probe shared by the occurrences of one normal form. */
interface Task {
  outcome: Promise<{ r: ProbeResult; attempts: number }>;
}

/**
 * The probe options with the netrc rule of check: `netrc: false` unless `netrcHosts` names hosts,
 * whose entries only may then be used (RFC 1738 3.2.1 leaves the user and password to the URL;
 * a password the URL does not give is the operator's, for the hosts the operator names).
 */
function credentialsOnlyFor(options: ProbeOptions & { netrcHosts?: string[] }): ProbeOptions {
  const hosts = options.netrcHosts;
  if (hosts === undefined || hosts.length === 0) {
    const { netrcHosts: _none, ...rest } = options;
    return { ...rest, netrc: false };
  }
  if (!Array.isArray(hosts) || hosts.some((h) => typeof h !== 'string' || h === '')) {
    throw new RangeError('check: netrcHosts must be an array of host names');
  }
  // `netrcHosts` is an option of open() (the netrc entries of those hosts only); typed here as well.
  return { ...options, netrcHosts: [...hosts] } as ProbeOptions;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A wake-up signal: wait() resolves at the next fire(). */
class Signal {
  #waiters: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  fire(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const f of w) f();
  }
}

class Engine {
  readonly o: Required<Omit<CheckOptions, keyof ProbeOptions | 'extract' | 'probe' | 'children' | 'netrcHosts'>>;
  readonly probeOptions: ProbeOptions;
  readonly extractOptions: ExtractOptions | undefined;
  readonly limiter: HostLimiter;
  readonly probe: ProbeFunction | null;
  readonly children: ChildLister;
  readonly tasks = new Map<string, Task>();
  readonly expanded = new Set<string>();
  /** Occurrences created and not yet reported (the window). */
  pending = 0;
  readonly changed = new Signal();
  readonly ready: Occurrence[] = [];

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
      extract,
      probe,
      children,
      ...probeOptions
    } = options;
    if (order !== undefined && order !== 'input' && order !== 'completion') {
      throw new RangeError(`check: order must be "input" or "completion", not ${String(order)}`);
    }
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
    };
    this.probeOptions = credentialsOnlyFor(probeOptions);
    this.extractOptions = extract;
    this.limiter = new HostLimiter(this.o.concurrency, this.o.perHost, this.o.delay);
    this.probe = probe ?? null;
    this.children = children ?? listChildren;
  }

  /** The probe options for a URL: no netrc at all unless its host is one of netrcHosts. */
  optionsFor(u: Url): ProbeOptions {
    const hosts = (this.probeOptions as { netrcHosts?: string[] }).netrcHosts;
    if (hosts === undefined) return this.probeOptions;
    const host = (u.host ?? '').toLowerCase();
    return hosts.some((h) => h.toLowerCase() === host) ? this.probeOptions : { ...this.probeOptions, netrc: false };
  }

  async probeFunction(): Promise<ProbeFunction> {
    if (this.probe !== null) return this.probe;
    const m = await import('../clients/probe/index.js');
    return m.probe;
  }

  /** Probes one normal form: in a slot of its server, again after a temporary failure (with backoff). */
  async runTask(u: Url): Promise<{ r: ProbeResult; attempts: number }> {
    const probe = await this.probeFunction();
    const host = serverKey(u);
    for (let attempt = 1; ; attempt++) {
      const r = await this.limiter.run(host, () => probe(u, this.optionsFor(u)));
      const retry = r.temporary && (r.status === 'broken' || r.status === 'unreachable');
      if (!retry || attempt > this.o.retries) return { r, attempts: attempt };
      await sleep(this.o.retryDelay * 2 ** (attempt - 1));
    }
  }

  /** Creates the occurrence of `url` and starts its check. */
  add(url: string, where: Where | null, parent: string | null, depth: number, home: string | null = null): Occurrence {
    const occ: Occurrence = { url, where, parent, depth, home, children: [], result: null, settled: Promise.resolve() };
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
    return {
      url: occ.url,
      redirects: [],
      where: occ.where,
      parent: occ.parent,
      depth: occ.depth,
      attempts: 0,
      duplicate: false,
      notes: [],
      ms: 0,
      transcript: [],
      ...r,
    };
  }

  /** Syntax and lint first (RFC 1738 2, 5, 6: no byte is sent for an invalid URL), then the shared probe. */
  async settle(occ: Occurrence): Promise<void> {
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
    const key = objectKey(u);
    let task = this.tasks.get(key);
    const duplicate = task !== undefined;
    if (task === undefined) {
      this.counted.add(key);
      task = { outcome: this.runTask(u) };
      this.tasks.set(key, task);
    }
    const { r, attempts } = await task.outcome;
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
    if (
      this.o.recursive &&
      !duplicate &&
      occ.depth < this.o.maxDepth &&
      (r.status === 'ok' || r.status === 'redirected') &&
      followable(u) &&
      (occ.home === null || occ.home === serverKey(u)) &&
      !this.expanded.has(key)
    ) {
      this.expanded.add(key);
      await this.expand(occ, u);
    }
  }

  /** --recursive: the links of a menu or listing, those on the same server and those elsewhere, up to maxUrls. */
  async expand(occ: Occurrence, u: Url): Promise<void> {
    let links: string[];
    try {
      links = await this.children(u, this.probeOptions, (host, fn) => this.limiter.run(host, fn));
    } catch (e) {
      occ.result?.notes.push(`the links could not be read: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const home = serverKey(u);
    let left = 0;
    const seen = new Set<string>();
    for (const link of links) {
      const c = tryParse(link);
      const key = c instanceof Url ? objectKey(c) : link;
      if (seen.has(key)) continue;
      seen.add(key);
      // Links to another server are checked, not followed (home): `recursive` stays on the same server.
      if (!this.counted.has(key)) {
        if (this.counted.size >= this.o.maxUrls) {
          left++;
          continue;
        }
        this.counted.add(key);
      }
      occ.children.push(this.add(link, null, u.href, occ.depth + 1, home));
    }
    if (left > 0) occ.result?.notes.push(`${left} link(s) not checked: the limit of ${this.o.maxUrls} URLs (maxUrls)`);
  }

  /** The normal forms checked or about to be, counted against maxUrls. */
  readonly counted = new Set<string>();

  /** Reads the inputs into occurrences, holding back while the window is full. */
  async produce(inputs: Iterable<CheckInput> | AsyncIterable<CheckInput>, top: Occurrence[]): Promise<void> {
    // False once the reader of the results has stopped (a `break` out of the loop): stop reading.
    const room = async (): Promise<boolean> => {
      while (this.pending >= this.o.window && !this.closed) await this.changed.wait();
      return !this.closed;
    };
    for await (const input of inputs as AsyncIterable<CheckInput>) {
      if (typeof input === 'string') {
        if (!(await room())) return;
        top.push(this.add(input, null, null, 0));
        this.changed.fire();
        continue;
      }
      if (input === null || typeof input !== 'object' || typeof input.file !== 'string') {
        throw new TypeError('check: each input must be a URL string or { file, text }');
      }
      const source = typeof input.text === 'string' ? [input.text] : input.text;
      for await (const m of extractStream(source, this.extractOptions)) {
        if (!(await room())) return;
        top.push(this.add(m.url, { file: input.file, line: m.line, column: m.column }, null, 0));
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
    const top: Occurrence[] = [];
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
    const emit = (occ: Occurrence): CheckResult => {
      this.pending--;
      this.changed.fire();
      return occ.result as CheckResult;
    };
    if (this.o.order === 'input') {
      const walk = async function* (occ: Occurrence): AsyncGenerator<CheckResult> {
        await occ.settled;
        yield emit(occ);
        for (const c of occ.children) yield* walk(c);
      };
      for (let i = 0; ; i++) {
        while (i >= top.length && !finished) await this.changed.wait();
        if (i >= top.length) break;
        yield* walk(top[i]);
      }
    } else {
      for (;;) {
        while (this.ready.length === 0 && !(finished && this.pending === 0)) await this.changed.wait();
        if (this.ready.length === 0) break;
        yield emit(this.ready.shift() as Occurrence);
      }
    }
    await producing;
    if (failure !== null) throw (failure as { e: unknown }).e;
  }
}

/**
 * Checks URLs (issue 18): each string of `inputs` is a URL, each `{ file, text }` a document whose
 * URLs are found with extract() (RFC 1738 appendix). Yields one CheckResult per occurrence, in
 * input order unless `order: 'completion'`. A URL with a syntax error or a lint finding of
 * severity error (RFC 1738 2, 5, 6) is `invalid`, with no network use; the others are probed once
 * per normal form (RFC 1738 2.1), within the limits, and retried after a temporary failure.
 * Options are checked when called: a RangeError for a bad one.
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

/** A URL string or record, checked on its own: the first result of check() (issue 18). */
export async function checkOne(url: string | Url, options: CheckOptions = {}): Promise<CheckResult> {
  expectUrl(url, 'checkOne: the URL');
  for await (const r of check([typeof url === 'string' ? url : url.href], options)) return r;
  throw new Error('check yielded nothing');
}
