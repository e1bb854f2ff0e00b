// The checker's traffic limits (docs/check.md): the politeness engine of src/crawl/politeness.ts,
// which check(), the crawl and the gateway share. HostLimiter is its name in locator/check since
// before the engine moved there, kept with its constructor: at most `total` probes at once, at
// most `perHost` at once to one server, and at least `delay` milliseconds between the starts of
// two probes to the same server; waiters of a server first come, first served, servers in turn.
import { Politeness } from '../crawl/politeness.js';

export type { Release } from '../crawl/politeness.js';

/**
 * Limits in total and per server, with a delay per server (the politeness engine, src/crawl/
 * politeness.ts, with only those three set). Not a spec rule: politeness to the servers checked.
 */
export class HostLimiter extends Politeness {
  constructor(total: number, perHost: number, delay: number, now: () => number = Date.now) {
    super({ concurrency: total, perServer: perHost, delay, now });
  }
}
