// The SMTP command connection (RFC 5321 4.1, 4.2): commands out, replies in, over a Connection
// that owns the socket, the timeouts, the AbortSignal and the one close path. Replies are read
// by the framing engine (../framing/reader.ts) with SMTP's grammar (reply.ts). STARTTLS (RFC 3207)
// moves the session onto a TLS connection over the same socket (Connection.startTls).

import type { TLSSocket } from 'node:tls';
import { LocatorError } from '../../core/errors.js';
import { Connection, type ConnectOptions } from '../connection.js';
import { CONNECTION_CLOSED, PROTOCOL_ERROR } from '../types.js';
import { parseReplies, SMTP_REPLIES, type SmtpReply } from './reply.js';
import { SmtpReplyError, STARTTLS_UNAVAILABLE } from './errors.js';
import { maskAcross } from '../secrets.js';
import { ReplyReader, briefly } from '../framing/reader.js';

export class SmtpSession {
  conn: Connection;
  readonly #options: ConnectOptions;
  readonly #replies: ReplyReader<SmtpReply>;
  /** The last command sent, as the transcript shows it (null before the first). */
  last: string | null = null;
  /** True once the session runs over TLS. */
  secure = false;
  /** The plain connection under TLS, closed with the session (its socket carries the TLS one). */
  #plain: Connection | null = null;

