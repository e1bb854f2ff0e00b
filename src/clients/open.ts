// open(): dereference a URL the way the specs say (RFC 1738 section 3), returning its metadata
// and a stream of its bytes. Exported by `locator/clients` (./index.ts); a driver: it asks each
// scheme's client through its face (./face-of.ts), which imports the protocol modules only when a
// URL of that scheme is opened, and no scheme's folder imports it (docs/layering.md).
//
// Redirects are followed here and nowhere else: a client that finds the object elsewhere (HTTP
// 3xx, a Gopher "URL:" link) answers with a Redirect, and the loop of open() (and followChain(),
// probe()'s) follows it with one budget for the whole chain. What the policy asks at each hop,
// and in which order, is said in one place: ./hop.ts (Hops).

import { parse } from '../schemes/registry.js';
import { Url, expectUrl } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { gatewayOf } from './proxy.js';
import { Hops, type Chain } from './hop.js';
import { interactiveOnly } from './interactive.js';
import { classify, faceOf } from './face-of.js';
import { NO_CLIENT, isRedirect, type OpenOptions, type Redirect, type Resource } from './types.js';

export type { Chain };

/**
 * One hop of open() (RFC 1738 3, 4): through the scheme's gateway when one is configured, else
 * its face's client; a redirect comes back as it is (followChain() follows it).
 */
export async function openOnce(u: Url, opts: OpenOptions): Promise<Resource | Redirect> {
  const via = gatewayOf(u, opts);
  if (via !== null) {
    const http = await import('./http/client.js');
    return http.openThroughGateway(u, via, opts);
  }
  const face = faceOf(u);
  if (face.open === undefined && face.session !== undefined) throw interactiveOnly(u);
  if (face.open === undefined) {
    throw new LocatorError(
      NO_CLIENT,
      0,
      `no client can retrieve ${u.scheme}: URLs (configure a gateway with ${u.scheme}_proxy)`,
    );
  }
  return face.open(u, opts);
}

/**
 * The one redirect loop (RFC 1945 9.3, RFC 1738 6), for probe() and a caller with hops of its
 * own: runs `hop` on the first URL and, while it answers with a Redirect, on the redirect's
 * target, each hop asked of the policy first (./hop.ts: the first URL, each redirect, the
 * credentials of a hop to another server). `hop` gets the options with the policy set and
 * `transcript` made a callback (or false). `chain` is filled in as the loop goes.
 */
export async function followChain<T extends object>(
  first: Url,
  options: OpenOptions,
  hop: (u: Url, opts: OpenOptions) => Promise<T | Redirect>,
  chain: Chain = { redirects: [], transcript: [] },
): Promise<T> {
  const hops = new Hops(first, options, chain);
  for (let u = first; ;) {
    const r = await hop(u, hops.optionsFor(u));
    if ((r as Partial<Redirect>).redirect === undefined) return r as T;
    u = hops.follow(u, r as Redirect);
  }
}

/**
 * Opens a URL (RFC 1738 3): checks it against the policy (no byte is sent for a refused URL),
 * goes through the scheme's gateway when one is configured (RFC 1738 4), else runs the scheme's
 * client, and follows redirects within the policy (RFC 1945 9.3, RFC 1738 6; ./hop.ts): at most
 * `maxRedirects` hops, at most `maxCrossSchemeRedirects` of them to another scheme (http and
 * https count as one), never to a file URL, never back to a URL of the chain. When a hop fails and
 * its face names another URL instead (an FTP name that is a directory is listed, RFC 1738 3.2.2
 * and the draft of 1994-03), that URL is opened on the same server and the hop's URL counted
 * among the redirects; if it fails too, the first failure stands. Resolves to `{ meta, body }`
 * with `body` a ReadableStream and `meta.kind`, `meta.view` set by the face of the URL's scheme;
 * fails with a LocatorError.
 */
export async function open(url: string | Url, options: OpenOptions = {}): Promise<Resource> {
  expectUrl(url, 'open: the URL');
  const first = typeof url === 'string' ? parse(url) : url;
  const hops = new Hops(first, options);
  // The URL opened in place of one that failed, if any: what the caller gets is shown as it.
  let openedInstead: Url | null = null;
  for (let u = first; ;) {
    const opts = hops.optionsFor(u);
    let r: Resource | Redirect;
    try {
      r = await openOnce(u, opts);
    } catch (e) {
      const instead = faceOf(u).insteadOf?.(u, e) ?? null;
      if (instead === null) throw e;
      const d = parse(instead);
      hops.instead(d, e);
      try {
        r = await openOnce(d, opts);
      } catch {
        throw e;
      }
      hops.openedInstead(u);
      openedInstead = d;
    }
    if (!isRedirect(r)) {
      r.meta.transcript = hops.chain.transcript;
      r.meta.redirects = hops.chain.redirects;
      // What the URL asked for is, for the caller: the face of its scheme says (a redirect's
      // target is shown under the URL that was asked for; an object opened instead, as what it is).
      classify(openedInstead ?? first, r.meta);
      return r;
    }
    u = hops.follow(u, r);
  }
}
