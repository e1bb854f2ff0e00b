// A TCP connection that owns its socket, its timeouts, its AbortSignal and one close path (the
// basic-ftp model): whatever goes wrong - a timeout, an abort, a reset, a protocol error found
// by the caller - ends in close(error), which destroys the socket once and fails every waiting
// read with that error. Reads are pulled, with back-pressure: the socket is paused while
// unread data waits, so memory stays bounded by the queue, not by the object.

import net from 'node:net';
import tls from 'node:tls';
import { lookup } from 'node:dns/promises';
import { LocatorError } from '../core/errors.js';
import { assertAddressAllowed, DEFAULT_POLICY, type Policy } from '../policy.js';
import { ABORTED, CONNECT_FAILED, CONNECTION_CLOSED, TIMEOUT, type TranscriptLine } from './types.js';

export const DEFAULT_TIMEOUT = 30_000;

/** The longest delay one Node timer can hold (2^31-1 ms, about 24.8 days); longer ones are chained. */
export const MAX_TIMER = 2 ** 31 - 1;

/**
 * The `timeout` option, validated once for every client (RFC 1738 3: the clients' own limit, the
 * spec sets none): a positive number of milliseconds, `Infinity` for no limit, undefined for the
 * default (30 s). Anything else is API misuse: a TypeError for a non-number, a RangeError for 0,
 * a negative number or NaN, naming the option. Values above 2^31-1 ms work (chained timers).
 */
