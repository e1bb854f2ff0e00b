// open(): dereference a URL the way the specs say (RFC 1738 section 3), returning its metadata
// and a stream of its bytes. Exported by `locator/clients` (src/clients/index.ts, which only
// re-exports): the modules that need open() (gopher/menu.ts) import it from here, so no client
// module imports the index that re-exports it (no import cycle, docs/layering.md).
// Each scheme's client is asked through its face (./face-of.ts), which imports the protocol modules
// only when a URL of that scheme is opened.
//
// Redirects are followed here and nowhere else: a client that finds the object elsewhere (HTTP
// 3xx, a Gopher "URL:" link) answers with a Redirect, and this loop follows it with one budget
// for the whole chain (total hops, hops across schemes, a loop by normal form), asking the policy
// before each hop, and recording every hop in the transcript.

import { parse } from '../schemes/registry.js';
import { Url, expectUrl } from '../core/url.js';
import { LocatorError, diagnostic } from '../core/errors.js';
import { objectKey } from '../operations/normalize.js';
import { redactUrl } from '../operations/redact.js';
import {
  assertAllowed,
  assertRedirectAllowed,
  countsAsCrossScheme,
  DEFAULT_POLICY,
  PolicyError,
  REDIRECT_LOOP,
  REDIRECT_NOT_FOLLOWED,
} from '../operations/policy.js';
import { gatewayFor, gatewayFromEnv } from './proxy.js';
import { interactiveOnly } from './interactive.js';
import { classify, faceOf } from './face-of.js';
import {
  NO_CLIENT,
  transcriptRecorder,
  type OpenOptions,
  type Redirect,
  type Resource,
  type TranscriptLine,
} from './types.js';

