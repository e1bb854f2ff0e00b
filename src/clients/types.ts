// What open() takes and gives, for every client. No networking code here: the parser bundle may
// import these types without pulling in node:net.

import type { Url } from '../core/url.js';
import type { Policy } from '../operations/policy.js';
import { defineCode, LocatorError } from '../core/errors.js';

/** One line of a protocol exchange, passwords already hidden. */
export interface TranscriptLine {
  /** `send`: what the client sent; `receive`: what the server said; `info`: what the client did. */
  direction: 'send' | 'receive' | 'info';
  text: string;
}

/**
 * One HTTP exchange as it crossed its connection (the `httpCapture` option): the request as
 * written, the response as read (status line, header section, the body with its transfer and
 * content codings), each a list of the chunks in order.
 */
export interface HttpExchange {
  /** The URL asked for (password hidden): the target URI of the records. */
  url: string;
  /** When the request was handed to the connection. */
  date: Date;
  /** The peer's address (without brackets), once connected; null before. */
  ip: string | null;
  /** Octets written (the request). */
  sent: Uint8Array[];
  /** Octets read (the response). */
  received: Uint8Array[];
  /**
   * Settles once the response has been read to its end (true) or the exchange stopped before
   * that (false: the connection closed or failed, the caller cancelled).
   */
  ended: Promise<boolean>;
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
   * Milliseconds of silence allowed on any one wait (connect, reply, data, a FIFO's writer), and
   * of a write the server takes no more of (a peer that stops reading, or reads more slowly than
   * the system's send buffer shows progress):
   * a positive number, `Infinity` for no limit; default 30000. 0, a negative number or NaN is
   * a RangeError, a non-number a TypeError (the same for every client).
   */
  timeout?: number;
  /**
   * The User-Agent of HTTP requests (default `locator`): `locator check --user-agent`, with
   * `--contact URL` added as " (+URL)". Printable US-ASCII only (RFC 9110 5.5): checked by open().
   */
  userAgent?: string;
  /**
   * The largest body accepted, in octets as delivered (for FTP TYPE A, after the line ends are
   * made local); past it the stream errors with `too-large`.
   */
  maxBytes?: number;
  /** The security policy consulted before any connection (src/operations/policy.ts). */
  policy?: Policy;
  /** Gateways: false for none; default: from the environment (`<scheme>_proxy`, `no_proxy`). */
  gateway?: GatewayConfig | false;
  /** The environment to read gateways and NNTPSERVER from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Record the protocol exchange in meta.transcript, and/or pass each line to a callback. */
  transcript?: boolean | ((line: TranscriptLine) => void);
  /**
   * For archiving only (src/archive/, WARC 1.1 6.3 and 6.4): http and https are given each
   * exchange of the request (every hop of a redirect chain) as it starts, and the octets written
   * to and read from its connection are collected in it as they cross (for https, inside TLS).
   * Absent (the default), no octet is copied.
   */
  httpCapture?: (exchange: HttpExchange) => void;
  /**
   * FTP: asked for the password when the URL gives a user but none (RFC 1738 3.2.1); NNTP: the
   * password of `user`. For the server of the URL given to open() only: a redirect or Prospero
   * hop to another host, port or scheme goes without it (as without `user`).
   */
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
  /**
   * Follow redirects (HTTP 3xx, Gopher "URL:" links) within the policy (default true). With
   * false, an HTTP 3xx is returned as it is, a Gopher link is an error naming its target, and a
   * Prospero URL gives the list of its access URLs (text/uri-list, docs/prospero.md).
   */
  followRedirects?: boolean;
  /**
   * news: URLs (RFC 1738 3.6): the reader's news server, "host" or "host:port" (port 119 by
   * default), used when NNTPSERVER (in `env`) is not set. With neither, opening a news URL fails
   * with `nntp-no-server`.
   */
  newsServer?: string;
  /**
   * NNTP: the user name sent with AUTHINFO USER, and only when the server asks for
   * authentication (480, RFC 4643 2.3); the password is `password`, or else this user's entry in
   * `netrc` (within `netrcHosts`). Without it, the netrc entry for the server's host is used
   * (within `netrcHosts`). For the server of the URL given to open() only: a redirect or
   * Prospero hop to another host, port or scheme goes without it.
   */
  user?: string;
  /**
   * NNTP: the netrc file whose entry for the server's host gives the user name and password
   * (read only when the server asks for authentication, and only when `netrcHosts` lets an entry
   * be used); default `$HOME/.netrc` from `env`; false for none.
   */
  netrc?: string | false;
  /**
   * NNTP: the hosts whose netrc entries may be used: for a host listed, its `machine` entry, or
   * else the `default` entry; for any other host, none. An empty array: no netrc entry at all.
   * When absent, only the `machine` entry of the host of the URL given to open() (for a news:
   * URL, the news server of NNTPSERVER or `newsServer`), never the `default` entry, and none for
   * a server reached by a redirect or Prospero hop to another host, port or scheme. Hosts compare without case
   * (an IPv6 literal with or without its brackets). A server that fetches URLs others name (a
   * gateway, a link checker) passes `netrc: false`, or the hosts its operator named here.
   */
  netrcHosts?: string[];
  /**
   * A group listing (news:<group>, nntp://host/group): only the last `limit` article numbers
   * of the group (a positive whole number); default all.
   */
  limit?: number;
}

/**
 * What a URL designates, or what an opened object is: a document (any file or text), a menu
 * (a Gopher menu: items that are URLs), a listing (of a directory, a group, the servers of a
 * name), a search (the object asks for words first, or is the answer to a search), a session
 * (an interactive service, RFC 1738 3.8, that connect() opens and open() refuses).
 */
export type ObjectKind = 'document' | 'menu' | 'listing' | 'search' | 'session';

/** What is known of the object before its bytes arrive. */
export interface Meta {
  scheme: string;
  /** The URL that was retrieved (after redirects), password hidden. */
  url: string;
  /** Size in octets when the protocol says it, else null. */
  size: number | null;
  /** A MIME type when known (HTTP, guessed for others), else null. */
  contentType: string | null;
  /**
   * What the server reported beside the object it gave, each a code and a text: a WAIS
   * diagnostic record after a partial answer (RFC 1625 3; freeWAIS-sf's `S1` for the search
   * `?`). Absent when there is none.
   */
  diagnostics?: Array<{ code: string; text: string }>;
  /** Gopher: the item type character. */
  gopherType?: string;
  /** HTTP: the status code. */
  status?: number;
  /** The URLs that redirected here, in order (passwords hidden); empty when none did. */
  redirects?: string[];
  /** The protocol exchange, when asked for (passwords hidden). */
  transcript: TranscriptLine[];
  /**
   * What the object is (src/clients/client-face.ts): set by open() from the scheme's face, which may
   * read what the client said (a `file:` directory is a listing, one name per line as NLST gives).
   */
  kind?: ObjectKind;
  /** How the gateway shows it: a view name ('gopher-menu', 'ftp-listing', 'article' ...), or null for text or a download. */
  view?: string | null;
  /**
   * The numeric address of the server the object came from (the peer of the client's connection:
   * Gopher, FTP, NNTP, WAIS), what a WARC record's WARC-IP-Address names (WARC 1.1 5.12). Absent
   * where the client does not say (http and https keep theirs in the exchange, `httpCapture`).
   */
  ip?: string;
}

export interface Resource {
  meta: Meta;
  /** The object, streamed; never whole in memory. */
  body: ReadableStream<Uint8Array>;
}

/**
 * A client's answer "the object is elsewhere": an HTTP 3xx with a Location, a Gopher "h" item
 * whose selector is "URL:<url>", a Prospero link. The client does not follow it: open() does,
 * with one budget for the whole chain (RFC 1945 9.3; RFC 1738 6).
 */
export interface Redirect {
  /** The URL to go to, parsed (absolute). */
  redirect: Url;
  /** Why, for the transcript: "HTTP 302", "the Gopher URL: link". */
  reason: string;
}

/** What a client module exports: `open` for one scheme's URLs (RFC 1738 section 3); its face (./client-face.ts) calls it. */
export interface ClientModule {
  open(url: Url, options: OpenOptions): Promise<Resource | Redirect>;
}

/**
 * The `transcript` option made into the list a result carries and the callback a connection calls
 * (undefined when no transcript is asked for). Past `max` lines one line says the rest is left out
 * and nothing more is kept (a long interactive session).
 */
export function transcriptRecorder(
  record: boolean | ((line: TranscriptLine) => void) | undefined,
  max = Infinity,
): { lines: TranscriptLine[]; onLine: ((line: TranscriptLine) => void) | undefined } {
  const lines: TranscriptLine[] = [];
  if (record === undefined || record === false) return { lines, onLine: undefined };
  const keep = (line: TranscriptLine) => {
    lines.push(line);
    if (typeof record === 'function') record(line);
  };
  const onLine = (line: TranscriptLine) => {
    if (lines.length < max) keep(line);
    else if (lines.length === max) keep({ direction: 'info', text: `(more than ${max} lines: the rest is left out)` });
  };
  return { lines, onLine };
}

/** True when a client answered with a redirect rather than the object. */
export function isRedirect(r: Resource | Redirect): r is Redirect {
  return (r as Redirect).redirect !== undefined;
}

// Network and protocol failures (kind network or protocol: the CLI exits 3 for these). No spec
// section states them (section null); the protocol's own errors (ftp-reply, http-status,
// gopher-error) cite the protocol's document.
export const CONNECT_FAILED = defineCode(
  'connect-failed',
  'error',
  null,
  'could not connect to the host and port of the URL',
  'network',
);
export const TIMEOUT = defineCode('timeout', 'error', null, 'the server did not answer in time', 'network');
export const ABORTED = defineCode('aborted', 'error', null, 'the transfer was cancelled', 'network');
export const CONNECTION_CLOSED = defineCode(
  'connection-closed',
  'error',
  null,
  'the server closed the connection before the exchange was complete',
  'network',
);
export const PROTOCOL_ERROR = defineCode(
  'protocol-error',
  'error',
  null,
  'the server answered something the protocol does not allow',
  'protocol',
);
/**
 * `e` as a LocatorError, for the one place a client's exchange ends (RFC 1738 3: the access side
 * fails with a typed error, never another kind): a LocatorError as it is; any other error (an
 * engine limit such as the call stack that a hostile server's bytes reached, or a bug) becomes a
 * `protocol-error` naming `where` and the original message, with the original as its `cause`.
 */
export function typedError(e: unknown, where: string): LocatorError {
  if (e instanceof LocatorError) return e;
  const what = e instanceof Error ? e.message : String(e);
  return new LocatorError(PROTOCOL_ERROR, -1, `${where} failed unexpectedly (${what})`, { cause: e });
}
export const TOO_LARGE = defineCode('too-large', 'error', null, 'the object is larger than maxBytes', 'protocol');
export const NO_CLIENT = defineCode('no-client', 'error', 'RFC 1738 4', 'no client is registered for this scheme');
export const NOT_FOUND = defineCode(
  'not-found',
  'error',
  null,
  'the server says the object does not exist',
  'protocol',
);
export const NEEDS_INPUT = defineCode(
  'needs-input',
  'error',
  'RFC 1738 3',
  'the URL leaves something to the user (a password or a search string) and there is no way to ask',
  'usage',
);
