// Fetching a server's robots.txt for RobotsCache, the same way for every crawl (check --recursive,
// archive): where the file is comes from the scheme's face, the request is made with open() in a
// turn of its server, and the outcome is classed as RFC 9309 2.3.1 says.
import { faceOf, open, statusOf, type OpenOptions } from '../clients/index.js';
import { LocatorError } from '../core/errors.js';
import type { Url } from '../core/url.js';
import type { Politeness } from './politeness.js';
import type { RobotsFetch, RobotsPlace } from './robots-cache.js';
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

/** Reads a body up to `max` octets; the rest is cancelled. */
async function readUpTo(body: ReadableStream<Uint8Array>, max: number): Promise<string> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  try {
    while (n < max) {
      const r = await reader.read();
      if (r.done) break;
      parts.push(r.value);
      n += r.value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(parts).subarray(0, max));
}

/**
 * Fetches robots.txt (RFC 9309 2.3) with open() in a turn of its server, redirects followed
 * (2.3.1.2): `found` with its text (ROBOTS_MAX_OCTETS and one more read, so that the parser can
 * say the file was cut), `unavailable` for a reply that says it is not there (a 4xx, a Gopher
 * error item: no restriction, 2.3.1.3), `unreachable` for everything else (a 5xx, a 429, a
 * network error, a URL the policy refuses: everything disallowed, 2.3.1.4). `options` are those
 * of every open() of the crawl; the transcript is not kept.
 */
export function robotsFetcher(politeness: Politeness, options: OpenOptions): RobotsFetch {
  return (robotsUrl, server) =>
    politeness.run(server, async () => {
      try {
        const r = await open(robotsUrl, { ...options, followRedirects: true, transcript: false });
        return { kind: 'found', text: await readUpTo(r.body, ROBOTS_MAX_OCTETS + 1) };
      } catch (e) {
        if (!(e instanceof LocatorError)) throw e;
        const p = statusOf(e);
        // DEVIATION: RFC 9309 2.3.1.3 lets a crawler take any 4xx as "unavailable"; a 429 (too
        // many requests) is taken as "unreachable", as the big crawlers do: the server asks for
        // less. A busy server (429, 503) says so on the error; a 5xx otherwise only in its text.
        const serverError = /\banswered 5[0-9][0-9]\b/.test(e.message) || (p.reply?.startsWith('5') ?? false);
        if (p.status === 'broken' && p.busy !== true && !serverError) return { kind: 'unavailable', why: p.reason };
        return { kind: 'unreachable', why: p.reason };
      }
    });
}
