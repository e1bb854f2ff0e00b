// probe(): does the object a URL designates exist? (`locator check`). Each scheme's face
// (./face-of.ts) gives the probe that sends the least traffic that proves it, and its steps for
// `explain --probe`; the probe is loaded only when a URL of that scheme is probed (its module is
// in the scheme's folder, ./<scheme>/probe.ts; what all probes share is in ./probe/). Redirects
// go through followChain(), the one loop open() uses too (./open.ts): the same hop budget,
// cross-scheme budget, loop check by normal form and policy before each hop. Failures become
// statuses here, in one place.

import { redactUrl } from '../operations/redact.js';
import { parse } from '../schemes/registry.js';
import { Url, expectUrl } from '../core/url.js';
import { LocatorError, kindOf } from '../core/errors.js';
import { followChain, openOnce, type Chain } from './open.js';
import { gatewayOf } from './proxy.js';
import {
  CONNECT_FAILED,
  CONNECTION_CLOSED,
  NOT_FOUND,
  TIMEOUT,
  isRedirect,
  type OpenOptions,
  type Redirect,
} from './types.js';
import type { ProbeOptions, ProbeResult } from './probe/types.js';
import { openedSteps } from './probe/steps.js';
import { faceOf } from './face-of.js';
import { REDIRECT_LOOP, TOO_MANY_REDIRECTS } from '../lint/codes.js';
import { result } from './probe/result.js';
import { ReplyError } from './framing/errors.js';
import { WaisError } from './wais/types.js';

export type { CheckStatus, ProbeOptions, ProbeResult, ProbeModule } from './probe/types.js';

/**
 * The reply code and text an error of a protocol carries: a ReplyError's (FTP, SMTP, NNTP: RFC
 * 959 4.2, RFC 5321 4.2.1, RFC 3977 3.2.1) or a WaisError's diagnostic code (Z39.50 diagnostics).
 */
function replyOf(e: LocatorError): { code: number | null; text: string | null; reply: string | null } {
  if (e instanceof ReplyError) return { code: e.replyCode, text: e.replyText, reply: String(e.replyCode) };
  if (e instanceof WaisError) return { code: null, text: null, reply: e.diagnosticCode };
  return { code: null, text: null, reply: null };
}

