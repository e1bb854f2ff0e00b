// The one reply reader over a Connection for the code-and-text protocols (RFC 959 4.2, RFC 5321
// 4.2, RFC 3977 3.1): chunks in, whole replies out through a grammar (./reply.ts), each line to
// the transcript; a failure closes the connection through the session's one close path.

import { LocatorError } from '../../core/errors.js';
import type { Connection } from '../connection.js';
import { CONNECTION_CLOSED } from '../types.js';
import { concat } from './bytes.js';
import { parseReplies, type ReplyGrammar } from './reply.js';
import { undot, type DotState, type Unstuff } from './dot.js';

export interface ReplyReaderOptions<R> {
  /** The connection to read (a function: STARTTLS changes it). */
  conn: () => Connection;
  grammar: ReplyGrammar<R>;
  /** The lines of a reply as the transcript shows them (secrets masked). */
  shown: (reply: R) => string[];
  /** The error when the server closes before a full reply; `partial` names what it had sent. */
  closed: (partial: string, rest: Uint8Array) => LocatorError;
  /**
   * One reply per read, what follows it put back on the connection (the NNTP status line before
   * a data block, RFC 3977 3.1), instead of the replies kept in order (FTP, SMTP).
   */
  single?: boolean;
  /** The grammar's error about `input` as it may be shown (default: as it is). */
  shownError?: (e: LocatorError, input: Uint8Array) => LocatorError;
  /** Closes the session with the error (default: the connection). */
  fail?: (e: LocatorError) => void;
}

const EMPTY = new Uint8Array(0);

/** Reads replies one at a time; the replies after the one asked for wait in order. */
export class ReplyReader<R> {
  #rest: Uint8Array = EMPTY;
  readonly #pending: R[] = [];
  readonly #o: ReplyReaderOptions<R>;

  constructor(options: ReplyReaderOptions<R>) {
    this.#o = options;
  }

  /** True when octets or replies wait that the caller has not read (refused before STARTTLS, RFC 3207 4.2). */
  get buffered(): boolean {
    return this.#rest.length > 0 || this.#pending.length > 0;
  }

  /**
   * The next reply. Fails with the connection's error (timeout, aborted), the `closed` error when
   * the server closes before a full reply, or the grammar's `protocol-error`.
   */
  async next(): Promise<R> {
    while (this.#pending.length === 0) {
      const conn = this.#o.conn();
      const chunk = await conn.read();
      if (chunk === null) {
        const partial = this.#rest.length > 0 ? ` (it had sent ${this.#rest.length} octets of a reply)` : '';
        throw this.#fail(this.#o.closed(partial, this.#rest));
      }
      const input = concat(this.#rest, chunk);
      let parsed;
      try {
        parsed = parseReplies(input, this.#o.grammar, this.#o.single ? 1 : Infinity);
      } catch (e) {
        const err = e as LocatorError;
        throw this.#fail(this.#o.shownError?.(err, input) ?? err);
      }
      if (this.#o.single && parsed.replies.length > 0) {
        conn.unread(parsed.rest);
        this.#rest = EMPTY;
      } else this.#rest = parsed.rest;
      for (const r of parsed.replies) {
        for (const line of this.#o.shown(r)) conn.note('receive', line);
        this.#pending.push(r);
      }
    }
    return this.#pending.shift()!;
  }

  #fail(e: LocatorError): LocatorError {
    if (this.#o.fail !== undefined) this.#o.fail(e);
    else this.#o.conn().close(e);
    return e;
  }
}

/**
 * A function giving the data of a dot-terminated block read from `conn` (RFC 3977 3.1.1, RFC
 * 1436 3.9), dot-stuffing undone as `unstuff` says, line ends as sent: each call the next data,
 * then `end()` once the "." line was read (`after` has been given what followed it). A connection
 * closed before the "." line fails with `closed()`.
 */
export function dotBlockReader(
  conn: Connection,
  options: {
    unstuff: Unstuff;
    closed: () => LocatorError;
    after?: (rest: Uint8Array) => void;
    end?: () => null;
  },
): () => Promise<Uint8Array | null> {
  const state: DotState = { atLineStart: true };
  let pending: Uint8Array = EMPTY;
  let done = false;
  return async () => {
    for (;;) {
      if (done) return options.end?.() ?? null;
      const c = await conn.read();
      if (c === null) throw options.closed();
      const r = undot(concat(pending, c), state, options.unstuff);
      pending = r.pending;
      if (r.done) {
        done = true;
        options.after?.(r.rest);
      }
      if (r.data.length > 0) return r.data;
    }
  };
}

/**
 * Waits for `answer` at most `ms` milliseconds, and never throws: the answer to QUIT (RFC 959
 * 4.1.1, RFC 5321 4.1.1.10, RFC 3977 5.4), which changes nothing once the exchange is over.
 */
export async function briefly(answer: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      answer,
      new Promise((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
  } catch {
    // a server that closes, or answers badly, after QUIT changes nothing
  } finally {
    clearTimeout(timer);
  }
}
