// What open() takes and gives, for every client. No networking code here: the parser bundle may
// import these types without pulling in node:net.

import type { Url } from '../core/url.js';
import type { Policy } from '../policy.js';
import { defineCode } from '../core/errors.js';

/** One line of a protocol exchange, passwords already hidden. */
export interface TranscriptLine {
  /** `send`: what the client sent; `receive`: what the server said; `info`: what the client did. */
  direction: 'send' | 'receive' | 'info';
  text: string;
}

/** A gateway for a scheme (RFC 1738 4, the drafts' gateway notes): an HTTP proxy URL. */
export interface GatewayConfig {
  /** Per scheme: `http://proxy.example:3128/`. */
  proxies: Record<string, string>;
  /** Host names (and `.domain` suffixes, `*`) reached directly (`no_proxy`). */
  noProxy: string[];
}

export interface OpenOptions {
  /** Cancels the transfer; the stream errors with `aborted`. */
  signal?: AbortSignal;
  /**
   * Milliseconds of silence allowed on any one wait (connect, reply, data, a FIFO's writer):
   * a positive number, `Infinity` for no limit; default 30000. 0, a negative number or NaN is
   * a RangeError, a non-number a TypeError (the same for every client).
   */
  timeout?: number;
  /**
   * The largest body accepted, in octets as delivered (for FTP TYPE A, after the line ends are
   * made local); past it the stream errors with `too-large`.
   */
  maxBytes?: number;
  /** The security policy consulted before any connection (src/policy.ts). */
  policy?: Policy;
  /** Gateways: false for none; default: from the environment (`<scheme>_proxy`, `no_proxy`). */
  gateway?: GatewayConfig | false;
  /** The environment to read gateways and NNTPSERVER from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Record the protocol exchange in meta.transcript, and/or pass each line to a callback. */
  transcript?: boolean | ((line: TranscriptLine) => void);
  /** FTP: asked for the password when the URL gives a user but none (RFC 1738 3.2.1). */
  password?: string | (() => Promise<string>);
  /**
   * FTP TYPE A (text) transfers: `local` (default) hands the text over with local line ends,
   * CR LF made LF (RFC 959 3.1.1.1: "the receiving site must convert the data from the standard
   * form to its own internal form"); `wire` keeps the NVT form (CR LF) as it crossed the wire.
   * TYPE I transfers are always the octets as sent.
   */
  ftpLineEnds?: 'local' | 'wire';
  /** Anonymous FTP: the password sent after USER anonymous (RFC 1738 3.2.1). */
  email?: string;
  /** Gopher type 7: the search string, or a prompt for it (RFC 1738 3.4.2). */
  search?: string | (() => Promise<string>);
  /** HTTP: follow redirects within the policy (default true). */
  followRedirects?: boolean;
}

/** What is known of the object before its bytes arrive. */
export interface Meta {
  scheme: string;
  /** The URL that was retrieved (after redirects), password hidden. */
  url: string;
  /** Size in octets when the protocol says it, else null. */
  size: number | null;
  /** A MIME type when known (HTTP, guessed for others), else null. */
  contentType: string | null;
  /** Gopher: the item type character. */
  gopherType?: string;
  /** HTTP: the status code. */
  status?: number;
  /** The protocol exchange, when asked for (passwords hidden). */
  transcript: TranscriptLine[];
}

export interface Resource {
  meta: Meta;
  /** The object, streamed; never whole in memory. */
  body: ReadableStream<Uint8Array>;
}

/** What a client module exports: `open` for one scheme's URLs (RFC 1738 section 3). */
export interface ClientModule {
  open(url: Url, options: OpenOptions): Promise<Resource>;
}

// Network and protocol failures (the CLI exits 3 for these).
export const CONNECT_FAILED = defineCode('connect-failed', 'error', 'RFC 1738 3.1',
  'could not connect to the host and port of the URL');
export const TIMEOUT = defineCode('timeout', 'error', 'RFC 1738 3', 'the server did not answer in time');
export const ABORTED = defineCode('aborted', 'error', 'RFC 1738 3', 'the transfer was cancelled');
export const CONNECTION_CLOSED = defineCode('connection-closed', 'error', 'RFC 1738 3',
  'the server closed the connection before the exchange was complete');
export const PROTOCOL_ERROR = defineCode('protocol-error', 'error', 'RFC 1738 3',
  'the server answered something the protocol does not allow');
export const TOO_LARGE = defineCode('too-large', 'error', 'RFC 1738 3', 'the object is larger than maxBytes');
export const NO_CLIENT = defineCode('no-client', 'error', 'RFC 1738 4',
  'no client is registered for this scheme');
export const NOT_FOUND = defineCode('not-found', 'error', 'RFC 1738 3', 'the server says the object does not exist');
export const NEEDS_INPUT = defineCode('needs-input', 'error', 'RFC 1738 3',
  'the URL leaves something to the user (a password or a search string) and there is no way to ask');

/** The codes that mean "the network or the server failed" (exit status 3). */
export const NETWORK_CODES: ReadonlySet<string> = new Set([
  CONNECT_FAILED, TIMEOUT, CONNECTION_CLOSED, PROTOCOL_ERROR, NOT_FOUND, TOO_LARGE, 'ftp-reply', 'http-status',
  'gopher-error', 'gopher-not-menu',
]);
