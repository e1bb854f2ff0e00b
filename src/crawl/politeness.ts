// The politeness engine: what every request to a server asks first, whoever makes it (the link
// checker, the crawl, the gateway's upstream requests). Not a rule of RFC 1738: the courtesy that
// small servers, often one machine in someone's home, need from a tool that reads them by the
// thousand. Per server (host and port):
// - at most `perServer` requests at once, and `concurrency` in all;
// - at least `delay` ms between the starts of two requests (raised by robots.txt's Crawl-delay);
//   when one request at a time is allowed, also from the end of one to the start of the next;
// - a token bucket of `rate` requests a second (bursts of `burst`), when a rate is set;
// - a pause when the server says it is busy: exactly the wait it asked for (HTTP Retry-After,
//   RFC 9110 10.2.3), else an exponential backoff with jitter (FTP 421, NNTP 400, a Gopher server
//   that closes at once), up to `maxWait`.
// Waiters of one server are served first come, first served; servers with waiters take turns in
// the order their oldest waiter came. Each pump looks at the servers that have waiters, not at
// every waiter, so a frontier of a million URLs on one server costs O(1) a start.
import { startTimer, type Timer } from '../clients/index.js';

export { parseRetryAfter } from '../clients/index.js';

/** Gives back the slot taken by acquire(); idempotent. */
export type Release = () => void;

export interface PolitenessOptions {
  /** Requests under way at once, all servers together. */
  concurrency: number;
  /** Requests under way at once to one server. */
  perServer: number;
  /** Milliseconds at least between the starts of two requests to one server (perServer 1: also from the end of one to the start of the next). */
  delay: number;
  /** Requests a second to one server (a token bucket); 0 or absent: only `delay` limits the rate. */
  rate?: number;
  /** The bucket's size: how many requests may start back to back after a quiet spell (default 1). */
  burst?: number;
  /** The longest wait honoured when a server asks for one (Retry-After, Crawl-delay), in ms (default 10 min). */
  maxWait?: number;
  /** The first backoff after a busy reply with no Retry-After, in ms, doubled each time (default 1000). */
  backoff?: number;
  /**
   * Keep each server's state and figures for report() (default true: a check or a crawl). A
   * long-running gateway sets false: a server's state is dropped once it is idle and owes no wait,
   * so memory follows the servers in use, not every server ever asked.
   */
  keepStats?: boolean;
  /** The clock (ms) and the source of jitter, for tests. */
  now?: () => number;
  random?: () => number;
}

/** What the engine did for one server, for the report (docs/check.md, "Politeness"). */
export interface ServerPoliteness {
  server: string;
  /** Requests started. */
  requests: number;
  /** The delay between starts in force (the option, or the server's Crawl-delay when longer). */
  delay: number;
  /** The Crawl-delay the server's robots.txt asked for (ms), or null. */
  crawlDelay: number | null;
  /** Waits the server asked for with Retry-After, and the ones chosen by backoff after a busy reply. */
  retryAfterWaits: number;
  backoffWaits: number;
  /** The longest single pause (ms). */
  longestPause: number;
  /** Total ms requests waited for this server's turn beyond the moment they asked. */
  waited: number;
}

/** With keepStats false, idle servers' states are swept when this many are kept. */
export const SWEEP_AT = 4096;

/** The default longest wait honoured (10 minutes). */
export const DEFAULT_MAX_WAIT = 10 * 60 * 1000;

interface Waiter {
  server: string;
  since: number;
  resolve: (release: Release) => void;
}

interface ServerState {
  active: number;
  /** The earliest time (ms, the engine's clock) at which the next request may start. */
  next: number;
  /** Tokens in the bucket at `stamp`. */
  tokens: number;
  stamp: number;
  /** The waiters of this server, first come first served (a ring: `head` is the first). */
  queue: (Waiter | undefined)[];
  head: number;
  /** Consecutive busy replies (for the backoff's exponent); reset by a request that was not busy. */
  busy: number;
  stats: ServerPoliteness;
}

/**
 * The per-server limits above. `acquire(server)` waits for a turn; the release it resolves to ends
 * it. `pause(server, ms)` holds every request to that server back for `ms`.
 */
