// The gateway's options, its configuration as it runs, its own names and its error codes
// (`locator serve`, RFC 1738 4).

import { networkInterfaces } from 'node:os';
import { defineCode } from '../core/errors.js';
import type { Policy } from '../operations/policy.js';
import type { GopherOpenOptions } from '../clients/index.js';
import type { ObjectCache } from './cache.js';
import type { CapsCache } from './caps.js';
import type { Politeness } from '../crawl/politeness.js';
import type { ReplaySource } from './replay.js';

/** What `startGateway` takes; every field is optional. */
export interface GatewayOptions {
  /** The interface to listen on (default 127.0.0.1, loopback only). */
  host?: string;
  /** The port (default 8080; 0 for any free port). */
  port?: number;
  /** Milliseconds of silence allowed on any one wait of a retrieval (default 30000). */
  timeout?: number;
  /** Milliseconds one request may take in all, transfer included (default 300000). */
  requestTimeout?: number;
  /** The largest object passed on, in octets (default 1 GiB); past it the transfer stops. */
  maxBytes?: number;
  /** Requests one client address may have in progress at once (default 4); more get 429. */
  maxPerClient?: number;
  /**
   * Connections open at once, all clients together (default 64). When a new one would pass it,
   * the connection that has waited longest without a request in progress (idle, or still
   * sending its headers) is closed to make room; a connection being answered is never closed
   * for that, and the new one is refused only when every one is being answered.
   */
  maxConnections?: number;
  /** Milliseconds a connection may stay open with no request in progress: none yet, or between two (default 5000). */
  idleTimeout?: number;
  /** Milliseconds a client may take to send a request's headers, from its first octet (default 10000); then 408 and closed. */
  headersTimeout?: number;
  /** Milliseconds a client may take to send a whole request, headers and body, from its first octet (default 30000). */
  receiveTimeout?: number;
  /**
   * The other names the gateway is reached by (a LAN host name, `gateway.lan`, or
   * `gateway.lan:8080`): requests whose `Host` names anything but the gateway itself are refused
   * (DNS rebinding), and so are `Origin`/`Referer` of other origins. Without a port, the gateway's
   * own port. Always accepted: the bound address and port; bound to loopback, `localhost`,
   * `127.0.0.1` and `[::1]`; bound to every interface (0.0.0.0, ::), those and the machine's
   * addresses (`locator serve --host-name NAME`).
   */
  hostNames?: string[];
  /**
   * Allow URLs that name loopback and private addresses when bound to an interface other than
   * loopback (default false: refused there, as for any server that fetches URLs for others).
   */
  allowPrivate?: boolean;
  /** Ports registered to another protocol that URLs may name (the policy's allowPorts). */
  allowPorts?: number[];
  /** Read file: (and afs:, mid:, cid:) URLs from this machine (default false). */
  allowLocalFiles?: boolean;
  /** Answer proxy requests (an absolute URL in the request line) from any client, not only loopback (default false). */
  openProxy?: boolean;
  /** Retrieve http: and https: URLs too (default false: a page links to them directly). */
  http?: boolean;
  /** The e-mail address sent as the anonymous FTP password. */
  email?: string;
  /**
   * The news server of news: URLs (RFC 1738 3.6: the reader's own), `host[:port]`, used when the
   * gateway's environment sets no NNTPSERVER (as open()'s `newsServer`).
   */
  newsServer?: string;
  /**
   * The SMTP relay (`host:port`) through which a mailto: page's form sends (RFC 1738 3.5);
   * default none: a mailto: page then shows the address and sends nothing.
   */
  smtp?: string;
  /** TLS for that relay: the CA certificates to trust (PEM), as send()'s `ca`. */
  smtpCa?: string | Buffer;
  /** One line per request (method, URL with passwords hidden, status). */
  log?: (line: string) => void;
  /**
   * Hosts whose entries of the operator's ~/.netrc (the `default` entry included) the clients may
   * use for URLs the gateway is asked to open (default none: a URL from a request never gets the
   * operator's credentials; `locator serve --netrc-host HOST`).
   */
  netrcHosts?: string[];
  /**
   * A gateway for the public (`locator serve --public`): turns on at once the defaults a gateway
   * others reach needs, each of which its own option still overrides: URLs naming private and
   * loopback addresses refused even when bound to loopback (behind a reverse proxy) unless
   * `allowPrivate`; `file:` refused unless `allowLocalFiles`; a request rate per client of 2 a
   * second, bursts of 20, unless `rate`; `X-Robots-Tag: noindex, nofollow` on every answer unless
   * `index`; a cache of 64 MiB unless `cacheSize`.
   */
  public?: boolean;
  /** Requests a second one client may make (a token bucket; more get 429 with Retry-After); 0: no limit (the default, but 2 with `public`). */
  rate?: number;
  /** The bucket's size: requests a client may make back to back after a quiet spell (default 20). */
  burst?: number;
  /**
   * Reverse proxies (addresses, or networks `ADDR/BITS`) whose `forwardedHeader` names the client
   * of a request that comes from them (default none: the connection's address is the client).
   */
  trustProxy?: string[];
  /** The header the trusted proxies name the client in: `x-forwarded-for` (default) or `forwarded` (RFC 7239). */
  forwardedHeader?: 'x-forwarded-for' | 'forwarded';
  /** The text of /robots.txt (default: every robot kept off every page: "User-agent: *", "Disallow: /"). */
  robots?: string;
  /**
   * Let search engines index the pages: /robots.txt allows everything (unless `robots` is given)
   * and, with `public`, no X-Robots-Tag.
   */
  index?: boolean;
  /**
   * Octets of retrieved objects kept in memory (default 0: no cache, every request goes upstream;
   * 64 MiB with `public` or `cacheDir`). Identical requests in flight are then coalesced into one.
   */
  cacheSize?: number;
  /** A folder that keeps the cache across restarts too (up to 1 GiB). */
  cacheDir?: string;
  /** Keep the answers of searches too (a Gopher selector with a TAB, a `?` query); default false. */
  cacheSearches?: boolean;
  /** Show the images of Gopher image items (g, I, p) in menu pages (default false: links only). */
  inlineImages?: boolean;
  /** The largest image shown in a page, in octets (default 1 MiB); a larger one is refused (413). */
  inlineImageBytes?: number;
  /** Requests at once to one remote server, all readers together (default 4); more wait their turn. */
  upstreamPerServer?: number;
  /** Milliseconds at least between the starts of two requests to one remote server (default 0). */
  upstreamDelay?: number;
  /** One line per request in the Combined Log Format (passwords masked, the client as resolved). */
  accessLog?: (line: string) => void;
  /**
   * Serve the objects of archives instead of the network (`locator serve --warc`, replay.ts):
   * every URL is looked up there (http: too), none is retrieved, no mail is sent, and a URL the
   * archives do not hold is a "not archived" page.
   */
  replay?: ReplaySource;
  /**
   * Read each Gopher server's caps.txt (once per its ExpireCapsAfter, else an hour) for the
   * breadcrumbs of its menus by its path rules (default false: the up link from "/" alone).
   */
  caps?: boolean;
}

