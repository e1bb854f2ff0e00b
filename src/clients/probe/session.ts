// The telnet, rlogin and tn3270 probe (RFC 1738 3.8: "the telnet URL designates an interactive
// text-based service"): the TCP connection, and the first bytes the server sends within a short
// wait; nothing is sent, so no login is attempted. The connection made proves the service; a
// refused connection is `unreachable` (probe() maps connect-failed).

import type { Url } from '../../core/url.js';
import { checkTimeout, Connection, startTimer } from '../connection.js';
import { FIRST_BYTES_WAIT, SESSION_PORTS } from './steps.js';
import { result } from './result.js';
import type { ProbeOptions, ProbeResult } from './types.js';

/** The first chunk the server sends, or null when it sends nothing within `wait` ms (or closes). */
async function firstBytes(conn: Connection, wait: number): Promise<Buffer | null> {
  let timer: { clear(): void } | undefined;
  try {
    return await Promise.race([
      conn.read().catch(() => null),
      new Promise<null>((resolve) => {
        timer = startTimer(wait, () => resolve(null));
      }),
    ]);
  } finally {
    timer?.clear();
  }
}

/** Probes a telnet, rlogin or tn3270 URL (RFC 1738 3.8): the steps of sessionSteps(url). */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult> {
  const timeout = checkTimeout(options.timeout);
  const wait = Math.min(checkTimeout(options.firstBytesWait ?? FIRST_BYTES_WAIT, 'firstBytesWait'), timeout);
  const port = url.port ?? SESSION_PORTS[url.scheme] ?? 23;
  const conn = await Connection.connect(url.host ?? '', port, {
    signal: options.signal,
    timeout,
    policy: options.policy,
    onTranscript: typeof options.transcript === 'function' ? options.transcript : undefined,
  });
  try {
    const first = await firstBytes(conn, wait);
    if (first !== null) conn.note('receive', `<${first.length} octets>`);
    return result(
      'ok',
      first === null
        ? `connected to port ${port} (nothing received within ${wait} ms)`
        : `connected to port ${port}; the server sent ${first.length} octets`,
    );
  } finally {
    conn.close();
  }
}
