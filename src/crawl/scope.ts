// The scope of a crawl: which URLs found in it are followed (their links read), as opposed to
// checked only. Decided against the seeds (the URLs the crawl started from). Not a spec rule:
// the crawl's reach (docs/check.md, "Crawl").
import type { Url } from '../core/url.js';

/** How far a crawl follows links from its seeds. */
export type ScopeKind = 'server' | 'host' | 'domain' | 'prefix';
export const SCOPE_KINDS: readonly ScopeKind[] = ['server', 'host', 'domain', 'prefix'];

/**
 * The server key of a URL: host and port (as written, or the scheme's default) for those with a
 * host, the scheme for the others (news:, file:, mailto:). The unit of politeness and of the
 * `server` scope.
 */
export function serverKey(u: Url): string {
  const host = u.host;
  if (host === null || host === '') return `${u.scheme}:`;
  return `${host.toLowerCase()}:${u.portDigits ?? u.port ?? ''}`;
}

/** The part of a URL's href up to and including the last `/` of its path (its "folder"), for `prefix`. */
function prefixOf(u: Url): string {
  const href = u.withoutFragment;
  const q = href.indexOf('?');
  const end = q < 0 ? href.length : q;
  const slash = href.lastIndexOf('/', end - 1);
  // A URL with no `/` after its authority (`gopher://h`) is its own prefix.
  const authorityEnd = href.indexOf('//') >= 0 ? href.indexOf('/', href.indexOf('//') + 2) : -1;
  if (slash < 0 || (authorityEnd >= 0 && slash < authorityEnd)) return href;
  return href.slice(0, slash + 1);
}

/** Decides, for a URL found in the crawl, whether it is in scope of the seeds. */
export class Scope {
  readonly kind: ScopeKind;
  readonly #servers = new Set<string>();
  readonly #hosts = new Set<string>();
  readonly #prefixes: string[] = [];

  constructor(kind: ScopeKind) {
    if (!SCOPE_KINDS.includes(kind))
      throw new RangeError(`scope must be one of ${SCOPE_KINDS.join(', ')}, not ${String(kind)}`);
    this.kind = kind;
  }

  /** Adds a seed: the crawl follows what is in scope of any of its seeds. */
  addSeed(u: Url): void {
    this.#servers.add(serverKey(u));
    const host = u.host?.toLowerCase() ?? '';
    this.#hosts.add(host);
    this.#prefixes.push(prefixOf(u));
  }

  /** True when `u` is in scope of a seed: same server (host and port), same host (any port or scheme), the host or a name below it, or under a seed's folder. */
  has(u: Url): boolean {
    switch (this.kind) {
      case 'server':
        return this.#servers.has(serverKey(u));
      case 'host':
        return this.#hosts.has(u.host?.toLowerCase() ?? '');
      case 'domain': {
        const host = u.host?.toLowerCase() ?? '';
        if (this.#hosts.has(host)) return true;
        for (const h of this.#hosts) if (h !== '' && host.endsWith('.' + h)) return true;
        return false;
      }
      case 'prefix': {
        const href = u.withoutFragment;
        return this.#prefixes.some((p) => href.startsWith(p));
      }
    }
  }
}
