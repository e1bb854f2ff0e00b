// Gateways (RFC 1738 section 4: "a gateway which provides objects in the new scheme for clients
// using an existing protocol"; the drafts' gateway notes): a URL of any scheme may be fetched
// through an HTTP gateway, which receives the full URL in a GET request line. Configuration
// follows the convention of the 1990s clients (CERN libwww, lynx, curl): `<scheme>_proxy`
// environment variables (lower case first), and `no_proxy` for hosts reached directly.

import type { Url } from '../core/url.js';
import type { GatewayConfig, OpenOptions } from './types.js';

/**
 * Reads gateways from an environment: `ftp_proxy`, `gopher_proxy`, `http_proxy`, ... for every
 * scheme named; the lower-case name wins over the upper-case one. Upper-case `HTTP_PROXY` is
 * ignored when running as a CGI script (REQUEST_METHOD is set), because a request header
 * "Proxy:" becomes HTTP_PROXY there ("httpoxy").
 */
export function gatewayFromEnv(env: Record<string, string | undefined>): GatewayConfig {
  const proxies: Record<string, string> = {};
  const cgi = env.REQUEST_METHOD !== undefined;
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    const m = /^([A-Za-z0-9+.-]+)_proxy$/i.exec(key);
    if (m === null) continue;
    // The variable's prefix: a scheme's name, or no_proxy / all_proxy, which name none.
    const prefix = m[1].toLowerCase();
    if (prefix === 'no' || prefix === 'all') continue;
    const lower = key === key.toLowerCase();
    if (!lower && cgi && key.toUpperCase() === 'HTTP_PROXY') continue;
    if (!lower && env[`${prefix}_proxy`]) continue; // the lower-case one wins
    proxies[prefix] = value;
  }
  const noProxy = (env.no_proxy ?? env.NO_PROXY ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  return { proxies, noProxy };
}

/** True when `host` is reached directly under `no_proxy` (`*`, a name, or a `.suffix`). */
export function bypasses(host: string, noProxy: string[]): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  for (const entry of noProxy) {
    if (entry === '*') return true;
    const e = entry.replace(/:\d+$/, '');
    const bare = e.startsWith('.') ? e.slice(1) : e;
    if (h === bare || h.endsWith('.' + bare)) return true;
  }
  return false;
}

/** The gateway for a URL, or null to go direct. */
export function gatewayFor(scheme: string, host: string | null, config: GatewayConfig): string | null {
  const proxy = config.proxies[scheme];
  if (proxy === undefined) return null;
  if (host !== null && host !== '' && bypasses(host, config.noProxy)) return null;
  return proxy;
}

/** The gateways last read from each environment object, with the text of the variables they were read from. */
const ENV_READ = new WeakMap<object, { vars: string; config: GatewayConfig }>();

/**
 * gatewayFromEnv(env), read again only when a variable it depends on changed: the `*_proxy`
 * variables (any case) and REQUEST_METHOD, names and values in order, are compared with those of
 * the last read of the same object. Listing the names of process.env costs a fifth of reading
 * every variable and its value (every open() asks: a crawl opens thousands of URLs).
 */
function gatewaysOfEnv(env: Record<string, string | undefined>): GatewayConfig {
  let vars = '';
  for (const key of Object.keys(env)) {
    const n = key.length;
    // "_proxy" in any case (no_proxy and NO_PROXY included), or REQUEST_METHOD.
    if (n >= 6 && key.charCodeAt(n - 6) === 95 && (key.charCodeAt(n - 1) | 0x20) === 0x79) {
      if (key.slice(n - 5).toLowerCase() !== 'proxy') continue;
    } else if (key !== 'REQUEST_METHOD') continue;
    const value = env[key];
    vars += `${n}:${key}${value === undefined ? '-' : `${value.length}:${value}`}`;
  }
  const kept = ENV_READ.get(env);
  if (kept !== undefined && kept.vars === vars) return kept.config;
  const config = gatewayFromEnv(env);
  ENV_READ.set(env, { vars, config });
  return config;
}

/**
 * The gateway a URL is opened through (RFC 1738 4), or null: the `gateway` option (false: none),
 * else the environment's (`options.env`, else the process's).
 */
export function gatewayOf(u: Url, options: OpenOptions): string | null {
  const env =
    options.env ?? (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
  const gateways = options.gateway === false ? null : (options.gateway ?? gatewaysOfEnv(env));
  return gateways === null ? null : gatewayFor(u.scheme, u.host, gateways);
}
