// `locator serve`: the gateway of RFC 1738 section 4 ("a gateway which will provide images of
// objects in the new scheme for clients using an existing protocol"). An HTTP/1.x server that
// answers two kinds of request:
//
//   GET /?url=<percent-encoded URL>       the object as a page (menus and listings as links)
//   GET gopher://host/1/ HTTP/1.0         the same, asked as a proxy (gopher_proxy, ftp_proxy, ...)
//
// Every URL goes through the security policy (src/policy.ts) before any byte is sent; every byte
// of remote text is escaped (html.ts); the pages carry a Content-Security-Policy that allows no
// script; waits, sizes and concurrent requests per client are bounded.

import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { tryParse } from '../schemes/registry.js';
import { entryOf } from '../schemes/registry.js';
import { Url } from '../core/url.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { build, explain } from '../build.js';
import { redactUrl } from '../redact.js';
import { classifyAddress } from '../lint/address.js';
import { UNSAFE_TEXT } from '../unsafe-text.js';
import type { Policy } from '../policy.js';
import { open } from '../clients/open.js';
import { MAX_TIMER, startTimer, type Timer } from '../clients/connection.js';
import { readMenu } from '../clients/gopher/menu.js';
import { FtpReplyError } from '../clients/ftp/errors.js';
import { planFtp } from '../clients/ftp/plan.js';
import { GopherError, type AskQuestion, type GopherOpenOptions } from '../clients/gopher/types.js';
import {
  ABORTED,
  NEEDS_INPUT,
  NO_CLIENT,
  NOT_FOUND,
  PROTOCOL_ERROR,
  TIMEOUT,
  type Resource,
} from '../clients/types.js';
import { Html, contentSecurityPolicy, gatewayHref, markup, page, pageEnd, pageStart } from './html.js';
import {
  askForm,
  explainBlock,
  lines,
  mailtoBlock,
  mailForm,
  renderArticle,
  renderFtpListing,
  renderMenu,
  renderNewsGroups,
  renderNewsOverview,
  renderText,
  renderUriList,
  renderWaisHeadlines,
  searchForm,
  sessionBlock,
  type RenderContext,
  type Sink,
} from './render.js';

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

/** A failure of the gateway itself (a bug): the page says so instead of dropping the connection. */
export const GATEWAY_FAILED = defineCode('gateway-failed', 'error', null, 'the gateway failed', 'protocol');

const MAX_TARGET = 8192;
const MAX_FORM = 64 * 1024;

interface Config {
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
  policy: Policy;
  netrcHosts: string[];
  /** The gateway's own origin, "http://127.0.0.1:8080". */
  origin: string;
  /** The gateway's own names (OwnNames): the only Host of its pages, the only origins of its requests. */
  names: OwnNames;
}

/**
 * The names a browser reaches the gateway by, as `Host` header values ("127.0.0.1:8080",
 * "[::1]:8080", "gateway.lan:8080"; RFC 9110 7.2) and as origins ("http://127.0.0.1:8080";
 * RFC 6454 6.1, which leaves out the default port 80). A page of another site whose name was made
 * to resolve to the gateway's address (DNS rebinding) sends its own name as `Host`, and its own
 * origin as `Origin`/`Referer`: none of these.
 */
class OwnNames {
  private readonly hosts = new Set<string>();
  private readonly origins = new Set<string>();
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
    this.origins.add(`http://${host}:${port}`);
    // Without a port, a Host or an origin names port 80 (RFC 9110 7.2, RFC 6454 6.1); HTTP/1.0
    // clients may also leave the port out of Host.
    if (port === 80 || port === this.port) this.hosts.add(host);
    if (port === 80) this.origins.add(`http://${host}`);
  }

  private refresh(): boolean {
    if (!this.everyInterface) return false;
    for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) this.add(i.address);
    return true;
  }

  /** True when a `Host` header value names the gateway. */
  host(value: string | undefined): boolean {
    const h = (value ?? '').toLowerCase();
    if (this.hosts.has(h)) return true;
    // An address the machine got after the start (bound to every interface: DHCP, a VPN).
    return this.refresh() && this.hosts.has(h);
  }

  /** True when an origin ("http://host:port", as `Origin` or the start of a `Referer`) is the gateway's own. */
  origin(value: string | undefined): boolean {
    const o = (value ?? '').toLowerCase();
    if (this.origins.has(o)) return true;
    return this.refresh() && this.origins.has(o);
  }
}

/**
 * The origin a request for one of the gateway's pages addressed ("http://localhost:8080": the
 * gateway under the name the browser used, RFC 6454 4), or null when its `Host` is not one of
 * the gateway's own names (OwnNames). The one place where `Host` is read: requests are checked,
 * and answers link back, against the gateway's own names only, never against a name the request
 * brought.
 */
function requestOrigin(req: IncomingMessage, cfg: Config): string | null {
  const host = (headerOf(req, 'host') ?? '').toLowerCase();
  if (!cfg.names.host(host)) return null;
  const origin = `http://${host}`;
  return cfg.names.origin(origin) ? origin : cfg.origin;
}

