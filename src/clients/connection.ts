// A TCP connection that owns its socket, its timeouts, its AbortSignal and one close path (the
// basic-ftp model): whatever goes wrong - a timeout, an abort, a reset, a protocol error found
// by the caller - ends in close(error), which destroys the socket once and fails every waiting
// read with that error. Reads are pulled, with back-pressure: the socket is paused while
// unread data waits, so memory stays bounded by the queue, not by the object.

import net from 'node:net';
import { createRequire } from 'node:module';
import type tls from 'node:tls';
import { LocatorError } from '../core/errors.js';
import { dial, recycleChunk, type ConnectOptions, type Feed } from './dial.js';
import { checkTimeout, MAX_TIMER, startTimer, type Timer } from './timers.js';
import { ABORTED, CONNECTION_CLOSED, TIMEOUT, type TranscriptLine } from './types.js';

export { checkTimeout, DEFAULT_TIMEOUT, MAX_TIMER, startTimer, type Timer } from './timers.js';
export { recycleChunk, type ConnectOptions } from './dial.js';
export { directChunks, pullStream, type ChunkWriter } from './pull-stream.js';

const HIGH_WATER = 4;
/**
 * Octets per piece of a write (see Connection.write): each piece that goes out restarts the clock,
 * so a small piece lets the clock see progress as soon as the system does.
 */
const WRITE_PIECE = 16 * 1024;

export class Connection {
  readonly socket: net.Socket;
  /** Milliseconds of silence allowed on a read (`readTimeout`, else `timeout`). */
  readonly timeout: number;
  /** Milliseconds a write may wait without any of it going out (`timeout`). */
  readonly writeTimeout: number;
  #queue: Buffer[] = [];
  #ended = false;
  #error: LocatorError | null = null;
  /** True while reading is stopped through onread's back-pressure. */
  #stopped = false;
  #waiter: { resolve: () => void } | null = null;
  #timer: Timer | null = null;
  /** The timer of a read's wait, re-armed for each (see #armSilence). */
  #silence: ReturnType<typeof setTimeout> | null = null;
  /** When the current silence began: the start of a wait, or the last chunk drain() passed on. */
  #lastData = 0;
  /** During drain(): where each chunk goes, synchronously, as it is read. */
  #drainTo: ((chunk: Buffer) => void) | null = null;
  /** Writes by send() not yet completed, and the clock that bounds their wait. */
  #unsent = 0;
  #sendClock: Timer | null = null;
  /** What drain()'s writer threw (an output error), passed on to drain()'s caller as it is. */
  #drainFailure: unknown = null;
  readonly #onAbort: () => void;
  readonly #signal: AbortSignal | undefined;
  readonly #transcript: ((line: TranscriptLine) => void) | undefined;
  /** The peer's address as connected (a socket destroyed before it was read no longer says it). */
  readonly #peer: string | undefined;
  readonly #secrets: string[];
  readonly #options: ConnectOptions;
  /** Bytes received so far. */
  received = 0;

