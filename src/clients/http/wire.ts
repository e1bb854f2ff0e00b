// A plain-http GET on a socket of its own (RFC 1738 3.3; RFC 9112, HTTP/1.1): the request written
// in one piece, the response read by the parser below, kept-alive connections reused per server.
// open() takes this path for an http URL fetched directly (not https, not through a gateway);
// probes (HEAD), https and gateways go through Node's http module (client.ts).
//
// Written by hand, not taken from Node's http module or undici, for two reasons measured on a
// crawl: an archive keeps every exchange as the octets that crossed the connection (WARC 1.1
// 6.3-6.4), which here are simply the chunks read, where Node's client needs its socket's
// writes wrapped and its reads tapped; and Node's client costs 0.17-0.26 ms of CPU a request
// (agent, ClientRequest, IncomingMessage, two stream layers), this one about a third of that
// (bench/RESULTS.md, "The archive", fifth session). The parser is as strict as Node's (llhttp's
// defaults): a header section over 16 KiB, a line not ended by CR LF, a folded header line, a
// control character in a value, Content-Length not 1*DIGIT or given twice, Transfer-Encoding
// with Content-Length, a chunk size that is not hex: each is a protocol error, never a guess.

import net, { type LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import { LocatorError } from '../../core/errors.js';
import { DEFAULT_POLICY, type Policy } from '../../operations/policy.js';
import { beforeConnecting } from '../hop.js';
import { ABORTED, CONNECT_FAILED, CONNECTION_CLOSED, PROTOCOL_ERROR, TIMEOUT, type HttpExchange } from '../types.js';

/** Node's limit on a response's header section (--max-http-header-size, 16 KiB): the same here. */
export const MAX_HEAD = 16 * 1024;
/** A chunk-size line (with its extensions) or a trailer section longer than this is refused. */
const MAX_CHUNK_LINE = 4 * 1024;
/** How long a kept-alive connection waits in the pool for the next request (Node's agent: 5 s). */
const IDLE_MS = 5_000;
/** At most this many idle connections are kept per server. */
const IDLE_PER_SERVER = 4;
/** Body octets read ahead of the reader before the socket is paused. */
const READ_AHEAD = 256 * 1024;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STATUS_LINE = /^HTTP\/(1\.[01]) ([0-9]{3})(?: ([^\x00-\x08\x0a-\x1f\x7f]*))?$/;

/** The head of a response (RFC 9112 4, 5): status line and header fields, names in lower case. */
export interface ResponseHead {
  version: string;
  status: number;
  message: string;
  /** Each field's values in order (a name given twice has two). */
  fields: Map<string, string[]>;
  /** The octets of the head, status line to the blank line. */
  length: number;
}

/** The error of a reply that is not HTTP/1.x, in the words client.ts uses for Node's parser's. */
function notHttp(where: string, why: string): LocatorError {
  return new LocatorError(PROTOCOL_ERROR, -1, `the reply of ${where} is not HTTP (${why})`);
}

/**
 * Reads a response head from `buf` (RFC 9112 2.1, 4, 5): null when its blank line has not come yet
 * (and `buf` is within MAX_HEAD); a LocatorError for anything that is not an HTTP/1.x head.
 * `from`: how many octets of `buf` an earlier call already searched (a head read chunk by chunk
 * is searched once, not again from its start at each chunk).
 */
export function parseHead(buf: Buffer, where: string, from = 0): ResponseHead | null {
  const end = buf.indexOf('\r\n\r\n', Math.max(0, from - 3));
  if (end < 0 || end + 4 > MAX_HEAD) {
    if (end >= 0 || buf.length > MAX_HEAD)
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the HTTP reply of ${where} has a header section over Node's limit of 16 KiB (HPE_HEADER_OVERFLOW)`,
      );
    // Not HTTP at all is said as soon as the first octets show it, without waiting for a blank line.
    const probe = buf.toString('latin1', 0, Math.min(buf.length, 5));
    if (!'HTTP/'.startsWith(probe)) throw notHttp(where, 'no HTTP status line');
    // A line ended by LF alone is refused at once, as llhttp does (HPE_CR_EXPECTED), not waited on.
    for (let lf = buf.indexOf(0x0a, from); lf >= 0; lf = buf.indexOf(0x0a, lf + 1))
      if (lf === 0 || buf[lf - 1] !== 0x0d) throw notHttp(where, 'a line not ended by CR LF');
    return null;
  }
  const lines = buf.toString('latin1', 0, end).split('\r\n');
  const m = STATUS_LINE.exec(lines[0]!);
  if (m === null) throw notHttp(where, `a status line ${JSON.stringify(lines[0]!.slice(0, 80))}`);
  const fields = new Map<string, string[]>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!TOKEN.test(name)) throw notHttp(where, `a header line ${JSON.stringify(line.slice(0, 80))}`);
    let value = line.slice(colon + 1);
    // A value is field-content: visible characters, SP, HTAB and obs-text; no CR, LF or NUL.
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) throw notHttp(where, `a control character in the field ${name}`);
    value = value.replace(/^[ \t]+|[ \t]+$/g, '');
    const key = name.toLowerCase();
    const list = fields.get(key);
    if (list === undefined) fields.set(key, [value]);
    else list.push(value);
  }
  return { version: m[1]!, status: Number(m[2]), message: m[3] ?? '', fields, length: end + 4 };
}

