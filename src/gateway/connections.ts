// The gateway's connections and their limits (RFC 9112 9.5, RFC 9110 15.5.9): idle, header and
// receive times, the most connections at once, and the first request line of a proxy request
// for an opaque URL rewritten to the gateway's own form.

import type { Server } from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startTimer, type Timer } from '../clients/index.js';
import { MAX_TARGET } from './config.js';

export function closeServer(front: NetServer, server: Server, conns: Connections): Promise<void> {
  return new Promise((resolve) => {
    front.close(() => resolve());
    server.close(() => {}); // never listened itself: it only parses the front's connections
    conns.closeAll();
  });
}

export interface Limits {
  /** Milliseconds with no request in progress. */
  idle: number;
  /** Milliseconds from a request's first octet to the end of its headers. */
  headers: number;
  /** Milliseconds from a request's first octet to the end of its body. */
  receive: number;
  /** Connections at once. */
  max: number;
}

/**
 * What a connection is doing: `idle` (no request in progress: none yet, or between two), `head`
 * (a request's headers are arriving), `body` (its body is), `busy` (it is being answered).
 */
type Phase = 'idle' | 'head' | 'body' | 'busy';

export interface Conn {
  sock: Socket;
  phase: Phase;
  /** When the phase began (Date.now()): the connection idle or in its headers longest goes first. */
  since: number;
  /** When the request being received began (its first octet). */
  started: number;
  /**
   * When the next request began (its first octet), when it began while this one was being
   * answered (pipelined, or sent early); 0 when none has.
   */
  nextStarted: number;
  /** Requests of this connection being answered (more than one when pipelined). */
  answering: number;
  timer: Timer | undefined;
}

/** What runs when a connection closes, for each request of it not yet ended (onEnded). */
const ON_CLOSE = new WeakMap<Socket, Set<() => void>>();

/**
 * Calls `fn` once, when the request ends, whichever way it does: its answer finished or closed
 * (cut on an error, a timeout, the client gone), or its connection closed. The connection's close
 * is needed: an answer queued behind another on a pipelining connection gets neither 'finish' nor
 * 'close' when the connection goes (Node aborts the request, not the queued response). One
 * 'close' listener per connection, however many requests are pipelined on it.
 */
export function onEnded(req: IncomingMessage, res: ServerResponse, fn: () => void): void {
  const sock = req.socket;
  let pending = ON_CLOSE.get(sock);
  if (pending === undefined) {
    const set = new Set<() => void>();
    pending = set;
    ON_CLOSE.set(sock, set);
    sock.once('close', () => {
      for (const f of [...set]) f();
    });
  }
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    res.off('finish', end);
    res.off('close', end);
    res.off('error', end);
    pending.delete(end);
    fn();
  };
  res.on('finish', end);
  res.on('close', end);
  res.on('error', end);
  pending.add(end);
  if (sock.destroyed) end();
}

const REQUEST_TIMEOUT_REPLY = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * The gateway's connections and their times (RFC 9112 9.5: a server "SHOULD" close idle
 * connections; RFC 9110 15.5.9: 408 when the client took too long to send its request). A
 * connection is closed after `idle` ms with no request in progress, answered 408 and closed when
 * a request's headers take more than `headers` ms or the whole request more than `receive` ms
 * from its first octet. At most `max` connections: a new one past it closes the connection that
 * has been idle or in its headers longest (a few sockets that send nothing or one octet a second
 * cannot lock other clients out), and is refused only when every connection is being answered
 * (their number per client is bounded by maxPerClient).
 */
export class Connections {
  private readonly all = new Map<Socket, Conn>();
  constructor(private readonly limits: Limits) {}

  /** A new connection, or null when it was refused (every other one is being answered). */
  add(sock: Socket): Conn | null {
    // A socket reset before the HTTP server has it would otherwise throw its 'error'.
    sock.on('error', () => {});
    if (this.all.size >= this.limits.max && !this.closeOldestWaiting()) {
      sock.destroy();
      return null;
    }
    const c: Conn = {
      sock,
      phase: 'idle',
      since: Date.now(),
      started: 0,
      nextStarted: 0,
      answering: 0,
      timer: undefined,
    };
    this.all.set(sock, c);
    sock.on('close', () => {
      c.timer?.clear();
      this.all.delete(sock);
    });
    this.enter(c, 'idle');
    return c;
  }

  /**
   * Octets arrived on the connection, after the HTTP parser has read them: the first of a request
   * starts its clocks. With no request in progress, any octet does. While requests are answered
   * (each received whole), octets past the last complete header block of the chunk begin the
   * next request: its headers time runs from then, and is applied when the answers end (a
   * connection being answered is not cut for it). Octets that end a body and begin the next
   * request in one chunk are not told apart (bodies come with forms only): that next request is
   * timed from the end of the answers, as idle, then from its next octet.
   */
  data(c: Conn, chunk?: Buffer): void {
    if (c.phase === 'idle') {
      c.started = Date.now();
      this.enter(c, 'head');
    } else if (c.phase === 'busy' && c.nextStarted === 0 && chunk !== undefined && beginsRequest(chunk)) {
      c.nextStarted = Date.now();
    }
  }

