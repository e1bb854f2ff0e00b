// The telnet, rlogin and tn3270 probe (RFC 1738 3.8: "the telnet URL designates an interactive
// text-based service"): the TCP connection, and the first bytes the server sends within a short
// wait; nothing is sent, so no login is attempted. The connection made proves the service; a
// refused connection is `unreachable` (probe() maps connect-failed).

import type { Url } from '../../core/url.js';
import { checkTimeout, Connection, startTimer } from '../connection.js';
import { FIRST_BYTES_WAIT } from './steps.js';
import { result } from './result.js';
import type { ProbeOptions, ProbeResult } from './types.js';

/** The first chunk the server sends; `closed` when it closes first, `silent` when it sends nothing within `wait` ms. */
async function firstBytes(conn: Connection, wait: number): Promise<Buffer | 'closed' | 'silent'> {
  let timer: { clear(): void } | undefined;
  try {
    return await Promise.race([
      conn.read().then(
        (c) => c ?? 'closed',
        () => 'closed' as const,
      ),
      new Promise<'silent'>((resolve) => {
        timer = startTimer(wait, () => resolve('silent'));
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
  const port = url.port ?? url.spec?.defaultPort ?? 23;
  const conn = await Connection.connect(url.host ?? '', port, {
    signal: options.signal,
    timeout,
    policy: options.policy,
    onTranscript: typeof options.transcript === 'function' ? options.transcript : undefined,
  });
  try {
    const first = await firstBytes(conn, wait);
    if (typeof first !== 'string') conn.note('receive', `<${first.length} octets>`);
    const said =
      first === 'silent'
        ? `nothing received within ${wait} ms`
        : first === 'closed'
          ? 'the server closed the connection without a byte'
          : `the server sent ${first.length} octets`;
    return result('ok', `connected to port ${port}; ${said}`);
  } finally {
    conn.close();
  }
}
