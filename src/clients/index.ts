// open(): dereference a URL the way the specs say (RFC 1738 section 3), returning its metadata
// and a stream of its bytes. The client of each scheme is imported only when a URL of that
// scheme is opened, so the parser bundle holds no networking code.

import { parse } from '../core/parse.js';
import { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { getScheme } from '../schemes/registry.js';
import { assertAllowed, DEFAULT_POLICY } from '../policy.js';
import { gatewayFor, gatewayFromEnv } from './gateway.js';
import { NO_CLIENT, type ClientModule, type OpenOptions, type Resource, type TranscriptLine } from './types.js';

/** The built-in clients, loaded on first use. A registered scheme's own `client` comes first. */
const BUILTIN: Record<string, () => Promise<ClientModule>> = {
  ftp: () => import('./ftp/client.js'),
  file: () => import('./file/client.js'),
  gopher: () => import('./gopher/client.js'),
  http: () => import('./http/client.js'),
  https: () => import('./http/client.js'),
};

function envOf(options: OpenOptions): Record<string, string | undefined> {
  return options.env ?? (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
}

/**
 * Opens a URL: checks it against the policy (no byte is sent for a refused URL), goes through
 * the scheme's gateway when one is configured (RFC 1738 4), else runs the scheme's client.
 * Resolves to `{ meta, body }` with `body` a ReadableStream; fails with a LocatorError.
 */
export async function open(url: string | Url, options: OpenOptions = {}): Promise<Resource> {
  const u = typeof url === 'string' ? parse(url) : url;
  const policy = options.policy ?? DEFAULT_POLICY;
  assertAllowed(u, policy);
  const lines: TranscriptLine[] = [];
  const record = options.transcript;
  const onLine = record === undefined || record === false ? undefined
    : (line: TranscriptLine) => {
      lines.push(line);
      if (typeof record === 'function') record(line);
    };
  const opts: OpenOptions = { ...options, policy, transcript: onLine ?? false };

  const gateways = options.gateway === false ? null : options.gateway ?? gatewayFromEnv(envOf(options));
  const via = gateways === null ? null : gatewayFor(u.scheme, u.host, gateways);
  let resource: Resource;
  if (via !== null) {
    const http = await import('./http/client.js');
    resource = await http.openThroughGateway(u, via, opts);
  } else {
    const load = getScheme(u.scheme)?.client as (() => Promise<ClientModule>) | undefined ?? BUILTIN[u.scheme];
    if (load === undefined) {
      throw new LocatorError(NO_CLIENT, 0, `no client can retrieve ${u.scheme}: URLs (configure a gateway with ${u.scheme}_proxy)`);
    }
    resource = await (await load()).open(u, opts);
  }
  resource.meta.transcript = lines;
  return resource;
}

export type { OpenOptions, Resource, Meta, TranscriptLine, GatewayConfig, ClientModule } from './types.js';
export { gatewayFromEnv } from './gateway.js';
export { Url };