function isLoopbackAddress(a: string): boolean {
  const bare = a.replace(/^::ffff:/i, '');
  return classifyAddress(bare)?.kind === 'loopback' || bare === 'localhost';
}

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
  const front = createNetServer({ pauseOnConnect: true }, (s: Socket) => {
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
  const cfg: Config = {
    timeout: options.timeout ?? 30_000,
    requestTimeout: options.requestTimeout ?? 300_000,
    maxBytes: options.maxBytes ?? 1024 ** 3,
    maxPerClient: options.maxPerClient ?? 4,
    allowLocalFiles: options.allowLocalFiles ?? false,
    openProxy: options.openProxy ?? false,
    http: options.http ?? false,
    email: options.email,
    newsServer: options.newsServer,
    smtp: options.smtp,
    smtpCa: options.smtpCa,
    formToken: randomBytes(18).toString('base64url'),
    log: options.log,
    netrcHosts: [...(options.netrcHosts ?? [])],
    policy: {
      allowPorts: options.allowPorts ?? [],
      refusePrivateAddresses: !loopback && options.allowPrivate !== true,
      maxRedirects: 5,
      maxCrossSchemeRedirects: 0,
    },
    origin,
    names: new OwnNames(addr.port, names, everyInterface),
  };
  const active = new Map<string, number>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const client = req.socket.remoteAddress ?? '';
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
    res.on('close', release);
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
  return {
    url: origin,
    host: addr.address,
    port: addr.port,
    close: () => closeServer(front, server, conns),
  };
}

function closeServer(front: NetServer, server: Server, conns: Connections): Promise<void> {
  return new Promise((resolve) => {
    front.close(() => resolve());
    server.close(() => {}); // never listened itself: it only parses the front's connections
    conns.closeAll();
  });
}

interface Limits {
  /** Milliseconds with no request in progress. */
  idle: number;
  /** Milliseconds from a request's first octet to the end of its headers. */
  headers: number;
  /** Milliseconds from a request's first octet to the end of its body. */
  receive: number;
  /** Connections at once. */
  max: number;
}

/**
 * What a connection is doing: `idle` (no request in progress: none yet, or between two), `head`
 * (a request's headers are arriving), `body` (its body is), `busy` (it is being answered).
 */
type Phase = 'idle' | 'head' | 'body' | 'busy';

interface Conn {
  sock: Socket;
  phase: Phase;
  /** When the phase began (Date.now()): the connection idle or in its headers longest goes first. */
  since: number;
  /** When the request being received began (its first octet). */
  started: number;
  /** Requests of this connection being answered (more than one when pipelined). */
  answering: number;
  timer: Timer | undefined;
}

const REQUEST_TIMEOUT_REPLY = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * The gateway's connections and their times (RFC 9112 9.5: a server "SHOULD" close idle
 * connections; RFC 9110 15.5.9: 408 when the client took too long to send its request). A
 * connection is closed after `idle` ms with no request in progress, answered 408 and closed when
 * a request's headers take more than `headers` ms or the whole request more than `receive` ms
 * from its first octet. At most `max` connections: a new one past it closes the connection that
 * has been idle or in its headers longest (a few sockets that send nothing or one octet a second
 * cannot lock other clients out), and is refused only when every connection is being answered
 * (their number per client is bounded by maxPerClient).
 */
class Connections {
  private readonly all = new Map<Socket, Conn>();
  constructor(private readonly limits: Limits) {}

  /** A new connection, or null when it was refused (every other one is being answered). */
  add(sock: Socket): Conn | null {
    // A socket reset before the HTTP server has it would otherwise throw its 'error'.
    sock.on('error', () => {});
    if (this.all.size >= this.limits.max && !this.closeOldestWaiting()) {
      sock.destroy();
      return null;
    }
    const c: Conn = { sock, phase: 'idle', since: Date.now(), started: 0, answering: 0, timer: undefined };
    this.all.set(sock, c);
    sock.on('close', () => {
      c.timer?.clear();
      this.all.delete(sock);
    });
    this.enter(c, 'idle');
    return c;
  }

  /** Octets arrived on the connection: the first of a request starts its clocks. */
  data(c: Conn): void {
    if (c.phase !== 'idle') return;
    c.started = Date.now();
    this.enter(c, 'head');
  }

