// Pure parsers for SMTP replies (RFC 5321 4.2, 4.2.1; RFC 2034 for enhanced status codes; RFC
// 1869 / RFC 5321 4.1.1.1 for the EHLO keywords): octets in, replies out. No I/O here. A reply
// split across packets is resumed: each call returns the complete replies and the `rest`, the
// octets of the reply not yet complete, to be put before the next chunk.
//
//   single line:  "250 2.0.0 Ok: queued as 3f515ec4\r\n"
//   multi-line:   "250-mail.example.test\r\n250-8BITMIME\r\n250 HELP\r\n"
//                  every line but the last is "xyz-", the last "xyz " (or bare "xyz"), same code

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';
import { CR, HYPHEN, SPACE } from '../framing/bytes.js';
import { lineText, parseReplies as readReplies, type ParsedReplies, type ReplyGrammar } from '../framing/reply.js';

/** One reply of the server (RFC 5321 4.2). */
export interface SmtpReply {
  /** The three-digit reply code. */
  code: number;
  /** The lines as received (without CR LF), for the transcript. */
  lines: string[];
  /** The text of each line, its "xyz-" / "xyz " prefix removed. */
  texts: string[];
  /** The enhanced status code of the first line ("2.0.0", RFC 3463 / RFC 2034), else null. */
  enhanced: string | null;
}

export type { ParsedReplies };

/**
 * The longest reply accepted, all lines together: RFC 5321 4.5.3.1.5 limits a reply line to 512
 * octets, and an EHLO reply has a few dozen lines; a reply that goes on past this is a protocol
 * error, not a memory sink.
 */
export const MAX_REPLY_OCTETS = 64 * 1024;

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 48 && c <= 57;
}

/**
 * The code of a reply line, or -1 when it is not one (RFC 5321 4.2: Reply-line = *(Reply-code "-"
 * [textstring] CRLF) Reply-code [SP textstring] CRLF; 4.2.1: the first digit is 2 to 5, the
 * second 0 to 5). The line is [start, end) without its LF; a CR before the LF is allowed.
 */
function codeAt(bytes: Uint8Array, start: number, end: number): number {
  if (end > start && bytes[end - 1] === CR) end--;
  if (end - start < 3) return -1;
  const a = bytes[start];
  const b = bytes[start + 1];
  if (a < 50 || a > 53 || b < 48 || b > 53 || !isDigit(bytes[start + 2])) return -1;
  if (end - start > 3 && bytes[start + 3] !== SPACE && bytes[start + 3] !== HYPHEN) return -1;
  return (a - 48) * 100 + (b - 48) * 10 + (bytes[start + 2] - 48);
}

function garbage(bytes: Uint8Array, start: number, end: number): LocatorError {
  const shown = lineText(bytes, start, Math.min(end, start + 80));
  return new LocatorError(
    PROTOCOL_ERROR,
    -1,
    `the SMTP server sent ${JSON.stringify(shown)}, which is not a reply line: a reply line is a three-digit code from 200 to 559, then " ", "-" or the end of the line (RFC 5321 4.2)`,
  );
}

/** The enhanced status code at the start of a reply text ("2.1.5 Ok"), RFC 3463 2; else null. */
export function enhancedCode(text: string, code: number): string | null {
  const m = /^([245])\.(\d{1,3})\.(\d{1,3})(?: |$)/.exec(text);
  return m !== null && Number(m[1]) === Math.floor(code / 100) ? `${m[1]}.${m[2]}.${m[3]}` : null;
}

function reply(code: number, lines: string[]): SmtpReply {
  const texts = lines.map((l) => (l.length > 4 ? l.slice(4) : ''));
  return { code, lines, texts, enhanced: enhancedCode(texts[0], code) };
}

/**
 * SMTP's reply grammar (RFC 5321 4.2): every line is a reply line; "xyz-" goes on, "xyz " (or
 * bare "xyz") ends the reply. A line that is not a reply line, or one that changes the code
 * (RFC 5321 4.2.1: "the same reply code" on every line), is a protocol error.
 */
export const SMTP_REPLIES: ReplyGrammar<SmtpReply> = {
  maxOctets: MAX_REPLY_OCTETS,
  codeOf: codeAt,
  ends(bytes, start, end, code, first) {
    if (!first) {
      const c = codeAt(bytes, start, end);
      if (c < 0) throw garbage(bytes, start, end);
      if (c !== code) {
        throw new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the SMTP server changed the reply code from ${code} to ${c} inside one multi-line reply (RFC 5321 4.2.1)`,
        );
      }
    }
    return !(end - start > 3 && bytes[start + 3] === HYPHEN);
  },
  reply,
  notAReply: garbage,
  tooLong: () =>
    new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `the SMTP server sent a reply longer than ${MAX_REPLY_OCTETS} octets without ending it (RFC 5321 4.5.3.1.5: a reply line has at most 512)`,
    ),
};

/**
 * Reads every complete reply in `input` (RFC 5321 4.2) with the framing engine and SMTP_REPLIES.
 * Throws `protocol-error` when a line is not a reply line, when the lines of one reply change
 * code, or when one reply grows past MAX_REPLY_OCTETS.
 */
export function parseReplies(input: Uint8Array): ParsedReplies<SmtpReply> {
  return readReplies(input, SMTP_REPLIES);
}

/**
 * The service extensions an EHLO reply announces (RFC 5321 4.1.1.1, RFC 1869 4.3): every line
 * after the first is "keyword [params]". Keywords are upper-cased (they are case-insensitive);
 * the value is the parameter text ("" when none), e.g. SIZE -> "36700160", AUTH -> "LOGIN PLAIN".
 */
export function parseEhlo(r: SmtpReply): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of r.texts.slice(1)) {
    const trimmed = t.trim();
    if (trimmed === '') continue;
    const sp = trimmed.search(/[ =]/);
    const key = (sp < 0 ? trimmed : trimmed.slice(0, sp)).toUpperCase();
    if (!/^[A-Z0-9][A-Z0-9-]*$/.test(key)) continue;
    out.set(key, sp < 0 ? '' : trimmed.slice(sp + 1).trim());
  }
  return out;
}

/**
 * The queue id a 250 reply to the end of DATA gives, when it names one: OpenSMTPD "2.0.0 3f515ec4
 * Message accepted for delivery", Postfix "2.0.0 Ok: queued as 4Fj1x...", Exim "OK id=1abc-...".
 * Null when none is found. No RFC defines it (RFC 5321 4.2 leaves the text free): a hint.
 */
export function queueId(r: SmtpReply): string | null {
  const t = r.texts.join(' ');
  const m =
    /queued as ([A-Za-z0-9._-]+)/i.exec(t) ??
    /\bid=([A-Za-z0-9._-]+)/.exec(t) ??
    /^(?:\d\.\d{1,3}\.\d{1,3} )?([0-9a-f]{8,16}) Message accepted/i.exec(t);
  return m === null ? null : m[1];
}
