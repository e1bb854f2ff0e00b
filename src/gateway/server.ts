// `locator serve`: the gateway of RFC 1738 section 4 ("a gateway which will provide images of
// objects in the new scheme for clients using an existing protocol"). An HTTP/1.x server that
// answers two kinds of request:
//
//   GET /?url=<percent-encoded URL>       the object as a page (menus and listings as links)
//   GET gopher://host/1/ HTTP/1.0         the same, asked as a proxy (gopher_proxy, ftp_proxy, ...)
//
// Every URL goes through the security policy (src/operations/policy.ts) before any byte is sent; every byte
// of remote text is escaped (html.ts); the pages carry a Content-Security-Policy that allows no
// script; waits, sizes and concurrent requests per client are bounded.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tryParse } from '../schemes/registry.js';
import { entryOf } from '../schemes/registry.js';
import { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { explain } from '../operations/build.js';
import { redactUrl } from '../operations/redact.js';
import { MAX_TIMER, faceOf, open, startTimer } from '../clients/index.js';
import { gatewayHref, markup, pageEnd } from './html.js';
import { explainBlock, mailtoBlock, sessionBlock, type RenderContext } from './render/index.js';
import {
  GATEWAY_BUSY,
  GATEWAY_REFUSED,
  OwnNames,
  openOptions,
  type Config,
  type Gateway,
  type GatewayOptions,
} from './config.js';
import {
  Connections,
  OPAQUE_PROXY_TARGET,
  acceptConnection,
  closeServer,
  onEnded,
  type Limits,
} from './connections.js';
import { crossSiteRefusal, isLoopbackAddress, targetOf, type Target } from './request.js';
import {
  HEADS,
  PAGES,
  actions,
  asLocatorError,
  commonHeaders,
  homePage,
  redirectTo,
  sendCrossSiteRefusal,
  sendError,
  sendPage,
  simplePage,
  startPage,
} from './respond.js';
import { serveAsk, serveMail, serveSearch } from './forms.js';
import { renderResource } from './objects.js';
import { ObjectCache, cacheable } from './cache.js';
import { CapsCache, crumbUrls, fetchCapsText } from './caps.js';
import { logAccess } from './access-log.js';
import { politely, upstreamPoliteness } from './upstream.js';
import { objectKey } from '../operations/normalize.js';
import { RateLimit, TrustedProxies, clientOf } from './clients.js';
import { replayHome, serveReplayed } from './replay.js';

/** The robots.txt of a gateway that lets no robot in (the default). */
export const ROBOTS_DISALLOW = 'User-agent: *\nDisallow: /\n';
/** The robots.txt of a gateway that lets every robot in (`index`). */
export const ROBOTS_ALLOW = 'User-agent: *\nDisallow:\n';

export {
  GATEWAY_BUSY,
  GATEWAY_FAILED,
  GATEWAY_MISDIRECTED,
  GATEWAY_REFUSED,
  type Gateway,
  type GatewayOptions,
} from './config.js';
export { statusFor, fileNameOf } from './respond.js';

/**
 * The requests in progress of a gateway, by client address (an address with none is absent): an
 * internal hook for the tests that check every way a request ends gives its slot back. Not
 * exported by `locator/gateway`.
 */
export const SLOTS = new WeakMap<Gateway, ReadonlyMap<string, number>>();

/** The cache of a gateway (an internal hook for the tests, as SLOTS). */
export const CACHES = new WeakMap<Gateway, ObjectCache>();
/** The caps.txt cache of a gateway with `caps` (an internal hook for the tests, as SLOTS). */
export const CAPS = new WeakMap<Gateway, CapsCache>();

/**
 * Starts the gateway (RFC 1738 4) and resolves once it listens. Bound to 127.0.0.1 unless told
 * otherwise; bound elsewhere, URLs that name private or loopback addresses are refused unless
 * `allowPrivate`.
 */
export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const host = options.host ?? '127.0.0.1';
  const limits: Limits = {
    idle: options.idleTimeout ?? 5_000,
    headers: options.headersTimeout ?? 10_000,
    receive: options.receiveTimeout ?? 30_000,
    max: options.maxConnections ?? 64,
  };
  // Node's own headersTimeout and requestTimeout are checked by a timer that starts only when the
  // HTTP server itself listens; this one never does (the front below listens and hands it the
  // connections), so the front keeps the times itself (Connections).
  const server = createServer({
    requestTimeout: 0,
    headersTimeout: 0,
    keepAliveTimeout: Math.min(limits.idle, MAX_TIMER),
  });
  const conns = new Connections(limits);
  // noDelay: an answer goes out as it is written (what Node's own HTTP server does), not held
  // back by Nagle's algorithm until the previous one is acknowledged.
  const front = createNetServer({ pauseOnConnect: true, noDelay: true }, (s: Socket) => {
    const c = conns.add(s);
    if (c !== null) acceptConnection(server, s, conns, c);
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => conns.request(req, res));
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.port ?? 8080, host, () => {
      front.off('error', reject);
      resolve();
    });
  });
  const addr = front.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const origin = `http://${shownHost}:${addr.port}`;
  const loopback = isLoopbackAddress(addr.address);
  const everyInterface = addr.address === '::' || addr.address === '0.0.0.0';
  const names = [shownHost, host, ...(options.hostNames ?? [])];
  if (loopback || everyInterface) names.push('localhost', '127.0.0.1', '[::1]');
  const cacheSize =
    options.cacheSize ?? (options.public === true || options.cacheDir !== undefined ? 64 * 1024 ** 2 : 0);
  const cfg: Config = {
    timeout: options.timeout ?? 30_000,
    requestTimeout: options.requestTimeout ?? 300_000,
    maxBytes: options.maxBytes ?? 1024 ** 3,
    maxPerClient: options.maxPerClient ?? 4,
    allowLocalFiles: options.allowLocalFiles ?? false,
    openProxy: options.openProxy ?? false,
    // A replay serves the http: objects of its archives too, and sends no mail.
    http: options.replay !== undefined || (options.http ?? false),
    email: options.email,
    newsServer: options.newsServer,
    smtp: options.replay !== undefined ? undefined : options.smtp,
    smtpCa: options.smtpCa,
    formToken: randomBytes(18).toString('base64url'),
    log: options.log,
    cache:
      cacheSize > 0
        ? new ObjectCache({ size: cacheSize, ...(options.cacheDir ? { dir: options.cacheDir } : {}) })
        : null,
    caps: null,
    cacheSearches: options.cacheSearches === true,
    inlineImages: options.inlineImages === true,
    inlineImageBytes: options.inlineImageBytes ?? 1024 * 1024,
    upstream: upstreamPoliteness({
      perServer: options.upstreamPerServer,
      delay: options.upstreamDelay,
      concurrency: options.maxConnections,
    }),
    robotsTag: options.public === true && options.index !== true ? 'noindex, nofollow' : null,
    netrcHosts: [...(options.netrcHosts ?? [])],
    policy: {
      allowPorts: options.allowPorts ?? [],
      // A public gateway is reached through a reverse proxy on this machine as often as not: bound
      // to loopback, it still refuses private and loopback addresses.
      refusePrivateAddresses: (options.public === true || !loopback) && options.allowPrivate !== true,
      maxRedirects: 5,
      maxCrossSchemeRedirects: 0,
    },
    origin,
    names: new OwnNames(addr.port, names, everyInterface),
    replay: options.replay ?? null,
  };
  if (options.caps === true) cfg.caps = new CapsCache((u, s) => fetchCapsText(cfg, u, s));
  const active = new Map<string, number>();
  const trusted = new TrustedProxies(options.trustProxy ?? []);
  const header = options.forwardedHeader ?? 'x-forwarded-for';
  const rateOption = options.rate ?? (options.public === true ? 2 : 0);
  const rate = rateOption > 0 ? new RateLimit(rateOption, options.burst ?? 20) : null;
  const robots = options.robots ?? (options.index === true ? ROBOTS_ALLOW : ROBOTS_DISALLOW);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const client = clientOf(req, trusted, header);
    if (options.accessLog !== undefined) logAccess(req, res, client, options.accessLog);
    const wait = rate?.take(client) ?? 0;
    if (wait > 0) {
      req.resume();
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(wait / 1000))));
      sendError(
        res,
        cfg,
        '',
        new LocatorError(
          GATEWAY_BUSY,
          -1,
          `more than ${rate!.rate} requests a second from this client (bursts of ${rate!.burst})`,
        ),
        429,
      );
      return;
    }
    if (isRobots(req)) {
      req.resume();
      res.statusCode = 200;
      commonHeaders(res, cfg);
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(robots));
      res.end(req.method === 'HEAD' ? undefined : robots);
      return;
    }
    const n = active.get(client) ?? 0;
    if (n >= cfg.maxPerClient) {
      res.setHeader('Retry-After', '5');
      sendError(
        res,
        cfg,
        '',
        new LocatorError(GATEWAY_BUSY, -1, `more than ${cfg.maxPerClient} requests from this client at once`),
        429,
      );
      return;
    }
    active.set(client, n + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const m = (active.get(client) ?? 1) - 1;
      if (m <= 0) active.delete(client);
      else active.set(client, m);
    };
    onEnded(req, res, release);
    handle(req, res, cfg).catch((e) => {
      // A failure no handler expected: the page says so, the socket is released.
      if (!res.headersSent) sendError(res, cfg, '', e);
      else res.destroy();
    });
  });
  // CONNECT would make the gateway a tunnel to anywhere: refused.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end(
      'HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    );
  });
  server.on('clientError', (_e: Error, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  const gateway: Gateway = {
    url: origin,
    host: addr.address,
    port: addr.port,
    close: () => closeServer(front, server, conns),
  };
  SLOTS.set(gateway, active);
  if (cfg.cache !== null) CACHES.set(gateway, cfg.cache);
  if (cfg.caps !== null) CAPS.set(gateway, cfg.caps);
  return gateway;
}

/** A request for /robots.txt (the Robots Exclusion Protocol, RFC 9309 2.3: at the root of the origin). */
function isRobots(req: IncomingMessage): boolean {
  if (OPAQUE_PROXY_TARGET.has(req.socket)) return false;
  const m = req.method ?? 'GET';
  return (m === 'GET' || m === 'HEAD') && /^\/robots\.txt(?:\?|$)/.test(req.url ?? '');
}

async function handle(req: IncomingMessage, res: ServerResponse, cfg: Config): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    res.setHeader('Allow', 'GET, HEAD, POST');
    sendError(res, cfg, '', new LocatorError(GATEWAY_REFUSED, -1, `the method ${method} is not served`), 405);
    return;
  }
  let target: Target | null;
  try {
    target = targetOf(req, cfg);
  } catch (e) {
    sendError(res, cfg, '', e);
    return;
  }
  if (target === null) {
    req.resume();
    sendPage(res, cfg, 200, cfg.replay !== null ? replayHome(cfg, cfg.replay) : homePage(cfg));
    return;
  }
  const foreign = crossSiteRefusal(req, target, cfg);
  if (foreign !== null) {
    sendCrossSiteRefusal(res, cfg, target, foreign);
    return;
  }
  const parsed = tryParse(target.raw);
  const shown = redactUrl(target.raw);
  if (!(parsed instanceof Url)) {
    sendError(res, cfg, shown, parsed);
    return;
  }
  // A page rendered before from a kept object, asked the same way: sent as it was, whole.
  const kept = keptPage(cfg, parsed, target);
  const page = kept === null ? null : cfg.cache!.page(kept.key, kept.variant);
  if (page !== null) {
    req.resume();
    startPage(res, cfg, 200);
    res.setHeader('Content-Length', page.length);
    res.end(method === 'HEAD' ? undefined : page);
    cfg.log?.(`${method} ${shown} 200`);
    return;
  }
  if (method === 'HEAD') HEADS.add(res);
  const base = target.proxy ? cfg.origin : '';
  const ctx: RenderContext = {
    base,
    proxy: target.proxy,
    inlineImages: cfg.inlineImages,
    link: (u, p) => gatewayHref(base, u, p),
    ...(cfg.replay !== null ? { archived: cfg.replay.has.bind(cfg.replay) } : {}),
  };
  const ac = new AbortController();
  const timer = startTimer(cfg.requestTimeout, () => ac.abort());
  onEnded(req, res, () => ac.abort());
  try {
    await serveUrl(req, res, cfg, parsed, target, ctx, ac.signal, kept);
    cfg.log?.(`${method} ${shown} ${res.statusCode}`);
  } catch (e) {
    if (!res.headersSent) sendError(res, cfg, shown, e);
    else if (!PAGES.has(res)) {
      // An object passed on: cut, so that the client sees a transfer that did not complete.
      res.destroy();
    } else if (!res.writableEnded && !res.destroyed) {
      // The page had begun: the error goes at its end, and the status stays.
      const le = asLocatorError(e);
      res.end(
        markup`<p class="problem" role="alert">The transfer failed: ${le.detail} (<code>${le.code}</code>)</p>\n`
          .value + pageEnd(),
      );
    }
  } finally {
    timer.clear();
  }
}