export function checkTimeout(value: unknown, name = 'timeout'): number {
  if (value === undefined) return DEFAULT_TIMEOUT;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number of milliseconds, not ${typeof value}`);
  if (!(value > 0)) {
    throw new RangeError(
      `${name} must be a positive number of milliseconds (or Infinity for no limit), not ${String(value)}`,
    );
  }
  return value;
}

/** A timer that can run for any positive delay: chained past MAX_TIMER, never for Infinity. */
export interface Timer {
  clear(): void;
}

/** Runs `fn` once after `ms` milliseconds (any positive number; Infinity: never). */
export function startTimer(ms: number, fn: () => void): Timer {
  let handle: ReturnType<typeof setTimeout> | null = null;
  let left = ms;
  const arm = () => {
    if (!Number.isFinite(left)) return;
    const step = Math.min(left, MAX_TIMER);
    left -= step;
    handle = setTimeout(() => {
      handle = null;
      if (left > 0) arm();
      else fn();
    }, step);
  };
  arm();
  return {
    clear() {
      if (handle !== null) clearTimeout(handle);
      handle = null;
      left = 0;
    },
  };
}
const HIGH_WATER = 4;
/**
 * Octets per piece of a write (see Connection.write): each piece that goes out restarts the clock,
 * so a small piece lets the clock see progress as soon as the system does.
 */
const WRITE_PIECE = 16 * 1024;
const READ_SIZE = 256 * 1024;
/** How many returned read buffers are kept for reuse; more are left to the collector. */
const POOL_MAX = 4;

// Read buffers: each socket read goes into a READ_SIZE buffer handed to the reader whole (no
// copy); a reader done with a chunk may give it back (recycleChunk) so that memory stays flat
// whatever the object's size (figures: bench/RESULTS.md, "History moved from comments"). A chunk
// nobody gives back is collected like any other buffer.
const pool: ArrayBuffer[] = [];
/** The one chunk object each buffer was handed out as: only that object can give it back. */
const issued = new WeakMap<ArrayBufferLike, Uint8Array>();

function nextReadBuffer(): Buffer {
  const reused = pool.pop();
  // allocUnsafeSlow: no zero fill, and never a window of Node's shared pool; the reader only
  // ever sees the octets a read wrote (the chunk is a view of its first n octets).
  return reused !== undefined ? Buffer.from(reused, 0, READ_SIZE) : Buffer.allocUnsafeSlow(READ_SIZE);
}

/**
 * Gives back a chunk read from a Connection once its reader is done with it (written out, and
 * no view of it kept): its memory is reused by a later read, of any connection. Only the exact
 * chunk object a read handed out counts (a piece cut from it, or a copy, is ignored), and only
 * once, so a chunk that a client split or kept part of cannot be reused under it. The caller
 * must not touch the chunk afterwards. Internal (not exported by `locator/clients`).
 */
export function recycleChunk(chunk: Uint8Array): void {
  const buffer = chunk.buffer;
  if (issued.get(buffer) !== chunk) return;
  issued.delete(buffer);
  if (pool.length < POOL_MAX && buffer instanceof ArrayBuffer) pool.push(buffer);
}

export interface ConnectOptions {
  signal?: AbortSignal;
  timeout?: number;
  policy?: Policy;
  /** Called with each transcript line (already redacted). */
  onTranscript?: (line: TranscriptLine) => void;
  /** Strings never to show in a transcript (a password), replaced by ****. */
  secrets?: string[];
  /** The local port to connect from (rlogin's reserved port, RFC 1282); default: any. */
  localPort?: number;
  /**
   * Milliseconds of silence allowed on a read, when it differs from `timeout` (which then bounds
   * the connect only): an interactive session (./telnet/session.ts) passes Infinity.
   */
  readTimeout?: number;
}

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
  readonly #secrets: string[];
  readonly #options: ConnectOptions;
  /** Bytes received so far. */
  received = 0;

  private constructor(
    socket: net.Socket,
    options: ConnectOptions,
    feed?: { early: Buffer[]; sink: ((c: Buffer) => boolean) | null },
  ) {
    this.socket = socket;
    this.#options = options;
    this.timeout =
      options.readTimeout !== undefined
        ? checkTimeout(options.readTimeout, 'readTimeout')
        : checkTimeout(options.timeout);
    this.writeTimeout = checkTimeout(options.timeout);
    this.#signal = options.signal;
    this.#transcript = options.onTranscript;
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
    const timeout = checkTimeout(options.timeout);
    if (options.signal?.aborted) throw new LocatorError(ABORTED, -1, 'the transfer was cancelled');
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    let address: string;
    let family: 4 | 6;
    try {
      const r = await lookup(bare);
      address = r.address;
      family = r.family === 6 ? 6 : 4;
    } catch (e) {
      throw new LocatorError(
        CONNECT_FAILED,
        -1,
        `cannot resolve the host ${JSON.stringify(host)}: ${(e as NodeJS.ErrnoException).code ?? e}`,
        { cause: e },
      );
    }
    assertAddressAllowed(address, family, options.policy ?? DEFAULT_POLICY);
    options.onTranscript?.({ direction: 'info', text: `connect ${family === 6 ? `[${address}]` : address}:${port}` });
    // Reads go into 256 KiB buffers handed over whole (no copy; see nextReadBuffer). Returning
    // false pauses reading until the queue drains (back-pressure).
    const feed: { early: Buffer[]; sink: ((c: Buffer) => boolean) | null } = { early: [], sink: null };
    let current: Buffer = nextReadBuffer();
    const socket = net.connect({
      host: address,
      port,
      family,
      ...(options.localPort !== undefined ? { localPort: options.localPort } : {}),
      onread: {
        buffer: () => current,
        callback: (n: number, buf: Uint8Array) => {
          const chunk = Buffer.from(buf.buffer, buf.byteOffset, n);
          issued.set(buf.buffer, chunk);
          let more = true;
          if (feed.sink !== null) more = feed.sink(chunk);
          else feed.early.push(chunk);
          // After the sink: a chunk drain() wrote out is back in the pool, and read into again.
          current = nextReadBuffer();
          return more;
        },
      },
    });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      const fail = (err: LocatorError) => {
        cleanup();
        socket.destroy();
        reject(err);
      };
      const timer = startTimer(timeout, () =>
        fail(new LocatorError(TIMEOUT, -1, `no connection to ${host}:${port} within ${timeout} ms`)),
      );
      const onAbort = () => fail(new LocatorError(ABORTED, -1, 'the transfer was cancelled'));
      const onError = (e: NodeJS.ErrnoException) =>
        fail(
          new LocatorError(CONNECT_FAILED, -1, `cannot connect to ${host}:${port}: ${e.code ?? e.message}`, {
            cause: e,
          }),
        );
      const onConnect = () => {
        cleanup();
        resolve();
      };
      const cleanup = () => {
        timer.clear();
        options.signal?.removeEventListener('abort', onAbort);
        socket.off('error', onError);
        socket.off('connect', onConnect);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('error', onError);
      socket.once('connect', onConnect);
    });
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
      const s = tls.connect({
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

/** Where a stream made by pullStream keeps its chunk source (see directChunks). */
const DIRECT = Symbol('locator.pullStream.direct');

/** Writes a chunk out synchronously; done with it on return (see Connection.drain). */
export type ChunkWriter = (chunk: Uint8Array) => void;

interface DirectSource {
  next: () => Promise<Uint8Array | null>;
  cancel: (reason?: unknown) => void;
  /**
   * When the client offers it: the rest of the object through `write`, synchronously chunk by
   * chunk (Connection.drain), the byte limit applied; resolves at the end of the object. Only
   * for a reader that has not called `next()`.
   */
  pipe: ((write: ChunkWriter) => Promise<void>) | null;
}

/**
 * A ReadableStream over chunks pulled from `next()` (null at the end), with a byte limit and a
 * cancel that closes the source. The stream is the only buffer: nothing is read ahead
 * (highWaterMark 0: `next()` runs when the consumer reads, so directChunks() can take over a
 * stream nobody has read).
 */
export function pullStream(
  next: () => Promise<Uint8Array | null>,
  onCancel: (reason?: unknown) => void,
  options: {
    maxBytes?: number;
    onProgress?: (bytes: number) => void;
    tooLarge?: () => LocatorError;
    /** The same octets as `next()` gives, all of them through `write` (see DirectSource.pipe). */
    pipe?: (write: ChunkWriter) => Promise<void>;
  } = {},
): ReadableStream<Uint8Array> {
  let total = 0;
  /** The next chunk with the limit applied; on any failure the source is closed first. */
  const step = async (): Promise<Uint8Array | null> => {
    try {
      const chunk = await next();
      if (chunk === null) return null;
      total += chunk.length;
      if (options.maxBytes !== undefined && total > options.maxBytes) {
        throw options.tooLarge?.() ?? new Error('too large');
      }
      options.onProgress?.(total);
      return chunk;
    } catch (e) {
      onCancel(e);
      throw e;
    }
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk;
        try {
          chunk = await step();
        } catch (e) {
          controller.error(e);
          return;
        }
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      },
      cancel(reason) {
        onCancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const pipe = options.pipe;
  const direct: DirectSource = {
    next: step,
    cancel: onCancel,
    pipe:
      pipe === undefined
        ? null
        : async (write) => {
            try {
              await pipe((chunk) => {
                total += chunk.length;
                if (options.maxBytes !== undefined && total > options.maxBytes) {
                  throw options.tooLarge?.() ?? new Error('too large');
                }
                options.onProgress?.(total);
                write(chunk);
              });
            } catch (e) {
              onCancel(e);
              throw e;
            }
          },
  };
  (stream as unknown as Record<symbol, DirectSource>)[DIRECT] = direct;
  return stream;
}

/**
 * The chunk source behind a stream made by pullStream, for a reader in this package that wants
 * no web-stream machinery per chunk (`locator fetch`), or null for any other stream. The stream
 * is locked, so that nobody else reads it; the caller reads with `next()` (null at the end, the
 * byte limit applied, the source closed on a failure) and calls `cancel()` if it stops early.
 * A ReadableStream costs several promises and queue operations per chunk, which showed in the
 * profile of `locator fetch` (bench/RESULTS.md).
 */
export function directChunks(body: ReadableStream<Uint8Array>): DirectSource | null {
  const source = (body as unknown as Record<symbol, DirectSource | undefined>)[DIRECT];
  if (source === undefined || body.locked) return null;
  body.getReader();
  return source;
}