  private constructor(conn: Connection, options: ConnectOptions) {
    this.conn = conn;
    this.#options = options;
    this.#replies = new ReplyReader({
      conn: () => this.conn,
      grammar: SMTP_REPLIES,
      shown: (r) => this.hidden(r).lines,
      closed: (partial) =>
        new LocatorError(
          CONNECTION_CLOSED,
          -1,
          `the SMTP server closed the connection${this.last === null ? ' before its greeting' : ` after ${JSON.stringify(this.last)}`}${partial}`,
        ),
      shownError: (e, input) => this.#redacted(e, input),
      fail: (e) => this.close(e),
    });
  }

  /** Opens the connection to the relay (RFC 5321 3.1; the policy is asked by Connection). */
  static async connect(host: string, port: number, options: ConnectOptions): Promise<SmtpSession> {
    return new SmtpSession(await Connection.connect(host, port, options), options);
  }

  /**
   * The next reply (RFC 5321 4.2). Each line goes to the transcript. Fails with the connection's
   * error (timeout, aborted), `connection-closed` when the server closes before a full reply, or
   * `protocol-error` for octets that are not a reply.
   */
  async reply(): Promise<SmtpReply> {
    return this.#replies.next();
  }

  /**
   * A parser's error about `input` with every secret hidden. The parser quotes up to 80
   * characters of a line that is not a reply, and an echoed token cut there would no longer
   * match its masked form: so the parse is run again over the text with the secrets masked, and
   * that error is given instead.
   */
  #redacted(e: LocatorError, input: Uint8Array): LocatorError {
    const text = Buffer.from(input).toString('utf8');
    const masked = this.conn.redact(text);
    if (masked === text) return e;
    try {
      parseReplies(Buffer.from(masked, 'utf8'));
    } catch (again) {
      if (again instanceof LocatorError) return again;
    }
    return new LocatorError(e.code, e.offset, 'the SMTP server sent a line that is not a reply (RFC 5321 4.2)');
  }

  /**
   * Sends command lines, each ended by CR LF (RFC 5321 2.3.8), in one write; `shown` is what the
   * transcript shows for each (AUTH secrets hidden by the caller). The caller has checked that no
   * line holds CR or LF (message.ts assertNoLineBreak).
   */
  async send(lines: string[], shown: string[] = lines): Promise<void> {
    this.last = shown[shown.length - 1];
    for (const s of shown.slice(0, -1)) this.conn.note('send', s);
    await this.conn.write(Buffer.from(lines.map((l) => l + '\r\n').join(''), 'utf8'), this.last);
  }

  /** Sends one command and reads its reply. */
  async command(line: string, shown: string = line): Promise<SmtpReply> {
    await this.send([line], [shown]);
    return this.reply();
  }

  /** The reply when its code is one of `ok`, else an SmtpReplyError (RFC 5321 4.2.1, 4.3.2). */
  expect(reply: SmtpReply, ...ok: number[]): SmtpReply {
    if (ok.includes(reply.code)) return reply;
    throw this.fail(reply);
  }

  /** The error for a reply the session cannot go on from. */
  fail(reply: SmtpReply, message?: string): SmtpReplyError {
    // A server may quote what the client sent (an AUTH token, the password): hidden here, so
    // that neither the error's message nor its replyText holds a secret (RFC 4954 4).
    const hide = (t: string) => this.conn.redact(t);
    return new SmtpReplyError(this.hidden(reply), this.last, message === undefined ? undefined : hide(message));
  }

  /**
   * `reply` as it may be shown: the client's secrets (the password, its base64 forms, the AUTH
   * token) masked as "****", within a line and where one runs on from a line into the next (RFC
   * 5321 4.2: a server may cut a quoted token anywhere between "535-" lines; ../secrets.ts
   * maskAcross). The lines' texts are matched as one, without the code and the enhanced status
   * code (RFC 2034) that each line repeats. The reply itself is left as received, for the
   * protocol.
   */
  hidden(reply: SmtpReply): SmtpReply {
    const secrets = this.#options.secrets ?? [];
    if (secrets.length === 0) return reply;
    const head = reply.enhanced === null ? null : reply.enhanced + ' ';
    const heads = reply.texts.map((t) => (head !== null && t.startsWith(head) ? head : ''));
    const bodies = maskAcross(
      reply.texts.map((t, i) => t.slice(heads[i].length)),
      secrets,
    );
    const texts = bodies.map((b, i) => heads[i] + b);
    const lines = reply.lines.map((l, i) => l.slice(0, l.length - reply.texts[i].length) + texts[i]);
    return { ...reply, lines, texts };
  }

  /**
   * After a 220 to STARTTLS (RFC 3207 4.2): the TLS handshake over the same socket, the server's
   * certificate checked against `ca` (or the system's authorities) and `servername` (else `host`,
   * a name or an address). Octets the server sent after its 220 and before the handshake are
   * refused (they would be taken as protected replies: the STARTTLS command injection of
   * CVE-2011-0411's kind).
   */
  async startTls(host: string, servername: string | undefined, ca: string | Uint8Array | undefined): Promise<void> {
    if (this.#replies.buffered) {
      const e = new LocatorError(
        PROTOCOL_ERROR,
        -1,
        'the SMTP server sent more after "220" to STARTTLS, before the TLS handshake: refused, as it would be read as protected (RFC 3207 4.2)',
      );
      this.close(e);
      throw e;
    }
    this.conn.note('info', `TLS handshake${servername ? ` with ${servername}` : ''}`);
    const secure = await this.conn.startTls(
      { host, servername, ca },
      (e) =>
        new LocatorError(
          STARTTLS_UNAVAILABLE,
          -1,
          `the TLS handshake after STARTTLS failed: ${e.code ?? ''}${e.code ? ': ' : ''}${e.message} (RFC 3207 4.1)`,
          { cause: e },
        ),
    );
    this.#plain = this.conn;
    this.conn = secure;
    this.secure = true;
    const socket = secure.socket as TLSSocket;
    this.conn.note('info', `TLS ${socket.getProtocol() ?? ''} ${socket.getCipher()?.name ?? ''}`.trimEnd());
  }

  /**
   * Ends the session politely: QUIT, and its reply awaited for at most `wait` ms (RFC 5321
   * 4.1.1.10); whatever happens, the connection is closed. Never throws.
   */
  async quit(wait: number): Promise<void> {
    try {
      await this.send(['QUIT']);
      await briefly(this.reply(), wait);
    } catch {
      // The message is queued already (or the session failed): a server that does not take QUIT changes nothing.
    } finally {
      this.close();
    }
  }

  /** Sends QUIT without waiting for the answer, then closes (after a failed command). */
  async abandon(): Promise<void> {
    try {
      if (!this.conn.done) await this.send(['QUIT']);
    } catch {
      // closing anyway
    } finally {
      this.close();
    }
  }

  /** Closes at once (timeouts, protocol errors). */
  close(error?: LocatorError): void {
    this.conn.close(error);
    this.#plain?.close(error);
  }
}
