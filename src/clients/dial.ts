// Opening a TCP connection (RFC 1738 3, RFC 1738 6): the address resolved and judged by the policy,
// the socket's reads going into pooled buffers handed over whole.

import net from 'node:net';
import { lookup } from 'node:dns/promises';
import { LocatorError } from '../core/errors.js';
import type { Policy } from '../operations/policy.js';
import { beforeConnecting } from './hop.js';
import { checkTimeout, startTimer } from './timers.js';
import { ABORTED, CONNECT_FAILED, TIMEOUT, type TranscriptLine } from './types.js';

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

/** Reads that came before the Connection took the socket, and where later ones go (see Connection). */
export interface Feed {
  early: Buffer[];
  sink: ((c: Buffer) => boolean) | null;
}

/** The error of a host name that does not resolve (RFC 1738 3.1: a host is a name or an address). */
export function cannotResolve(host: string, e: unknown): LocatorError {
  return new LocatorError(
    CONNECT_FAILED,
    -1,
    `cannot resolve the host ${JSON.stringify(host)}: ${(e as NodeJS.ErrnoException).code ?? e}`,
    { cause: e },
  );
}

/**
 * Resolves the host, lets the policy judge the address (RFC 1738 6: for servers that fetch on
 * behalf of others), then connects: the socket and its feed, for Connection.connect. Fails with
 * connect-failed, timeout or aborted.
 */
export async function dial(
  host: string,
  port: number,
  options: ConnectOptions,
): Promise<{ socket: net.Socket; feed: Feed }> {
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
    throw cannotResolve(host, e);
  }
  beforeConnecting(address, family, options.policy);
  options.onTranscript?.({ direction: 'info', text: `connect ${family === 6 ? `[${address}]` : address}:${port}` });
  // Reads go into 256 KiB buffers handed over whole (no copy; see nextReadBuffer). Returning
  // false pauses reading until the queue drains (back-pressure).
  const feed: Feed = { early: [], sink: null };
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
  return { socket, feed };
}
