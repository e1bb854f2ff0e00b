// What the telnet, rlogin and tn3270 sessions (./telnet/session.ts, ./rlogin/session.ts,
// ./tn3270/session.ts) share: one Connection (socket, AbortSignal, one close path), the `output` stream fed by a read
// loop with back-pressure, the `closed` promise, the byte counters and the transcript. The
// protocol module turns what arrives into what to show (`onData`), and says what to send.

import { LocatorError } from '../core/errors.js';
import type { Url } from '../core/url.js';
import { DEFAULT_POLICY } from '../operations/policy.js';
import { beforeSending } from './hop.js';
import { checkTimeout, Connection, startTimer, type Timer } from './connection.js';
import type { SessionOptions } from './interactive.js';
import { PROTOCOL_ERROR, TIMEOUT, type TranscriptLine } from './types.js';

/** How many chunks of output wait for the reader before the session stops reading the socket. */
const OUTPUT_HIGH_WATER = 16;

/**
 * The transcript of SessionOptions (RFC 1738 3.8 sessions): an array to fill when asked for, and
 * the function that records a line there and/or passes it to the caller's callback.
 */
export function transcriptOf(options: SessionOptions): {
  lines: TranscriptLine[];
  record: ((line: TranscriptLine) => void) | undefined;
} {
  const lines: TranscriptLine[] = [];
  const t = options.transcript;
  if (t === undefined || t === false) return { lines, record: undefined };
  const record = (line: TranscriptLine) => {
    lines.push(line);
    if (typeof t === 'function') t(line);
  };
  return { lines, record };
}

/**
 * Checks the URL against the policy (RFC 1738 6) and connects to its host and port (RFC 1738
 * 3.8: the scheme's default when none is written). Reads never time out (an interactive session
 * may be silent for hours); the handshake sets its own deadline with `deadline()`.
 */
export async function connectUrl(
  url: Url,
  defaultPort: number,
  options: SessionOptions,
  record: ((line: TranscriptLine) => void) | undefined,
  localPort?: number,
): Promise<Connection> {
  const policy = options.policy ?? DEFAULT_POLICY;
  beforeSending(url, policy);
  return Connection.connect(url.host ?? '', url.port ?? defaultPort, {
    signal: options.signal,
    timeout: options.timeout,
    policy,
    onTranscript: record,
    readTimeout: Infinity,
    localPort,
  });
}

/**
 * A bound on a handshake (RFC 1282's NUL, RFC 1576's negotiation): closes the connection with a
 * `timeout` error after `options.timeout` ms (default 30 s) unless cleared first.
 */
export function deadline(conn: Connection, options: SessionOptions, what: string): Timer {
  const ms = checkTimeout(options.timeout);
  return startTimer(ms, () => conn.close(new LocatorError(TIMEOUT, -1, `${what} did not finish within ${ms} ms`)));
}

/**
 * The running part of a session: a read loop over `conn` that passes each chunk to `onData`
 * (which returns what to show, possibly nothing) and enqueues it on `output`. The loop waits
 * while OUTPUT_HIGH_WATER chunks are unread (back-pressure reaches the socket). `closed`
 * resolves when the peer or close() ends the session and rejects with the LocatorError that
 * ended it otherwise (reset, abort, a protocol error thrown by `onData`).
 */
export class SessionCore {
  readonly output: ReadableStream<Uint8Array>;
  readonly closed: Promise<void>;
  bytesOut = 0;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #pulled: (() => void) | null = null;
  #done = false;
  #resolve!: () => void;
  #reject!: (e: unknown) => void;

  constructor(
    readonly conn: Connection,
    readonly onData: (chunk: Uint8Array) => Uint8Array | null,
  ) {
    this.closed = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // A caller that never looks at `closed` must not get an unhandled rejection.
    this.closed.catch(() => {});
    this.output = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.#controller = c;
        },
        pull: () => {
          const p = this.#pulled;
          this.#pulled = null;
          p?.();
        },
        cancel: () => this.close(),
      },
      { highWaterMark: OUTPUT_HIGH_WATER },
    );
  }

  /** Bytes received so far. */
  get bytesIn(): number {
    return this.conn.received;
  }

  /** True once the session ended (the peer, close(), or a failure). */
  get ended(): boolean {
    return this.#done;
  }

  /** Shows `data` first (what arrived with the handshake), then starts the read loop. */
  start(first: Uint8Array | null): void {
    if (first !== null && first.length > 0) this.#controller.enqueue(first);
    void this.#loop();
  }

  async #loop(): Promise<void> {
    try {
      for (;;) {
        if ((this.#controller.desiredSize ?? 1) <= 0) {
          await new Promise<void>((resolve) => (this.#pulled = resolve));
          if (this.#done) return;
        }
        const chunk = await this.conn.read();
        if (chunk === null) break;
        const shown = this.onData(chunk);
        if (shown !== null && shown.length > 0 && !this.#done) this.#controller.enqueue(shown);
      }
      this.#finish(null);
    } catch (e) {
      const err =
        e instanceof LocatorError ? e : new LocatorError(PROTOCOL_ERROR, -1, String((e as Error)?.message ?? e));
      this.conn.close(err);
      this.#finish(err);
    }
  }

  #finish(error: LocatorError | null): void {
    if (this.#done) return;
    this.#done = true;
    this.conn.note('info', `session ended: ${this.bytesIn} octets in, ${this.bytesOut} out`);
    if (error === null) {
      this.conn.close(); // the socket is released when the peer ends the session too
      try {
        this.#controller.close();
      } catch {
        // already closed by cancel()
      }
      this.#resolve();
    } else {
      try {
        this.#controller.error(error);
      } catch {
        // already closed
      }
      this.#reject(error);
    }
  }

  /**
   * Sends bytes; a failure shows up through the read loop (the one close path). What the user
   * types is not put in the transcript (it may be a password): `shown`, when given, is.
   */
  send(data: Uint8Array, shown?: string): void {
    if (this.#done || data.length === 0) return;
    this.bytesOut += data.length;
    if (shown !== undefined) this.conn.note('send', shown);
    // Connection.send: a write the server takes none of for the timeout ends the session (timeout).
    this.conn.send(data);
  }

  /** Shows `data` (e.g. a redraw after a key) in order with what the server sent. */
  show(data: Uint8Array): void {
    if (!this.#done && data.length > 0) this.#controller.enqueue(data);
  }

  /**
   * Ends the session with `error` (a fault the protocol module finds outside the read loop: a
   * cancelled session, a peer that stopped reading): `closed` rejects with it. Idempotent.
   */
  fail(error: LocatorError): void {
    this.conn.close(error);
    this.#finish(error);
    const p = this.#pulled;
    this.#pulled = null;
    p?.();
  }

  /** Ends the session from this side. Idempotent. */
  close(): void {
    this.conn.close();
    this.#finish(null);
    const p = this.#pulled;
    this.#pulled = null;
    p?.();
  }
}
