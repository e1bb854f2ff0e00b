// rlogin sessions (RFC 1282; the rlogin URL of the 1993-10 and 1994-03 drafts, which share the
// telnet syntax of RFC 1738 3.8): connect from a reserved port, send the handshake, wait for the
// server's NUL, send the window size, then pass the bytes both ways unchanged.
//
// DEVIATION: RFC 1282 has the server ask for the window size with an urgent (TCP out-of-band)
// octet 0x80, and the client answer it. Node's sockets do not deliver out-of-band data (and,
// without SO_OOBINLINE, the kernel keeps the urgent octet out of the data stream, so it does not
// show up as garbage either). Every rlogind in use asks at once, when the session starts (Debian's
// in.rlogind does, checked with a capture: at once for a trusted client, after the password for
// others), so the client sends the window size unasked: with the first output after the NUL, or,
// when that output is a password prompt (rlogind reads the password itself and would take the 12
// octets as part of it), with the first output after the user's line end (protocol.ts
// windowGate); then again on each resize(). A server that never asks would take those 12 octets
// as typed input. The other urgent control octets (0x02 flush output,
// 0x10/0x20 raw/cooked mode) are lost the same way; they only change the local echo and flow
// control of a BSD terminal, which the caller's terminal handles.

import os from 'node:os';
import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { redactUrl } from '../../operations/redact.js';
import type { Connection } from '../connection.js';
import type { InteractiveSession, SessionOptions } from '../interactive.js';
import { CONNECT_FAILED, CONNECTION_CLOSED, typedError } from '../types.js';
import { concatBytes } from '../framing/bytes.js';
import { connectUrl, deadline, SessionCore, transcriptOf } from '../session-core.js';
import {
  DEFAULT_SPEED,
  handshake,
  readAnswer,
  RESERVED_PORTS,
  RLOGIN_PORT,
  RLOGIN_REFUSED,
  windowGate,
  windowSize,
} from './protocol.js';

export { escapeScanner, handshake, windowSize, readAnswer, RLOGIN_PORT, RLOGIN_REFUSED } from './protocol.js';

/** rlogin's well-known port (RFC 1282; the drafts' rlogin URL has no port of its own). */
export const RLOGIN_PORT_NUMBER = 513;

function errnoOf(e: unknown): string | undefined {
  const cause = (e as { cause?: unknown })?.cause as NodeJS.ErrnoException | undefined;
  return cause?.code;
}

/**
 * Connects from the highest free reserved port (RFC 1282: rlogind trusts only a client on a port
 * below 1024; BSD rresvport tries 1023 down to 512). A port in use is skipped; a refusal to bind
 * one at all (EACCES: not root, no CAP_NET_BIND_SERVICE) is an `rlogin-reserved-port` error at
 * once: rlogind would reset a connection from any other port without a word.
 */