/** How the body of a response is delimited (RFC 9112 6.3). */
export type Framing = { kind: 'none' } | { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' };

/** The framing of the response to a GET (RFC 9112 6.3), or a protocol error for a conflicting head. */
export function framingOf(head: ResponseHead, where: string): Framing {
  if (head.status === 204 || head.status === 304) return { kind: 'none' };
  const te = head.fields.get('transfer-encoding');
  const cl = head.fields.get('content-length');
  if (te !== undefined) {
    if (cl !== undefined) throw notHttp(where, 'both Transfer-Encoding and Content-Length');
    const codings = te
      .join(',')
      .split(',')
      .map((c) => c.trim().toLowerCase());
    return codings.at(-1) === 'chunked' ? { kind: 'chunked' } : { kind: 'close' };
  }
  if (cl !== undefined) {
    // 1*DIGIT within 64 bits, as llhttp takes it; past 2^53 the count is not exact, and such a
    // body ends as a connection closed before its length anyway.
    if (cl.length > 1 || !/^[0-9]{1,20}$/.test(cl[0]!) || BigInt(cl[0]!) > 0xffffffffffffffffn)
      throw notHttp(where, `Content-Length ${JSON.stringify(cl.join(', '))}`);
    return { kind: 'length', length: Number(cl[0]) };
  }
  return { kind: 'close' };
}

/**
 * The chunked transfer coding undone (RFC 9112 7.1): octets in, the body's octets out, `done`
 * once the last chunk and the trailer section have been read; what follows them is `rest`.
 */
export class ChunkedDecoder {
  #state: 'size' | 'data' | 'data-crlf' | 'trailer' | 'done' = 'size';
  #left = 0;
  #line = '';
  rest: Buffer | null = null;

  get done(): boolean {
    return this.#state === 'done';
  }

  /** The body octets in `chunk` (views of it); throws a LocatorError on a malformed coding. */
  feed(chunk: Buffer, where: string): Buffer[] {
    const out: Buffer[] = [];
    let i = 0;
    while (i < chunk.length && this.#state !== 'done') {
      if (this.#state === 'data') {
        const n = Math.min(this.#left, chunk.length - i);
        out.push(chunk.subarray(i, i + n));
        i += n;
        this.#left -= n;
        if (this.#left === 0) this.#state = 'data-crlf';
        continue;
      }
      const lf = chunk.indexOf(0x0a, i);
      const piece = chunk.toString('latin1', i, lf < 0 ? chunk.length : lf + 1);
      this.#line += piece;
      i = lf < 0 ? chunk.length : lf + 1;
      if (this.#line.length > MAX_CHUNK_LINE) throw notHttp(where, 'a chunk-size or trailer line over 4 KiB');
      if (lf < 0) break;
      const line = this.#line;
      this.#line = '';
      if (!line.endsWith('\r\n')) throw notHttp(where, 'a chunked line not ended by CR LF');
      const text = line.slice(0, -2);
      if (this.#state === 'data-crlf') {
        if (text !== '') throw notHttp(where, 'a chunk longer than its size');
        this.#state = 'size';
      } else if (this.#state === 'size') {
        // 1*HEXDIG, then at once ";" and an extension or nothing: no white space, as llhttp
        // takes it (white space in a chunk size is a known way to smuggle a response).
        const m = /^0*([0-9A-Fa-f]{1,13})(?:;.*)?$/.exec(text);
        if (m === null || /[\x00-\x08\x0a-\x1f\x7f]/.test(text) || parseInt(m[1]!, 16) > Number.MAX_SAFE_INTEGER)
          throw notHttp(where, `a chunk size ${JSON.stringify(text.slice(0, 40))}`);
        this.#left = parseInt(m[1]!, 16);
        this.#state = this.#left === 0 ? 'trailer' : 'data';
      } else if (text === '') {
        this.#state = 'done';
      } else {
        // A trailer field (RFC 9112 7.1.2): kept in the octets, not used.
        if (!TOKEN.test(text.slice(0, Math.max(0, text.indexOf(':')))))
          throw notHttp(where, `a trailer line ${JSON.stringify(text.slice(0, 80))}`);
        this.#trailer += text.length;
        if (this.#trailer > MAX_HEAD) throw notHttp(where, 'a trailer section over 16 KiB');
      }
    }
    if (this.#state === 'done' && i < chunk.length) this.rest = chunk.subarray(i);
    return out;
  }

  #trailer = 0;
}

interface Idle {
  socket: net.Socket;
  timer: ReturnType<typeof setTimeout>;
  /** Ends the connection's stay in the pool (a close, an error, an octet, its time): listened for. */
  forget: () => void;
}

/** Kept-alive connections by pool key (poolKey()), the most recently used last. */
const IDLE = new Map<string, Idle[]>();

function unlisten(idle: Idle): void {
  clearTimeout(idle.timer);
  idle.socket.off('close', idle.forget);
  idle.socket.off('end', idle.forget);
  idle.socket.off('error', idle.forget);
  idle.socket.off('data', idle.forget);
}

function takeIdle(key: string): net.Socket | null {
  const list = IDLE.get(key);
  while (list !== undefined && list.length > 0) {
    const idle = list.pop()!;
    unlisten(idle);
    if (list.length === 0) IDLE.delete(key);
    if (!idle.socket.destroyed && idle.socket.readyState === 'open' && idle.socket.readableLength === 0)
      return idle.socket;
    idle.socket.destroy();
  }
  return null;
}

/**
 * Keeps a connection whose response was read whole for the next request to its server. Only a
 * connection with nothing unread: an octet that comes while it waits (a server's late answer,
 * a 408) ends it, as does a close, a reset or IDLE_MS of waiting.
 */
function putIdle(key: string, socket: net.Socket): void {
  let list = IDLE.get(key);
  if (list !== undefined && list.length >= IDLE_PER_SERVER) {
    socket.destroy();
    return;
  }
  if (list === undefined) IDLE.set(key, (list = []));
  socket.setTimeout(0);
  socket.unref();
  const idle: Idle = {
    socket,
    timer: setTimeout(() => idle.forget(), IDLE_MS),
    forget: () => {
      unlisten(idle);
      const l = IDLE.get(key);
      const at = l?.indexOf(idle) ?? -1;
      if (at >= 0) l!.splice(at, 1);
      if (l !== undefined && l.length === 0) IDLE.delete(key);
      socket.destroy();
    },
  };
  idle.timer.unref();
  socket.on('close', idle.forget);
  socket.on('end', idle.forget);
  socket.on('error', idle.forget);
  socket.on('data', idle.forget);
  list.push(idle);
  // Reading on while it waits (a socket paused by its body's read-ahead bound would keep what
  // the server sends for the next request to find).
  socket.resume();
}

/**
 * Resolves, judges the address by the policy (RFC 1738 6), connects. Not dial() (../dial.ts):
 * its reads go into 256 KiB buffers handed over whole, and an archive keeps the chunks of each
 * exchange until they are written, so a small response would hold a 256 KiB buffer; here each
 * read is a buffer of its own size, as Node's client gives. The errors are the http client's.
 */
async function connect(
  host: string,
  port: number,
  policy: Policy,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<net.Socket> {
  const where = `${host}:${port}`;
  if (signal?.aborted) throw new LocatorError(ABORTED, -1, 'the transfer was cancelled');
  // The lookup inside the socket's connect, so that the timeout and the signal bound it too; the
  // address it gives is judged by the policy before the connection is tried.
  const socket = net.connect({ host, port, lookup: lookupWith(policy), autoSelectFamily: false });
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    const done = (e: LocatorError | null) => {
      socket.setTimeout(0);
      socket.off('error', onError);
      socket.off('connect', onConnect);
      socket.off('timeout', onTimeout);
      signal?.removeEventListener('abort', onAbort);
      if (e === null) return resolve();
      socket.destroy();
      reject(e);
    };
    const onError = (e: NodeJS.ErrnoException) =>
      done(
        e instanceof LocatorError
          ? e
          : new LocatorError(CONNECT_FAILED, -1, `cannot retrieve over HTTP from ${where}: ${e.code ?? e.message}`, {
              cause: e,
            }),
      );
    const onConnect = () => done(null);
    const onTimeout = () => done(new LocatorError(TIMEOUT, -1, `no answer from ${where} within ${timeout} ms`));
    const onAbort = () => done(new LocatorError(ABORTED, -1, 'the transfer was cancelled'));
    socket.once('error', onError);
    socket.once('connect', onConnect);
    if (timeout > 0) {
      socket.setTimeout(timeout);
      socket.once('timeout', onTimeout);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  return socket;
}

/**
 * A lookup for net.connect (and Node's http.request) that lets the policy judge the address it
 * found before any connection is tried (RFC 1738 6): a refused one fails the connect with the
 * policy's LocatorError.
 */
export function lookupWith(policy: Policy): LookupFunction {
  return (hostname, options, callback) => {
    const answer = callback as (e: Error | null, a: string, f: number) => void;
    dnsLookup(hostname, { ...options, all: false }, (err, address, family) => {
      if (err) return answer(err, '', 0);
      try {
        beforeConnecting(address as string, family === 6 ? 6 : 4, policy);
      } catch (e) {
        return answer(e as Error, '', 0);
      }
      answer(null, address as string, family as number);
    });
  };
}

/** A response whose head has been read; its body is pulled with next(). */
export interface WireResponse {
  head: ResponseHead;
  framing: Framing;
  /** The body's next octets, null at its end; rejects with a LocatorError. */
  next(): Promise<Uint8Array | null>;
  /** Stops reading: the connection is closed unless the body had already been read whole. */
  cancel(): void;
  /** The octets received so far, body included (the body's octets as read). */
  received: number;
}

export interface WireRequest {
  host: string;
  port: number;
  /** The request's octets: request line and header section (RFC 9112 3). */
  request: Buffer;
  policy?: Policy;
  /** Milliseconds of silence allowed (0: none), on connect and on each read. */
  timeout: number;
  signal?: AbortSignal;
  /** Told of the exchange as it goes (WARC capture): the request once written, each chunk read. */
  exchange?: HttpExchange;
  /** Settles the exchange's `ended`: true once the response is read whole, false when it stops. */
  settle?: (whole: boolean) => void;
  onConnect?: (reused: boolean) => void;
}

/**
 * Sends a GET and reads the response's head (RFC 9112): on a kept-alive connection to the same
 * server when one is idle (tried again once on a new connection when the server had closed it
 * before answering), else on a new one. The body is read with the response's next().
 */
export async function wireGet(req: WireRequest): Promise<WireResponse> {
  if (req.signal?.aborted) throw new LocatorError(ABORTED, -1, 'the transfer was cancelled');
  const policy = req.policy ?? DEFAULT_POLICY;
  const key = poolKey(req.host, req.port, policy);
  const reused = takeIdle(key);
  if (reused !== null) {
    try {
      return await exchange(reused, req, key, true);
    } catch (e) {
      // A kept-alive connection the server closed before a single octet of the answer (its
      // keep-alive time ran out as the request went): the GET is sent again, once, on a new one.
      if (!(e instanceof StaleConnection)) throw e;
    }
  }
  const socket = await connect(req.host, req.port, policy, req.timeout, req.signal);
  return exchange(socket, req, key, false);
}

/**
 * The pool's key: the server, and whether the policy that judged its address refuses private
 * ones (RFC 1738 6; the one rule of the policy about addresses): a connection made where private
 * addresses were allowed is never reused by a request that refuses them.
 */
function poolKey(host: string, port: number, policy: Policy): string {
  return `${host}:${port}${policy.refusePrivateAddresses === true ? ' public' : ''}`;
}

class StaleConnection extends Error {}

function exchange(socket: net.Socket, req: WireRequest, key: string, reused: boolean): Promise<WireResponse> {
  const where = `${req.host}:${req.port}`;
  const ex = req.exchange;
  if (ex !== undefined) {
    // A GET sent again after a stale connection starts its exchange afresh.
    ex.ip = socket.remoteAddress?.replace(/^\[|\]$/g, '') ?? null;
    ex.date = new Date();
    ex.sent.length = 0;
    ex.received.length = 0;
  }
  socket.ref();
  return new Promise<WireResponse>((resolveHead, rejectHead) => {
    let head: ResponseHead | null = null;
    let headBuf: Buffer = Buffer.alloc(0);
    let framing: Framing = { kind: 'close' };
    let left = 0;
    let chunked: ChunkedDecoder | null = null;
    const queue: Uint8Array[] = [];
    let queued = 0;
    let ended = false;
    let failure: LocatorError | null = null;
    let waiter: (() => void) | null = null;
    let received = 0;
    let gotAny = false;
    let settled = false;
    let finished = false;
    /** The body's octets so far (decoded), for the message of a cut body. */
    let bodyOctets = 0;
    const settleEnded = (whole: boolean) => req.settle?.(whole);

    const wake = () => {
      const w = waiter;
      waiter = null;
      w?.();
    };
    /** The one close path: every failure ends here, the socket destroyed once. */
    const fail = (e: LocatorError | StaleConnection) => {
      if (finished) return;
      finished = true;
      cleanup();
      socket.destroy();
      // A stale connection's GET goes again: the exchange is not over.
      if (!(e instanceof StaleConnection)) settleEnded(false);
      if (!settled) {
        settled = true;
        rejectHead(e);
        return;
      }
      failure = e as LocatorError;
      wake();
    };
    /** Octets at the end of the chunk being read that are past the response's end. */
    let extra = 0;
    /** The response read whole: the connection goes back to the pool when it may. */
    const complete = (past: number) => {
      if (finished) return;
      extra = past;
      finished = true;
      ended = true;
      cleanup();
      settleEnded(true);
      const keep =
        past === 0 &&
        framing.kind !== 'close' &&
        head !== null &&
        !(head.fields.get('connection') ?? []).some((v) => /(^|,)\s*close\s*(,|$)/i.test(v)) &&
        (head.version === '1.1' ||
          (head.fields.get('connection') ?? []).some((v) => /(^|,)\s*keep-alive\s*(,|$)/i.test(v)));
      if (keep && socket.readableLength === 0) putIdle(key, socket);
      else socket.destroy();
      wake();
    };
    const push = (b: Uint8Array) => {
      if (b.length === 0) return;
      bodyOctets += b.length;
      // The capture keeps the chunk as read: the reader gets a copy of its own, as Node's
      // client gives one, so that nothing it does to its octets changes the archived ones.
      queue.push(ex !== undefined ? new Uint8Array(b) : b);
      queued += b.length;
      if (queued >= READ_AHEAD) socket.pause();
      wake();
    };
    const body = (chunk: Buffer) => {
      if (framing.kind === 'length') {
        const n = Math.min(left, chunk.length);
        push(chunk.subarray(0, n));
        left -= n;
        if (left === 0) complete(chunk.length - n);
      } else if (framing.kind === 'chunked') {
        for (const piece of chunked!.feed(chunk, where)) push(piece);
        if (chunked!.done) complete(chunked!.rest?.length ?? 0);
      } else if (framing.kind === 'close') push(chunk);
    };
    const onData = (chunk: Buffer) => {
      gotAny = true;
      received += chunk.length;
      try {
        if (head === null) {
          const searched = headBuf.length;
          headBuf = headBuf.length === 0 ? chunk : Buffer.concat([headBuf, chunk]);
          let h = parseHead(headBuf, where, searched);
          // Interim responses (1xx but 101) come before the final one and are passed over.
          while (h !== null && h.status >= 100 && h.status < 200) {
            if (h.status === 101) throw notHttp(where, 'a 101 Switching Protocols to a GET');
            headBuf = headBuf.subarray(h.length);
            h = headBuf.length === 0 ? null : parseHead(headBuf, where);
          }
          if (h === null) {
            ex?.received.push(chunk);
            return;
          }
          head = h;
          framing = framingOf(h, where);
          const rest = headBuf.subarray(h.length);
          headBuf = Buffer.alloc(0);
          settled = true;
          resolveHead(response);
          if (framing.kind === 'none') complete(rest.length);
          else if (framing.kind === 'length') {
            left = framing.length;
            if (left === 0) complete(rest.length);
            else if (rest.length > 0) body(rest);
          } else {
            if (framing.kind === 'chunked') chunked = new ChunkedDecoder();
            if (rest.length > 0) body(rest);
          }
        } else body(chunk);
        // The exchange keeps the octets of this response only: any past its end (a server
        // answering what was not asked) are left out, and the connection is not used again.
        ex?.received.push(extra > 0 ? chunk.subarray(0, chunk.length - extra) : chunk);
      } catch (e) {
        fail(e instanceof LocatorError ? e : notHttp(where, String(e)));
      }
    };
    /**
     * The connection ended before the response's head: on a kept-alive connection that had sent
     * nothing, a stale one (sent again); else the server's doing, as Node's client says it.
     */
    const beforeReply = (code: string, cause?: unknown) =>
      reused && !gotAny
        ? new StaleConnection()
        : new LocatorError(
            CONNECTION_CLOSED,
            -1,
            `the server ${where} closed the connection before its HTTP reply (${code})`,
            cause === undefined ? undefined : { cause },
          );
    const onEnd = () => {
      if (head === null) fail(beforeReply('ECONNRESET'));
      else if (framing.kind === 'close') complete(0);
      else fail(cut());
    };
    const onError = (e: NodeJS.ErrnoException) => {
      if (head === null) fail(beforeReply(e.code ?? e.message, e));
      else fail(cut(e));
    };
    const cut = (cause?: unknown) =>
      new LocatorError(
        CONNECTION_CLOSED,
        -1,
        framing.kind === 'length'
          ? `the server announced ${(framing as { length: number }).length} octets (Content-Length) and closed the connection after ${(framing as { length: number }).length - left}`
          : `the server closed the connection in the middle of the HTTP body, after ${bodyOctets} octets${cause instanceof Error ? ` (${cause.message})` : ''}`,
        cause === undefined ? undefined : { cause },
      );
    const onTimeout = () =>
      fail(
        new LocatorError(
          TIMEOUT,
          -1,
          head === null
            ? `no answer from ${where} within ${req.timeout} ms`
            : `the server sent nothing for ${req.timeout} ms`,
        ),
      );
    const onAbort = () => fail(new LocatorError(ABORTED, -1, 'the transfer was cancelled'));
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
      socket.off('timeout', onTimeout);
      socket.setTimeout(0);
      req.signal?.removeEventListener('abort', onAbort);
    };
    const response: WireResponse = {
      get head() {
        return head!;
      },
      get framing() {
        return framing;
      },
      get received() {
        return received;
      },
      async next() {
        for (;;) {
          if (queue.length > 0) {
            const c = queue.shift()!;
            queued -= c.length;
            if (queued < READ_AHEAD && socket.isPaused() && !finished) socket.resume();
            return c;
          }
          if (failure !== null) throw failure;
          if (ended) return null;
          await new Promise<void>((r) => (waiter = r));
        }
      },
      cancel() {
        if (!finished) fail(new LocatorError(ABORTED, -1, 'the transfer was cancelled'));
        queue.length = 0;
      },
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.on('error', onError);
    if (req.timeout > 0) {
      socket.setTimeout(req.timeout);
      socket.on('timeout', onTimeout);
    }
    // A socket paused by the read-ahead bound of its last response starts reading again.
    socket.resume();
    if (req.signal?.aborted) return onAbort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      req.onConnect?.(reused);
    } catch (e) {
      // A capture callback that throws: the request is not sent, its error is the caller's.
      finished = true;
      settled = true;
      cleanup();
      socket.destroy();
      rejectHead(e);
      return;
    }
    ex?.sent.push(req.request);
    socket.write(req.request);
  });
}