  private constructor(socket: net.Socket, options: ConnectOptions, feed?: Feed) {
    this.socket = socket;
    this.#options = options;
    this.timeout =
      options.readTimeout !== undefined
        ? checkTimeout(options.readTimeout, 'readTimeout')
        : checkTimeout(options.timeout);
    this.writeTimeout = checkTimeout(options.timeout);
    this.#signal = options.signal;
    this.#transcript = options.onTranscript;
    this.#peer = socket.remoteAddress;
    // Longest first: a form that holds a shorter one (a token, the password) is masked whole.
    this.#secrets = (options.secrets ?? []).filter((s) => s !== '').sort((a, b) => b.length - a.length);
    this.#onAbort = () => this.close(new LocatorError(ABORTED, -1, 'the transfer was cancelled'));
    options.signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (feed !== undefined) {
      // Reads arrive through `onread` (see connect()): take what came early, then every chunk.
      for (const c of feed.early) this.#push(c);
      feed.sink = (c) => {
        if (this.#push(c)) return true;
        // Returning false stops the handle's reading (not socket.pause()): read() restarts it.
        this.#stopped = true;
        return false;
      };
    } else {
      socket.on('data', (chunk: Buffer) => {
        if (!this.#push(chunk)) socket.pause();
      });
    }
    socket.on('end', () => {
      this.#ended = true;
      this.#wake();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      this.close(
        new LocatorError(CONNECTION_CLOSED, -1, `the connection failed: ${e.code ?? e.message}`, { cause: e }),
      );
    });
    socket.on('close', () => {
      this.#ended = true;
      this.#wake();
    });
  }

  /**
   * Resolves the host, lets the policy judge the address (RFC 1738 6: for servers that fetch on
   * behalf of others), then connects. Fails with connect-failed, timeout or aborted.
   */
  static async connect(host: string, port: number, options: ConnectOptions = {}): Promise<Connection> {
    const { socket, feed } = await dial(host, port, options);
    return new Connection(socket, options, feed);
  }

  /** Wraps a socket already connected (e.g. the FTP data connection). */
  static wrap(socket: net.Socket, options: ConnectOptions = {}): Connection {
    return new Connection(socket, options);
  }

  /**
   * TLS over this connection's socket, after the protocol's STARTTLS (RFC 3207 4.2, RFC 4642,
   * RFC 4217): the handshake bounded by `timeout`, the AbortSignal and errors wired as connect()
   * wires them; the server's certificate checked against `ca` (else the system's authorities) and
   * `servername` (else `host`). Resolves with the Connection that reads the TLS socket (same
   * options and secrets); this one keeps the plain socket, to be closed with it. A failed
   * handshake closes this connection with the error `failed` makes (timeout and aborted as
   * connect()).
   */
  async startTls(
    peer: { host: string; servername?: string; ca?: string | Uint8Array },
    failed: (e: Error & { code?: string }) => LocatorError,
  ): Promise<Connection> {
    const timeout = this.timeout;
    const signal = this.#signal;
    const socket = await new Promise<tls.TLSSocket>((resolve, reject) => {
      // node:tls (and node:crypto under it, some 30 modules) loaded here, on the first TLS
      // connection: a plain one-shot fetch starts without it (bench/RESULTS.md, cold fetch).
      const { connect } = createRequire(import.meta.url)('node:tls') as typeof tls;
      const s = connect({
        socket: this.socket,
        host: peer.host, // the name (or address) the certificate is checked against, when no servername
        servername: peer.servername,
        ca: peer.ca === undefined ? undefined : Buffer.from(peer.ca),
        rejectUnauthorized: true,
      });
      const done = (e: LocatorError | null) => {
        timer.clear();
        signal?.removeEventListener('abort', onAbort);
        s.off('error', onError);
        s.off('secureConnect', onSecure);
        if (e === null) {
          resolve(s);
          return;
        }
        s.destroy();
        this.close(e);
        reject(e);
      };
      const timer = startTimer(timeout, () =>
        done(new LocatorError(TIMEOUT, -1, `the TLS handshake did not complete within ${timeout} ms`)),
      );
      const onAbort = () => done(new LocatorError(ABORTED, -1, 'the transfer was cancelled'));
      const onError = (e: Error & { code?: string }) => done(failed(e));
      const onSecure = () => done(null);
      signal?.addEventListener('abort', onAbort, { once: true });
      s.once('error', onError);
      s.once('secureConnect', onSecure);
    });
    return Connection.wrap(socket, { ...this.#options, secrets: [...this.#secrets] });
  }

  /** The numeric address of the peer as connected (brackets of an IPv6 one removed), or null when the socket never said it. */
  get peerAddress(): string | null {
    const a = this.#peer ?? this.socket.remoteAddress;
    return a === undefined || a === '' ? null : a.replace(/^\[|\]$/g, '');
  }

  /** Queues a chunk; false when the queue is full and the socket should pause. */
  #push(chunk: Buffer): boolean {
    this.received += chunk.length;
    if (this.#drainTo !== null) {
      this.#deliver(chunk);
      return true;
    }
    this.#queue.push(chunk);
    this.#wake();
    return this.#queue.length < HIGH_WATER;
  }

  #wake(): void {
    const w = this.#waiter;
    this.#waiter = null;
    w?.resolve();
  }

  /**
   * More strings never to show in a transcript, from now on: a password the client learns only
   * once the server asks for it (NNTP AUTHINFO, RFC 4643 2.3).
   */
  addSecrets(more: readonly string[]): void {
    for (const s of more) if (s !== '' && !this.#secrets.includes(s)) this.#secrets.push(s);
    this.#secrets.sort((a, b) => b.length - a.length);
  }

  /** Hides the secrets in a transcript line. */
  redact(text: string): string {
    let t = text;
    for (const s of this.#secrets) t = t.split(s).join('****');
    return t;
  }

  /** Records a transcript line. */
  note(direction: TranscriptLine['direction'], text: string): void {
    this.#transcript?.({ direction, text: this.redact(text) });
  }

  /**
   * Sends bytes; `shown` is the transcript text (default: the bytes as text, line ends cut).
   * Resolves once the socket has handed every octet to the system. A write is cut into pieces of
   * WRITE_PIECE octets (views, no copy), and the clock of `timeout` ms restarts each time a piece
   * goes out: a peer that stops reading (its window full, the system's buffer full) leaves the
   * write waiting, and after `timeout` ms without progress the connection is closed with
   * `timeout`, as for silence on a read. The timeout is the `timeout` option, not `readTimeout`
   * (an interactive session that waits for ever on the user still bounds a stuck write).
   */
  async write(data: string | Uint8Array, shown?: string): Promise<void> {
    if (this.#error) throw this.#error;
    if (this.#transcript) {
      const text = shown ?? (typeof data === 'string' ? data.replace(/\r?\n$/, '') : `<${data.length} octets>`);
      this.note('send', text);
    }
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const limit = this.writeTimeout;
    await new Promise<void>((resolve, reject) => {
      let at = 0; // octets handed to the socket
      let sent = 0; // octets the socket has passed on
      let settled = false;
      const settle = (e: LocatorError | null) => {
        if (settled) return;
        settled = true;
        timer.clear();
        if (e === null) resolve();
        else reject(e);
      };
      const stalled = () => {
        const e = new LocatorError(
          TIMEOUT,
          -1,
          `the server took no more of the data sent for ${limit} ms: it reads too slowly or not at all (${bytes.length - sent} octets not sent)`,
        );
        this.close(e);
        settle(this.#error ?? e);
      };
      let timer = startTimer(limit, stalled);
      // One piece at a time: pieces written together would go out in one writev, whose callbacks
      // all come at its end, and the clock could not see the progress in between.
      const next = () => {
        const piece = bytes.subarray(at, at + WRITE_PIECE);
        at += piece.length;
        this.socket.write(piece, (e) => {
          if (e) {
            settle(this.#error ?? new LocatorError(CONNECTION_CLOSED, -1, `cannot send: ${e.message}`));
            return;
          }
          sent = at;
          if (at >= bytes.length) {
            settle(null);
            return;
          }
          // A piece went out: the peer is reading, and the clock starts again.
          timer.clear();
          timer = startTimer(limit, stalled);
          next();
        });
      };
      next();
    });
  }

  /**
   * Sends bytes without waiting (an interactive session's keys and negotiation), under the same
   * clock as write(): while any of them waits to go out, `timeout` ms without a write completing
   * closes the connection with `timeout`, and a failure reaches the reader through the one close
   * path. `shown`, when given, goes to the transcript.
   */
  send(data: Uint8Array, shown?: string): void {
    if (this.#error !== null || this.socket.destroyed) return;
    if (shown !== undefined) this.note('send', shown);
    this.#unsent++;
    this.#sendClock ??= startTimer(this.writeTimeout, () => this.#sendStalled());
    this.socket.write(data, () => {
      this.#unsent--;
      this.#sendClock?.clear();
      this.#sendClock = this.#unsent > 0 ? startTimer(this.writeTimeout, () => this.#sendStalled()) : null;
    });
  }

  #sendStalled(): void {
    this.#sendClock = null;
    this.close(
      new LocatorError(
        TIMEOUT,
        -1,
        `the server took no more of the data sent for ${this.writeTimeout} ms: it reads too slowly or not at all (${this.socket.writableLength} octets not sent)`,
      ),
    );
  }

  /**
   * The next chunk of data, or null at the end of the stream. Fails with the close error, or
   * with `timeout` after `timeout` ms of silence (which also closes the connection).
   */
  async read(): Promise<Buffer | null> {
    for (;;) {
      if (this.#queue.length > 0) {
        const c = this.#queue.shift()!;
        if (this.#queue.length < HIGH_WATER && (this.#stopped || this.socket.isPaused())) {
          this.#stopped = false;
          this.socket.resume();
        }
        return c;
      }
      if (this.#error) throw this.#error;
      if (this.#ended) return null;
      await this.#wait();
    }
  }

  /** Waits for data, the end or a failure, with the clock of `timeout` ms of silence running. */
  async #wait(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#waiter = { resolve };
      this.#armSilence();
    });
    if (this.#silence !== null) this.#silence.unref();
    else {
      this.#timer?.clear();
      this.#timer = null;
    }
  }

  /**
   * Hands every chunk to `write` as it is read, synchronously, until the peer ends the stream:
   * first what is queued, then each read from within the socket's read callback. `write` must be
   * done with the chunk when it returns (its memory is read into again at once). Resolves at the
   * end of the stream; fails with the connection's error (timeout after `timeout` ms of silence,
   * aborted, reset), or with what `write` threw, as it is (the connection is then closed).
   *
   * The path of `locator fetch` to a file: a chunk costs one call, not a promise and a turn of
   * the event loop, and one read buffer is read into over and over (bench/RESULTS.md).
   */
  async drain(write: (chunk: Buffer) => void): Promise<void> {
    this.#drainTo = write;
    try {
      while (this.#queue.length > 0 && this.#drainFailure === null) this.#deliver(this.#queue.shift()!);
      if (this.#stopped || this.socket.isPaused()) {
        this.#stopped = false;
        this.socket.resume();
      }
      for (;;) {
        if (this.#drainFailure !== null) throw this.#drainFailure;
        if (this.#error) throw this.#error;
        if (this.#ended) return;
        await this.#wait();
      }
    } finally {
      this.#drainTo = null;
    }
  }

  /** One chunk to drain()'s writer; then its buffer goes back to the pool and the clock restarts. */
  #deliver(chunk: Buffer): void {
    try {
      this.#drainTo!(chunk);
    } catch (e) {
      this.#drainFailure = e;
      this.close(new LocatorError(ABORTED, -1, 'the transfer was stopped: the output failed'));
      return;
    }
    recycleChunk(chunk);
    // Data came during a wait that no chunk ends (drain): the silence starts again. Only the time
    // is noted (re-arming a timer per chunk showed in the profile); #silent() reads it.
    this.#lastData = Date.now();
  }

  /**
   * Starts the clock of a read's wait: `timeout` ms of silence close the connection. One Node
   * timer per connection is re-armed (refresh) and left unreferenced between waits, as a timer
   * per wait showed in the profile (bench/RESULTS.md); waits longer than one Node timer can hold
   * (and Infinity) keep the chained startTimer.
   */
  #armSilence(): void {
    this.#lastData = Date.now();
    if (this.timeout > MAX_TIMER) {
      this.#timer = startTimer(this.timeout, () => this.#silent());
      return;
    }
    if (this.#silence === null) this.#silence = setTimeout(() => this.#silent(), this.timeout);
    else this.#silence.refresh();
    this.#silence.ref();
  }

  /** The clock ran out: a timeout, unless data came meanwhile (drain), and the silence is shorter. */
  #silent(): void {
    if (this.#waiter === null) return;
    const quiet = Date.now() - this.#lastData;
    if (quiet < this.timeout) {
      const left = this.timeout - quiet;
      if (this.#silence !== null) {
        clearTimeout(this.#silence);
        this.#silence = setTimeout(() => this.#silent(), left);
      } else this.#timer = startTimer(left, () => this.#silent());
      return;
    }
    this.close(new LocatorError(TIMEOUT, -1, `the server sent nothing for ${this.timeout} ms`));
  }

  /** Puts back data read too far (a parser's rest), as a view (no copy). */
  unread(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#queue.unshift(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
  }

  /** True once close() ran or the peer ended the stream and all data was read. */
  get done(): boolean {
    return this.#error !== null || (this.#ended && this.#queue.length === 0);
  }

  /**
   * The one close path: with an error, every waiting and later read fails with it; without one,
   * the connection ends normally. Idempotent.
   */
  close(error?: LocatorError): void {
    if (error && this.#error === null) this.#error = error;
    if (error) this.#queue = []; // what was not read yet is not handed out after a failure
    this.#ended = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#timer?.clear();
    this.#timer = null;
    this.#sendClock?.clear();
    this.#sendClock = null;
    if (this.#silence !== null) clearTimeout(this.#silence);
    this.#silence = null;
    if (!this.socket.destroyed) this.socket.destroy();
    this.#wake();
  }

  /** Ends the write side politely (the server then closes) and then the socket. */
  end(): void {
    this.#signal?.removeEventListener('abort', this.#onAbort);
    if (!this.socket.destroyed) this.socket.end();
  }
}

/** `{ ip }` for a Resource's meta (WARC 1.1 5.12: the address contacted), when the connection knows its peer. */
export function ipOf(conn: Connection): { ip?: string } {
  const ip = conn.peerAddress;
  return ip === null ? {} : { ip };
}