  /** The HTTP server has a request's headers: its body, if any, is timed; then it is answered. */
  request(req: IncomingMessage, res: ServerResponse): void {
    const c = this.all.get(req.socket);
    if (c === undefined) return;
    c.answering++;
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.complete) {
      this.enter(c, 'body');
      req.once('end', () => {
        if (c.phase === 'body') this.enter(c, 'busy');
      });
    } else this.enter(c, 'busy');
    res.once('close', () => {
      c.answering--;
      if (c.answering <= 0 && !c.sock.destroyed) {
        c.answering = 0;
        this.enter(c, 'idle');
      }
    });
  }

  private enter(c: Conn, phase: Phase): void {
    c.timer?.clear();
    c.timer = undefined;
    c.phase = phase;
    c.since = Date.now();
    if (phase === 'busy') return;
    const left =
      phase === 'idle'
        ? this.limits.idle
        : Math.min(phase === 'head' ? this.limits.headers : Infinity, c.started + this.limits.receive - c.since);
    // Not setTimeout: past 2^31-1 ms it fires after 1 ms (a limit of 30 days would close every
    // connection at once); startTimer waits in steps.
    c.timer = startTimer(Math.max(0, left), () => this.expire(c));
  }

  private expire(c: Conn): void {
    if (c.phase === 'idle') {
      c.sock.destroy();
      return;
    }
    if (c.phase === 'busy') return;
    // The request took too long to arrive: 408 (RFC 9110 15.5.9), and the connection closed.
    const s = c.sock;
    const kill = setTimeout(() => s.destroy(), 1000);
    kill.unref();
    if (s.writable) s.end(REQUEST_TIMEOUT_REPLY, () => s.destroy());
    else s.destroy();
  }

  /** Closes the connection idle or in its headers longest; false when every one is being answered. */
  private closeOldestWaiting(): boolean {
    let oldest: Conn | null = null;
    for (const c of this.all.values()) {
      if (
        (c.phase === 'idle' || c.phase === 'head') &&
        !c.sock.destroyed &&
        (oldest === null || c.since < oldest.since)
      )
        oldest = c;
    }
    if (oldest === null) return false;
    oldest.timer?.clear();
    this.all.delete(oldest.sock);
    oldest.sock.destroy();
    return true;
  }

  closeAll(): void {
    for (const c of this.all.values()) {
      c.timer?.clear();
      c.sock.destroy();
    }
  }
}

/** The proxy requests whose request line was rewritten (acceptConnection), by connection. */
const OPAQUE_PROXY_TARGET = new WeakMap<Socket, string>();

/**
 * Hands a connection to the HTTP server, after one look at its first chunk. Why by hand: Node's
 * HTTP parser (llhttp) takes an absolute URI in the request line only in the "scheme://" form and
 * answers a bare 400 to `GET news:comp.lang.misc HTTP/1.0`, which is what a browser configured with
 * `news_proxy` sends (RFC 1945 5.1.2 allows any absoluteURI there; news: and mailto: URLs have no
 * "//", RFC 1738 3.5-3.6). Such a first request line is rewritten to the gateway's own
 * `/?url=<URL>` form, and the connection remembers the URL, so that targetOf() answers it as the
 * proxy request it was (same checks, same rendering). A request line split across packets is left
 * as it is (Node's 400); later requests on the connection are not rewritten.
 */
function acceptConnection(server: Server, sock: Socket, conns: Connections, c: Conn): void {
  sock.once('data', (chunk: Buffer) => {
    sock.pause();
    conns.data(c);
    const head = chunk.toString('latin1', 0, Math.min(chunk.length, MAX_TARGET + 64));
    const m = /^([A-Z]+) ([A-Za-z][A-Za-z0-9+.-]*:(?!\/\/)[^ \r\n]*) (HTTP\/1\.[01])\r?\n/.exec(head);
    let out = chunk;
    if (m !== null) {
      OPAQUE_PROXY_TARGET.set(sock, m[2]);
      const line = `${m[1]} /?url=${encodeURIComponent(m[2])} ${m[3]}\r\n`;
      out = Buffer.concat([Buffer.from(line, 'latin1'), chunk.subarray(Buffer.byteLength(m[0], 'latin1'))]);
    }
    sock.unshift(out);
    server.emit('connection', sock);
    // Every chunk after the first: the start of a later request on the connection starts its clocks.
    sock.on('data', () => conns.data(c));
    sock.resume();
  });
  sock.resume();
}

// ---------------------------------------------------------------------------------------------
// Responses

function commonHeaders(res: ServerResponse, cfg: Config): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The gateway's own pages name themselves as the referrer of their links (an older browser
  // without Fetch Metadata tells the gateway that way that a request is its own), and no other
  // site learns their addresses (which may hold a password).
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(cfg.origin));
}

/** The responses that are pages (an error met after the start is written at their end); the others are objects passed on. */
const PAGES = new WeakSet<ServerResponse>();
/**
 * Responses to HEAD requests (RFC 9110 9.3.2: the headers a GET would have, no content). The
 * object is opened, so that its type and size are known, and its body is cancelled unread: a HEAD
 * costs the remote server the request, not the transfer.
 */
const HEADS = new WeakSet<ServerResponse>();

function startPage(res: ServerResponse, cfg: Config, status: number): void {
  PAGES.add(res);
  res.statusCode = status;
  commonHeaders(res, cfg);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
}

