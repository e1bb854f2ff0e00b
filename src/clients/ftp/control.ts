// The FTP control connection (RFC 959 4, 5.4): commands out, replies in, over a Connection that
// owns the socket, the timeouts, the AbortSignal and the one close path. Replies are read by the
// framing engine (../framing/reader.ts) with FTP's grammar (parser.ts).

import { LocatorError } from '../../core/errors.js';
import { Connection, type ConnectOptions } from '../connection.js';
import { CONNECTION_CLOSED } from '../types.js';
import { FTP_REPLIES, type FtpReply } from './parser.js';
import { FtpReplyError } from './errors.js';
import { CRLF, concatBytes } from '../framing/bytes.js';
import { ReplyReader, briefly } from '../framing/reader.js';

export { FtpReplyError, FTP_REPLY } from './errors.js';

export class FtpControl {
  readonly conn: Connection;
  readonly #replies: ReplyReader<FtpReply>;
  /** The last command sent, as the transcript shows it. */
  last: string | null = null;

  private constructor(conn: Connection) {
    this.conn = conn;
    this.#replies = new ReplyReader({
      conn: () => this.conn,
      grammar: FTP_REPLIES,
      shown: (r) => r.lines,
      closed: (partial) =>
        new LocatorError(
          CONNECTION_CLOSED,
          -1,
          `the FTP server closed the control connection${this.last === null ? '' : ` after ${JSON.stringify(this.last)}`}${partial}`,
        ),
    });
  }

  /** Opens the control connection to host:port (RFC 959 5.4; policy checked by Connection). */
  static async connect(host: string, port: number, options: ConnectOptions): Promise<FtpControl> {
    return new FtpControl(await Connection.connect(host, port, options));
  }

  /** The server's address as connected (the data connection goes there too). */
  get peerAddress(): string {
    return this.conn.socket.remoteAddress ?? '';
  }

  /**
   * The next reply (RFC 959 4.2). Each line goes to the transcript. Fails with the connection's
   * error (timeout, aborted), `connection-closed` when the server closes before a full reply,
   * or `protocol-error` for octets that are not a reply.
   */
  async reply(): Promise<FtpReply> {
    return this.#replies.next();
  }

  /**
   * Sends one command: `verb`, then a space and the argument's octets when there is one, CR LF
   * (RFC 959 4.1, 5.3). `text` is what the transcript shows (PASS hidden by the caller).
   */
  async send(verb: string, argument: Uint8Array | null, text: string): Promise<void> {
    this.last = text;
    const head = Buffer.from(argument === null ? verb : `${verb} `, 'latin1');
    await this.conn.write(argument === null ? concatBytes([head, CRLF]) : concatBytes([head, argument, CRLF]), text);
  }

  /** Sends a command and reads its reply. */
  async command(verb: string, argument: Uint8Array | null, text: string): Promise<FtpReply> {
    await this.send(verb, argument, text);
    return this.reply();
  }

  /** A 2yz reply, or an FtpReplyError for anything else (RFC 959 4.2). */
  expectComplete(reply: FtpReply): FtpReply {
    if (reply.code >= 200 && reply.code < 300) return reply;
    throw this.fail(reply);
  }

  /** The error for a reply the session cannot go on from. */
  fail(reply: FtpReply, message?: string): FtpReplyError {
    return new FtpReplyError(reply, this.last, message);
  }

  /**
   * Ends the session politely: QUIT, and its reply awaited for at most `wait` ms (RFC 959 4.1.1);
   * whatever happens, the connection is closed. Never throws.
   */
  async quit(wait: number): Promise<void> {
    try {
      await this.send('QUIT', null, 'QUIT');
      await briefly(this.reply(), wait);
    } catch {
      // The object is complete; a server that does not take QUIT changes nothing.
    } finally {
      this.conn.close();
    }
  }

  /** Sends QUIT without waiting for the answer, then closes (after a failed command). */
  async abandon(): Promise<void> {
    try {
      if (!this.conn.done) await this.send('QUIT', null, 'QUIT');
    } catch {
      // closing anyway
    } finally {
      this.conn.close();
    }
  }

  /** Closes at once (timeouts, protocol errors, a cancelled body). */
  close(error?: LocatorError): void {
    this.conn.close(error);
  }
}