  /** The HTTP server has a request's headers: its body, if any, is timed; then it is answered. */
  request(req: IncomingMessage, res: ServerResponse): void {
    const c = this.all.get(req.socket);
    if (c === undefined) return;
    c.answering++;
    // Its headers are complete: the octets that began it were those of a next request.
    c.nextStarted = 0;
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.complete) {
      this.enter(c, 'body');
      req.once('end', () => {
        if (c.phase === 'body') this.enter(c, 'busy');
      });
    } else this.enter(c, 'busy');
    onEnded(req, res, () => {
      c.answering--;
      if (c.answering <= 0 && !c.sock.destroyed) {
        c.answering = 0;
        if (c.nextStarted === 0) this.enter(c, 'idle');
        else {
          // A next request began during the answers: its headers time counts from its first octet.
          c.started = c.nextStarted;
          c.nextStarted = 0;
          this.enter(c, 'head');
        }
      }
    });
  }

  private enter(c: Conn, phase: Phase): void {
    c.timer?.clear();
    c.timer = undefined;
    c.phase = phase;
    c.since = Date.now();
    if (phase === 'busy') return;
    const left =
      phase === 'idle'
        ? this.limits.idle
        : Math.min(
            phase === 'head' ? c.started + this.limits.headers - c.since : Infinity,
            c.started + this.limits.receive - c.since,
          );
    // Not setTimeout: past 2^31-1 ms it fires after 1 ms (a limit of 30 days would close every
    // connection at once); startTimer waits in steps.
    c.timer = startTimer(Math.max(0, left), () => this.expire(c));
  }

  private expire(c: Conn): void {
    if (c.phase === 'idle') {
      c.sock.destroy();
      return;
    }
    if (c.phase === 'busy') return;
    // The request took too long to arrive: 408 (RFC 9110 15.5.9), and the connection closed.
    const s = c.sock;
    const kill = setTimeout(() => s.destroy(), 1000);
    kill.unref();
    if (s.writable) s.end(REQUEST_TIMEOUT_REPLY, () => s.destroy());
    else s.destroy();
  }

  /** Closes the connection idle or in its headers longest; false when every one is being answered. */
  private closeOldestWaiting(): boolean {
    let oldest: Conn | null = null;
    for (const c of this.all.values()) {
      if (
        (c.phase === 'idle' || c.phase === 'head') &&
        !c.sock.destroyed &&
        (oldest === null || c.since < oldest.since)
      )
        oldest = c;
    }
    if (oldest === null) return false;
    oldest.timer?.clear();
    this.all.delete(oldest.sock);
    oldest.sock.destroy();
    return true;
  }

  closeAll(): void {
    for (const c of this.all.values()) {
      c.timer?.clear();
      c.sock.destroy();
    }
  }
}

/**
 * Whether a chunk received while every request of its connection had arrived whole begins a
 * request of its own: octets (other than the empty lines a server ignores between requests, RFC
 * 9112 2.2) after its last empty line, the end of the last header block completed in it, or
 * anywhere when it has none.
 */
function beginsRequest(chunk: Buffer): boolean {
  const crlf = chunk.lastIndexOf('\n\r\n');
  const lf = chunk.lastIndexOf('\n\n');
  const end = Math.max(crlf < 0 ? 0 : crlf + 3, lf < 0 ? 0 : lf + 2);
  for (let i = end; i < chunk.length; i++) if (chunk[i] !== 0x0d && chunk[i] !== 0x0a) return true;
  return false;
}

/** The proxy requests whose request line was rewritten (acceptConnection), by connection. */
export const OPAQUE_PROXY_TARGET = new WeakMap<Socket, string>();

/**
 * Hands a connection to the HTTP server, after one look at its first chunk. Why by hand: Node's
 * HTTP parser (llhttp) takes an absolute URI in the request line only in the "scheme://" form and
 * answers a bare 400 to `GET news:comp.lang.misc HTTP/1.0`, which is what a browser configured with
 * `news_proxy` sends (RFC 1945 5.1.2 allows any absoluteURI there; news: and mailto: URLs have no
 * "//", RFC 1738 3.5-3.6). Such a first request line is rewritten to the gateway's own
 * `/?url=<URL>` form, and the connection remembers the URL, so that targetOf() answers it as the
 * proxy request it was (same checks, same rendering). A request line split across packets is left
 * as it is (Node's 400); later requests on the connection are not rewritten.
 */
export function acceptConnection(server: Server, sock: Socket, conns: Connections, c: Conn): void {
  sock.once('data', (chunk: Buffer) => {
    sock.pause();
    conns.data(c);
    const head = chunk.toString('latin1', 0, Math.min(chunk.length, MAX_TARGET + 64));
    const m = /^([A-Z]+) ([A-Za-z][A-Za-z0-9+.-]*:(?!\/\/)[^ \r\n]*) (HTTP\/1\.[01])\r?\n/.exec(head);
    let out = chunk;
    if (m !== null) {
      OPAQUE_PROXY_TARGET.set(sock, m[2]);
      const line = `${m[1]} /?url=${encodeURIComponent(m[2])} ${m[3]}\r\n`;
      out = Buffer.concat([Buffer.from(line, 'latin1'), chunk.subarray(Buffer.byteLength(m[0], 'latin1'))]);
    }
    sock.unshift(out);
    server.emit('connection', sock);
    // Every chunk after the first: the start of a later request on the connection starts its clocks.
    sock.on('data', (d: Buffer) => conns.data(c, d));
    sock.resume();
  });
  sock.resume();
}