function sendPage(res: ServerResponse, cfg: Config, status: number, body: string): void {
  startPage(res, cfg, status);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * The HTTP status for a typed error: a refusal of the policy 403; a missing object (FTP 550,
 * Gopher+ error 1, `not-found`) 404; a URL that is not valid 400; no client for the scheme 501;
 * a timeout 504; any other network or protocol failure 502.
 */
export function statusFor(e: LocatorError): number {
  if (e.code === GATEWAY_BUSY) return 429;
  if (e.code === GATEWAY_MISDIRECTED) return 421;
  if (e.code === NOT_FOUND) return 404;
  if (e instanceof FtpReplyError && (e.replyCode === 550 || e.replyCode === 450)) return 404;
  if (e instanceof GopherError && (e.errorNumber === 1 || e.errorNumber === null)) return 404;
  if (e.code === NO_CLIENT) return 501;
  if (e.code === TIMEOUT) return 504;
  if (e.kind === 'policy') return 403;
  if (e.kind === 'syntax' || e.kind === 'usage') return 400;
  return 502;
}

function errorBlock(e: LocatorError): Html {
  const rule = e.section !== null ? markup`<dt>Rule</dt><dd>${e.section}</dd>\n` : '';
  const offset = e.offset >= 0 ? markup`<dt>Offset</dt><dd>${String(e.offset)}</dd>\n` : '';
  return markup`<dl class="facts">
<dt>Code</dt><dd><code>${e.code}</code></dd>
<dt>Kind</dt><dd>${e.kind}</dd>
${rule}${offset}</dl>
`;
}

function asLocatorError(e: unknown): LocatorError {
  if (e instanceof LocatorError) return e;
  return new LocatorError(GATEWAY_FAILED, -1, `the gateway failed: ${(e as Error)?.message ?? String(e)}`);
}

/** An error as a page: the typed error, its code, kind and rule, with the matching status. */
function sendError(res: ServerResponse, cfg: Config, shownUrl: string, err: unknown, status?: number): void {
  const e = asLocatorError(err);
  const st = status ?? statusFor(e);
  const where = shownUrl !== '' ? markup`<p>URL: <code>${shownUrl}</code></p>\n` : '';
  const body = page(
    { title: `Error ${st}`, url: shownUrl, base: cfg.origin, kind: 'error' },
    markup`<h1>Error ${String(st)}: ${e.code}</h1>
${where}<p role="alert">${e.detail}</p>
${errorBlock(e)}`,
  );
  cfg.log?.(`error ${st} ${e.code} ${shownUrl}`);
  sendPage(res, cfg, st, body);
}

/** A sink over the response that waits for 'drain', and stops when the client goes away. */
function sinkOf(res: ServerResponse, signal: AbortSignal): Sink & { bytes(chunk: Uint8Array): Promise<void> } {
  const wait = () =>
    new Promise<void>((resolve, reject) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        signal.removeEventListener('abort', done);
        if (res.destroyed || signal.aborted)
          reject(new LocatorError(ABORTED, -1, 'the client went away or the time ran out'));
        else resolve();
      };
      res.once('drain', done);
      res.once('close', done);
      signal.addEventListener('abort', done);
    });
  const put = (c: string | Uint8Array): Promise<void> | void => {
    if (res.destroyed || signal.aborted)
      throw new LocatorError(ABORTED, -1, 'the client went away or the time ran out');
    if (!res.write(c)) return wait();
  };
  return { write: put, bytes: async (c) => put(c) };
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Target {
  /** The URL asked for, as given. */
  raw: string;
  /** True for a proxy request (absolute URL in the request line). */
  proxy: boolean;
  params: URLSearchParams;
}