/** A running gateway. */
export interface Gateway {
  /** `http://host:port`, without a final "/". */
  url: string;
  host: string;
  port: number;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** A request the gateway will not serve (not a URL of its own, a proxy request from elsewhere ...). */
export const GATEWAY_REFUSED = defineCode(
  'gateway-refused',
  'error',
  'RFC 1738 6',
  'the gateway does not serve this request',
  'policy',
);
/** Too many requests of one client at once. */
export const GATEWAY_BUSY = defineCode(
  'gateway-busy',
  'error',
  null,
  'too many requests from this client are in progress',
  'network',
);

/**
 * A request whose `Host` is not one of the gateway's own names (RFC 9110 15.5.20: 421, "the
 * request was directed at a server that is unable or unwilling to produce an authoritative
 * response for the target URI"): a page of another site whose name resolves to the gateway's
 * address (DNS rebinding).
 */
export const GATEWAY_MISDIRECTED = defineCode(
  'gateway-misdirected',
  'error',
  'RFC 9110 15.5.20',
  'the request names a host that is not this gateway',
  'policy',
);

/** An object asked for as an image of a page (`view=image`) that is no image the gateway shows (415). */
export const GATEWAY_NOT_IMAGE = defineCode(
  'gateway-not-image',
  'error',
  null,
  'the object is not an image the gateway shows in a page',
  'protocol',
);
/** An image of a page past `inlineImageBytes` (413). */
export const GATEWAY_TOO_LARGE = defineCode(
  'gateway-too-large',
  'error',
  null,
  'the image is larger than the gateway shows in a page',
  'protocol',
);

/** A failure of the gateway itself (a bug): the page says so instead of dropping the connection. */
export const GATEWAY_FAILED = defineCode('gateway-failed', 'error', null, 'the gateway failed', 'protocol');

export const MAX_TARGET = 8192;
export const MAX_FORM = 64 * 1024;

export interface Config {
  timeout: number;
  requestTimeout: number;
  maxBytes: number;
  maxPerClient: number;
  allowLocalFiles: boolean;
  openProxy: boolean;
  http: boolean;
  email: string | undefined;
  newsServer: string | undefined;
  smtp: string | undefined;
  smtpCa: string | Buffer | undefined;
  /** The mail form's token: a POST without it is refused (a page of another site cannot read it). */
  formToken: string;
  log: ((line: string) => void) | undefined;
  /** The cache of retrieved objects, or null. */
  cache: ObjectCache | null;
  /** The caps.txt of the Gopher servers asked lately (`caps`), or null. */
  caps: CapsCache | null;
  cacheSearches: boolean;
  inlineImages: boolean;
  inlineImageBytes: number;
  /** The politeness engine of the requests to remote servers (src/crawl/politeness.ts). */
  upstream: Politeness;
  /** `X-Robots-Tag` sent on every answer, or null. */
  robotsTag: string | null;
  policy: Policy;
  netrcHosts: string[];
  /** The gateway's own origin, "http://127.0.0.1:8080". */
  origin: string;
  /** The gateway's own names (OwnNames): the only Host of its pages, the only origins of its requests. */
  names: OwnNames;
  /** The archives replayed instead of the network, or null (a live gateway). */
  replay: ReplaySource | null;
}

/**
 * The names a browser reaches the gateway by, as `Host` header values ("127.0.0.1:8080",
 * "[::1]:8080", "gateway.lan:8080"; RFC 9110 7.2) and as origins ("http://127.0.0.1:8080";
 * RFC 6454 6.1, which leaves out the default port of the scheme: 80, or 443 for https). A page of
 * another site whose name was made to resolve to the gateway's address (DNS rebinding) sends its
 * own name as `Host`, and its own origin as `Origin`/`Referer`: none of these.
 */
export class OwnNames {
  /** "host:port" of every name; a bare "host" too where a Host header may leave the port out. */
  private readonly hosts = new Set<string>();
  constructor(
    private readonly port: number,
    names: Iterable<string>,
    /** Bound to every interface: the machine's addresses too, as they are at the time of a request. */
    private readonly everyInterface: boolean,
  ) {
    for (const n of names) this.add(n);
  }

