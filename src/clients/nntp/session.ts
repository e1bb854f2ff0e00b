// One NNTP session (RFC 3977): a Connection (which owns the socket, its timeouts, the
// AbortSignal and the one close path) plus what the protocol adds: the greeting, CAPABILITIES
// when offered, MODE READER when needed, commands with their status lines, AUTHINFO when the
// server asks (RFC 4643), multi-line data blocks with the dot-stuffing undone, and QUIT.

import { LocatorError } from '../../core/errors.js';
import { Connection, type ConnectOptions } from '../connection.js';
import { CONNECTION_CLOSED, PROTOCOL_ERROR, typedError } from '../types.js';
import {
  LineSplitter,
  NNTP_STATUS,
  decodeText,
  parseCapabilities,
  parseReply,
  type Reply,
  type StatusLine,
} from './parser.js';
import { LF, lineEnd } from '../framing/bytes.js';
import { ReplyReader, briefly, dotBlockReader } from '../framing/reader.js';
import { NNTP_AUTH_REQUIRED, NntpReplyError } from './errors.js';
import { passwordSecrets } from '../secrets.js';

export { NntpReplyError } from './errors.js';

/** A user name and password for AUTHINFO USER/PASS (RFC 4643 2.3). */
export interface Credentials {
  user: string;
  password: string;
}

/** How long the answer to QUIT is waited for (ms), at most. */
const QUIT_WAIT = 1000;
const utf8 = new TextEncoder();

export interface SessionOptions extends ConnectOptions {
  /** Asked for credentials when the server answers 480; null: none configured. */
  credentials: () => Promise<Credentials | null>;
}

export class NntpSession {
  readonly conn: Connection;
  /** The CAPABILITIES list (RFC 3977 5.2), or null when the server does not offer it. */
  capabilities: Map<string, string[]> | null = null;
  /** Whether the server allows posting (greeting 200) or not (201); informational. */
  posting = false;
  readonly #credentials: () => Promise<Credentials | null>;
  #authenticated = false;
  readonly #status: ReplyReader<StatusLine>;

