// The gateway's access log in the Combined Log Format (Apache httpd's mod_log_config "combined",
// which nginx, GoAccess, AWStats and the other tools of operators read):
//
//   client - - [29/Nov/2026:07:10:00 +0000] "GET /?url=... HTTP/1.1" 200 5120 "referer" "agent"
//
// The client as resolved from trusted proxies (clients.ts); every URL in the request line and the
// Referer with its password masked (`****`), whatever its encoding in a `url=` parameter.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactUrl } from '../operations/redact.js';
import { onEnded } from './connections.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `[10/Oct/2000:13:55:36 +0000]`: the time of the request, in UTC. */
export function clfTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `[${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000]`;
}

/** A field between quotes as Apache writes it: `"` and `\` escaped, other octets outside printable ASCII as \xhh. */
function quoted(s: string): string {
  return Buffer.from(s, 'utf8')
    .toString('latin1')
    .replace(/[\\"]|[^\x20-\x7e]/g, (c) =>
      c === '"' || c === '\\' ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
    );
}

/**
 * A request target or Referer with the password of every URL in it masked: an absolute URL
 * itself, and the `url` parameter of the gateway's own `/?url=` addresses (decoded, masked,
 * encoded again).
 */
export function maskTarget(target: string): string {
  const q = target.indexOf('?');
  const head = q < 0 ? target : target.slice(0, q);
  const masked = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(head) ? redactUrl(head) : head;
  if (q < 0) return masked;
  const query = target.slice(q + 1);
  if (!/(^|&)url=/i.test(query)) return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(head) ? redactUrl(target) : target;
  return (
    masked +
    '?' +
    query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0 || pair.slice(0, eq).toLowerCase() !== 'url') return pair;
        let v: string;
        try {
          v = decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
        } catch {
          return `${pair.slice(0, eq)}=${redactUrl(pair.slice(eq + 1))}`;
        }
        const r = redactUrl(v);
        return r === v ? pair : `${pair.slice(0, eq)}=${encodeURIComponent(r)}`;
      })
      .join('&')
  );
}

/**
 * Logs the request when it ends (whichever way): `client` as resolved, the octets of the body sent
 * (`-` for none), the status (a connection cut before any answer: the status Node holds, 200 by
 * default, as Apache logs what it meant to send).
 */
export function logAccess(
  req: IncomingMessage,
  res: ServerResponse,
  client: string,
  write: (line: string) => void,
  now: () => Date = () => new Date(),
): void {
  const at = now();
  let octets = 0;
  // Body octets only (what %b counts), not the headers.
  const count = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === 'string')
      octets += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) octets += chunk.length;
  };
  const write0 = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end0 = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
  (res as unknown as { write: (...a: unknown[]) => boolean }).write = (...a: unknown[]) => {
    count(a[0], a[1]);
    return write0(...a);
  };
  (res as unknown as { end: (...a: unknown[]) => ServerResponse }).end = (...a: unknown[]) => {
    if (typeof a[0] !== 'function') count(a[0], a[1]);
    return end0(...a);
  };
  onEnded(req, res, () => {
    const line = `${req.method ?? '-'} ${maskTarget(req.url ?? '')} HTTP/${req.httpVersion}`;
    const referer = req.headers.referer;
    const agent = req.headers['user-agent'];
    write(
      `${client || '-'} - - ${clfTime(at)} "${quoted(line)}" ${res.statusCode} ${octets === 0 ? '-' : octets} ` +
        `"${referer === undefined ? '-' : quoted(maskTarget(referer))}" "${agent === undefined ? '-' : quoted(agent)}"`,
    );
  });
}
