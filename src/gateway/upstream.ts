// The gateway's requests to remote servers, within the shared politeness engine (src/crawl/
// politeness.ts): per server at most a few at once, a delay between starts, a pause when a
// server says it is busy. Not robots.txt: a person's request through the gateway is not a crawl.

import type { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { ABORTED, FtpReplyError, NntpReplyError, type Resource } from '../clients/index.js';
import { Politeness, type Release } from '../crawl/politeness.js';
import { serverKey } from '../crawl/scope.js';

export interface UpstreamOptions {
  /** Requests at once to one server (default 4). */
  perServer?: number;
  /** Milliseconds at least between the starts of two requests to one server (default 0). */
  delay?: number;
  /** Requests at once, all servers together (default 64). */
  concurrency?: number;
}

/** The politeness engine of a gateway: no state kept for a server once it is idle and owes no wait. */
export function upstreamPoliteness(o: UpstreamOptions = {}): Politeness {
  return new Politeness({
    concurrency: o.concurrency ?? 64,
    perServer: o.perServer ?? 4,
    delay: o.delay ?? 0,
    maxWait: 60_000,
    keepStats: false,
  });
}

/**
 * A server's way of saying it is busy, for the pause it asks: an FTP 421 ("Service not available,
 * closing control connection", RFC 959 4.2) or an NNTP 400 ("Service temporarily unavailable",
 * RFC 3977 3.2.1). Neither names a wait: the engine backs off.
 */
function busy(e: unknown): boolean {
  return (e instanceof FtpReplyError && e.replyCode === 421) || (e instanceof NntpReplyError && e.replyCode === 400);
}

/**
 * Opens `url` by `fetch` in a turn at its server: the turn is held until the object's transfer
 * ends (read to its end, failed or cancelled), so that the limit per server counts transfers,
 * not connection setups. A request whose reader goes away while it waits for its turn gives the
 * turn back as soon as it gets it.
 */
export async function politely(
  engine: Politeness,
  url: Url,
  signal: AbortSignal,
  fetch: () => Promise<Resource>,
): Promise<Resource> {
  const server = serverKey(url);
  const turn = engine.acquire(server);
  const release = await new Promise<Release>((resolve, reject) => {
    const stop = () => {
      void turn.then((r) => r());
      reject(new LocatorError(ABORTED, -1, 'the client went away or the time ran out'));
    };
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    void turn.then((r) => {
      signal.removeEventListener('abort', stop);
      if (signal.aborted) r();
      else resolve(r);
    });
  });
  // Whatever the reader does with the body, the turn ends with the request (the gateway aborts
  // the signal when the answer ends, whichever way).
  signal.addEventListener('abort', release, { once: true });
  let r: Resource;
  try {
    r = await fetch();
  } catch (e) {
    if (busy(e)) engine.pause(server, null);
    release();
    throw e;
  }
  engine.calm(server);
  const reader = r.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      try {
        const x = await reader.read();
        if (x.done) {
          release();
          c.close();
        } else c.enqueue(x.value);
      } catch (e) {
        release();
        throw e;
      }
    },
    cancel(why) {
      release();
      return reader.cancel(why);
    },
  });
  return { meta: r.meta, body };
}
