// The gateway's requests: what a request asks for (the home page, a URL as a page, a proxy
// request), whether it comes from a page of another site, and a form's fields.

import type { IncomingMessage } from 'node:http';
import { LocatorError } from '../core/errors.js';
import { classifyAddress } from '../lint/address.js';
import { NOT_FOUND } from '../clients/index.js';
import { GATEWAY_MISDIRECTED, GATEWAY_REFUSED, MAX_FORM, MAX_TARGET, type Config } from './config.js';
import { OPAQUE_PROXY_TARGET } from './connections.js';
import { clientAddressOf, schemeOf } from './clients.js';

/**
 * The origin a request for one of the gateway's pages addressed ("http://localhost:8080": the
 * gateway under the name the browser used, RFC 6454 4), or null when its `Host` is not one of
 * the gateway's own names (OwnNames). The one place where `Host` is read: requests are checked,
 * and answers link back, against the gateway's own names only, never against a name the request
 * brought.
 */
export function requestOrigin(req: IncomingMessage, cfg: Config): string | null {
  const host = (headerOf(req, 'host') ?? '').toLowerCase();
  const scheme = schemeOf(req);
  if (!cfg.names.host(host, scheme)) return null;
  const origin = `${scheme}://${host}`;
  return cfg.names.origin(origin, scheme) ? origin : cfg.origin;
}

export function isLoopbackAddress(a: string): boolean {
  const bare = a.replace(/^::ffff:/i, '');
  return classifyAddress(bare)?.kind === 'loopback' || bare === 'localhost';
}

export interface Target {
  /** The URL asked for, as given. */
  raw: string;
  /** True for a proxy request (absolute URL in the request line). */
  proxy: boolean;
  params: URLSearchParams;
}

/** What the request asks for: the home page (null), or a URL with parameters; or a refusal. */
export function targetOf(req: IncomingMessage, cfg: Config): Target | null {
  const opaque = OPAQUE_PROXY_TARGET.get(req.socket);
  if (opaque !== undefined) OPAQUE_PROXY_TARGET.delete(req.socket); // the first request only
  const line = opaque ?? req.url ?? '/';
  if (line.length > MAX_TARGET)
    throw new LocatorError(GATEWAY_REFUSED, -1, `the request target is longer than ${MAX_TARGET} characters`);
  if (!line.startsWith('/')) {
    // A proxy request (RFC 1945 5.1.2: "The absoluteURI form is only allowed when the request is
    // being made to a proxy"): what clients send with gopher_proxy, ftp_proxy, wais_proxy ...
    const client = clientAddressOf(req);
    if (!cfg.openProxy && !isLoopbackAddress(client)) {
      throw new LocatorError(
        GATEWAY_REFUSED,
        -1,
        'this gateway answers proxy requests only from this machine (it is not an open proxy; see --open-proxy)',
      );
    }
    return { raw: line, proxy: true, params: new URLSearchParams() };
  }
  if (requestOrigin(req, cfg) === null) {
    // The gateway's pages are asked for by its own names only: a page of another site whose name
    // was made to resolve to the gateway's address ("DNS rebinding") is refused, whatever the
    // interface it is bound to.
    throw new LocatorError(
      GATEWAY_MISDIRECTED,
      -1,
      `the gateway does not answer for the host name ${JSON.stringify(headerOf(req, 'host') ?? '')}: only for its own names (its address, and --host-name)`,
    );
  }
  const q = line.indexOf('?');
  const path = q < 0 ? line : line.slice(0, q);
  if (path !== '/') throw new LocatorError(NOT_FOUND, -1, `the gateway has no page ${JSON.stringify(path)}`);
  const params = new URLSearchParams(q < 0 ? '' : line.slice(q + 1));
  const raw = params.get('url');
  if (raw === null || raw.trim() === '') return null;
  return { raw: raw.trim(), proxy: false, params };
}

/** One value of a request header (the first, when a client sent it twice). */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Why a request for a URL is taken to come from a page of another site, which the gateway does
 * not serve (docs/gateway.md, "Requests from other sites"), or null when it may be served. Any
 * page can make a browser send a GET to the gateway (`<img src>`, a link, a form, `fetch` with
 * `no-cors`) and, through it, write a line to any port the policy allows and time the answer:
 * so the browser's own account of where a request comes from decides.
 *
 * - Fetch Metadata (W3C Fetch Metadata Request Headers 2): `Sec-Fetch-Site: same-origin` (the
 *   gateway's own pages) and `none` (typed in the address bar, a bookmark) are served;
 *   `cross-site` and `same-site` (a page on another port of the same host is same-site) are not.
 * - A browser that sends no Fetch Metadata (older ones; any browser for an address that is not
 *   loopback and not https, which is not "potentially trustworthy"): an `Origin` other than the
 *   gateway's own, or an http(s) `Referer` from another origin, is refused. The gateway's pages
 *   send `Referrer-Policy: same-origin`, so the browser names them as the referrer of their links.
 * - A request with none of these headers from a client that calls itself a browser
 *   (`User-Agent: Mozilla/...`: every current browser) is refused: a page can make an older
 *   browser send one (`<img referrerpolicy="no-referrer">`). Other clients (curl, wget, Lynx,
 *   scripts) send none of these headers and are served: no web page can drive them.
 * - A proxy request (an absolute URL in the request line) is one that no web page can make a
 *   browser send to a server it does not use as its proxy; a browser that uses the gateway as its
 *   proxy marks a page's requests to other sites, and those are refused unless they are
 *   navigations.
 *
 * The home page (no URL) is served to any request: it retrieves nothing.
 */
export function crossSiteRefusal(req: IncomingMessage, target: Target, cfg: Config): string | null {
  const site = headerOf(req, 'sec-fetch-site')?.toLowerCase();
  const mode = headerOf(req, 'sec-fetch-mode')?.toLowerCase();
  if (target.proxy) {
    if ((site === 'cross-site' || site === 'same-site') && mode !== 'navigate')
      return `the browser says a page of another site asked for it (Sec-Fetch-Site: ${site}, Sec-Fetch-Mode: ${mode ?? 'none'})`;
    return null;
  }
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none') return null;
    return `the browser says a page of another site asked for it (Sec-Fetch-Site: ${site})`;
  }
  const origin = headerOf(req, 'origin');
  if (origin !== undefined) {
    return cfg.names.origin(origin, schemeOf(req))
      ? null
      : `it comes from a page of another origin (Origin: ${origin})`;
  }
  const referer = headerOf(req, 'referer');
  if (referer !== undefined && /^https?:/i.test(referer)) {
    const from = /^https?:\/\/[^/?#]*/i.exec(referer)?.[0].toLowerCase();
    return cfg.names.origin(from, schemeOf(req))
      ? null
      : `it comes from a page of another origin (Referer: ${from ?? referer})`;
  }
  if (/^Mozilla\//.test(headerOf(req, 'user-agent') ?? '')) {
    return 'a browser sent it without saying where it comes from (no Sec-Fetch-Site, Origin or Referer), as a page of another site can make it do';
  }
  return null;
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const parts: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM) throw new LocatorError(GATEWAY_REFUSED, -1, `the form is larger than ${MAX_FORM} octets`);
    parts.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(parts).toString('utf8'));
}