function envOf(options: OpenOptions): Record<string, string | undefined> {
  return options.env ?? (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
}

/**
 * One hop of open() (RFC 1738 3, 4): through the scheme's gateway when one is configured, else
 * its face's client; a redirect comes back as it is (followChain() follows it).
 */
export async function openOnce(u: Url, opts: OpenOptions): Promise<Resource | Redirect> {
  const gateways = opts.gateway === false ? null : (opts.gateway ?? gatewayFromEnv(envOf(opts)));
  const via = gateways === null ? null : gatewayFor(u.scheme, u.host, gateways);
  if (via !== null) {
    const http = await import('./http/client.js');
    return http.openThroughGateway(u, via, opts);
  }
  const face = faceOf(u);
  if (face.open === undefined && face.session !== undefined) throw interactiveOnly(u);
  if (face.open === undefined) {
    throw new LocatorError(
      NO_CLIENT,
      0,
      `no client can retrieve ${u.scheme}: URLs (configure a gateway with ${u.scheme}_proxy)`,
    );
  }
  return face.open(u, opts);
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

/** What a chain of redirects went through: filled in by followChain() as it goes, so a caller that catches its error still has it. */
export interface Chain {
  /** Each URL that redirected, in order (passwords hidden). */
  redirects: string[];
  /** The protocol exchange of every hop, when `transcript` was asked for (passwords hidden). */
  transcript: TranscriptLine[];
}

/**
 * The one redirect loop (RFC 1945 9.3, RFC 1738 6), for open() and probe(): checks the first URL
 * against the policy (no byte is sent for a refused URL), runs `hop` on it, and while `hop`
 * answers with a Redirect, follows it within the policy: at most `maxRedirects` hops, at most
 * `maxCrossSchemeRedirects` of them to another scheme (http and https count as one), never to a
 * file URL, never back to a URL of the chain (compared by normal form), the policy asked before
 * each hop. `hop` gets the options with the policy set and `transcript` made a callback (or
 * false); for a URL on another server than the first (host, port or scheme), without `user`
 * and `password` and with `netrcHosts` [] unless the caller gave it (the caller's credentials
 * are for its URL's server).
 * `chain` is filled in as the loop goes.
 */
export async function followChain<T extends object>(
  first: Url,
  options: OpenOptions,
  hop: (u: Url, opts: OpenOptions) => Promise<T | Redirect>,
  chain: Chain = { redirects: [], transcript: [] },
): Promise<T> {
  const policy = options.policy ?? DEFAULT_POLICY;
  assertAllowed(first, policy);
  const { lines, onLine } = transcriptRecorder(options.transcript);
  chain.transcript = lines;
  const note = onLine ?? (() => {});
  const opts: OpenOptions = { ...options, policy, transcript: onLine ?? false };
  // The caller's credentials are for the server of the URL it gave: a hop to another server (host,
  // port or scheme) goes without the user and password options, and with no netrc entry the
  // caller did not name.
  const elsewhere: OpenOptions = {
    ...opts,
    user: undefined,
    password: undefined,
    netrcHosts: options.netrcHosts ?? [],
  };
  const home = serverOf(first);

  let current = first;
  const seen = new Set<string>([objectKey(first)]);
  let hops = 0;
  let cross = 0;
  for (;;) {
    const same = current === first || (home !== null && serverOf(current) === home);
    const r = await hop(current, same ? opts : elsewhere);
    if ((r as Partial<Redirect>).redirect === undefined) return r as T;
    const { redirect: next, reason } = r as Redirect;
    if (options.followRedirects === false) {
      throw new LocatorError(
        REDIRECT_NOT_FOLLOWED,
        -1,
        `${reason}: the object of ${redactUrl(current)} is at ${redactUrl(next)}, and redirects are not followed (followRedirects: false)`,
      );
    }
    note({ direction: 'info', text: `${reason}: redirect ${hops + 1} to ${redactUrl(next)}` });
    assertRedirectAllowed(current, next, hops, cross, policy);
    const key = objectKey(next);
    if (seen.has(key)) {
      throw new PolicyError(
        diagnostic(
          REDIRECT_LOOP,
          next.inputOffset,
          `redirect ${hops + 1} leads back to ${redactUrl(next)}, a URL of this chain: a loop (RFC 1945 9.3)`,
        ),
      );
    }
    seen.add(key);
    if (countsAsCrossScheme(current, next)) cross++;
    hops++;
    chain.redirects.push(redactUrl(current));
    current = next;
  }
}

/**
 * Opens a URL (RFC 1738 3): checks it against the policy (no byte is sent for a refused URL),
 * goes through the scheme's gateway when one is configured (RFC 1738 4), else runs the scheme's
 * client, and follows redirects within the policy (RFC 1945 9.3, RFC 1738 6) through
 * followChain(): at most `maxRedirects` hops, at most `maxCrossSchemeRedirects` of them to
 * another scheme (http and https count as one), never to a file URL, never back to a URL of the
 * chain. Resolves to `{ meta, body }` with `body` a ReadableStream and `meta.kind`, `meta.view`
 * set by the face of the URL's scheme; fails with a LocatorError.
 */
export async function open(url: string | Url, options: OpenOptions = {}): Promise<Resource> {
  expectUrl(url, 'open: the URL');
  const first = typeof url === 'string' ? parse(url) : url;
  const chain: Chain = { redirects: [], transcript: [] };
  let instead: Url | null = null;
  const r = await followChain<Resource>(
    first,
    options,
    async (u, opts) => {
      const o = await openOrInstead(u, opts, chain);
      if (o.url !== u) instead = o.url;
      return o.r;
    },
    chain,
  );
  r.meta.transcript = chain.transcript;
  r.meta.redirects = chain.redirects;
  // What the URL asked for is, for the caller: the face of its scheme says (a redirect's target
  // is shown under the URL that was asked for; an object opened instead, as what it is).
  classify(instead ?? first, r.meta);
  return r;
}

/**
 * One hop of open(), and when it fails, the URL its face names instead (an FTP name that is a
 * directory is listed, RFC 1738 3.2.2 and the draft of 1994-03): opened on the same server, the
 * hop's URL counted among the chain's redirects; if that fails too, the first failure stands.
 */
async function openOrInstead(u: Url, opts: OpenOptions, chain: Chain): Promise<{ r: Resource | Redirect; url: Url }> {
  let first: unknown;
  try {
    return { r: await openOnce(u, opts), url: u };
  } catch (e) {
    first = e;
  }
  const instead = faceOf(u).insteadOf?.(u, first) ?? null;
  if (instead === null) throw first;
  const d = parse(instead);
  assertAllowed(d, opts.policy ?? DEFAULT_POLICY);
  if (typeof opts.transcript === 'function') {
    const why = first instanceof Error ? first.message : String(first);
    opts.transcript({ direction: 'info', text: `${why}: opening ${redactUrl(d)} instead` });
  }
  let r: Resource | Redirect;
  try {
    r = await openOnce(d, opts);
  } catch {
    throw first;
  }
  chain.redirects.push(redactUrl(u));
  return { r, url: d };
}