/** What the request asks for: the home page (null), or a URL with parameters; or a refusal. */
function targetOf(req: IncomingMessage, cfg: Config): Target | null {
  const opaque = OPAQUE_PROXY_TARGET.get(req.socket);
  if (opaque !== undefined) OPAQUE_PROXY_TARGET.delete(req.socket); // the first request only
  const line = opaque ?? req.url ?? '/';
  if (line.length > MAX_TARGET)
    throw new LocatorError(GATEWAY_REFUSED, -1, `the request target is longer than ${MAX_TARGET} characters`);
  if (!line.startsWith('/')) {
    // A proxy request (RFC 1945 5.1.2: "The absoluteURI form is only allowed when the request is
    // being made to a proxy"): what clients send with gopher_proxy, ftp_proxy, wais_proxy ...
    const client = req.socket.remoteAddress ?? '';
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
function headerOf(req: IncomingMessage, name: string): string | undefined {
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
function crossSiteRefusal(req: IncomingMessage, target: Target, cfg: Config): string | null {
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
    return cfg.names.origin(origin) ? null : `it comes from a page of another origin (Origin: ${origin})`;
  }
  const referer = headerOf(req, 'referer');
  if (referer !== undefined && /^https?:/i.test(referer)) {
    const from = /^https?:\/\/[^/?#]*/i.exec(referer)?.[0].toLowerCase();
    return cfg.names.origin(from) ? null : `it comes from a page of another origin (Referer: ${from ?? referer})`;
  }
  if (/^Mozilla\//.test(headerOf(req, 'user-agent') ?? '')) {
    return 'a browser sent it without saying where it comes from (no Sec-Fetch-Site, Origin or Referer), as a page of another site can make it do';
  }
  return null;
}

/**
 * The answer to a request refused by crossSiteRefusal: 403 with nothing retrieved, at once (no
 * timing to learn from), and a link to the same URL, which the user may follow: a link of the
 * gateway's own page is a same-origin request.
 */
function sendCrossSiteRefusal(res: ServerResponse, cfg: Config, target: Target, why: string): void {
  const shown = redactUrl(target.raw);
  const e = new LocatorError(
    GATEWAY_REFUSED,
    -1,
    `the gateway does not open URLs for pages of other sites: ${why} (nothing was retrieved)`,
  );
  cfg.log?.(`error 403 ${e.code} ${shown} (from another site)`);
  const link = target.proxy
    ? ''
    : markup`<p>To open it yourself: <a href="${'/?' + target.params.toString()}">${shown}</a></p>\n`;
  sendPage(
    res,
    cfg,
    403,
    page(
      { title: 'Error 403', url: shown, base: cfg.origin, kind: 'error' },
      markup`<h1>Error 403: ${e.code}</h1>\n<p>URL: <code>${shown}</code></p>\n<p role="alert">${e.detail}</p>\n${link}${errorBlock(e)}`,
    ),
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const parts: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM) throw new LocatorError(GATEWAY_REFUSED, -1, `the form is larger than ${MAX_FORM} octets`);
    parts.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(parts).toString('utf8'));
}

function homePage(cfg: Config): string {
  return page(
    { title: 'Home', url: '', base: cfg.origin },
    markup`<h1>locator gateway</h1>
<p>Type a URL in the address field above: its object is shown here, retrieved by the protocol the URL names
(RFC 1738). Gopher menus and FTP directories become lists of links that lead back through this gateway;
text is shown as text, other files are downloaded.</p>
<h2>Schemes</h2>
<ul>
<li><code>gopher:</code> menus, documents, type 7 searches, Gopher+ forms</li>
<li><code>ftp:</code> directories and files</li>
<li><code>news:</code> (the news server of <code>--nntp-server</code> or NNTPSERVER), <code>nntp:</code>: groups and articles</li>
<li><code>wais:</code> searches and documents, <code>prospero:</code> objects (through their access method)</li>
<li><code>telnet:</code>, <code>rlogin:</code>, <code>tn3270:</code>, <code>mailto:</code>: the command to run</li>
</ul>
<p>Every page has an "Access algorithm" link: the protocol steps of its URL, without retrieving anything.</p>
`,
  );
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
    sendPage(res, cfg, 200, homePage(cfg));
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
  if (method === 'HEAD') HEADS.add(res);
  const base = target.proxy ? cfg.origin : '';
  const ctx: RenderContext = { base, proxy: target.proxy, link: (u, p) => gatewayHref(base, u, p) };
  const ac = new AbortController();
  const timer = startTimer(cfg.requestTimeout, () => ac.abort());
  res.on('close', () => ac.abort());
  try {
    await serveUrl(req, res, cfg, parsed, target, ctx, ac.signal);
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

function actions(url: Url, ctx: RenderContext, download: boolean): Html {
  // The explanation needs no password (its steps show a placeholder): its link carries none.
  const explainLink = markup`<a href="${ctx.link(redactUrl(url.href), { view: 'explain' })}">Access algorithm</a>`;
  const raw = download ? markup` | <a href="${ctx.link(url.href, { view: 'raw' })}">Download the original</a>` : '';
  return markup`<p class="actions">${explainLink}${raw}</p>\n`;
}

function simplePage(res: ServerResponse, cfg: Config, ctx: RenderContext, url: Url, title: string, body: Html): void {
  const shown = redactUrl(url.href);
  const head = markup`<h1>${title}</h1>\n<p>URL: <code>${shown}</code></p>\n`;
  sendPage(res, cfg, 200, page({ title, url: shown, base: ctx.base }, markup`${head}${body}`));
}

function redirectTo(res: ServerResponse, cfg: Config, ctx: RenderContext, url: string): void {
  const to = ctx.link(url);
  // To the origin the browser asked (localhost:8080 and 127.0.0.1:8080 are different sites: a
  // redirect from one to the other would be a cross-site request, refused); a proxy request's
  // Host names the remote server, so there the gateway's own address.
  const origin = (ctx.proxy ? null : requestOrigin(res.req, cfg)) ?? cfg.origin;
  const location = to.startsWith('/') ? origin + to : to;
  res.statusCode = 303;
  commonHeaders(res, cfg);
  res.setHeader('Location', location);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(
    page(
      { title: 'See other', url: redactUrl(url), base: ctx.base },
      markup`<h1>See other</h1>\n<p><a href="${to}">${redactUrl(url)}</a></p>\n`,
    ),
  );
}

async function serveUrl(
  req: IncomingMessage,
  res: ServerResponse,
  cfg: Config,
  url: Url,
  target: Target,
  ctx: RenderContext,
  signal: AbortSignal,
): Promise<void> {
  const view = target.params.get('view');
  const shown = redactUrl(url.href);
  if (view === 'explain') {
    simplePage(res, cfg, ctx, url, 'Access algorithm', explainBlock(explain(url)));
    return;
  }
  const scheme = url.scheme;
  if (entryOf(url)?.readsThisMachine?.(url) === true && !cfg.allowLocalFiles) {
    throw new LocatorError(
      GATEWAY_REFUSED,
      -1,
      `a ${scheme}: URL is read from the machine the gateway runs on, which this gateway does not serve (RFC 1738 6)`,
    );
  }
  if (scheme === 'telnet' || scheme === 'rlogin' || scheme === 'tn3270') {
    simplePage(res, cfg, ctx, url, `${scheme} session`, markup`${sessionBlock(url)}${actions(url, ctx, false)}`);
    return;
  }
  if (scheme === 'mailto') {
    if (cfg.smtp === undefined) {
      simplePage(res, cfg, ctx, url, 'Mail address', markup`${mailtoBlock(url)}${actions(url, ctx, false)}`);
    } else await serveMail(req, res, cfg, url, ctx, signal);
    return;
  }
  if ((scheme === 'http' || scheme === 'https') && !cfg.http) {
    simplePage(
      res,
      cfg,
      ctx,
      url,
      'A web page',
      markup`<p>This gateway serves the other protocols; a web browser reaches HTTP itself: <a href="${url.href}" rel="noreferrer">${shown}</a></p>\n${actions(url, ctx, false)}`,
    );
    return;
  }
  const search = target.params.get('search');
  if (scheme === 'gopher') {
    const f = url.fields as {
      gophertype: string;
      selector: string;
      search: string | null;
      gopherPlus: string | null;
      plus: { kind: string } | null;
    };
    if (f.gophertype === '7' && (f.search === null || f.search === '') && f.gopherPlus === null) {
      if (search === null) {
        simplePage(
          res,
          cfg,
          ctx,
          url,
          'Gopher search',
          markup`${searchForm(url.href, 'for', ctx)}${actions(url, ctx, false)}`,
        );
        return;
      }
      const built = build('gopher', { host: url.host, port: url.port, gophertype: '7', selector: f.selector, search });
      redirectTo(res, cfg, ctx, built);
      return;
    }
    if (f.plus?.kind === 'ask') {
      await serveAsk(req, res, cfg, url, ctx, signal);
      return;
    }
  }
  if (scheme === 'wais') {
    const f = url.fields as { kind: string; database: string | null };
    if (f.kind === 'database') {
      if (search === null) {
        simplePage(
          res,
          cfg,
          ctx,
          url,
          'WAIS database',
          markup`${searchForm(url.href, `the database ${f.database ?? ''}`, ctx)}${actions(url, ctx, false)}`,
        );
        return;
      }
      redirectTo(res, cfg, ctx, build('wais', { host: url.host, port: url.port, database: f.database, search }));
      return;
    }
  }
  // A POST to a page that is no form: its body is not read, and is let go (its connection's
  // receive clock stops when it has all arrived).
  req.resume();
  let r: Resource;
  try {
    r = await open(url, openOptions(cfg, signal));
  } catch (e) {
    // An ftp name that is a directory: RETR fails with 550; the directory is listed instead
    // (the draft of 1994-03: a final "/" lists the directory).
    if (
      e instanceof FtpReplyError &&
      e.replyCode === 550 &&
      scheme === 'ftp' &&
      e.command?.startsWith('RETR') &&
      !url.href.endsWith('/') &&
      !(url.path ?? '').includes(';')
    ) {
      const dir = url.withoutFragment + '/';
      try {
        const d = await open(dir, openOptions(cfg, signal));
        await d.body.cancel().catch(() => {});
        redirectTo(res, cfg, ctx, dir);
        return;
      } catch {
        throw e;
      }
    }
    throw e;
  }
  await renderResource(res, cfg, url, r, view, ctx, signal);
}

function openOptions(cfg: Config, signal: AbortSignal): GopherOpenOptions {
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

/**
 * A mailto: URL when a relay is configured (RFC 1738 3.5: the URL designates "the internet mailing
 * address of an individual or service"): GET shows a form (From, Subject, the message); POST sends
 * it with send() through the relay and shows the relay's answer. A POST is accepted only with the
 * form's token (made per gateway process, readable only by pages of the gateway's own origin) and,
 * when the browser names one, the gateway's own Origin: another site's page cannot make the
 * gateway send mail (cross-site request forgery).
 */
async function serveMail(
  req: IncomingMessage,
  res: ServerResponse,
  cfg: Config,
  url: Url,
  ctx: RenderContext,
  signal: AbortSignal,
): Promise<void> {
  if (req.method !== 'POST') {
    simplePage(
      res,
      cfg,
      ctx,
      url,
      'Send mail',
      markup`${mailForm(url, ctx, cfg.formToken)}${actions(url, ctx, false)}`,
    );
    return;
  }
  const form = await ownForm(req, cfg, 'the mail form', 'no mail is sent');
  const { send } = await import('../clients/smtp/client.js');
  const r = await send(
    url,
    { from: form.get('from') ?? '', subject: form.get('subject') ?? undefined, body: form.get('body') ?? '' },
    { smtp: cfg.smtp, timeout: cfg.timeout, signal, ...(cfg.smtpCa !== undefined ? { ca: cfg.smtpCa } : {}) },
  );
  simplePage(
    res,
    cfg,
    ctx,
    url,
    'Mail sent',
    markup`<p role="status">The relay ${r.relay} accepted the message for ${r.recipient}: ${String(r.reply.code)} ${r.reply.text}</p>
<dl class="facts"><dt>Message-ID</dt><dd>${r.messageId}</dd></dl>${actions(url, ctx, false)}`,
  );
}

/**
 * The fields of a form POSTed to the gateway, read only when it came from the gateway's own page:
 * its token (made per gateway process, readable only by pages of the gateway's own origin) must
 * match and, when the browser names one, so must the Origin. Another site's page cannot make the
 * gateway act (cross-site request forgery): send mail, or send answers to a Gopher+ form.
 */
async function ownForm(req: IncomingMessage, cfg: Config, what: string, consequence: string) {
  const origin = headerOf(req, 'origin');
  const form = await readForm(req);
  if ((origin !== undefined && !cfg.names.origin(origin)) || form.get('token') !== cfg.formToken) {
    throw new LocatorError(
      GATEWAY_REFUSED,
      -1,
      `${what} was not sent from this gateway's own page (its token or Origin does not match): ${consequence}`,
    );
  }
  return form;
}

/**
 * A Gopher+ +ASK form (RFC 1738 3.4.5): GET shows it as an HTML form, POST sends the answers
 * (only from the gateway's own page, see ownForm).
 */
async function serveAsk(
  req: IncomingMessage,
  res: ServerResponse,
  cfg: Config,
  url: Url,
  ctx: RenderContext,
  signal: AbortSignal,
): Promise<void> {
  if (req.method !== 'POST') {
    class Questions {
      constructor(readonly list: AskQuestion[]) {}
    }
    try {
      const ask: GopherOpenOptions = {
        ...openOptions(cfg, signal),
        ask: async (questions) => {
          throw new Questions(questions);
        },
      };
      const r = await open(url, ask);
      await r.body.cancel().catch(() => {});
      throw new LocatorError(PROTOCOL_ERROR, -1, 'the server sent the item without asking its form');
    } catch (e) {
      if (!(e instanceof Questions)) throw e;
      simplePage(
        res,
        cfg,
        ctx,
        url,
        'Gopher+ form',
        markup`${askForm(url.href, e.list, ctx, cfg.formToken)}${actions(url, ctx, false)}`,
      );
      return;
    }
  }
  const form = await ownForm(req, cfg, 'the Gopher+ form', 'nothing is sent to the server');
  const filled: GopherOpenOptions = {
    ...openOptions(cfg, signal),
    ask: async (questions) => {
      if (form.get('questions') !== String(questions.length)) {
        throw new LocatorError(
          NEEDS_INPUT,
          -1,
          `the form has ${questions.length} questions now, and ${form.get('questions') ?? 'no'} answers were sent: fill it in again`,
        );
      }
      return questions.map((_, i) => form.get(`a${i}`) ?? '');
    },
  };
  const r = await open(url, filled);
  await renderResource(res, cfg, url, r, null, ctx, signal);
}

/** A safe Content-Type for a download: a plain `type/subtype`, else application/octet-stream. */
function downloadType(t: string | null): string {
  const m = t === null ? null : /^([A-Za-z0-9][\w.+-]*\/[\w.+-]+)/.exec(t);
  if (m === null) return 'application/octet-stream';
  const mt = m[1].toLowerCase();
  // Markup from elsewhere is never served as markup from the gateway's origin.
  if (/html|xml|svg|javascript|ecmascript/.test(mt)) return 'text/plain; charset=utf-8';
  return mt;
}

/** The file name of a download: the last segment or selector part of the URL, made safe. */
export function fileNameOf(url: Url): string {
  const path = url.path ?? '';
  const last = decodeURIComponentSafe(
    path
      .replace(/[;?].*$/, '')
      .split(/[/\t]/)
      .filter((s) => s !== '')
      .pop() ?? '',
  );
  // Controls and format characters (src/unsafe-text.ts) would reorder or hide part of the name a
  // browser shows for the file: "invoice\u202Efdp.exe" as "invoiceexe.pdf".
  const clean = last
    .replace(UNSAFE_TEXT, '_')
    .replace(/["\\/]/g, '_')
    .replace(/^\.+/, '');
  return clean === '' ? 'download' : clean.slice(0, 200);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/%/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

async function streamBytes(
  body: ReadableStream<Uint8Array>,
  sink: { bytes(c: Uint8Array): Promise<void> },
): Promise<void> {
  const reader = body.getReader();
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) return;
      await sink.bytes(r.value);
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    throw e;
  } finally {
    reader.releaseLock();
  }
}

type Kind = 'menu' | 'listing' | 'overview' | 'groups' | 'headlines' | 'urilist' | 'article' | 'text' | 'download';

/** How an object is shown, from its scheme and content type (docs/gateway.md). */
export function kindOf(url: Url, contentType: string | null, gopherType?: string): Kind {
  const t = (contentType ?? '').toLowerCase().replace(/;.*$/, '').trim();
  if (url.scheme === 'gopher' && (gopherType === '1' || gopherType === '7' || t === 'application/gopher-menu'))
    return 'menu';
  if (url.scheme === 'ftp' && planFtp(url).listing) return 'listing';
  switch (t) {
    case 'text/x-locator-news-overview':
      return 'overview';
    case 'text/x-locator-news-groups':
      return 'groups';
    case 'text/x-locator-wais-headlines':
      return 'headlines';
    case 'text/uri-list':
      return 'urilist';
    case 'message/rfc822':
    case 'message/news':
      return 'article';
  }
  if (t.startsWith('text/')) return 'text';
  return 'download';
}

const TITLES: Record<Kind, string> = {
  menu: 'Gopher menu',
  listing: 'FTP directory',
  overview: 'Newsgroup',
  groups: 'Newsgroups',
  headlines: 'WAIS search results',
  urilist: 'Where the object is',
  article: 'Article',
  text: 'Text',
  download: 'Download',
};

async function renderResource(
  res: ServerResponse,
  cfg: Config,
  url: Url,
  r: Resource,
  view: string | null,
  ctx: RenderContext,
  signal: AbortSignal,
): Promise<void> {
  // A client that says the object is a listing (a file: directory) is shown as an FTP one is.
  const kind = r.meta.kind === 'listing' ? 'listing' : kindOf(url, r.meta.contentType, r.meta.gopherType);
  const sink = sinkOf(res, signal);
  // Asked as a proxy, a document or file is passed on as it is (what a proxy does); menus,
  // listings and the other line formats have no HTTP form but a page.
  if (view === 'raw' || kind === 'download' || (ctx.proxy && kind === 'text')) {
    res.statusCode = 200;
    commonHeaders(res, cfg);
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader(
      'Content-Type',
      view === 'raw' && kind !== 'download'
        ? downloadType(r.meta.contentType ?? 'text/plain')
        : downloadType(r.meta.contentType),
    );
    if (!ctx.proxy) res.setHeader('Content-Disposition', contentDisposition(fileNameOf(url)));
    if (r.meta.size !== null) res.setHeader('Content-Length', String(r.meta.size));
    if (HEADS.has(res)) {
      await r.body.cancel().catch(() => {});
      res.end();
      return;
    }
    await streamBytes(r.body, sink);
    res.end();
    return;
  }
  startPage(res, cfg, 200);
  if (HEADS.has(res)) {
    await r.body.cancel().catch(() => {});
    res.end();
    return;
  }
  const shown = redactUrl(r.meta.url || url.href);
  const title = kind === 'listing' && url.scheme === 'file' ? 'Directory' : TITLES[kind];
  await sink.write(pageStart({ title, url: shown, base: ctx.base }));
  await sink.write(markup`<h1>${title}</h1>\n<p>URL: <code>${shown}</code></p>\n${actions(url, ctx, true)}`.value);
  if (r.meta.redirects !== undefined && r.meta.redirects.length > 0) {
    await sink.write(
      markup`<p>Reached through ${r.meta.redirects.map((u, i) => markup`${i > 0 ? ', ' : ''}<code>${u}</code>`)}.</p>\n`
        .value,
    );
  }
  const body = r.body;
  switch (kind) {
    case 'menu':
      await renderMenu(readMenu(body), ctx, sink);
      break;
    case 'listing':
      await renderFtpListing(url.withoutFragment, lines(body), ctx, sink);
      break;
    case 'overview':
      await renderNewsOverview(lines(body), ctx, sink);
      break;
    case 'groups':
      await renderNewsGroups(lines(body), ctx, sink);
      break;
    case 'headlines':
      await renderWaisHeadlines(lines(body), ctx, sink);
      break;
    case 'urilist':
      await renderUriList(lines(body), ctx, sink);
      break;
    case 'article':
      await renderArticle(lines(body)[Symbol.asyncIterator](), ctx, sink);
      break;
    default:
      await renderText(body, sink);
  }
  res.end(pageEnd());
}
