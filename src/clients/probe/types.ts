// The contract between the probes (src/clients/probe/, one per scheme) and the link checker
// (src/check/, `locator check`; docs/probes.md). A probe proves that the object a URL designates is
// there with the least traffic the scheme allows, and says what it sent (`explain --probe`).
import type { Url } from '../../core/url.js';
import type { OpenOptions, TranscriptLine } from '../types.js';

/** What a checked URL came to: the checker's statuses (docs/check.md). */
export type CheckStatus = 'ok' | 'broken' | 'redirected' | 'refused' | 'invalid' | 'unreachable';

/** The options of a probe: those of open() (timeout, policy, gateway, credentials ...), and the probes' own. */
export interface ProbeOptions extends OpenOptions {
  /** mailto: also ask the domain's mail exchanger with an SMTP `RCPT TO` (off by default). */
  smtpProbe?: boolean;
  /** DNS servers to ask (`host` or `host:port`), for mailto's MX/A/AAAA lookups; the system's when absent. */
  dnsServers?: string[];
  /**
   * mailto with `smtpProbe`: the SMTP server to ask (`host` or `host:port`) instead of the domain's
   * mail exchanger on port 25 (a test server, or a site whose port 25 is blocked).
   */
  smtpServer?: string;
  /**
   * telnet, rlogin, tn3270: how long to wait for the server's first bytes after the connection is
   * made, in ms (default 2000, and never more than `timeout`); the connection alone proves the
   * service is there, the bytes are reported when they come.
   */
  firstBytesWait?: number;
}

/** The outcome of probing one URL (after following its redirects through open()'s one loop). */
export interface ProbeResult {
  /** ok, broken (the server says the object is not there), redirected (ok, through `redirects`), refused (the
   *  security policy refused it, nothing sent), unreachable (no answer: DNS, connect, timeout). `invalid` is the
   *  checker's, for syntax errors found before any probe. */
  status: Exclude<CheckStatus, 'invalid'>;
  /** Why, for people: the reply code and text ("550 No such file or directory"), or the error's message. */
  reason: string;
  /** The LocatorError code when an error decided it (`not-found`, `timeout`, `connect-failed`, ...). */
  code?: string;
  /** The protocol's own reply code when there was one (FTP 550, NNTP 430, HTTP 404, SMTP 550 ...). */
  reply?: string;
  /** True when trying again later may change the answer (a 4xx reply of FTP/NNTP/SMTP, a timeout, a reset). */
  temporary: boolean;
  /** Each URL the redirect loop went to, in order, the last the one answered (empty when none). */
  redirects: string[];
  /** What was sent and received (passwords hidden), when `transcript` was asked for. */
  transcript: TranscriptLine[];
  /** Wall-clock milliseconds from the first byte sent to the answer. */
  ms: number;
  /** ftp: true when the name is a directory (a CWD into it worked): `check --recursive` lists it. */
  directory?: boolean;
  /**
   * True when the server said it is busy and asked to be left alone for a while (HTTP 429 or
   * 503, FTP 421, NNTP 400): the checker pauses every request to that server (src/crawl/politeness.ts).
   */
  busy?: boolean;
  /** With `busy`: the wait the server asked for, in ms (HTTP Retry-After, RFC 9110 10.2.3), when it named one. */
  retryAfter?: number;
  /**
   * A document's whole answer when it is short, for a scheme whose servers may answer a missing
   * object with an ordinary document (gopher: src/clients/gopher/probe.ts), which the checker
   * compares with the server's answer to an object that cannot exist (src/check/gopher-soft.ts).
   */
  sample?: SoftErrorSample;
}

/** What a probe gives for the soft-error test of its URL's answer (ProbeResult.sample). */
export interface SoftErrorSample {
  /** The whole answer. */
  readonly bytes: Uint8Array;
  /** What the server may echo of the request in an error page (a Gopher selector), removed before comparing. */
  readonly echo: string;
  /** The URL of the same server and kind for `name`, an object that cannot exist (`name` made by the checker). */
  missing(name: string): string;
}

/** One scheme's probe: what `probe()` calls for a URL of that scheme. */
export interface ProbeModule {
  /** Probes `url` (no redirect following: a redirect comes back as `{ redirect }`, the loop is probe()'s). */
  probe(url: Url, options: ProbeOptions): Promise<ProbeResult | { redirect: Url; reason: string }>;
}
