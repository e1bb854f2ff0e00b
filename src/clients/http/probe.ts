// The http and https probe (RFC 1738 3.3; RFC 1945 8.2, 9): HEAD the URL; GET it, the body
// cancelled unread, when the server refuses HEAD (405, 501). A 3xx with a Location is a redirect
// for probe()'s loop; 404 and 410 say the object is not there; any other 4xx or 5xx is broken too,
// temporary for 408, 429, 502, 503 and 504.

import type { IncomingMessage } from 'node:http';
import type { Url } from '../../core/url.js';
import { parse } from '../../schemes/registry.js';
import { LocatorError } from '../../core/errors.js';
import { redactUrl } from '../../operations/redact.js';
import { PROTOCOL_ERROR, NOT_FOUND, type Redirect } from '../types.js';
import { requestOf, HTTP_STATUS } from './client.js';
import { result } from '../probe/result.js';
import { parseRetryAfter } from './retry-after.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses that say trying again later may succeed (RFC 7231 6.5.7, 6.6.3-6.6.5; RFC 6585 4). */
const TEMPORARY = new Set([408, 429, 502, 503, 504]);

/** Probes an http or https URL (RFC 1945 8.2): the steps of httpSteps(url). */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult | Redirect> {
  let res: IncomingMessage = await requestOf(url, 'HEAD', options);
  let method = 'HEAD';
  if (res.statusCode === 405 || res.statusCode === 501) {
    res.destroy();
    res = await requestOf(url, 'GET', options);
    method = 'GET';
  }
  // The body of a HEAD is empty; that of a GET is not wanted: either way the response is closed.
  res.destroy();
  const status = res.statusCode ?? 0;
  const said = `${status} ${res.statusMessage ?? ''}`.trimEnd();
  const location = res.headers.location;
  if (REDIRECTS.has(status) && location !== undefined) {
    let next: Url;
    try {
      next = parse(new URL(location, url.withoutFragment).href);
    } catch {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the server redirects to ${JSON.stringify(redactUrl(location))}, which is not a URL`,
      );
    }
    return { redirect: next, reason: `HTTP ${status}` };
  }
  const reply = String(status);
  if (status === 404 || status === 410) return result('broken', said, { code: NOT_FOUND, reply });
  if (status === 429 || status === 503) {
    // The server is busy (RFC 6585 4, RFC 9110 15.6.4): it may say for how long (Retry-After).
    const header = res.headers['retry-after'];
    const retryAfter = parseRetryAfter(Array.isArray(header) ? header[0] : header);
    return result('broken', said, {
      code: HTTP_STATUS,
      reply,
      temporary: true,
      busy: true,
      ...(retryAfter !== null ? { retryAfter } : {}),
    });
  }
  if (status >= 400) return result('broken', said, { code: HTTP_STATUS, reply, temporary: TEMPORARY.has(status) });
  if (status >= 300) return result('broken', `${said} (a redirect without a Location)`, { code: HTTP_STATUS, reply });
  return result('ok', `${said} (${method})`, { reply });
}
