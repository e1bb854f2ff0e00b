// A Telnet session (RFC 1738 3.8: "a telnet URL designates an interactive service"; the
// protocol is RFC 854 and 855 with the option RFCs). The connection (../connection.ts) owns the
// socket, the connect timeout, the AbortSignal and the one close path; this module runs the
// option negotiation (./options.ts, RFC 1143) and the byte-level rules (./protocol.ts) between
// it and the user's terminal.
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
import { DEFAULT_POLICY } from '../../policy.js';
import { Connection, checkTimeout } from '../connection.js';
import { ABORTED, CONNECT_FAILED, PROTOCOL_ERROR, transcriptRecorder, type TranscriptLine } from '../types.js';
import type { InteractiveSession, SessionOptions } from '../interactive.js';
import { Negotiator } from './options.js';
import {
  BRK,
  DO,
  DONT,
  ENV,
  OPT,
  TTYPE_SEND,
  TelnetEncoder,
  TelnetParser,
  WILL,
  WONT,
  command,
  commandName,
  describeBytes,
  environIs,
  negotiation,
  optionName,
  parseEnvironSend,
  terminalTypeIs,
  windowSize,
  type TelnetEvent,
} from './protocol.js';

/** The Telnet port (RFC 1738 3.8, "The default port is 23"). */
export const TELNET_PORT = 23;

/** Octets sent but not yet taken by the server past which the session fails (a server that stopped reading). */
export const MAX_UNSENT = 1 << 20;

/** Transcript lines recorded at most; then one line says the rest was left out (a flooding server). */
export const MAX_TRANSCRIPT = 2000;

const VERB_NAMES: Record<number, string> = { [DO]: 'DO', [DONT]: 'DONT', [WILL]: 'WILL', [WONT]: 'WONT' };

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

