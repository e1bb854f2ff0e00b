// http and https (RFC 1738 3.3): "GET <path>?<search>", the fragment never sent: a plain http GET
// sent directly on the wire client (wire.ts), https and probes over Node's own HTTP stack. Also
// the gateway form (RFC 1738 4, Node's stack): any URL fetched through an HTTP proxy that
// receives the full URL in its request line. Redirects are followed within the policy.

import type http from 'node:http';
import type https from 'node:https';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { parse } from '../../schemes/registry.js';
import type { Url } from '../../core/url.js';
import { LocatorError, defineCode } from '../../core/errors.js';
import { DEFAULT_POLICY, type Policy } from '../../operations/policy.js';
import { checkTimeout, MAX_TIMER, pullStream } from '../connection.js';
import {
  ABORTED,
  CONNECT_FAILED,
  CONNECTION_CLOSED,
  PROTOCOL_ERROR,
  TIMEOUT,
  TOO_LARGE,
  type HttpExchange,
  type OpenOptions,
  type Redirect,
  type Resource,
  type TranscriptLine,
} from '../types.js';
import { redactUrl as redactHref } from '../../operations/redact.js';
import { parseRetryAfter } from './retry-after.js';
import { lookupWith, wireGet, type WireResponse } from './wire.js';

export const HTTP_STATUS = defineCode(
  'http-status',
  'error',
  'RFC 1738 3.3',
  'the HTTP server answered with an error status',
  'protocol',
);

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The request target of an http URL: "/" hpath ["?" search], never the fragment (RFC 1738 3.3). */
export function requestTarget(url: Url): string {
  const path = url.path;
  return '/' + (path ?? '');
}

/**
 * The timeout option for Node's socket timers: validated as for every client; Infinity is 0
 * (Node: no timer). DEVIATION from the other clients: a finite value above 2^31-1 ms (about
 * 24.8 days) is that limit here, the most one of Node's socket timers can hold.
 */
function nodeTimeout(options: OpenOptions): number {
  const t = checkTimeout(options.timeout);
  return Number.isFinite(t) ? Math.min(t, MAX_TIMER) : 0;
}

interface Target {
  /** The URL whose object is wanted. */
  url: Url;
  /** Where the TCP connection goes (the URL's host, or the gateway's). */
  via: Url;
  /** The request line target: a path, or the full URL for a gateway. */
  path: string;
  /** The method: GET (default), or HEAD for a probe (RFC 1945 8.2). */
  method?: 'GET' | 'HEAD';
}

// Node's HTTP stack, loaded on first use: a crawl of plain http URLs goes on the wire client
// and never needs it, and node:https with its TLS stack was a few ms of every command's start.
let httpModule: typeof http | null = null;
let httpsModule: typeof https | null = null;
const httpOf = (): typeof http => (httpModule ??= createRequire(import.meta.url)('node:http') as typeof http);
const httpsOf = (): typeof https => (httpsModule ??= createRequire(import.meta.url)('node:https') as typeof https);

/** Sockets given their quiet 'error' listener (once each: a kept-alive socket serves many requests). */
const QUIET = new WeakSet<object>();

