// The checker's traffic limits (docs/check.md): at most `total` probes at once, at most `perHost` at
// once to one server, and at least `delay` milliseconds between the starts of two probes to the
// same server. Waiters are served first come, first served among those that may start.

import { startTimer, type Timer } from '../clients/index.js';

/** Gives back the slot taken by acquire(). */
export type Release = () => void;

interface Waiter {
  host: string;
  resolve: (release: Release) => void;
}

interface HostState {
  active: number;
  /** The earliest time (ms, the limiter's clock) at which the next probe to this server may start. */
  next: number;
}

/**
 * Limits in total and per server, with a delay per server. Not a spec rule: politeness to the
 * servers checked.
 */
export class HostLimiter {
  readonly #total: number;
  readonly #perHost: number;
  readonly #delay: number;
  readonly #now: () => number;
  readonly #queue: Waiter[] = [];
  readonly #hosts = new Map<string, HostState>();
  #active = 0;
  #timer: Timer | null = null;
  #timerAt = Infinity;

  constructor(total: number, perHost: number, delay: number, now: () => number = Date.now) {
    this.#total = total;
    this.#perHost = perHost;
    this.#delay = delay;
    this.#now = now;
  }

  /** Probes running now. */
  get active(): number {
    return this.#active;
  }

  /** Waits for a slot for `host` (a server key: host and port); resolves to the function that gives it back. */
  acquire(host: string): Promise<Release> {
    return new Promise((resolve) => {
      this.#queue.push({ host, resolve });
      this.#pump();
    });
  }

  /** Runs `fn` in a slot for `host`. */
  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(host);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  #pump(): void {
    const now = this.#now();
    let wakeAt = Infinity;
    for (let i = 0; i < this.#queue.length && this.#active < this.#total;) {
      const w = this.#queue[i];
      let h = this.#hosts.get(w.host);
      if (h === undefined) {
        h = { active: 0, next: 0 };
        this.#hosts.set(w.host, h);
      }
      if (h.active >= this.#perHost) {
        i++;
        continue;
      }
      if (h.next > now) {
        wakeAt = Math.min(wakeAt, h.next);
        i++;
        continue;
      }
      this.#queue.splice(i, 1);
      h.active++;
      h.next = now + this.#delay;
      this.#active++;
      w.resolve(this.#releaser(w.host, h));
    }
    if (wakeAt < Infinity && wakeAt < this.#timerAt) {
      this.#timer?.clear();
      this.#timerAt = wakeAt;
      // startTimer(): a delay past 2^31-1 ms is chained, where setTimeout() would fire at once (and again).
      this.#timer = startTimer(Math.max(0, wakeAt - now), () => {
        this.#timer = null;
        this.#timerAt = Infinity;
        this.#pump();
      });
    }
  }

  #releaser(host: string, h: HostState): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      h.active--;
      this.#active--;
      if (h.active === 0 && h.next <= this.#now()) this.#hosts.delete(host);
      this.#pump();
    };
  }
}
