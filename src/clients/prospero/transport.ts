// One ARDP exchange over UDP (Prospero v5 appendix B): a request message out, the reply message
// back. The exchange owns its socket, its timers and its AbortSignal listener, and ends through
// one close path (finish) whatever happens: the reply complete, a timeout, an abort, a refused
// connection, a malformed datagram, a socket error. The framing is ardp.ts (pure).
//
// Reliability, after the historic client (lib/ardp/ardp_pr_actv.c, ardp_xmit.c): no answer in
// the current wait sends again (the request packets the server has not acknowledged, else an
// acknowledgement carrying our received-through count, from which the server sends what is
// missing); the wait doubles each time; progress (a new packet in sequence) resets it. The total
// silence allowed is the `timeout` option: past it, a typed timeout. A server-requested wait
// (ARDP octets 9-10) delays the next retry but not the limit.

import dgram from 'node:dgram';
import { randomInt } from 'node:crypto';
import { LocatorError, defineCode } from '../../core/errors.js';
import type { Policy } from '../../operations/policy.js';
import { beforeConnecting } from '../hop.js';
import { ABORTED, CONNECTION_CLOSED, TIMEOUT, TOO_LARGE, type TranscriptLine } from '../types.js';
import { startTimer, type Timer } from '../connection.js';
import {
  FLAG,
  OPTION,
  Reassembly,
  ackPacket,
  backoff,
  decodePacket,
  firstWait,
  packetsOf,
  splitMessage,
  type ArdpPacket,
} from './ardp.js';

export const ARDP_REFUSED = defineCode(
  'ardp-refused',
  'error',
  'Prospero v5 B (ARDP)',
  'the server refused the ARDP connection (option 1)',
  'network',
);

/** The largest reply accepted, in octets: a GET-OBJECT-INFO reply is a few lines. */
export const MAX_REPLY = 1 << 20;

export interface ExchangeOptions {
  /** Milliseconds of silence allowed (checked by the caller: checkTimeout). */
  timeout: number;
  signal?: AbortSignal;
  policy?: Policy;
  onTranscript?: (line: TranscriptLine) => void;
  /** The largest reply, octets (default MAX_REPLY). */
  maxReply?: number;
  /** The connection id (default: random, 1 to 65535); for tests. */
  cid?: number;
}

export interface Peer {
  address: string;
  family: 4 | 6;
  port: number;
}

/** What came back, with what it took. */
export interface ExchangeResult {
  message: Uint8Array;
  packets: number;
  /** How many times the client sent again. */
  retransmissions: number;
}

/**
 * Sends `message` to `peer` as one ARDP message and resolves to the reply message (Prospero v5
 * appendix B). Replies are matched by connection id and the server's address (any port: a server
 * may answer from its other port, doc/working-notes/pfs-udp-ports.txt). Rejects with timeout,
 * aborted, ardp-refused, ardp-malformed, too-large or connection-closed; the socket is closed
 * every time.
 */
