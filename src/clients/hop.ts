// The policy of one hop (RFC 1738 6; RFC 1945 9.3): for each URL that open(), probe(), connect()
// and send() reach, which rules of the policy (src/operations/policy.ts) apply, and in which
// order. Every client asks here, never the policy's rules itself, so this file is the one place
// that says which rule refuses what:
//
//   1. A URL, before any byte is sent for it: lint's refusals (assertAllowed: an encoded
//      delimiter, a reserved port, a URL that is not valid, a host inside the network, a local
//      file). The URL asked for (Hops, connect(), send()), and a URL a client reaches on its own
//      (the ftp URL of a file on another host, a Prospero FORWARDED reply): beforeSending().
//   2. A redirect, before it is followed (Hops.follow): redirects not followed at all
//      (`followRedirects: false`); then the redirect rule (assertRedirectAllowed: the number of
//      hops, a URL read from this machine, a data block, a change of scheme, then rule 1 for the
//      target); then a loop (a URL of the chain, by normal form).
//   3. A URL opened instead of one that failed (the face's insteadOf, Hops.instead): rule 1.
//   4. The address a host name resolves to, before connecting (dial(), http's lookup, Prospero's
//      UDP peer): beforeConnecting(), resolveBeforeConnecting().
//   5. The caller's credentials (Hops.optionsFor): a hop to another server than the first URL's
//      (host, port or scheme) goes without the `user` and `password` options, and with no netrc
//      entry the caller did not name.

import type { Url } from '../core/url.js';
import { LocatorError, diagnostic } from '../core/errors.js';
import { objectKey } from '../operations/normalize.js';
import { redactUrl } from '../operations/redact.js';
import {
  assertAddressAllowed,
  assertAllowed,
  assertRedirectAllowed,
  countsAsCrossScheme,
  DEFAULT_POLICY,
  PolicyError,
  REDIRECT_LOOP,
  REDIRECT_NOT_FOLLOWED,
  resolveAllowed,
  type Lookup,
  type Policy,
} from '../operations/policy.js';
import { transcriptRecorder, type OpenOptions, type Redirect, type TranscriptLine } from './types.js';

/** Rule 1 (RFC 1738 6): throws a PolicyError when the policy refuses `url`; nothing is sent for it. */
export function beforeSending(url: Url, policy: Policy = DEFAULT_POLICY): void {
  assertAllowed(url, policy);
}

/** Rule 4 (RFC 1738 6): throws a PolicyError when the policy refuses the address a host resolved to. */
export function beforeConnecting(address: string, family: 4 | 6, policy: Policy = DEFAULT_POLICY, url?: Url): void {
  assertAddressAllowed(address, family, policy, url);
}

/** Rule 4 for every address a host resolves to (resolveAllowed): the first, which the client connects to. */
export function resolveBeforeConnecting(
  url: Url,
  policy: Policy | undefined,
  lookup: Lookup,
): Promise<{ address: string; family: 4 | 6 }> {
  return resolveAllowed(url, policy, lookup);
}

/**
 * The server a URL's credentials are for: its scheme, host (without case or IPv6 brackets) and
 * port (the scheme's default when none is written), as a browser's origin is (RFC 6454 4). A
 * redirect to the same host on another port or scheme may reach another program, or another
 * user's (curl treats it as another site too); null for a URL with no host.
 */
function serverOf(u: Url): string | null {
  if (u.host === null) return null;
  const port = u.portDigits ?? (u.port === null ? '' : String(u.port));
  return `${u.scheme}://${u.host.replace(/^\[(.*)\]$/, '$1').toLowerCase()}:${port}`;
}

/** What a chain of redirects went through: filled in as it goes, so a caller that catches its error still has it. */
export interface Chain {
  /** Each URL that redirected, in order (passwords hidden). */
  redirects: string[];
  /** The protocol exchange of every hop, when `transcript` was asked for (passwords hidden). */
  transcript: TranscriptLine[];
}

/**
 * The hops of one chain (open(), probe()): made for the first URL (rule 1: a refused URL throws
 * here, before any byte is sent), then asked before each redirect (rule 2) and each URL opened
 * instead (rule 3), and for the options of each hop (rule 5). Fills in `chain` as it goes.
 */
export class Hops {
  readonly policy: Policy;
  /** Where the transcript's lines go (every hop writes into the chain's one transcript). */
  readonly note: (line: TranscriptLine) => void;
  private readonly first: Url;
  private readonly home: string | null;
  private readonly same: OpenOptions;
  private readonly elsewhere: OpenOptions;
  private readonly seen: Set<string>;
  private readonly followRedirects: boolean;
  private count = 0;
  private cross = 0;

  constructor(
    first: Url,
    options: OpenOptions,
    readonly chain: Chain = { redirects: [], transcript: [] },
  ) {
    this.policy = options.policy ?? DEFAULT_POLICY;
    beforeSending(first, this.policy);
    const { lines, onLine } = transcriptRecorder(options.transcript);
    chain.transcript = lines;
    this.note = onLine ?? (() => {});
    this.first = first;
    this.home = serverOf(first);
    this.same = { ...options, policy: this.policy, transcript: onLine ?? false };
    this.elsewhere = { ...this.same, user: undefined, password: undefined, netrcHosts: options.netrcHosts ?? [] };
    this.seen = new Set([objectKey(first)]);
    this.followRedirects = options.followRedirects !== false;
  }

  /**
   * Rule 5: the options of a hop to `u`: the policy set and `transcript` a callback (or false);
   * for a URL on another server than the first, without the caller's credentials.
   */
  optionsFor(u: Url): OpenOptions {
    return u === this.first || (this.home !== null && serverOf(u) === this.home) ? this.same : this.elsewhere;
  }

  /** Rule 2 (RFC 1945 9.3, RFC 1738 6): the redirect from `from` checked and counted; its target. */
  follow(from: Url, r: Redirect): Url {
    const { redirect: next, reason } = r;
    if (!this.followRedirects) {
      throw new LocatorError(
        REDIRECT_NOT_FOLLOWED,
        -1,
        `${reason}: the object of ${redactUrl(from)} is at ${redactUrl(next)}, and redirects are not followed (followRedirects: false)`,
      );
    }
    this.note({ direction: 'info', text: `${reason}: redirect ${this.count + 1} to ${redactUrl(next)}` });
    assertRedirectAllowed(from, next, this.count, this.cross, this.policy);
    const key = objectKey(next);
    if (this.seen.has(key)) {
      throw new PolicyError(
        diagnostic(
          REDIRECT_LOOP,
          next.inputOffset,
          `redirect ${this.count + 1} leads back to ${redactUrl(next)}, a URL of this chain: a loop (RFC 1945 9.3)`,
        ),
      );
    }
    this.seen.add(key);
    if (countsAsCrossScheme(from, next)) this.cross++;
    this.count++;
    this.chain.redirects.push(redactUrl(from));
    return next;
  }

  /** Rule 3: `instead` may be opened in place of `from`, which failed with `why`; noted in the transcript. */
  instead(instead: Url, why: unknown): void {
    beforeSending(instead, this.policy);
    const text = why instanceof Error ? why.message : String(why);
    this.note({ direction: 'info', text: `${text}: opening ${redactUrl(instead)} instead` });
  }

  /** `from` was opened instead (rule 3 passed, the open worked): it counts among the chain's redirects. */
  openedInstead(from: Url): void {
    this.chain.redirects.push(redactUrl(from));
  }
}