function request(t: Target, options: OpenOptions, note: (l: TranscriptLine) => void): Promise<http.IncomingMessage> {
  const policy = options.policy ?? DEFAULT_POLICY;
  const timeout = nodeTimeout(options);
  const secure = t.via.scheme === 'https';
  const mod = secure ? httpsOf() : httpOf();
  const host = (t.via.host ?? '').replace(/^\[|\]$/g, '');
  const port = t.via.port ?? (secure ? 443 : 80);
  const hostHeader =
    t.url.explicitPort && t.url.port !== t.url.spec?.defaultPort ? `${t.url.host}:${t.url.port}` : (t.url.host ?? '');
  const agent = options.userAgent ?? 'locator';
  // A header value of printable US-ASCII only (RFC 9110 5.5): no line can be added through it.
  if (!/^[\x20-\x7e]+$/.test(agent)) throw new TypeError('open: userAgent must be printable US-ASCII text');
  const headers: Record<string, string> = { Host: hostHeader, 'User-Agent': agent, Accept: '*/*' };
  return new Promise((resolve, reject) => {
    note({ direction: 'info', text: `connect ${host}:${port}` });
    const method = t.method ?? 'GET';
    note({ direction: 'send', text: `${method} ${redactHref(t.path)} HTTP/1.1` });
    note({ direction: 'send', text: `Host: ${hostHeader}` });
    const req = mod.request({
      host,
      port,
      method,
      path: t.path,
      headers,
      lookup: lookupWith(policy),
      signal: options.signal,
      timeout,
    });
    req.on('timeout', () =>
      req.destroy(new LocatorError(TIMEOUT, -1, `no answer from ${host}:${port} within ${timeout} ms`)),
    );
    // Whether the TCP connection was made: an error after it is the server's doing (a reply that
    // is not HTTP, a connection closed or reset before the reply), not a failure to connect.
    let connected = false;
    req.on('socket', (s) => {
      // The caller's signal reaches the socket too (net.connect's `signal`): aborted after the
      // exchange, when the socket has gone back to the agent's pool, its AbortError would have no
      // listener and be an uncaught exception. Errors during the exchange still reach `req`.
      if (!QUIET.has(s)) {
        QUIET.add(s);
        s.on('error', () => {});
      }
      if (!s.connecting) connected = true;
      else s.once('connect', () => (connected = true));
      if (options.httpCapture) tap(s, req, redactHref(t.url), options.httpCapture);
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e instanceof LocatorError) return reject(e);
      if (e.name === 'AbortError') return reject(new LocatorError(ABORTED, -1, 'the transfer was cancelled'));
      const code = e.code ?? e.message;
      // Node's HTTP parser (llhttp) names its errors HPE_*: the reply is not HTTP/1.x, or its
      // header section is longer than Node accepts (16 KiB, HPE_HEADER_OVERFLOW).
      if (typeof e.code === 'string' && e.code.startsWith('HPE_')) {
        return reject(
          new LocatorError(
            PROTOCOL_ERROR,
            -1,
            e.code === 'HPE_HEADER_OVERFLOW'
              ? `the HTTP reply of ${host}:${port} has a header section over Node's limit of 16 KiB (${code})`
              : `the reply of ${host}:${port} is not HTTP (${code}: ${e.message})`,
            { cause: e },
          ),
        );
      }
      if (connected) {
        return reject(
          new LocatorError(
            CONNECTION_CLOSED,
            -1,
            `the server ${host}:${port} closed the connection before its HTTP reply (${code})`,
            { cause: e },
          ),
        );
      }
      reject(
        new LocatorError(CONNECT_FAILED, -1, `cannot retrieve over HTTP from ${host}:${port}: ${code}`, { cause: e }),
      );
    });
    req.on('response', (res) => {
      // Whoever reads the body sees its errors through its own listeners (the async iterator of
      // toResource()); this one only keeps an error nobody waits for any more (a caller's abort
      // after it stopped reading) from becoming an uncaught exception.
      res.on('error', () => {});
      note({
        direction: 'receive',
        text: `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage ?? ''}`.trimEnd(),
      });
      resolve(res);
    });
    req.end();
  });
}

/**
 * The `httpCapture` option (WARC 1.1 6.3, 6.4: the records keep the exchange as it crossed the
 * connection): from the moment the request has its socket until the socket is free again (Node
 * frees a kept-alive socket on the tick after the response's last octet, before another request
 * can have it) or closed, every chunk written to it (the request line and header section Node
 * wrote) and read from it (the response as received, before Node's parser removes the chunked
 * coding) is kept in the exchange. On a TLS socket these are the octets inside TLS. The socket's
 * own `write` is wrapped for that time and given back after.
 */
