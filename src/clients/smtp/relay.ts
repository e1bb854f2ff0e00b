// The relay's name (RFC 1738 3.1 hostport): apart from the SMTP session, so that reading the
// environment's relay loads no TLS or socket module.
import { LocatorError } from '../../core/errors.js';
import { NO_RELAY } from './errors.js';
import { assertNoLineBreak } from './message.js';

/** The environment variable that names the relay, `host` or `host:port` (port 25 when none). */
export const RELAY_ENV = 'SMTP_RELAY';

/** "host", "host:port", "[v6]", "[v6]:port" (RFC 1738 3.1 hostport, with RFC 2732 brackets). */
export function parseRelay(text: string): { host: string; port: number } {
  assertNoLineBreak('the SMTP relay', text);
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(text.trim());
  const port = m?.[2] === undefined ? 25 : Number(m[2]);
  if (m === null || port < 1 || port > 65535) {
    throw new LocatorError(NO_RELAY, -1, `the SMTP relay ${JSON.stringify(text)} is not host or host:port`);
  }
  return { host: m[1], port };
}
