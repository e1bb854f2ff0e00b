// The face of the http and https client (RFC 1738 3.3; RFC 1945, RFC 9112): documents. Its
// protocol modules are imported when a URL is first opened or probed (./client.ts, ./probe.ts).

import type { Url } from '../../core/url.js';
import type { ClientFace } from '../client-face.js';

/** http, https (RFC 1738 3.3; RFC 1945 8.2): HEAD, and GET with its body cancelled when HEAD is refused. */
export function httpSteps(url: Url): string[] {
  const target = '/' + (url.path ?? ''); // RFC 1738 3.3, as the http client sends it
  const host = url.explicitPort && url.port !== url.spec?.defaultPort ? `${url.host}:${url.port}` : (url.host ?? '');
  return [
    `HEAD ${target} HTTP/1.1`,
    `Host: ${host}`,
    `[if HEAD is answered 405 or 501] GET ${target} HTTP/1.1, the body cancelled unread`,
  ];
}

/**
 * RFC 9309 2.3: robots.txt is at /robots.txt of the server (scheme, host and port); its rules are
 * matched against the path and search of the URL (RFC 1738 3.3: "/" path "?" searchpart).
 */
export function httpRobots(url: Url): { url: string; path: string } {
  const port = url.explicitPort && url.port !== url.spec?.defaultPort ? `:${url.portDigits ?? url.port}` : '';
  return { url: `${url.scheme}://${url.host ?? ''}${port}/robots.txt`, path: '/' + (url.path ?? '') };
}

const http: ClientFace = {
  warcProtocols: ['http/1.1'],
  kinds: ['document'],
  open: async (url, options) => (await import('./client.js')).open(url, options),
  probe: async (url, options) => (await import('./probe.js')).probe(url, options),
  steps: httpSteps,
  // A web browser reaches HTTP itself: the gateway links to it (unless told to carry it).
  form: () => ({ form: 'browser' }),
  pages: true,
  robots: httpRobots,
};

export default http;
