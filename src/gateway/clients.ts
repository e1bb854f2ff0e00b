// The gateway's clients: who sent a request (its address, or behind a trusted reverse proxy the
// address that proxy names, RFC 7239) and how many requests a second each may make (a token
// bucket per client, 429 past it: RFC 6585 4).

import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { LocatorError } from '../core/errors.js';
import { GATEWAY_REFUSED, type Scheme } from './config.js';

/** The client of each request, as clientOf() resolved it when the request came. */
const CLIENTS = new WeakMap<IncomingMessage, string>();
/** The requests a trusted reverse proxy received over https (clientOf). */
const HTTPS = new WeakSet<IncomingMessage>();

/**
 * The scheme the browser reached the gateway by: "https" when the request came from a trusted
 * reverse proxy whose header says so (clientOf), else "http" (what the gateway itself speaks).
 */
export function schemeOf(req: IncomingMessage): Scheme {
  return HTTPS.has(req) ? 'https' : 'http';
}

/** The client of a request: as resolved when it came (clientOf), else its connection's address. */
export function clientAddressOf(req: IncomingMessage): string {
  return CLIENTS.get(req) ?? bare(req.socket.remoteAddress ?? '');
}

/** The header a trusted reverse proxy names the client in. */
export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

/**
 * The addresses of the reverse proxies whose word on the client is taken (`--trust-proxy`):
 * addresses (`127.0.0.1`, `::1`) and networks (`10.0.0.0/8`, `fd00::/8`). An IPv4 address written
 * as IPv6 (`::ffff:127.0.0.1`, as Node reports a client of a dual-stack socket) matches its IPv4 form.
 */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly size: number;
  constructor(specs: readonly string[]) {
    for (const s of specs) {
      const m = /^([^/]+)(?:\/([0-9]{1,3}))?$/.exec(s.trim());
      const family = m === null ? 0 : isIP(m[1]);
      const prefix = m?.[2] === undefined ? null : Number(m[2]);
      if (m === null || family === 0 || (prefix !== null && prefix > (family === 4 ? 32 : 128)))
        throw new LocatorError(
          GATEWAY_REFUSED,
          -1,
          `a trusted proxy is an IP address or a network ADDR/BITS, not ${JSON.stringify(s)}`,
        );
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === null) this.#list.addAddress(m[1], type);
      else this.#list.addSubnet(m[1], prefix, type);
    }
    this.size = specs.length;
  }

  has(address: string): boolean {
    const a = bare(address);
    const family = isIP(a);
    return family !== 0 && this.#list.check(a, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** An address without the IPv4-mapped prefix Node gives clients of a dual-stack socket. */
function bare(a: string): string {
  return /^::ffff:[0-9.]+$/i.test(a) ? a.slice(7) : a;
}

/**
 * The nodes a `Forwarded` header names as `for=` (RFC 7239 4, 5.2), first hop first: the address
 * without quotes, brackets or port; an obfuscated or `unknown` node as written (it names no
 * address, so it is never a trusted proxy).
 */
export function forwardedFor(value: string): string[] {
  const out: string[] = [];
  // Elements are separated by commas, pairs by semicolons; a quoted string may hold either.
  for (const element of value.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? []) {
    for (const pair of element.match(/(?:[^;"]|"(?:[^"\\]|\\.)*")+/g) ?? []) {
      const eq = pair.indexOf('=');
      if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== 'for') continue;
      let v = pair.slice(eq + 1).trim();
      if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
      out.push(nodeAddress(v));
    }
  }
  return out;
}

/**
 * The scheme the nearest proxy names in a `Forwarded` header (RFC 7239 5.4, `proto=`): that of its
 * last element, the one the proxy that connected to the gateway wrote; null when it names none.
 */
export function forwardedProto(value: string): string | null {
  const elements = value.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? [];
  const last = elements[elements.length - 1];
  if (last === undefined) return null;
  for (const pair of last.match(/(?:[^;"]|"(?:[^"\\]|\\.)*")+/g) ?? []) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== 'proto') continue;
    return pair
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return null;
}

/** `X-Forwarded-For: client, proxy1, proxy2` (the de-facto form RFC 7239 describes in 1). */
export function xForwardedFor(value: string): string[] {
  return value
    .split(',')
    .map((s) => nodeAddress(s.trim()))
    .filter((s) => s !== '');
}

/** An address of a node, port and brackets removed: "[2001:db8::1]:4711" -> "2001:db8::1". */
function nodeAddress(v: string): string {
  const bracket = /^\[([^\]]+)\](?::[0-9]+)?$/.exec(v);
  if (bracket !== null) return bracket[1];
  const v4port = /^([0-9.]+):[0-9]+$/.exec(v);
  if (v4port !== null) return v4port[1];
  return v;
}

/**
 * The client of a request: the address of the connection; when that address is a trusted proxy,
 * the rightmost address of the proxy's header that is not itself a trusted proxy (each proxy
 * appends the address it was reached from, so that entry was written by a trusted one; anything
 * to its left came from the client and may be made up). The header of a connection that is not
 * from a trusted proxy is never read. When every entry is trusted, the leftmost; when the header
 * is missing or empty, the connection's address.
 */
export function clientOf(req: IncomingMessage, trusted: TrustedProxies, header: ForwardedHeader): string {
  const c = resolveClient(req, trusted, header);
  CLIENTS.set(req, c);
  if (trusted.size > 0 && trusted.has(req.socket.remoteAddress ?? '') && viaHttps(req, header)) HTTPS.add(req);
  return c;
}

/**
 * Whether the trusted proxy a request came from says it received it over https: `X-Forwarded-Proto`
 * (the de-facto header beside X-Forwarded-For; nginx: `proxy_set_header X-Forwarded-Proto
 * $scheme`), its last value when there are several, or the `proto=` of the last `Forwarded`
 * element (RFC 7239 5.4), whichever the header of `--forwarded-header` goes with.
 */
function viaHttps(req: IncomingMessage, header: ForwardedHeader): boolean {
  const raw = req.headers[header === 'forwarded' ? 'forwarded' : 'x-forwarded-proto'];
  const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  const proto = header === 'forwarded' ? forwardedProto(value) : (value.split(',').pop() ?? '').trim().toLowerCase();
  return proto === 'https';
}

function resolveClient(req: IncomingMessage, trusted: TrustedProxies, header: ForwardedHeader): string {
  const peer = bare(req.socket.remoteAddress ?? '');
  if (trusted.size === 0 || !trusted.has(peer)) return peer;
  const raw = req.headers[header];
  const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  const hops = header === 'forwarded' ? forwardedFor(value) : xForwardedFor(value);
  if (hops.length === 0) return peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = bare(hops[i]);
    if (!trusted.has(hop)) return sanitize(hop);
  }
  return sanitize(bare(hops[0]));
}

/** A node name as a client key and in the log: printable ASCII without spaces or quotes, at most 64. */
function sanitize(s: string): string {
  return s.replace(/[^\x21-\x7e]|["\\]/g, '_').slice(0, 64) || '-';
}

/**
 * Requests a second per client: a token bucket of `burst` tokens refilled at `rate` a second; a
 * request takes one. Memory follows the clients seen lately: a client whose bucket is full again
 * is forgotten at the next sweep.
 */
export class RateLimit {
  readonly #buckets = new Map<string, { tokens: number; stamp: number }>();
  constructor(
    readonly rate: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `client`: 0 when it had one, else the milliseconds until it will. */
  take(client: string): number {
    const t = this.now();
    let b = this.#buckets.get(client);
    if (b === undefined) {
      if (this.#buckets.size >= 10_000) this.sweep(t);
      b = { tokens: this.burst, stamp: t };
      this.#buckets.set(client, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.stamp) * this.rate) / 1000);
    b.stamp = t;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) * 1000) / this.rate);
  }

  private sweep(t: number): void {
    for (const [k, b] of this.#buckets)
      if (b.tokens + ((t - b.stamp) * this.rate) / 1000 >= this.burst) this.#buckets.delete(k);
  }

  /** Clients with a bucket now (for the tests). */
  get clients(): number {
    return this.#buckets.size;
  }
}
