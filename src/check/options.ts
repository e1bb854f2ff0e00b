// The options of check() (docs/check.md): the defaults, their checks, and the credential rule (RFC 1738 3.2.1).
import { netrcHost, type ProbeOptions } from '../clients/index.js';

export const DEFAULTS = {
  concurrency: 8,
  perHost: 2,
  delay: 0,
  retries: 1,
  retryDelay: 1000,
  maxDepth: 3,
  maxUrls: 1000,
  window: 1000,
};

export function whole(name: string, v: number | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !(Number.isSafeInteger(v) || v === Infinity) || v < min) {
    throw new RangeError(`check: ${name} must be a whole number of at least ${min}, not ${String(v)}`);
  }
  return v;
}

/**
 * The probe options with the credential rule of check (RFC 1738 3.2.1 leaves the user and
 * password to the URL; a password the URL does not give is the operator's, for the hosts the
 * operator names): never the `user` and `password` options, which would go to every FTP and NNTP
 * server a document, menu or listing names; and `netrc: false` unless `netrcHosts` names hosts.
 * With it, the clients themselves use an entry only for a server whose host it lists (the news
 * server of NNTPSERVER or `newsServer` for a news: URL; src/clients/nntp/client.ts netrcUse()),
 * hosts compared by netrcHost().
 */
export function credentialsOnlyFor(options: ProbeOptions): ProbeOptions {
  const { netrcHosts: hosts, user: _user, password: _password, ...rest } = options;
  if (hosts === undefined || (Array.isArray(hosts) && hosts.length === 0)) return { ...rest, netrc: false };
  if (!Array.isArray(hosts) || hosts.some((h) => typeof h !== 'string' || h === '')) {
    throw new RangeError('check: netrcHosts must be an array of host names');
  }
  return { ...rest, netrcHosts: hosts.map(netrcHost) };
}
