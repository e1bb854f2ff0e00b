// Soft errors of Gopher documents, found as web crawlers find soft 404s. A plain Gopher server
// answers a request by the selector alone (RFC 1436 3.8), and may report a missing document as
// plain text: gophernicus sends "Error: File or directory not found!" and its footer for a
// missing text, not an error item (type 3); by the protocol alone a client cannot tell that from
// a document. So once per server (host and port), the first time a short document's answer
// needs it, the checker asks a selector that cannot exist (NO_SUCH_SELECTOR and random hex) in a
// turn of that server, and keeps the answer: a document whose short answer equals it, both
// normalised (normalise()), is reported broken (code SOFT_ERROR), the reason naming the rule.
//
// A server that answers everything with the same bytes (a hole of one page) would make every
// document equal to it: the baseline is therefore used only when it looks like an error itself
// (looksLikeError(): at most BASELINE_MAX octets, its first line has the words of an error).
// An answer of error items (type 3) is found by the client itself (src/clients/gopher/reply.ts).
import { Url } from '../core/url.js';
import { tryParse } from '../schemes/registry.js';
import type { ProbeOptions, ProbeResult, SoftErrorSample } from '../clients/index.js';
import type { Politeness } from '../crawl/politeness.js';
import type { RobotsCache } from '../crawl/robots-cache.js';
import { robotsPlaceOf } from '../crawl/robots-fetch.js';
import { serverKey } from '../crawl/scope.js';
import { probeWithin } from './deadline.js';
import type { ProbeFunction } from './types.js';

/** The start of the selector asked for the baseline (followed by 16 hex digits). */
export const NO_SUCH_SELECTOR = 'locator-no-such-selector-';
/** The largest baseline (normalised, in octets) taken as an error page. */
export const BASELINE_MAX = 1024;
/** The code of a document reported broken because its answer equals the baseline. */
export const SOFT_ERROR = 'gopher-soft-error';

/** The words an error page's first line holds (English, as the Gopher servers in use write them). */
const ERROR_WORDS =
  /\b(error|not found|no such|does ?n[o']t exist|not exist|cannot|can't|could ?n[o']t|unable|invalid|unknown|bad (selector|request)|denied|forbidden|missing|404)\b/i;

/** `n` random octets as hex (Web Crypto, a global of Node: node:crypto is for the clients and the CLI). */
function randomHex(n: number): string {
  const b = globalThis.crypto.getRandomValues(new Uint8Array(n));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * `line` without the spaces and tabs at its end: a loop, not `/[ \t]+$/`, which tries a run of
 * blanks again from each of its characters when something else follows it (quadratic).
 */
function trimSpaceTab(line: string): string {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** What a server answered to the selector that cannot exist. */
type Baseline = { usable: true; selector: string; text: string } | { usable: false; selector: string; why: string };

/**
 * The answer as compared (latin1, so that every octet stays itself): each occurrence of the
 * selector asked removed (a server may echo it, with or without its leading `/`), line ends
 * made LF, white space at the ends of lines and of the whole dropped, a last "." line dropped.
 */
export function normalise(answer: Uint8Array, selector: string): string {
  let t = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength).toString('latin1');
  const sel = Buffer.from(selector, 'utf8').toString('latin1');
  for (const s of [sel, sel.replace(/^\/+/, '')].filter((x) => x.length >= 2)) t = t.split(s).join('');
  t = t.replace(/\r\n?/g, '\n');
  t = t.split('\n').map(trimSpaceTab).join('\n').trim();
  if (t === '.') return '';
  if (t.endsWith('\n.')) t = t.slice(0, -2).trimEnd();
  return t;
}

/** True when a normalised baseline can be a server's error page: short, and its first line says so. */
export function looksLikeError(text: string): boolean {
  if (text === '' || Buffer.byteLength(text, 'latin1') > BASELINE_MAX) return false;
  const first = text.split('\n', 1)[0];
  return ERROR_WORDS.test(first);
}

/** The host and the parts of check()'s engine the baseline needs. */
export interface SoftErrorHost {
  readonly probeOptions: ProbeOptions;
  readonly limiter: Politeness;
  readonly robots: RobotsCache | null;
  readonly o: { deadline: number };
  probeFunction(): Promise<ProbeFunction>;
}

/** The soft-error test of a run of check(): one baseline per Gopher server, asked on first need. */
export class GopherSoftErrors {
  readonly #host: SoftErrorHost;
  readonly #baselines = new Map<string, Promise<Baseline>>();
  /** Baseline requests made (one per server at most). */
  requests = 0;

  constructor(host: SoftErrorHost) {
    this.#host = host;
  }

  /**
   * The probe's answer `r` for `u`, or `broken` when `u` is a Gopher document whose short answer
   * (r.sample) equals the server's answer to a selector that cannot exist. The sample is dropped.
   */
  async judge(u: Url, r: ProbeResult): Promise<ProbeResult> {
    const { sample, ...rest } = r;
    // Only a probe of a scheme whose servers may answer so gives a sample (the gopher probe, for
    // a document of a plain Gopher URL).
    if (sample === undefined || r.status !== 'ok') return rest;
    // A long answer cannot equal a baseline of at most BASELINE_MAX octets (and what it echoes).
    if (sample.bytes.length > 2 * BASELINE_MAX + Buffer.byteLength(sample.echo)) return rest;
    const b = await this.#baseline(u, sample);
    if (!b.usable) return rest;
    if (normalise(sample.bytes, sample.echo) !== b.text) return rest;
    const first = b.text.split('\n', 1)[0].slice(0, 120);
    return {
      ...rest,
      status: 'broken',
      reason: `the server's answer equals its answer to a selector that cannot exist (${b.selector}): a soft error, its first line ${JSON.stringify(first)}`,
      code: SOFT_ERROR,
    };
  }

  /** The baseline of `u`'s server: asked once, in a turn of the server, robots.txt obeyed when read. */
  #baseline(u: Url, sample: SoftErrorSample): Promise<Baseline> {
    const server = serverKey(u);
    let p = this.#baselines.get(server);
    if (p === undefined) {
      p = this.#ask(u, sample);
      this.#baselines.set(server, p);
    }
    return p;
  }

  async #ask(u: Url, sample: SoftErrorSample): Promise<Baseline> {
    const name = `${NO_SUCH_SELECTOR}${randomHex(8)}`;
    const selector = `${sample.echo.startsWith('/') ? '/' : ''}${name}`;
    const b = tryParse(sample.missing(name));
    if (!(b instanceof Url)) return { usable: false, selector, why: 'no URL for it' };
    const place = this.#host.robots === null ? null : robotsPlaceOf(b);
    if (place !== null && !(await this.#host.robots!.allows(place)))
      return { usable: false, selector, why: "the server's robots.txt disallows it" };
    const probe = await this.#host.probeFunction();
    const h = this.#host;
    const r = await h.limiter.run(serverKey(u), () => {
      this.requests++;
      return probeWithin(probe, b, h.probeOptions, h.o.deadline);
    });
    if (r.status !== 'ok' || r.sample === undefined)
      return { usable: false, selector, why: `its answer: ${r.status} (${r.reason})` };
    const text = normalise(r.sample.bytes, selector);
    if (!looksLikeError(text)) return { usable: false, selector, why: 'its answer does not look like an error' };
    return { usable: true, selector, text };
  }
}