export function exchange(peer: Peer, message: Uint8Array, o: ExchangeOptions): Promise<ExchangeResult> {
  const note = (text: string) => o.onTranscript?.({ direction: 'info', text });
  if (o.signal?.aborted) return Promise.reject(new LocatorError(ABORTED, -1, 'the transfer was cancelled'));
  const cid = o.cid ?? randomInt(1, 0x10000);
  const parts = splitMessage(message);
  const maxReply = o.maxReply ?? MAX_REPLY;
  const socket = dgram.createSocket(peer.family === 6 ? 'udp6' : 'udp4');
  const reply = new Reassembly();
  let target = { ...peer };
  let peerThrough = 0; // our packets the server says it has
  let serverWait = 0; // ms, ARDP octets 9-10
  let wait = firstWait(o.timeout);
  let deadline = Date.now() + o.timeout;
  let retransmissions = 0;
  let timer: Timer | null = null;
  let done = false;
  /** The reply is complete; only a last acknowledgement is on its way. */
  let ending = false;

  return new Promise<ExchangeResult>((resolve, reject) => {
    const onAbort = () => finish(new LocatorError(ABORTED, -1, 'the transfer was cancelled'));
    function finish(err: LocatorError | null): void {
      if (done) return;
      done = true;
      timer?.clear();
      o.signal?.removeEventListener('abort', onAbort);
      socket.removeAllListeners('message');
      socket.on('error', () => {});
      try {
        socket.close();
      } catch {
        // already closed
      }
      if (err !== null) reject(err);
      else resolve({ message: reply.message(), packets: reply.total ?? 0, retransmissions });
    }
    const send = (b: Uint8Array, then?: () => void) => {
      socket.send(b, target.port, target.address, (e) => {
        if (e) finish(new LocatorError(CONNECTION_CLOSED, -1, `cannot send to ${where()}: ${e.message}`, { cause: e }));
        else then?.();
      });
    };
    const where = () =>
      target.family === 6 ? `[${target.address}]:${target.port}` : `${target.address}:${target.port}`;
    /** The request packets the server has not acknowledged, else an acknowledgement (ardp_xmit.c). */
    const sendOutstanding = () => {
      if (peerThrough >= parts.length) send(ackPacket(cid, reply.through));
      else for (const p of packetsOf(cid, parts, reply.through).slice(peerThrough)) send(p);
    };
    /**
     * When the last retry was due, or the last progress: the next retry is due a wait after it,
     * not after the moment a late timer fired, so that a loaded machine keeps the schedule of
     * retransmitTimes() instead of drifting later at every retry.
     */
    const arm = (from = Date.now()) => {
      timer?.clear();
      const now = Date.now();
      const retry = from + Math.max(wait, serverWait);
      // A timer armed for the deadline ends the exchange when it fires, even if the clock reads a
      // millisecond short of it (timers may fire early against Date.now()'s rounding): otherwise
      // one more retransmission would go out at the limit.
      const atDeadline = retry >= deadline;
      const next = atDeadline ? deadline : retry;
      timer = startTimer(Math.max(1, next - now), () => onTimer(atDeadline, next));
    };
    const onTimer = (atDeadline: boolean, due: number) => {
      if (done || ending) return;
      if (atDeadline || Date.now() >= deadline) {
        const got = reply.total === null ? `${reply.through} packets` : `${reply.through} of ${reply.total} packets`;
        finish(
          new LocatorError(
            TIMEOUT,
            -1,
            `the Prospero server at ${where()} did not answer in time (${o.timeout} ms of silence, ${retransmissions} retransmissions; ${got} of the reply received)`,
          ),
        );
        return;
      }
      retransmissions++;
      note(`ARDP: no progress in ${Math.round(Math.max(wait, serverWait))} ms, sending again (cid ${cid})`);
      sendOutstanding();
      wait = backoff(wait);
      arm(due);
    };
    const onPacket = (p: ArdpPacket) => {
      if (p.receivedThrough !== null) {
        peerThrough = p.option === OPTION.resetReceived ? p.receivedThrough : Math.max(peerThrough, p.receivedThrough);
      }
      if (p.option === OPTION.refused) {
        finish(new LocatorError(ARDP_REFUSED, -1, `the Prospero server at ${where()} refused the connection`));
        return;
      }
      if ((p.option === OPTION.redirect || p.option === OPTION.redirectNotify) && p.address !== null) {
        // ARDP option 4: send the unacknowledged packets and the rest to a new address, which
        // the policy judges as it judged the first (RFC 1738 6).
        if (peer.family !== 4) {
          finish(new LocatorError(CONNECTION_CLOSED, -1, 'an ARDP redirect to IPv4 on an IPv6 socket'));
          return;
        }
        beforeConnecting(p.address.address, 4, o.policy);
        target = { address: p.address.address, family: 4, port: p.address.port };
        // The new server has none of the request: it all goes again ("the client will resend
        // the entire request to a new server").
        peerThrough = 0;
        note(`ARDP: redirected to ${where()}`);
        sendOutstanding();
      }
      if (p.wait !== null && p.wait * 1000 !== serverWait) {
        // ARDP octets 9-10: "the client should not retry the request until the specified time"
        // (0: back to the client's own backoff). The limit stays: only progress moves it.
        serverWait = p.wait * 1000;
        note(`ARDP: the server asks for ${p.wait} s before any retry`);
        arm();
      }
      const before = reply.through;
      const kind = reply.accept(p);
      if (reply.octets > maxReply) {
        finish(new LocatorError(TOO_LARGE, -1, `the Prospero reply is larger than ${maxReply} octets`));
        return;
      }
      if (reply.through > before) {
        // Progress: "reset timeout and retry count" (ardp_pr_actv.c).
        wait = firstWait(o.timeout);
        deadline = Date.now() + o.timeout;
        arm();
      } else if (kind === 'duplicate') note(`ARDP: packet ${p.seq} again (dropped)`);
      const ack = (p.flags & FLAG.ack) !== 0;
      if (reply.complete) ending = true;
      const complete = () => {
        note(`ARDP: reply complete, ${reply.total} packet${reply.total === 1 ? '' : 's'}, ${reply.octets} octets`);
        finish(null);
      };
      if (ack) {
        // Asked to acknowledge (flag bit 7): received-through in an unsequenced control packet
        // (ardp_xmit.c). At the end, the socket closes only once the acknowledgement is out.
        note(`ARDP: acknowledging through packet ${reply.through}`);
        send(ackPacket(cid, reply.through), reply.complete ? complete : undefined);
      } else if (reply.complete) complete();
    };

    o.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', (e) =>
      finish(new LocatorError(CONNECTION_CLOSED, -1, `the UDP socket failed: ${e.message}`, { cause: e })),
    );
    socket.on('message', (buf, rinfo) => {
      if (done || ending) return;
      if (rinfo.address !== target.address && rinfo.address !== peer.address) return; // not the server
      let p: ArdpPacket;
      try {
        p = decodePacket(buf);
      } catch (e) {
        finish(e as LocatorError);
        return;
      }
      if (p.cid !== cid) return; // another exchange's packet, or a stale one
      try {
        onPacket(p);
      } catch (e) {
        finish(e instanceof LocatorError ? e : new LocatorError(CONNECTION_CLOSED, -1, String(e), { cause: e }));
      }
    });
    socket.bind(0, peer.family === 6 ? '::' : '0.0.0.0', () => {
      if (done) return;
      note(
        `ARDP: request to ${where()}, cid ${cid}, ${parts.length} packet${parts.length === 1 ? '' : 's'}, ${message.length} octets`,
      );
      for (const p of packetsOf(cid, parts, 0)) send(p);
      arm();
    });
  });
}