/** True for a failure of the socket that may pass: a timeout, a reset, a connection cut short. */
function isTransient(e: LocatorError): boolean {
  if (e.code === TIMEOUT || e.code === CONNECTION_CLOSED) return true;
  const cause = (e as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNRESET' || cause?.code === 'EPIPE' || cause?.code === 'ETIMEDOUT';
}

/**
 * What an error says of the object: the policy refused -> `refused` (but a redirect loop
 * or a chain past `maxRedirects` is `broken`); no answer (DNS, connect,
 * a timeout, a reset) -> `unreachable`; the server answered that it is not there, or answered
 * wrongly -> `broken`. A 4yz reply of FTP, NNTP or SMTP (RFC 959 4.2, RFC 3977 3.2.1, RFC 5321
 * 4.2.1) and a timeout or reset are `temporary`. Not a LocatorError: API misuse, thrown on.
 */
export function statusOf(e: unknown): ProbeResult {
  if (!(e instanceof LocatorError)) throw e;
  const kind = kindOf(e.code);
  const { code, text, reply } = replyOf(e);
  const base = { code: e.code, ...(reply !== null ? { reply } : {}) };
  const reason = code !== null ? `${code} ${text}`.trimEnd() : e.message;
  // A chain that loops or never ends is a broken link; any other refusal is the policy's.
  const finding = (e as { diagnostic?: { code: string } }).diagnostic?.code;
  if (finding === REDIRECT_LOOP || finding === TOO_MANY_REDIRECTS)
    return result('broken', e.message, { code: finding });
  if (kind === 'policy') return result('refused', e.message, base);
  // A client that found the server busy says so on its error (http: 429 and 503, with Retry-After).
  const busy = e as { busy?: boolean; retryAfter?: number };
  if (busy.busy === true)
    return result('broken', reason, {
      ...base,
      temporary: true,
      busy: true,
      ...(busy.retryAfter !== undefined ? { retryAfter: busy.retryAfter } : {}),
    });
  // NNTP says "not there" with 4xx codes too (411, 423, 430): those are `not-found`, and final.
  if (code !== null && code >= 400 && code < 500)
    return result('broken', reason, { ...base, temporary: e.code !== NOT_FOUND });
  if (e.code === CONNECT_FAILED || kind === 'network' || kind === 'usage')
    return result('unreachable', e.message, { ...base, temporary: isTransient(e) });
  return result('broken', reason, base);
}

/**
 * Probes a URL (RFC 1738 3): does the object it designates exist? Checks the URL against the policy
 * first (a refused URL is `refused`, nothing sent), runs its scheme's probe (the steps of
 * explainProbe(); a scheme registered with its own `probe` uses it, any other is opened and its
 * first bytes read), and follows redirects through followChain(), open()'s one loop (RFC 1945
 * 9.3, RFC 1738 6). Resolves to a ProbeResult and never rejects for what a server or the network
 * did; rejects only on API misuse (a bad option: TypeError, RangeError; a string that is no URL).
 */
export async function probe(url: string | Url, options: ProbeOptions = {}): Promise<ProbeResult> {
  expectUrl(url, 'probe: the URL');
  const first = typeof url === 'string' ? parse(url) : url;
  const chain: Chain = { redirects: [], transcript: [] };
  const started = Date.now();
  let r: ProbeResult;
  // The URLs the loop went to (the contract's `redirects`, types.ts): chain.redirects holds the
  // ones that redirected (as open()'s meta.redirects), so the targets are those after the first
  // and the URL of the last hop made.
  let last = first;
  const hopTo = (u: Url, o: OpenOptions) => {
    last = u;
    return hop(u, o);
  };
  const targets = () => (chain.redirects.length === 0 ? [] : [...chain.redirects.slice(1), redactUrl(last)]);
  try {
    r = await followChain<ProbeResult>(first, options, hopTo, chain);
    if (chain.redirects.length > 0 && r.status === 'ok') r = { ...r, status: 'redirected' };
  } catch (e) {
    r = statusOf(e);
  }
  return { ...r, redirects: targets(), transcript: chain.transcript, ms: Date.now() - started };
}

/**
 * One hop of a probe: the probe of the scheme's face on one URL, or, when a gateway is configured for
 * the scheme (RFC 1738 4), open() through the gateway and the first bytes; errors are left to probe().
 */
async function hop(u: Url, opts: OpenOptions): Promise<ProbeResult | Redirect> {
  const viaGateway = gatewayOf(u, opts) !== null;
  const face = faceOf(u);
  if (!viaGateway && face.probe !== undefined) return face.probe(u, opts as ProbeOptions);
  return probeByOpening(u, opts as ProbeOptions);
}

/**
 * The probe of a scheme with no probe of its own, and of any URL opened through a gateway (RFC
 * 1738 3): one hop of open() (openOnce: the scheme's gateway or client), its first bytes read, the
 * transfer cancelled: the steps of openedSteps(url). A redirect goes back to probe()'s loop.
 */
async function probeByOpening(url: Url, options: ProbeOptions): Promise<ProbeResult | Redirect> {
  const r = await openOnce(url, options);
  if (isRedirect(r)) return r;
  const reader = r.body.getReader();
  try {
    const { done, value } = await reader.read();
    return result('ok', done ? 'the object is empty' : `the object starts (${value.length} octets read)`);
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * What probe() sends for a URL, as steps (`locator explain --probe`): the probe of its
 * scheme, written like explain()'s steps. Redirects are not known before they come, so they are
 * not shown. A URL that does not parse fails as parse() does.
 */
export function explainProbe(url: string | Url, options: ProbeOptions = {}): string[] {
  expectUrl(url, 'explainProbe: the URL');
  const u = typeof url === 'string' ? parse(url) : url;
  return faceOf(u).steps?.(u, options) ?? openedSteps(u);
}