/** One Telnet session over a connected socket (RFC 854). */
export class TelnetSession implements InteractiveSession {
  readonly output: ReadableStream<Uint8Array>;
  readonly closed: Promise<void>;
  readonly transcript: TranscriptLine[];
  readonly #conn: Connection;
  readonly #parser = new TelnetParser();
  readonly #encoder = new TelnetEncoder();
  readonly #neg: Negotiator;
  readonly #where: string;
  readonly #term: string | undefined;
  readonly #env: Record<string, string>;
  readonly #started = Date.now();
  #cols: number | undefined;
  #rows: number | undefined;
  #sent = 0;
  #received = 0;
  #done = false;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.#finish(this.#abortError());
  #resolve!: () => void;
  #reject!: (e: LocatorError) => void;

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
    this.#neg = new Negotiator(us, [OPT.ECHO, OPT.SGA, OPT.BINARY]);
    this.closed = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.closed.catch(() => {}); // the caller's await still sees the failure
    this.#signal = options.signal;
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.output = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          for (;;) {
            let chunk: Uint8Array | null;
            try {
              chunk = await this.#conn.read();
            } catch (e) {
              const err = e instanceof LocatorError ? e : new LocatorError(PROTOCOL_ERROR, -1, String(e));
              this.#finish(err);
              controller.error(err);
              return;
            }
            if (chunk === null) {
              this.#finish();
              controller.close();
              return;
            }
            this.#received += chunk.length;
            const data = this.#receive(chunk);
            if (data.length > 0) {
              controller.enqueue(data);
              return;
            }
          }
        },
        cancel: () => this.close(),
      },
      { highWaterMark: 1 },
    );
  }

  #abortError(): LocatorError {
    return new LocatorError(ABORTED, -1, 'the session was cancelled');
  }

  /** True when the server echoes what is typed (RFC 857); otherwise the local side should. */
  get remoteEcho(): boolean {
    return this.#neg.enabled('him', OPT.ECHO);
  }

  #note(direction: TranscriptLine['direction'], text: string): void {
    this.#conn.note(direction, text);
  }

  #send(bytes: Uint8Array, shown?: string): void {
    if (this.#done || this.#conn.socket.destroyed) return;
    if (shown !== undefined) this.#note('send', shown);
    this.#sent += bytes.length;
    this.#conn.send(bytes); // a write the server takes none of for the timeout ends the session
    if (this.#conn.socket.writableLength > MAX_UNSENT) {
      this.#fail(
        new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the server stopped reading: ${this.#conn.socket.writableLength} octets are waiting to be sent`,
        ),
      );
    }
  }

  /** The events of one chunk from the server: negotiation answered, data returned. */
  #receive(chunk: Uint8Array): Uint8Array {
    const parts: Uint8Array[] = [];
    this.#parser.push(chunk, (ev) => {
      if (ev.type === 'data') parts.push(ev.data);
      else this.#event(ev);
    });
    if (parts.length === 1) return parts[0];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let n = 0;
    for (const p of parts) {
      out.set(p, n);
      n += p.length;
    }
    return out;
  }

  #event(ev: Exclude<TelnetEvent, { type: 'data' }>): void {
    switch (ev.type) {
      case 'negotiate': {
        const step = this.#neg.receive(ev.verb, ev.option);
        if (step.send.length > 0 || step.note === undefined) {
          this.#note('receive', `${VERB_NAMES[ev.verb]} ${optionName(ev.option)}`);
        }
        if (step.note !== undefined && this.#neg.ignored <= 1) this.#note('info', step.note);
        for (const s of step.send) {
          this.#send(negotiation(s.verb, s.option), `${VERB_NAMES[s.verb]} ${optionName(s.option)}`);
        }
        for (const c of step.changed) {
          if (c.option === OPT.BINARY) {
            if (c.side === 'him') this.#parser.binary = c.enabled;
            else this.#encoder.binary = c.enabled;
          }
          if (c.side === 'us' && c.option === OPT.NAWS && c.enabled) this.#sendWindowSize();
        }
        break;
      }
      case 'subnegotiation':
        this.#subnegotiation(ev.option, ev.data);
        break;
      case 'overflow':
        this.#note(
          'info',
          `a subnegotiation of ${optionName(ev.option)} of ${ev.length} octets was dropped (more than ${this.#parser.maxSubnegotiation})`,
        );
        break;
      case 'command':
        this.#note('receive', commandName(ev.command));
        break;
    }
  }

  #subnegotiation(option: number, data: Uint8Array): void {
    this.#note('receive', `SB ${optionName(option)} ${describeBytes(data)}`);
    if (option === OPT.TTYPE && data[0] === TTYPE_SEND && this.#neg.enabled('us', OPT.TTYPE)) {
      // RFC 1091: one type only; asked again, the same type says the list has ended.
      this.#send(terminalTypeIs(this.#term!), `SB TERMINAL-TYPE IS ${this.#term}`);
    } else if (option === OPT.NEW_ENVIRON && data[0] === ENV.SEND && this.#neg.enabled('us', OPT.NEW_ENVIRON)) {
      const req = parseEnvironSend(data.subarray(1));
      const reply = environIs(req, this.#env);
      this.#send(reply, `SB NEW-ENVIRON IS ${describeBytes(reply.subarray(4, reply.length - 2))}`);
    }
  }

  #sendWindowSize(): void {
    if (this.#cols === undefined || this.#rows === undefined) return;
    this.#send(windowSize(this.#cols, this.#rows), `SB NAWS ${this.#cols} ${this.#rows}`);
  }

  /** RFC 854: what the user typed, IAC doubled, line ends per the NVT (./protocol.ts TelnetEncoder). */
  write(data: Uint8Array): void {
    if (this.#done) return;
    this.#send(this.#encoder.encode(data));
  }

  /** RFC 1073: the new size is kept, and sent when NAWS is in effect. */
  resize(cols: number, rows: number): void {
    if (cols === this.#cols && rows === this.#rows) return;
    this.#cols = cols;
    this.#rows = rows;
    if (this.#neg.enabled('us', OPT.NAWS)) this.#sendWindowSize();
  }

  /** RFC 854: IAC BRK. */
  sendBreak(): void {
    this.#send(command(BRK), 'BRK');
  }

  /** The session's facts, one per line (for the escape prompt's `status`). */
  status(): string[] {
    const { us, him } = this.#neg.inEffect();
    const ours = us.map((o) =>
      o === OPT.TTYPE
        ? `${optionName(o)} (${this.#term})`
        : o === OPT.NAWS
          ? `${optionName(o)} (${this.#cols}x${this.#rows})`
          : optionName(o),
    );
    const secs = Math.round((Date.now() - this.#started) / 1000);
    return [
      `telnet session with ${this.#where}, ${this.#done ? 'closed' : 'open'} for ${secs} s`,
      `the server performs: ${him.map(optionName).join(', ') || 'no option'}`,
      `locator performs: ${ours.join(', ') || 'no option'}`,
      `echo: ${this.remoteEcho ? 'by the server' : 'local'}`,
      `octets received ${this.#received}, sent ${this.#sent}`,
    ];
  }

  #fail(e: LocatorError): void {
    this.#conn.close(e);
    this.#finish(e);
  }

  #finish(e?: LocatorError): void {
    if (this.#done) return;
    this.#done = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    if (e) {
      this.#conn.close(e);
      this.#reject(e);
    } else {
      this.#conn.close();
      this.#resolve();
    }
  }

  /** Ends the session from this side: the socket is closed; `closed` resolves. Idempotent. */
  close(): void {
    this.#finish();
  }
}