  private constructor(conn: Connection, credentials: () => Promise<Credentials | null>) {
    this.conn = conn;
    this.#credentials = credentials;
    this.#status = new ReplyReader({
      conn: () => this.conn,
      grammar: NNTP_STATUS,
      single: true,
      shown: (r) => [r.line],
      closed: (_partial, rest) =>
        new LocatorError(
          CONNECTION_CLOSED,
          -1,
          rest.length === 0
            ? 'the NNTP server closed the connection instead of answering'
            : `the NNTP server closed the connection in the middle of a status line (${JSON.stringify(this.conn.redact(decodeText(rest)).slice(0, 80))})`,
        ),
      shownError: (e, input) => this.#shownError(e, input),
      fail: () => {}, // the caller closes the session (open(), or the client's one close path)
    });
  }

  /**
   * A status line that is not one: it goes to the transcript, and the error quotes it with the
   * password masked (RFC 4643 2.3: a server may echo it).
   */
  #shownError(e: LocatorError, input: Uint8Array): LocatorError {
    const lf = input.indexOf(LF);
    if (lf < 0) return e;
    const line = decodeText(input.subarray(0, lineEnd(input, 0, lf)));
    this.conn.note('receive', line);
    const shown = this.conn.redact(line);
    if (shown === line) return e;
    try {
      parseReply(shown);
    } catch (again) {
      if (again instanceof LocatorError) return again;
    }
    return e;
  }

  /**
   * Connects, reads the greeting (RFC 3977 5.1: 200 or 201; 400 and 502 refuse service), reads
   * CAPABILITIES when the server has it (5.2), and sends MODE READER (5.3) when the capabilities
   * say MODE-READER without READER, or when there are none to say (an RFC 977 server, for which
   * MODE READER is harmless: its 5xx answer is ignored). Then asks CAPABILITIES again after a
   * mode switch (RFC 3977 5.3.2: they may change).
   */
  static async open(host: string, port: number, options: SessionOptions): Promise<NntpSession> {
    const conn = await Connection.connect(host, port, options);
    const s = new NntpSession(conn, options.credentials);
    try {
      const greeting = await s.readStatus();
      if (greeting.code !== 200 && greeting.code !== 201) {
        if (greeting.code === 400 || greeting.code === 502) throw s.error(greeting, null);
        throw s.error(
          greeting,
          null,
          `the server greeted with ${greeting.code} ${JSON.stringify(greeting.text)}, not 200 or 201 (RFC 3977 5.1)`,
          PROTOCOL_ERROR,
        );
      }
      s.posting = greeting.code === 200;
      await s.readCapabilities();
      const caps = s.capabilities;
      if (caps === null || (caps.has('MODE-READER') && !caps.has('READER'))) {
        const r = await s.command('MODE READER');
        if (r.code === 200 || r.code === 201) {
          s.posting = r.code === 200;
          if (caps !== null) await s.readCapabilities();
        } else if (r.code === 400 || r.code === 502) {
          throw s.error(r, 'MODE READER');
        }
      }
      return s;
    } catch (e) {
      const err = typedError(e, 'the NNTP greeting');
      s.close(err);
      throw err;
    }
  }

  /** CAPABILITIES (RFC 3977 5.2): 101 and the list; any other answer means the server has none. */
  async readCapabilities(): Promise<void> {
    const r = await this.command('CAPABILITIES');
    if (r.code !== 101) {
      this.capabilities = null;
      return;
    }
    this.capabilities = parseCapabilities(await this.readTextBlock(64 * 1024));
  }

  /**
   * Reads one status line (RFC 3977 3.1): at most MAX_STATUS_LINE octets up to LF; what follows
   * stays for the next read.
   */
  async readStatus(): Promise<Reply> {
    const r = await this.#status.next();
    return { code: r.code, text: r.text };
  }

  /**
   * Sends a command line (RFC 3977 3.1: CR LF ends it) and reads its status line. A 480 answer
   * (RFC 4643 2.3: authentication required) is met with AUTHINFO USER/PASS when credentials are
   * configured, CAPABILITIES again (RFC 4643 2.3.1), and the command is then sent again; without
   * them it is an `nntp-auth-required`
   * error and nothing is sent. `shown` is the transcript text.
   */
  async command(line: string, shown = line): Promise<Reply> {
    await this.conn.write(line + '\r\n', shown);
    const r = await this.readStatus();
    if (r.code !== 480 || this.#authenticated) return r;
    await this.authenticate(line, r);
    // RFC 4643 2.3.1: after authentication the client discards the capabilities it knew and
    // asks again (they may change, OVER among them).
    if (this.capabilities !== null) await this.readCapabilities();
    await this.conn.write(line + '\r\n', shown);
    return this.readStatus();
  }

  /** AUTHINFO USER, then AUTHINFO PASS when asked (381), success being 281 (RFC 4643 2.3.1). */
  async authenticate(command: string, asked: Reply): Promise<void> {
    const creds = await this.#credentials();
    if (creds === null) {
      throw this.error(
        asked,
        command,
        `the NNTP server asks for authentication (${asked.code} ${JSON.stringify(asked.text)} to ${JSON.stringify(command)}), and no user name and password are configured for this server: give them (the user and password options, locator fetch --user and --password-stdin), or put a "machine" entry for the host in ~/.netrc, or name the host in netrcHosts (locator fetch --netrc-host) to let its entry or the "default" one be used; a redirect to another host carries none (RFC 4643 2.3)`,
        NNTP_AUTH_REQUIRED,
      );
    }
    for (const [name, v] of [
      ['user name', creds.user],
      ['password', creds.password],
    ] as const) {
      if (/[\r\n\0]/.test(v)) {
        throw new LocatorError(
          NNTP_AUTH_REQUIRED,
          -1,
          `the NNTP ${name} holds CR, LF or NUL, which would end the command`,
        );
      }
    }
    // From here on a server may quote the password (a 481 "bad password ..."): every later line
    // of the transcript, and every error, shows it masked (in any form it may take).
    this.conn.addSecrets(passwordSecrets(creds.password));
    this.#authenticated = true;
    const user = `AUTHINFO USER ${creds.user}`;
    let r = await this.command(user);
    if (r.code === 381) {
      await this.conn.write(`AUTHINFO PASS ${creds.password}\r\n`, 'AUTHINFO PASS ****');
      r = await this.readStatus();
      if (r.code !== 281) throw this.error(r, 'AUTHINFO PASS ****');
    } else if (r.code !== 281) {
      throw this.error(r, user);
    }
  }

  /**
   * The NntpReplyError for a failure reply (RFC 3977 3.2.1): `message` (default: one made of the
   * reply) and the error's replyText with the password given to AUTHINFO masked as "****", in
   * every form of it (../secrets.ts), as a server may quote it in any reply.
   */
  error(reply: Reply, command: string | null, message?: string, code?: string): NntpReplyError {
    const hide = (t: string) => this.conn.redact(t);
    return new NntpReplyError(
      { ...reply, text: hide(reply.text) },
      command,
      message === undefined ? undefined : hide(message),
      code,
    );
  }

  /**
   * A function giving the data of the multi-line block that follows a status line, dot-stuffing
   * undone (RFC 3977 3.1.1), line ends as sent; null after the "." line (what follows it stays
   * unread). A connection closed before the "." line is `connection-closed`.
   */
  blockReader(): () => Promise<Uint8Array | null> {
    return dotBlockReader(this.conn, {
      unstuff: 'any',
      closed: () =>
        new LocatorError(
          CONNECTION_CLOSED,
          -1,
          'the NNTP server closed the connection before the "." line that ends a multi-line reply (RFC 3977 3.1.1)',
        ),
      after: (rest) => this.conn.unread(rest),
    });
  }

  /** A function giving the lines (line ends cut) of the multi-line block; null after the last. */
  lineReader(): () => Promise<Uint8Array[] | null> {
    const next = this.blockReader();
    const split = new LineSplitter();
    let ended = false;
    return async () => {
      if (ended) return null;
      const data = await next();
      if (data === null) {
        ended = true;
        const last = split.end();
        return last === null ? [] : [last];
      }
      return split.push(data);
    };
  }

  /**
   * A function giving the multi-line block as a listing: each line decoded (decodeText) and
   * turned by `line` into listing text ("" to skip it), the text of a batch of lines as UTF-8;
   * null after the last.
   */
  listingReader(line: (text: string) => string): () => Promise<Uint8Array | null> {
    const lines = this.lineReader();
    return async () => {
      for (;;) {
        const batch = await lines();
        if (batch === null) return null;
        let out = '';
        for (const l of batch) out += line(decodeText(l));
        if (out !== '') return utf8.encode(out);
      }
    };
  }

  /** Reads a whole (small) multi-line block as text lines: at most `limit` octets. */
  async readTextBlock(limit: number): Promise<string[]> {
    const next = this.lineReader();
    const lines: string[] = [];
    let size = 0;
    for (let batch = await next(); batch !== null; batch = await next()) {
      for (const l of batch) {
        size += l.length + 2;
        if (size > limit) {
          throw new LocatorError(PROTOCOL_ERROR, -1, `the NNTP server sent a reply of more than ${limit} octets`);
        }
        lines.push(decodeText(l));
      }
    }
    return lines;
  }

  /**
   * QUIT (RFC 3977 5.4), its 205 waited for a second at most (any answer, or none, is fine: the
   * exchange is over), then the connection is closed.
   */
  async quit(): Promise<void> {
    try {
      await this.conn.write('QUIT\r\n');
      // The data is complete: the 205 is waited for briefly, not for the whole timeout.
      await briefly(this.readStatus(), Math.min(this.conn.timeout, QUIT_WAIT));
    } catch {
      // a server that closes without 205 changes nothing
    } finally {
      this.conn.note('info', `received ${this.conn.received} octets; connection closed`);
      this.conn.close();
    }
  }

  /** The one close path (Connection.close): with an error, every read fails with it. */
  close(e?: unknown): void {
    this.conn.close(e instanceof LocatorError ? e : undefined);
  }
}