/**
 * A URL asked for (RFC 1738 4): its access algorithm (`view=explain`), or what its scheme's face
 * shows before retrieving anything (a search form, a Gopher+ or mail form, the command of a
 * session, a link for the browser), or its object, retrieved and shown by its view (objects.ts).
 */
async function serveUrl(
  req: IncomingMessage,
  res: ServerResponse,
  cfg: Config,
  url: Url,
  target: Target,
  ctx: RenderContext,
  signal: AbortSignal,
  kept: KeptPage | null,
): Promise<void> {
  const view = target.params.get('view');
  if (view === 'explain') {
    simplePage(res, cfg, ctx, url, 'Access algorithm', explainBlock(explain(url)));
    return;
  }
  // A replay reads a file: URL from its archives, not from this machine.
  if (cfg.replay === null && entryOf(url)?.readsThisMachine?.(url) === true && !cfg.allowLocalFiles) {
    throw new LocatorError(
      GATEWAY_REFUSED,
      -1,
      `a ${url.scheme}: URL is read from the machine the gateway runs on, which this gateway does not serve (RFC 1738 6)`,
    );
  }
  const face = faceOf(url);
  const form = face.form?.(url) ?? null;
  switch (form?.form) {
    case 'session':
      simplePage(res, cfg, ctx, url, `${url.scheme} session`, markup`${sessionBlock(url)}${actions(url, ctx, false)}`);
      return;
    case 'mail':
      if (cfg.smtp === undefined) {
        simplePage(res, cfg, ctx, url, 'Mail address', markup`${mailtoBlock(url)}${actions(url, ctx, false)}`);
      } else await serveMail(req, res, cfg, url, ctx, signal);
      return;
    case 'browser':
      if (cfg.http) break;
      simplePage(
        res,
        cfg,
        ctx,
        url,
        'A web page',
        markup`<p>This gateway serves the other protocols; a web browser reaches HTTP itself: <a href="${url.href}" rel="noreferrer">${redactUrl(url)}</a></p>\n${actions(url, ctx, false)}`,
      );
      return;
    case 'search':
      serveSearch(res, cfg, url, form, target.params.get('search'), ctx);
      return;
    case 'ask':
      // A replay asks no server for its form: the URL is looked up in the archives below.
      if (cfg.replay !== null) break;
      await serveAsk(req, res, cfg, url, ctx, signal);
      return;
  }
  // A POST to a page that is no form: its body is not read, and is let go (its connection's
  // receive clock stops when it has all arrived).
  req.resume();
  if (cfg.replay !== null) {
    await serveReplayed(res, cfg, cfg.replay, url, view, ctx, signal, target.params.get('charset'));
    return;
  }
  // An object the face names instead (an ftp name that is a directory, listed) comes back from
  // open() as reached through a redirect, and is shown here under the URL asked for.
  // The caps of the server of a menu, asked before the menu (a turn at the server each: the caps'
  // transfer is read whole, so it never waits for the menu's).
  const caps = cfg.caps !== null && faceOf(url).hasServerCaps?.(url) === true ? cfg.caps.of(url, signal) : null;
  const upstream = (s: AbortSignal) => politely(cfg.upstream, url, s, () => open(url, openOptions(cfg, s)));
  const r = kept !== null ? await cfg.cache!.open(kept.key, upstream, signal) : await upstream(signal);
  const keep = kept === null ? null : (p: Uint8Array) => cfg.cache!.keepPage(r, kept.variant, p);
  const crumbs = r.meta.view === 'gopher-menu' && caps !== null ? crumbUrls(url, await caps) : null;
  await renderResource(res, cfg, url, r, view, ctx, signal, target.params.get('charset'), keep, crumbs);
}

/** Where the cache keeps the object of a request, and its page: the key of the object, the page's variant. */
interface KeptPage {
  key: string;
  /** The request as asked (the URL as spelled, the page's parameters): one page per variant. */
  variant: string;
}

/** The cache's key and page variant of a request whose object may be kept (cacheable), else null. */
function keptPage(cfg: Config, url: Url, target: Target): KeptPage | null {
  if (cfg.cache === null || !cacheable(url, cfg.netrcHosts, cfg.cacheSearches)) return null;
  return {
    key: objectKey(url),
    variant: target.proxy ? `proxy ${target.raw}` : `page ${target.params.toString()}`,
  };
}
