// Fetching a server's robots.txt for RobotsCache, the same way for every crawl (check --recursive,
// archive): where the file is comes from the scheme's face, the request is made with open() in a
// turn of its server, and the outcome is classed as RFC 9309 2.3.1 says.
import { faceOf, open, startTimer, statusOf, TIMEOUT, type OpenOptions, type Resource } from '../clients/index.js';
import { LocatorError } from '../core/errors.js';
import type { Url } from '../core/url.js';
import type { Politeness } from './politeness.js';
import type { RobotsFetch, RobotsFetchResult, RobotsPlace } from './robots-cache.js';
import { ROBOTS_MAX_OCTETS } from './robots.js';
import { serverKey } from './scope.js';

/**
 * Where the robots.txt of a URL's server is, by its scheme's face (RFC 9309 2.3: `/robots.txt` of
 * a web server; the `robots.txt` selector of a Gopher server, the convention of Gopher crawlers),
 * or null for a scheme with none (FTP, news, WAIS, Prospero, file: are not restricted).
 */
export function robotsPlaceOf(u: Url): RobotsPlace | null {
  const p = faceOf(u).robots?.(u) ?? null;
  return p === null ? null : { server: serverKey(u), url: p.url, path: p.path };
}

/** Reads a body up to `max` octets (the rest is cancelled): the octets, and whether that was all. */
async function readUpTo(body: ReadableStream<Uint8Array>, max: number): Promise<{ octets: Buffer; whole: boolean }> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  let whole = false;
  try {
    while (n < max) {
      const r = await reader.read();
      if (r.done) {
        whole = true;
        break;
      }
      parts.push(r.value);
      n += r.value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return { octets: Buffer.concat(parts), whole };
}

/**
 * What a crawl that keeps its robots.txt fetches (the archive) asks of each one: `options` added
 * to its open() (a transcript, the HTTP capture), and `done`, called after the server's turn
 * with what open() gave (its body read as far as the parser reads it: `whole` when to its end),
 * or null when open() failed (a 404, a Gopher error item, a network error). A failure of `done`
 * is its own: the robots.txt outcome is the same.
 */
export interface RobotsTap {
  options?: OpenOptions;
  done(got: { resource: Resource; octets: Uint8Array; whole: boolean } | null): Promise<void>;
}

/**
 * Fetches robots.txt (RFC 9309 2.3) with open() in a turn of its server, redirects followed
 * (2.3.1.2): `found` with its text (ROBOTS_MAX_OCTETS and one more read, so that the parser can
 * say the file was cut), `unavailable` for a reply that says it is not there (a 4xx, a Gopher
 * error item: no restriction, 2.3.1.3), `unreachable` for everything else (a 5xx, a 429, a
 * network error, a URL the policy refuses: everything disallowed, 2.3.1.4). `options` are those
 * of every open() of the crawl; the transcript is not kept unless `tap` asks for it. `tap`, when
 * given, is asked for each fetch (see RobotsTap). `deadline` (ms, from the start of the server's
 * turn) bounds the whole fetch, which `options.timeout` bounds only between two reads: a server
 * that trickles its robots.txt forever is then `unreachable` at the deadline.
 */
export function robotsFetcher(
  politeness: Politeness,
  options: OpenOptions,
  tap?: (robotsUrl: string, server: string) => RobotsTap,
  deadline = Infinity,
): RobotsFetch {
  return async (robotsUrl, server) => {
    const t = tap?.(robotsUrl, server);
    let got: { resource: Resource; octets: Uint8Array; whole: boolean } | null = null;
    try {
      return await politeness.run(server, async (): Promise<RobotsFetchResult> => {
        const late = new LocatorError(
          TIMEOUT,
          -1,
          `robots.txt was not read whole within the deadline of ${deadline} ms`,
        );
        const limit = withDeadline(options.signal, deadline, late);
        try {
          const signal = limit.signal ?? options.signal;
          const r = await open(robotsUrl, {
            ...options,
            ...(signal !== undefined ? { signal } : {}),
            followRedirects: true,
            transcript: false,
            ...t?.options,
          });
          const read = await readUpTo(r.body, ROBOTS_MAX_OCTETS + 1);
          got = { resource: r, ...read };
          if (limit.signal?.reason === late) throw late;
          return {
            kind: 'found',
            text: new TextDecoder('utf-8').decode(read.octets.subarray(0, ROBOTS_MAX_OCTETS + 1)),
          };
        } catch (e) {
          if (!(e instanceof LocatorError)) throw e;
          const p = statusOf(e);
          // DEVIATION: RFC 9309 2.3.1.3 lets a crawler take any 4xx as "unavailable"; a 429 (too
          // many requests) is taken as "unreachable", as the big crawlers do: the server asks for
          // less. A busy server (429, 503) says so on the error; a 5xx otherwise only in its text.
          const serverError = /\banswered 5[0-9][0-9]\b/.test(e.message) || (p.reply?.startsWith('5') ?? false);
          if (limit.signal?.reason === late) return { kind: 'unreachable', why: late.message };
          if (p.status === 'broken' && p.busy !== true && !serverError) return { kind: 'unavailable', why: p.reason };
          return { kind: 'unreachable', why: p.reason };
        } finally {
          limit.stop();
        }
      });
    } finally {
      if (t) await t.done(got).catch(() => {});
    }
  };
}

/** A signal that fires `ms` after the call with `reason` (and with `own`), and the stop of its clock. */
function withDeadline(
  own: AbortSignal | undefined,
  ms: number,
  reason: LocatorError,
): { signal: AbortSignal | undefined; stop: () => void } {
  if (ms === Infinity) return { signal: undefined, stop: () => {} };
  const ac = new AbortController();
  const timer = startTimer(ms, () => ac.abort(reason));
  const onAbort = () => ac.abort(own?.reason);
  if (own?.aborted) onAbort();
  else own?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: ac.signal,
    stop: () => {
      timer.clear();
      own?.removeEventListener('abort', onAbort);
    },
  };
}
