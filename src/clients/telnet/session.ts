// A Telnet session (RFC 1738 3.8: "a telnet URL designates an interactive service"; the
// protocol is RFC 854 and 855 with the option RFCs). The connection (../connection.ts) owns the
// socket, the connect timeout, the AbortSignal and the one close path; the read loop is the
// sessions' (../session-core.ts); this module runs the Telnet engine (../telnet-engine/engine.ts: RFC 1143
// negotiation, RFC 854 byte rules) between it and the user's terminal.
//
// What locator agrees to, when asked:
//   the server WILL: ECHO (RFC 857), SUPPRESS-GO-AHEAD (RFC 858), BINARY (RFC 856)
//   we WILL: SUPPRESS-GO-AHEAD, BINARY, TERMINAL-TYPE (RFC 1091, from `term`), NAWS (RFC 1073,
//   from `cols`/`rows`, sent again on every resize), NEW-ENVIRON (RFC 1572: USER is the URL's
//   user name, the only variable offered)
// Everything else is refused (WONT/DONT). The URL's password is never sent (RFC 1738 3.8: it
// is advisory; the user types it at the remote side).

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { DEFAULT_POLICY } from '../../operations/policy.js';
import { Connection, checkTimeout } from '../connection.js';
import { SessionCore } from '../session-core.js';
import { ABORTED, CONNECT_FAILED, PROTOCOL_ERROR, transcriptRecorder, type TranscriptLine } from '../types.js';
import type { InteractiveSession, SessionOptions } from '../interactive.js';
import { concatBytes } from '../framing/bytes.js';
import { TelnetEngine } from '../telnet-engine/engine.js';
import {
  BRK,
  ENV,
  OPT,
  TTYPE_SEND,
  TelnetEncoder,
  command,
  commandName,
  describeBytes,
  environIs,
  optionName,
  parseEnvironSend,
  terminalTypeIs,
  windowSize,
} from '../telnet-engine/protocol.js';

/** The Telnet port (RFC 1738 3.8, "The default port is 23"). */
export const TELNET_PORT = 23;

/** Octets sent but not yet taken by the server past which the session fails (a server that stopped reading). */
export const MAX_UNSENT = 1 << 20;

/** Transcript lines recorded at most; then one line says the rest was left out (a flooding server). */
export const MAX_TRANSCRIPT = 2000;

/**
 * RFC 1738 3.8 (access: open a Telnet session to host:port, default 23) and RFC 854: connects
 * (the policy judges the address first, ../connection.ts), and returns the session. The
 * `timeout` bounds the connect only: an interactive session may be silent for as long as the
 * user likes. Fails with connect-failed, timeout, aborted or policy-refused.
 */
export async function connectSession(url: Url, options: SessionOptions = {}): Promise<InteractiveSession> {
  const timeout = checkTimeout(options.timeout);
  if (url.host === null || url.host === '') {
    throw new LocatorError(CONNECT_FAILED, 0, `the ${url.scheme} URL names no host to connect to (RFC 1738 3.8)`);
  }
  const { lines, onLine } = transcriptRecorder(options.transcript, MAX_TRANSCRIPT);
  const port = url.port ?? TELNET_PORT;
  const conn = await Connection.connect(url.host, port, {
    signal: options.signal,
    timeout,
    readTimeout: Infinity,
    policy: options.policy ?? DEFAULT_POLICY,
    onTranscript: onLine,
    secrets: url.password ? [url.password] : [],
  });
  return new TelnetSession(conn, url, port, options, lines);
}

/**
 * One Telnet session over a connected socket (RFC 854): the Telnet engine (../telnet-engine/engine.ts) between
 * the socket and the user's terminal, on the sessions' shared read loop (../session-core.ts).
 */
export class TelnetSession implements InteractiveSession {
  readonly output: ReadableStream<Uint8Array>;
  readonly closed: Promise<void>;
  readonly transcript: TranscriptLine[];
  readonly #conn: Connection;
  readonly #core: SessionCore;
  readonly #engine: TelnetEngine;
  readonly #encoder = new TelnetEncoder();
  readonly #where: string;
  readonly #term: string | undefined;
  readonly #env: Record<string, string>;
  readonly #started = Date.now();
  #cols: number | undefined;
  #rows: number | undefined;
  /** The data of the chunk being read, in order with its negotiation. */
  #shown: Uint8Array[] = [];

