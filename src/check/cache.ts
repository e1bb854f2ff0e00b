// A cache of the verdicts of check() (`locator check --cache FILE`): each probed object's ok or
// redirected verdict with the time it was found, keyed by its normal form (RFC 1738 2.1,
// objectKey()). A fresh entry answers in place of the probe; a stale one, and every broken,
// refused or unreachable verdict, is probed again. The file is the caller's to read and write
// (the CLI writes it whole to a temporary name, then renames it); a file that is not such a
// cache is reported and ignored, never trusted in part.
import type { Url } from '../core/url.js';
import { objectKey } from '../operations/normalize.js';
import type { ProbeResult } from '../clients/index.js';
import type { ProbeFunction } from './check.js';

interface Entry {
  status: 'ok' | 'redirected';
  reason: string;
  reply?: string;
  redirects: string[];
  directory?: boolean;
  /** When it was probed: milliseconds since 1970. */
  at: number;
}

const VERSION = 1;

/** A duration as --max-cache-age takes it: N followed by s, m, h or d (a bare N is seconds). Milliseconds; null when malformed. */
export function duration(text: string): number | null {
  const m = /^([0-9]{1,9})([smhd]?)$/.exec(text);
  if (m === null) return null;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit * 1000;
}

function isEntry(e: unknown): e is Entry {
  if (e === null || typeof e !== 'object') return false;
  const x = e as Record<string, unknown>;
  return (
    (x.status === 'ok' || x.status === 'redirected') &&
    typeof x.reason === 'string' &&
    (x.reply === undefined || typeof x.reply === 'string') &&
    Array.isArray(x.redirects) &&
    x.redirects.every((r) => typeof r === 'string') &&
    (x.directory === undefined || typeof x.directory === 'boolean') &&
    typeof x.at === 'number' &&
    Number.isFinite(x.at)
  );
}

export class VerdictCache {
  readonly #entries = new Map<string, Entry>();
  /** How many probes the cache answered. */
  hits = 0;

  /** `maxAge` in milliseconds; `now` the clock (tests pass their own). */
  constructor(
    readonly maxAge: number,
    readonly now: () => number = Date.now,
  ) {}

  /**
   * Reads a cache file's text into this cache. Throws a SyntaxError saying what is wrong when
   * the text is not a whole cache of this version: then nothing of it is kept.
   */
  load(text: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new SyntaxError(`not JSON: ${(e as Error).message}`);
    }
    const d = data as { version?: unknown; entries?: unknown };
    if (
      d === null ||
      typeof d !== 'object' ||
      d.version !== VERSION ||
      d.entries === null ||
      typeof d.entries !== 'object'
    ) {
      throw new SyntaxError(`not a cache of locator check (version ${VERSION})`);
    }
    const entries = Object.entries(d.entries as Record<string, unknown>);
    for (const [k, e] of entries)
      if (!isEntry(e)) throw new SyntaxError(`the entry of ${JSON.stringify(k)} is malformed`);
    for (const [k, e] of entries) this.#entries.set(k, e as Entry);
  }

  /** The cache as the text of its file: the entries still fresh. */
  text(): string {
    const now = this.now();
    const entries: Record<string, Entry> = {};
    for (const [k, e] of this.#entries) if (now - e.at <= this.maxAge) entries[k] = e;
    return JSON.stringify({ version: VERSION, entries }) + '\n';
  }

  /** The probe of check() through this cache: a fresh verdict answers, any other is probed (by `inner`, else locator/clients' probe). */
  probe(inner?: ProbeFunction): ProbeFunction {
    return async (url: Url, options) => {
      const key = objectKey(url);
      const e = this.#entries.get(key);
      const now = this.now();
      if (e !== undefined && now - e.at <= this.maxAge && now >= e.at) {
        this.hits++;
        const r: ProbeResult = {
          status: e.status,
          reason: `${e.reason} (from the cache: checked ${new Date(e.at).toISOString()})`,
          temporary: false,
          redirects: e.redirects,
          transcript: [],
          ms: 0,
          ...(e.reply !== undefined ? { reply: e.reply } : {}),
          ...(e.directory !== undefined ? { directory: e.directory } : {}),
        };
        return r;
      }
      const run = inner ?? (await import('../clients/index.js')).probe;
      const r = await run(url, options);
      if (r.status === 'ok' || r.status === 'redirected') {
        this.#entries.set(key, {
          status: r.status,
          reason: r.reason,
          redirects: r.redirects,
          at: now,
          ...(r.reply !== undefined ? { reply: r.reply } : {}),
          ...(r.directory !== undefined ? { directory: r.directory } : {}),
        });
      } else this.#entries.delete(key);
      return r;
    };
  }
}