function tap(s: Socket, req: http.ClientRequest, url: string, capture: (e: HttpExchange) => void): void {
  const exchange: HttpExchange = {
    url,
    date: new Date(),
    ip: s.remoteAddress?.replace(/^\[|\]$/g, '') ?? null,
    sent: [],
    received: [],
    ended: Promise.resolve(false),
  };
  const write = s.write;
  const wrapped = function (this: Socket, data: unknown, encoding?: unknown, cb?: unknown): boolean {
    if (typeof data === 'string')
      exchange.sent.push(Buffer.from(data, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (data instanceof Uint8Array) exchange.sent.push(Buffer.from(data));
    return (write as (...a: unknown[]) => boolean).call(this, data, encoding, cb);
  } as Socket['write'];
  s.write = wrapped;
  const onData = (chunk: Buffer) => {
    exchange.received.push(chunk);
  };
  const onConnect = () => {
    exchange.ip = s.remoteAddress?.replace(/^\[|\]$/g, '') ?? null;
  };
  s.on('data', onData);
  if (s.connecting) s.once('connect', onConnect);
  let settle: (whole: boolean) => void = () => {};
  let whole = false;
  exchange.ended = new Promise<boolean>((resolve) => (settle = resolve));
  const untap = () => {
    s.off('data', onData);
    s.off('connect', onConnect);
    s.off('free', untap);
    s.off('close', untap);
    if (s.write === wrapped) s.write = write;
    settle(whole);
  };
  s.once('free', untap);
  s.once('close', untap);
  req.once('response', (res: http.IncomingMessage) => res.once('end', () => (whole = true)));
  req.once('close', () => {
    // A socket the request gave up before its response ended is not freed for another request:
    // the exchange is over when the request is.
    if (!whole) untap();
  });
  capture(exchange);
}

/**
 * meta.size from a Content-Length (RFC 9110 8.6: 1*DIGIT): the number only when a double holds
 * it exactly (at most 2^53-1); a larger one (Number() would round it) is an unknown size, null.
 */
function sizeOf(value: string | undefined): number | null {
  if (value === undefined || !/^[0-9]+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

function toResource(url: Url, res: http.IncomingMessage, options: OpenOptions): Resource {
  const size = sizeOf(res.headers['content-length']);
  const iter = res[Symbol.asyncIterator]();
  const timeout = nodeTimeout(options);
  res.setTimeout(timeout, () =>
    res.destroy(new LocatorError(TIMEOUT, -1, `the server sent nothing for ${timeout} ms`)),
  );
  let received = 0;
  // A body cut short (fewer octets than Content-Length, or a chunked body without its last
  // chunk) is the server closing the connection before the exchange is complete, not a failure
  // to connect: the code the gopher client gives a cut reply too.
  const cut = (cause?: unknown) =>
    new LocatorError(
      CONNECTION_CLOSED,
      -1,
      size !== null && Number.isFinite(size) && received < size
        ? `the server announced ${size} octets (Content-Length) and closed the connection after ${received}`
        : `the server closed the connection in the middle of the HTTP body, after ${received} octets${cause instanceof Error ? ` (${cause.message})` : ''}`,
      cause === undefined ? undefined : { cause },
    );
  return bodyResource(
    url,
    res.statusCode ?? 0,
    size,
    res.headers['content-type'],
    async () => {
      let r;
      try {
        r = await iter.next();
      } catch (e) {
        if (e instanceof LocatorError) throw e;
        if ((e as Error).name === 'AbortError' || options.signal?.aborted)
          throw new LocatorError(ABORTED, -1, 'the transfer was cancelled');
        throw cut(e);
      }
      if (r.done) {
        if (size !== null && Number.isFinite(size) && received < size) throw cut();
        return null;
      }
      received += (r.value as Buffer).length;
      return new Uint8Array(r.value as Buffer);
    },
    () => res.destroy(),
    options,
  );
}

/** The Resource of a response's body, pulled with `next` (either client's), its size and type from the head. */
function bodyResource(
  url: Url,
  status: number,
  size: number | null,
  contentType: string | undefined,
  next: () => Promise<Uint8Array | null>,
  cancel: () => void,
  options: OpenOptions,
): Resource {
  const body = pullStream(next, cancel, {
    maxBytes: options.maxBytes,
    tooLarge: () => new LocatorError(TOO_LARGE, -1, `the object is larger than ${options.maxBytes} octets`),
  });
  return {
    meta: {
      scheme: url.scheme,
      url: redactHref(url),
      size: Number.isFinite(size) ? size : null,
      contentType: contentType ?? null,
      status,
      transcript: [],
    },
    body,
  };
}

/** A response whose head is in, from Node's client or the wire client: what run() asks of it. */
interface Reply {
  status: number;
  message: string;
  /** A field's first value (a name given twice: the first, as Node keeps Location and Content-Type). */
  header(name: string): string | undefined;
  /** The body is not wanted (a redirect, an error status): read and dropped, or the connection closed. */
  discard(): void;
  resource(url: Url, options: OpenOptions): Resource;
}

function nodeReply(res: http.IncomingMessage): Reply {
  return {
    status: res.statusCode ?? 0,
    message: res.statusMessage ?? '',
    header: (name) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v[0] : v;
    },
    discard: () => {
      // The body is drained unread; a later abort of the caller's signal (a gateway ending the
      // request) must not surface as an uncaught 'error' of this message.
      res.on('error', () => {});
      res.resume();
    },
    resource: (url, options) => toResource(url, res, options),
  };
}

/** How much of an unwanted body (a redirect's, an error page) is read to keep its connection. */
const DISCARD_MAX = 64 * 1024;

function wireReply(w: WireResponse): Reply {
  const header = (name: string) => w.head.fields.get(name)?.[0];
  return {
    status: w.head.status,
    message: w.head.message,
    header,
    discard: () => {
      // Read to its end when short, so that the kept-alive connection serves the next request
      // (as Node's client drains it); a longer body closes the connection instead.
      void (async () => {
        let n = 0;
        try {
          for (let c = await w.next(); c !== null; c = await w.next()) {
            n += c.length;
            if (n > DISCARD_MAX) return w.cancel();
          }
        } catch {
          // The body's failure concerns nobody: it was not wanted.
        }
      })();
    },
    resource: (url, options) =>
      bodyResource(
        url,
        w.head.status,
        sizeOf(header('content-length')),
        header('content-type'),
        () => w.next(),
        () => w.cancel(),
        options,
      ),
  };
}

/**
 * A GET of a plain http URL, sent directly (RFC 1738 3.3), on the wire client (wire.ts): the same
 * request octets, transcript and capture as Node's client gives.
 */
async function wireRequest(t: Target, options: OpenOptions, note: (l: TranscriptLine) => void): Promise<Reply> {
  const host = (t.via.host ?? '').replace(/^\[|\]$/g, '');
  const port = t.via.port ?? 80;
  const hostHeader =
    t.url.explicitPort && t.url.port !== t.url.spec?.defaultPort ? `${t.url.host}:${t.url.port}` : (t.url.host ?? '');
  const agent = options.userAgent ?? 'locator';
  // A header value of printable US-ASCII only (RFC 9110 5.5): no line can be added through it.
  if (!/^[\x20-\x7e]+$/.test(agent)) throw new TypeError('open: userAgent must be printable US-ASCII text');
  // The request target as Node's client checks it (its INVALID_PATH_REGEX): nothing that would
  // end the request line.
  if (/[^\u0021-\u00ff]/.test(t.path)) throw new TypeError('Request path contains unescaped characters');
  // The Host value as Node's client checks a header's (RFC 9110 5.5; a host read with
  // allowViolations may hold any character): none that would end the line.
  if (/[^\t\x20-\x7e\x80-\xff]/.test(hostHeader)) throw new TypeError('Invalid character in header content ["Host"]');
  note({ direction: 'info', text: `connect ${host}:${port}` });
  note({ direction: 'send', text: `GET ${redactHref(t.path)} HTTP/1.1` });
  note({ direction: 'send', text: `Host: ${hostHeader}` });
  const request = Buffer.from(
    `GET ${t.path} HTTP/1.1\r\nHost: ${hostHeader}\r\nUser-Agent: ${agent}\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n`,
    'latin1',
  );
  let exchange: HttpExchange | undefined;
  let told = false;
  let settle: (whole: boolean) => void = () => {};
  if (options.httpCapture) {
    exchange = {
      url: redactHref(t.url),
      date: new Date(),
      ip: null,
      sent: [],
      received: [],
      ended: new Promise<boolean>((resolve) => (settle = resolve)),
    };
  }
  let w: WireResponse;
  try {
    w = await wireGet({
      host,
      port,
      request,
      policy: options.policy ?? DEFAULT_POLICY,
      timeout: nodeTimeout(options),
      signal: options.signal,
      exchange,
      settle,
      // The capture is told once, when a connection is had (a GET sent again after a stale
      // connection is the same exchange, started afresh).
      onConnect: () => {
        if (exchange !== undefined && !told) {
          told = true;
          options.httpCapture!(exchange);
        }
      },
    });
  } catch (e) {
    // Whatever stopped it (a GET sent again that could not connect, too), the exchange is over.
    settle(false);
    throw e;
  }
  note({ direction: 'receive', text: `HTTP/${w.head.version} ${w.head.status} ${w.head.message}`.trimEnd() });
  return wireReply(w);
}

/**
 * One request. A 3xx with a Location is answered as a Redirect (open() follows it, within the
 * policy), unless redirects are not followed or the request went to a gateway, whose answer is
 * passed on as it is. A GET of a plain http URL sent directly goes on the wire client; https,
 * gateways and probes on Node's.
 */
async function run(t: Target, options: OpenOptions, gateway: boolean): Promise<Resource | Redirect> {
  const note = typeof options.transcript === 'function' ? options.transcript : () => {};
  const wire = !gateway && t.via.scheme === 'http' && (t.method ?? 'GET') === 'GET';
  const res = wire ? await wireRequest(t, options, note) : nodeReply(await request(t, options, note));
  const status = res.status;
  const location = res.header('location');
  if (REDIRECTS.has(status) && location !== undefined && options.followRedirects !== false && !gateway) {
    res.discard();
    let next: Url;
    try {
      next = parse(new URL(location, t.url.withoutFragment).href);
    } catch {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the server redirects to ${JSON.stringify(redactHref(location))}, which is not a URL`,
      );
    }
    return { redirect: next, reason: `HTTP ${status}` };
  }
  if (status >= 400) {
    res.discard();
    const e = new LocatorError(
      HTTP_STATUS,
      -1,
      `the HTTP server answered ${status} ${res.message} for ${redactHref(t.url)}`.trimEnd(),
    );
    if (status === 429 || status === 503) {
      // The server is busy (RFC 6585 4, RFC 9110 15.6.4), and may say for how long: probe's
      // statusOf() carries it to the checker, which pauses every request to that server.
      const retryAfter = parseRetryAfter(res.header('retry-after'));
      Object.assign(e, { busy: true, ...(retryAfter !== null ? { retryAfter } : {}) });
    }
    throw e;
  }
  return res.resource(t.url, options);
}

/** Retrieves an http or https URL (RFC 1738 3.3); a 3xx is answered as a Redirect for open() to follow. */
export async function open(url: Url, options: OpenOptions): Promise<Resource | Redirect> {
  checkTimeout(options.timeout);
  return run({ url, via: url, path: requestTarget(url) }, options, false);
}

/**
 * Retrieves any URL through an HTTP gateway (RFC 1738 4): GET with the full URL (without the
 * fragment) as the request target, as proxies have always been asked.
 */
export async function openThroughGateway(
  url: Url,
  gateway: string,
  options: OpenOptions,
): Promise<Resource | Redirect> {
  checkTimeout(options.timeout);
  const via = parse(gateway);
  if (via.scheme !== 'http' && via.scheme !== 'https') {
    throw new LocatorError(CONNECT_FAILED, 0, `the gateway ${JSON.stringify(redactHref(gateway))} is not an http URL`);
  }
  return run({ url, via, path: url.withoutFragment }, options, true);
}

/**
 * One request of a probe (RFC 1945 8.1, 8.2; RFC 1738 3.3): `HEAD` (or `GET`) of the URL, resolved
 * with the response once its status line and headers are in; the caller reads or discards the
 * body (for a GET, destroy the response to cancel it unread). No redirect is followed.
 */
export function requestOf(url: Url, method: 'GET' | 'HEAD', options: OpenOptions): Promise<http.IncomingMessage> {
  checkTimeout(options.timeout);
  const note = typeof options.transcript === 'function' ? options.transcript : () => {};
  return request({ url, via: url, path: requestTarget(url), method }, options, note);
}