  private add(name: string): void {
    const n = name.trim().toLowerCase();
    // "[::1]:8080", "[::1]"; a bare IPv6 address ("::1", "fe80::1%eth0" from networkInterfaces())
    // is written in brackets without its zone (RFC 3986 3.2.2); "name:8080", "name".
    const m = n.startsWith('[')
      ? /^(\[[^\]]+\])(?::([0-9]{1,5}))?$/.exec(n)
      : n.indexOf(':') !== n.lastIndexOf(':')
        ? [n, `[${n.replace(/%.*$/, '')}]`, undefined]
        : /^([^:]+)(?::([0-9]{1,5}))?$/.exec(n);
    const host = m?.[1];
    if (m === null || host === undefined) return;
    const port = m[2] !== undefined ? Number(m[2]) : this.port;
    this.hosts.add(`${host}:${port}`);
    // Without a port, a Host names port 80 (RFC 9110 7.2); HTTP/1.0 clients may also leave the
    // port out of Host. (Behind a proxy that speaks https, port 443: host() below.)
    if (port === 80 || port === this.port) this.hosts.add(host);
  }

  private refresh(): boolean {
    if (!this.everyInterface) return false;
    for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) this.add(i.address);
    return true;
  }

  private has(key: string): boolean {
    if (this.hosts.has(key)) return true;
    // An address the machine got after the start (bound to every interface: DHCP, a VPN).
    return this.refresh() && this.hosts.has(key);
  }

  /**
   * True when a `Host` header value names the gateway. `proto` is the one the browser used:
   * "https" only when a trusted reverse proxy says so (schemeOf), and then a Host without a port
   * names port 443 (RFC 9110 4.2.2).
   */
  host(value: string | undefined, proto: Scheme = 'http'): boolean {
    const h = (value ?? '').toLowerCase();
    if (this.has(h)) return true;
    return proto === 'https' && !hasPort(h) && this.has(`${h}:443`);
  }

  /**
   * True when an origin ("http://host:port", as `Origin` or the start of a `Referer`) is the
   * gateway's own: of the scheme the browser used (`proto`: "https" only on the word of a trusted
   * reverse proxy), and one of its names with the port, the scheme's default when left out.
   */
  origin(value: string | undefined, proto: Scheme = 'http'): boolean {
    const m = /^(https?):\/\/([^/?#]+)$/.exec((value ?? '').toLowerCase());
    if (m === null || m[1] !== proto) return false;
    return this.has(hasPort(m[2]) ? m[2] : `${m[2]}:${proto === 'https' ? 443 : 80}`);
  }
}

/** The scheme a browser reached the gateway by: https only through a trusted reverse proxy that says so. */
export type Scheme = 'http' | 'https';

/** True when an authority ("h:80", "[::1]:80") has a port. */
function hasPort(authority: string): boolean {
  return /^(?:\[[^\]]*\]|[^:[\]]*):[0-9]+$/.test(authority);
}

export function openOptions(cfg: Config, signal: AbortSignal): GopherOpenOptions {
  return {
    signal,
    timeout: cfg.timeout,
    maxBytes: cfg.maxBytes,
    policy: cfg.policy,
    // The gateway does not pass its retrievals to another gateway: an environment that names
    // this gateway as gopher_proxy would otherwise make it call itself.
    gateway: false,
    email: cfg.email,
    newsServer: cfg.newsServer,
    // The operator's ~/.netrc is not for URLs that requests name (any page can name one): only
    // the hosts the operator listed may get its entries.
    ...(cfg.netrcHosts.length === 0 ? { netrc: false as const } : { netrcHosts: [...cfg.netrcHosts] }),
  };
}
