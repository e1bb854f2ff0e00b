// The one reply parser of the code-and-text protocols (FTP RFC 959 4.2, SMTP RFC 5321 4.2, NNTP
// RFC 3977 3.1), in the manner of curl's pingpong.c: one engine that cuts lines and bounds a
// reply, and per protocol a grammar that says where a reply starts and where it ends. Pure: octets
// in, replies out; a reply split across chunks is resumed from the `rest`.

import type { LocatorError } from '../../core/errors.js';
import { CR, LF } from './bytes.js';

/** What a protocol tells the engine (curl's pingpong `statemachine` and `endofresp`). */
export interface ReplyGrammar<R> {
  /** The longest reply accepted, all lines together, while it is unfinished (a bound, not a sink). */
  readonly maxOctets: number;
  /** The code of a line [start, end) (LF excluded) that starts a reply, or -1 when it does not. */
  codeOf(bytes: Uint8Array, start: number, end: number): number;
  /**
   * True when the line [start, end) ends the reply of `code` (`first`: its first line). May throw
   * for a line the protocol refuses inside a reply.
   */
  ends(bytes: Uint8Array, start: number, end: number, code: number, first: boolean): boolean;
  /** A line's text (default: lineText, UTF-8). */
  text?(bytes: Uint8Array, start: number, end: number): string;
  /** The reply of `code` from its lines' text. */
  reply(code: number, lines: string[]): R;
  /** The error for a line [start, end) that starts no reply. */
  notAReply(bytes: Uint8Array, start: number, end: number): LocatorError;
  /** The error for an unfinished reply longer than maxOctets. */
  tooLong(): LocatorError;
}

export interface ParsedReplies<R> {
  replies: R[];
  /** Octets of an incomplete reply (or, with `limit`, of the replies after it): give them back. */
  rest: Uint8Array;
}

let decoder: TextDecoder | undefined;

/**
 * A line's octets as text without the CR before its LF: UTF-8 (RFC 2640 2.2 for FTP, RFC 6531
 * for SMTP), anything else as U+FFFD.
 */
export function lineText(bytes: Uint8Array, start: number, end: number): string {
  if (end > start && bytes[end - 1] === CR) end--;
  decoder ??= new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  return decoder.decode(bytes.subarray(start, end));
}

/**
 * Reads the complete replies in `input` (at most `limit`, when given; what follows stays in
 * `rest`). A line ends at LF; a CR before it is dropped. Throws the grammar's errors for a line
 * that starts no reply, a line it refuses, or an unfinished reply past maxOctets.
 * DEVIATION: RFC 959 4.2, RFC 5321 2.3.8 and RFC 3977 3.1 end lines with CR LF; a bare LF is
 * accepted too, as every client does.
 */
export function parseReplies<R>(input: Uint8Array, grammar: ReplyGrammar<R>, limit = Infinity): ParsedReplies<R> {
  const replies: R[] = [];
  const text = grammar.text ?? lineText;
  let pos = 0; // where the reply being read starts
  outer: while (pos < input.length && replies.length < limit) {
    let end = input.indexOf(LF, pos);
    if (end < 0) break;
    const code = grammar.codeOf(input, pos, end);
    if (code < 0) throw grammar.notAReply(input, pos, end);
    const lines = [text(input, pos, end)];
    let done = grammar.ends(input, pos, end, code, true);
    while (!done) {
      if (end + 1 - pos > grammar.maxOctets) throw grammar.tooLong();
      const start = end + 1;
      end = input.indexOf(LF, start);
      if (end < 0) break outer;
      done = grammar.ends(input, start, end, code, false);
      lines.push(text(input, start, end));
    }
    replies.push(grammar.reply(code, lines));
    pos = end + 1;
  }
  const rest = input.subarray(pos);
  if (replies.length < limit && rest.length > grammar.maxOctets) throw grammar.tooLong();
  return { replies, rest };
}