async function connectReserved(
  url: Url,
  options: SessionOptions,
  record: ReturnType<typeof transcriptOf>['record'],
  ports: { first: number; last: number },
): Promise<Connection> {
  let last: unknown = null;
  for (let p = ports.first; p >= ports.last; p--) {
    try {
      return await connectUrl(url, RLOGIN_PORT_NUMBER, options, record, p);
    } catch (e) {
      const code = errnoOf(e);
      if (e instanceof LocatorError && e.code === CONNECT_FAILED && (code === 'EACCES' || code === 'EPERM')) {
        throw new LocatorError(
          RLOGIN_PORT,
          -1,
          `rlogin must connect from a reserved port (512-1023, RFC 1282) and binding port ${p} was refused (${code}): run as root or grant CAP_NET_BIND_SERVICE (rlogind resets a connection from any other port)`,
          { cause: e },
        );
      }
      if (
        e instanceof LocatorError &&
        e.code === CONNECT_FAILED &&
        (code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL')
      ) {
        last = e;
        continue;
      }
      throw e;
    }
  }
  throw new LocatorError(
    RLOGIN_PORT,
    -1,
    `every reserved port from ${ports.first} down to ${ports.last} is in use (RFC 1282)`,
    { cause: last },
  );
}

/** Reads until the server's answer to the handshake is complete (RFC 1282); returns what followed the NUL. */
async function awaitAnswer(conn: Connection, where: string): Promise<Uint8Array> {
  let buf: Uint8Array = new Uint8Array(0);
  for (;;) {
    const chunk = await conn.read();
    if (chunk !== null) buf = concatBytes([buf, chunk]);
    const a = readAnswer(buf, chunk === null);
    if (a.kind === 'accepted') {
      conn.note('receive', '<NUL> (handshake accepted)');
      return a.rest;
    }
    if (a.kind === 'refused') {
      if (a.message === '') {
        throw new LocatorError(
          CONNECTION_CLOSED,
          -1,
          `${where} closed the connection without answering the rlogin handshake (RFC 1282): the server may not trust this host or port`,
        );
      }
      conn.note('receive', a.message);
      throw new LocatorError(RLOGIN_REFUSED, -1, `${where} refused the rlogin session: ${a.message}`);
    }
  }
}

/** The options of connectSession beyond SessionOptions; for tests. */
export interface RloginSessionOptions extends SessionOptions {
  /** The local ports tried, highest first (RFC 1282: 1023 down to 512). */
  reservedPorts?: { first: number; last: number };
}

/**
 * Opens an rlogin session (RFC 1282; draft 1994-03 rlogin URL): the URL's user is the server
 * user name (the local user when none is given), `options.localUser` (default: this process's
 * user) the client user name, `options.term` (default "network") the terminal type, sent with the
 * speed 38400. Resolves once the server has accepted the handshake. Fails with
 * `rlogin-reserved-port` (no reserved port could be bound: run as root), `rlogin-refused` (the
 * server sent an error message instead of its NUL), `connection-closed` (it closed without a
 * word, as rlogind does for a client on an unreserved port), `connect-failed`, `timeout`,
 * `aborted`, `policy-refused`, `invalid-field` (a name holding NUL). The URL's password is not
 * sent (RFC 1282 has no place for it): type it when the server prompts.
 */
export async function connectSession(url: Url, options: RloginSessionOptions = {}): Promise<InteractiveSession> {
  const { lines, record } = transcriptOf(options);
  const localUser = options.localUser ?? os.userInfo().username;
  const remoteUser = url.user !== null && url.user !== '' ? url.user : localUser;
  const term = options.term ?? 'network';
  const hello = handshake(localUser, remoteUser, term, DEFAULT_SPEED);
  let cols = options.cols ?? 80;
  let rows = options.rows ?? 24;
  const where = redactUrl(url);
  const conn = await connectReserved(url, options, record, options.reservedPorts ?? RESERVED_PORTS);
  const localPort = conn.socket.localPort;
  conn.note('info', `connected from the reserved port ${localPort}`);
  const timer = deadline(conn, options, 'the rlogin handshake');
  let rest: Uint8Array;
  try {
    await conn.write(hello, `<NUL>${localUser}<NUL>${remoteUser}<NUL>${term}/${DEFAULT_SPEED}<NUL>`);
    rest = await awaitAnswer(conn, where);
  } catch (e) {
    const err = typedError(e, 'the rlogin handshake');
    conn.close(err);
    throw err;
  } finally {
    timer.clear();
  }
  const gate = windowGate();
  const core: SessionCore = new SessionCore(conn, (chunk) => {
    if (gate.server(chunk)) sendSize();
    return chunk;
  });
  const sendSize = () => core.send(windowSize(cols, rows), `<window size ${cols}x${rows}>`);
  if (gate.server(rest)) sendSize(); // DEVIATION: unasked (see the top of this file)
  core.start(rest);
  return {
    output: core.output,
    closed: core.closed,
    transcript: lines,
    write(data) {
      gate.typed(data);
      core.send(data);
    },
    resize(c, r) {
      cols = c;
      rows = r;
      if (gate.open) sendSize();
    },
    sendBreak() {
      // RFC 1282 has no break: the user's interrupt character travels as data.
    },
    status() {
      return [
        `rlogin ${where} (RFC 1282)`,
        `connected from ${conn.socket.localAddress}:${localPort} to ${conn.socket.remoteAddress}:${conn.socket.remotePort}`,
        `client user ${localUser}, server user ${remoteUser}, terminal ${term}/${DEFAULT_SPEED}, window ${cols}x${rows}`,
        `${core.bytesIn} octets in, ${core.bytesOut} octets out`,
      ];
    },
    close() {
      core.close();
    },
  };
}