export class Politeness {
  readonly #o: Required<Omit<PolitenessOptions, 'now' | 'random' | 'keepStats'>>;
  readonly #keep: boolean;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #servers = new Map<string, ServerState>();
  /** Servers with waiters, in the order their oldest waiter came. */
  readonly #waiting = new Set<string>();
  /** Crawl-delays set by robots.txt, per server, kept for the run. */
  readonly #crawlDelays = new Map<string, number>();
  #active = 0;
  #timer: Timer | null = null;
  #timerAt = Infinity;

  constructor(options: PolitenessOptions) {
    const positive = (name: string, v: number | undefined, dflt: number, min: number) => {
      const x = v ?? dflt;
      if (typeof x !== 'number' || !(x >= min) || (!Number.isInteger(x) && Number.isFinite(x) && name !== 'rate'))
        throw new RangeError(`politeness: ${name} must be a number >= ${min}, not ${String(v)}`);
      return x;
    };
    this.#o = {
      concurrency: positive('concurrency', options.concurrency, 1, 1),
      perServer: positive('perServer', options.perServer, 1, 1),
      delay: positive('delay', options.delay, 0, 0),
      rate: positive('rate', options.rate, 0, 0),
      burst: positive('burst', options.burst, 1, 1),
      maxWait: positive('maxWait', options.maxWait, DEFAULT_MAX_WAIT, 0),
      backoff: positive('backoff', options.backoff, 1000, 0),
    };
    this.#keep = options.keepStats !== false;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
  }

  /** Requests under way now. */
  get active(): number {
    return this.#active;
  }

  /** The longest wait honoured (ms): a server asking for more is given up for the run by the caller. */
  get maxWait(): number {
    return this.#o.maxWait;
  }

  /** Waits for a turn at `server` (a server key: host and port); resolves to the function that ends it. */
  acquire(server: string): Promise<Release> {
    return new Promise((resolve) => {
      const s = this.#state(server);
      s.queue.push({ server, since: this.#now(), resolve });
      this.#waiting.add(server);
      this.#pump();
    });
  }

  /** Runs `fn` in a turn at `server`. */
  async run<T>(server: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(server);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * The server asked to be left alone (a 429 or 503 with Retry-After, an FTP 421, an NNTP 400, a
   * Gopher server that closed at once): no request to it starts for the wait it asked for
   * (`retryAfter`, ms), or, when it named none, for a backoff doubled at each busy reply in a row,
   * with full jitter in its upper half. Returns the wait chosen; when it is more than `maxWait`
   * nothing is paused and the caller should give up on the server (the returned wait says how
   * long it asked for).
   */
  pause(server: string, retryAfter: number | null): number {
    const s = this.#state(server);
    s.busy++;
    let wait: number;
    if (retryAfter !== null && retryAfter >= 0) {
      wait = Math.ceil(retryAfter);
      s.stats.retryAfterWaits++;
    } else {
      const base = this.#o.backoff * 2 ** Math.min(s.busy - 1, 20);
      wait = Math.round(base / 2 + (this.#random() * base) / 2);
      s.stats.backoffWaits++;
    }
    if (wait > this.#o.maxWait) return wait;
    s.next = Math.max(s.next, this.#now() + wait);
    if (wait > s.stats.longestPause) s.stats.longestPause = wait;
    this.#pump();
    return wait;
  }

  /** A reply that was not busy: the backoff starts again from its first step. */
  calm(server: string): void {
    const s = this.#servers.get(server);
    if (s !== undefined) s.busy = 0;
  }

  /** The server's robots.txt asks for `ms` between requests (Crawl-delay): the delay in force is the longer. */
  setCrawlDelay(server: string, ms: number): void {
    const d = Math.min(Math.max(0, ms), this.#o.maxWait);
    this.#crawlDelays.set(server, d);
    const s = this.#state(server);
    s.stats.crawlDelay = ms;
    s.stats.delay = Math.max(this.#o.delay, d);
    // Asked as robots.txt has just been read: the next request waits the delay from now.
    s.next = Math.max(s.next, this.#now() + d);
  }

  /** What the engine did for each server it saw, in the order it first saw them. */
  report(): ServerPoliteness[] {
    return [...this.#servers.values()].map((s) => ({ ...s.stats }));
  }

  #delayOf(server: string): number {
    const d = this.#crawlDelays.get(server);
    return d === undefined ? this.#o.delay : Math.max(this.#o.delay, d);
  }

  #state(server: string): ServerState {
    let s = this.#servers.get(server);
    if (s === undefined) {
      const now = this.#now();
      if (!this.#keep && this.#servers.size >= SWEEP_AT) this.#sweep(now);
      s = {
        active: 0,
        next: 0,
        tokens: this.#o.burst,
        stamp: now,
        queue: [],
        head: 0,
        busy: 0,
        stats: {
          server,
          requests: 0,
          delay: this.#delayOf(server),
          crawlDelay: null,
          retryAfterWaits: 0,
          backoffWaits: 0,
          longestPause: 0,
          waited: 0,
        },
      };
      this.#servers.set(server, s);
    }
    return s;
  }

  /** The time at which `s` may start a request (<= now: at once), the bucket refilled to `now`. */
  #readyAt(s: ServerState, now: number): number {
    let at = s.next;
    if (this.#o.rate > 0) {
      s.tokens = Math.min(this.#o.burst, s.tokens + ((now - s.stamp) * this.#o.rate) / 1000);
      s.stamp = now;
      if (s.tokens < 1) at = Math.max(at, now + Math.ceil(((1 - s.tokens) * 1000) / this.#o.rate));
    }
    return at;
  }

  #pump(): void {
    const now = this.#now();
    let wakeAt = Infinity;
    // One start per visit; a server that started one and has more waiters goes to the end of the
    // turn order, so servers take turns. The loop ends: a server is visited again only after a
    // start, and starts are bounded by `concurrency`.
    for (const server of this.#waiting) {
      if (this.#active >= this.#o.concurrency) break;
      const s = this.#servers.get(server)!;
      if (s.active >= this.#o.perServer) continue;
      const at = this.#readyAt(s, now);
      if (at > now) {
        wakeAt = Math.min(wakeAt, at);
        continue;
      }
      const w = s.queue[s.head]!;
      s.queue[s.head++] = undefined;
      s.active++;
      this.#active++;
      s.next = now + this.#delayOf(server);
      if (this.#o.rate > 0) s.tokens -= 1;
      s.stats.requests++;
      s.stats.waited += now - w.since;
      this.#waiting.delete(server);
      if (s.head >= s.queue.length) {
        s.queue = [];
        s.head = 0;
      } else {
        if (s.head >= 1024 && s.head * 2 >= s.queue.length) {
          s.queue = s.queue.slice(s.head);
          s.head = 0;
        }
        this.#waiting.add(server);
      }
      w.resolve(this.#releaser(s));
    }
    if (wakeAt < Infinity && wakeAt < this.#timerAt) {
      this.#timer?.clear();
      this.#timerAt = wakeAt;
      // startTimer(): a wait past 2^31-1 ms is chained, where setTimeout() would fire at once.
      this.#timer = startTimer(Math.max(0, wakeAt - now), () => {
        this.#timer = null;
        this.#timerAt = Infinity;
        this.#pump();
      });
    }
  }

  /** Drops the state of every idle server that owes no wait (keepStats false). */
  #sweep(now: number): void {
    for (const [key, s] of this.#servers)
      if (s.active === 0 && s.head >= s.queue.length && s.next <= now) this.#servers.delete(key);
  }

  /** Servers whose state is kept (for tests of the gateway's bound). */
  get servers(): number {
    return this.#servers.size;
  }

  #releaser(s: ServerState): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      s.active--;
      this.#active--;
      // One request at a time: the delay runs from the end of a request too, so a server that
      // records arrival times sees no two requests closer than it, however long the connection
      // took to set up. With several at once requests overlap and no such gap can be promised:
      // the delay spaces their starts only (as LinkChecker's maxrequestspersecond does), and a
      // gap after each answer would cost a crawl the answer's whole latency on every request.
      if (this.#o.perServer === 1) {
        const delay = this.#delayOf(s.stats.server);
        if (delay > 0) s.next = Math.max(s.next, this.#now() + delay);
      }
      if (!this.#keep && s.active === 0 && s.head >= s.queue.length && s.busy === 0 && s.next <= this.#now())
        this.#servers.delete(s.stats.server);
      this.#pump();
    };
  }
}