  constructor(conn: Connection, url: Url, port: number, options: SessionOptions, transcript: TranscriptLine[]) {
    this.#conn = conn;
    this.transcript = transcript;
    this.#where = `${url.host}:${port}`;
    this.#term = options.term !== undefined && options.term !== '' ? options.term : undefined;
    this.#cols = options.cols;
    this.#rows = options.rows;
    this.#env = url.user ? { USER: url.user } : {};
    const us: number[] = [OPT.SGA, OPT.BINARY, OPT.NEW_ENVIRON];
    if (this.#term !== undefined) us.push(OPT.TTYPE);
    if (this.#cols !== undefined && this.#rows !== undefined) us.push(OPT.NAWS);
    this.#engine = new TelnetEngine(
      { us, him: [OPT.ECHO, OPT.SGA, OPT.BINARY] },
      {
        send: (bytes, shown) => this.#send(bytes, shown),
        note: (direction, text) => this.#conn.note(direction, text),
        data: (bytes) => void this.#shown.push(bytes),
        subnegotiation: (option, data) => this.#subnegotiation(option, data),
        command: (c) => this.#conn.note('receive', commandName(c)),
        changed: (side, option, enabled) => {
          if (option === OPT.BINARY) {
            if (side === 'him') this.#engine.parser.binary = enabled;
            else this.#encoder.binary = enabled;
          }
          if (side === 'us' && option === OPT.NAWS && enabled) this.#sendWindowSize();
        },
      },
    );
    this.#core = new SessionCore(conn, (chunk) => {
      this.#shown = [];
      this.#engine.receive(chunk);
      return concatBytes(this.#shown);
    });
    this.output = this.#core.output;
    this.closed = this.#core.closed;
    const signal = options.signal;
    const onAbort = () => this.#core.fail(new LocatorError(ABORTED, -1, 'the session was cancelled'));
    signal?.addEventListener('abort', onAbort, { once: true });
    this.closed.then(
      () => signal?.removeEventListener('abort', onAbort),
      () => signal?.removeEventListener('abort', onAbort),
    );
    this.#core.start(null);
  }

  /** True when the server echoes what is typed (RFC 857); otherwise the local side should. */
  get remoteEcho(): boolean {
    return this.#engine.enabled('him', OPT.ECHO);
  }

  #send(bytes: Uint8Array, shown?: string): void {
    if (this.#core.ended || this.#conn.socket.destroyed) return;
    this.#core.send(bytes, shown); // a write the server takes none of for the timeout ends the session
    if (this.#conn.socket.writableLength > MAX_UNSENT) {
      this.#core.fail(
        new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the server stopped reading: ${this.#conn.socket.writableLength} octets are waiting to be sent`,
        ),
      );
    }
  }

  #subnegotiation(option: number, data: Uint8Array): void {
    this.#conn.note('receive', `SB ${optionName(option)} ${describeBytes(data)}`);
    if (option === OPT.TTYPE && data[0] === TTYPE_SEND && this.#engine.enabled('us', OPT.TTYPE)) {
      // RFC 1091: one type only; asked again, the same type says the list has ended.
      this.#send(terminalTypeIs(this.#term!), `SB TERMINAL-TYPE IS ${this.#term}`);
    } else if (option === OPT.NEW_ENVIRON && data[0] === ENV.SEND && this.#engine.enabled('us', OPT.NEW_ENVIRON)) {
      const req = parseEnvironSend(data.subarray(1));
      const reply = environIs(req, this.#env);
      this.#send(reply, `SB NEW-ENVIRON IS ${describeBytes(reply.subarray(4, reply.length - 2))}`);
    }
  }

  #sendWindowSize(): void {
    if (this.#cols === undefined || this.#rows === undefined) return;
    this.#send(windowSize(this.#cols, this.#rows), `SB NAWS ${this.#cols} ${this.#rows}`);
  }

  /** RFC 854: what the user typed, IAC doubled, line ends per the NVT (../telnet-engine/protocol.ts TelnetEncoder). */
  write(data: Uint8Array): void {
    if (this.#core.ended) return;
    this.#send(this.#encoder.encode(data));
  }

  /** RFC 1073: the new size is kept, and sent when NAWS is in effect. */
  resize(cols: number, rows: number): void {
    if (cols === this.#cols && rows === this.#rows) return;
    this.#cols = cols;
    this.#rows = rows;
    if (this.#engine.enabled('us', OPT.NAWS)) this.#sendWindowSize();
  }

  /** RFC 854: IAC BRK. */
  sendBreak(): void {
    this.#send(command(BRK), 'BRK');
  }

  /** The session's facts, one per line (for the escape prompt's `status`). */
  status(): string[] {
    const { us, him } = this.#engine.negotiator.inEffect();
    const ours = us.map((o) =>
      o === OPT.TTYPE
        ? `${optionName(o)} (${this.#term})`
        : o === OPT.NAWS
          ? `${optionName(o)} (${this.#cols}x${this.#rows})`
          : optionName(o),
    );
    const secs = Math.round((Date.now() - this.#started) / 1000);
    return [
      `telnet session with ${this.#where}, ${this.#core.ended ? 'closed' : 'open'} for ${secs} s`,
      `the server performs: ${him.map(optionName).join(', ') || 'no option'}`,
      `locator performs: ${ours.join(', ') || 'no option'}`,
      `echo: ${this.remoteEcho ? 'by the server' : 'local'}`,
      `octets received ${this.#core.bytesIn}, sent ${this.#core.bytesOut}`,
    ];
  }

  /** Ends the session from this side: the socket is closed; `closed` resolves. Idempotent. */
  close(): void {
    this.#core.close();
  }
}
