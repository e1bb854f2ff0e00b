// Pure parsers for the FTP control connection (RFC 959 4.2, RFC 2428 3): octets in, replies out.
// No I/O here. A reply split across packets is resumed: each call returns the complete replies
// and the `rest`, the octets of the reply not yet complete, to be put before the next chunk.
//
//   single line:  "226 Transfer complete.\r\n"
//   multi-line:   "211-Features:\r\n EPSV\r\n PASV\r\n211 End\r\n"
//                  ^ "xyz-" opens, any lines follow, the first line "xyz " (same code) closes

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';
import { CR, HYPHEN, SPACE } from '../framing/bytes.js';
import { lineText, parseReplies as readReplies, type ParsedReplies, type ReplyGrammar } from '../framing/reply.js';

/** One reply of the server (RFC 959 4.2). */
export interface FtpReply {
  /** The three-digit reply code. */
  code: number;
  /** The lines as received (without CR LF), for the transcript. */
  lines: string[];
  /** The text: each line with its "xyz-" / "xyz " prefix removed, joined by "\n". */
  text: string;
}

export type { ParsedReplies };

/** The longest reply accepted, all lines together; more is a protocol error, not a memory sink. */
export const MAX_REPLY_OCTETS = 64 * 1024;

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 48 && c <= 57;
}

/**
 * The code of a reply's first line, or -1 when the line does not start a reply: three digits,
 * the first 1-5 (RFC 959 4.2: "The first digit ... there are five values"), then a space, a
 * hyphen or the end of the line.
 */
function codeAt(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < 3) return -1;
  const a = bytes[start];
  if (a < 49 || a > 53 || !isDigit(bytes[start + 1]) || !isDigit(bytes[start + 2])) return -1;
  if (end - start > 3) {
    const sep = bytes[start + 3];
    if (sep !== SPACE && sep !== HYPHEN && sep !== CR) return -1;
  }
  return (a - 48) * 100 + (bytes[start + 1] - 48) * 10 + (bytes[start + 2] - 48);
}

/** True when the line [start, end) closes a multi-line reply of `code`: "xyz " or bare "xyz". */
function closesReply(bytes: Uint8Array, start: number, end: number, code: number): boolean {
  if (end - start < 3) return false;
  if (
    bytes[start] - 48 !== Math.floor(code / 100) ||
    bytes[start + 1] - 48 !== Math.floor(code / 10) % 10 ||
    bytes[start + 2] - 48 !== code % 10
  )
    return false;
  return end - start === 3 || bytes[start + 3] === SPACE || (end - start === 4 && bytes[start + 3] === CR);
}

function reply(code: number, lines: string[]): FtpReply {
  const text = lines
    .map((l) =>
      l.length >= 4 && (l.charCodeAt(3) === SPACE || l.charCodeAt(3) === HYPHEN) && l.startsWith(String(code))
        ? l.slice(4)
        : l.length === 3 && l === String(code)
          ? ''
          : l,
    )
    .join('\n');
  return { code, lines, text };
}

/**
 * FTP's reply grammar (RFC 959 4.2): "xyz-" opens a multi-line reply whose lines may be anything
 * until the first "xyz " (same code) closes it; "xyz " alone is a single-line reply.
 */
export const FTP_REPLIES: ReplyGrammar<FtpReply> = {
  maxOctets: MAX_REPLY_OCTETS,
  codeOf: codeAt,
  ends: (bytes, start, end, code, first) =>
    first ? !(end - start > 3 && bytes[start + 3] === HYPHEN) : closesReply(bytes, start, end, code),
  reply,
  notAReply(bytes, start, end) {
    const shown = lineText(bytes, start, Math.min(end, start + 80));
    return new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `the FTP server sent ${JSON.stringify(shown)}, which is not a reply: a reply starts with a three-digit code (RFC 959 4.2)`,
    );
  },
  tooLong: () =>
    new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `the FTP server sent a reply longer than ${MAX_REPLY_OCTETS} octets (RFC 959 4.2)`,
    ),
};

/**
 * Reads every complete reply in `input` (RFC 959 4.2) with the framing engine and FTP_REPLIES.
 * Throws `protocol-error` when a reply does not start with a code, or when one reply grows past
 * MAX_REPLY_OCTETS.
 */
export function parseReplies(input: Uint8Array): ParsedReplies<FtpReply> {
  return readReplies(input, FTP_REPLIES);
}

/**
 * The port of an EPSV reply (RFC 2428 3): "229 Entering Extended Passive Mode (|||6446|)": the
 * text in parentheses is four delimiters, empty network protocol and address, the port, a
 * fourth delimiter; the delimiter is any character from 33 to 126. Null when it is malformed.
 */
export function parseEpsv(text: string): number | null {
  const open = text.indexOf('(');
  if (open < 0 || open + 5 > text.length) return null;
  const d = text.charCodeAt(open + 1);
  if (d < 33 || d > 126 || text.charCodeAt(open + 2) !== d || text.charCodeAt(open + 3) !== d) return null;
  let i = open + 4;
  let port = 0;
  const start = i;
  while (i < text.length && isDigit(text.charCodeAt(i)) && i - start < 6) port = port * 10 + text.charCodeAt(i++) - 48;
  if (i === start || text.charCodeAt(i) !== d || text.charCodeAt(i + 1) !== 41) return null;
  return port >= 1 && port <= 65535 ? port : null;
}

/**
 * The port of a PASV reply (RFC 959 4.1.2, 227): "Entering Passive Mode (h1,h2,h3,h4,p1,p2)";
 * the port is p1 * 256 + p2. The six numbers are found wherever they stand (servers differ about
 * the parentheses). The address is returned too, though the client does not use it (client.ts).
 */
export function parsePasv(text: string): { address: string; port: number } | null {
  for (let i = 0; i < text.length; i++) {
    if (!isDigit(text.charCodeAt(i)) || (i > 0 && isDigit(text.charCodeAt(i - 1)))) continue;
    const nums: number[] = [];
    let j = i;
    while (nums.length < 6) {
      const s = j;
      let n = 0;
      while (j < text.length && isDigit(text.charCodeAt(j)) && j - s < 3) n = n * 10 + text.charCodeAt(j++) - 48;
      if (j === s || n > 255 || isDigit(text.charCodeAt(j))) break;
      nums.push(n);
      if (nums.length < 6) {
        if (text.charCodeAt(j) !== 44) break;
        j++;
      }
    }
    if (nums.length === 6) {
      const port = nums[4] * 256 + nums[5];
      if (port === 0) return null;
      return { address: nums.slice(0, 4).join('.'), port };
    }
  }
  return null;
}

/**
 * The size a 150 reply announces, "(N bytes)", as vsftpd, wu-ftpd and others write it; null
 * when absent. RFC 959 does not define it: it is a hint, used only for meta.size.
 */
export function announcedSize(text: string): number | null {
  const at = text.lastIndexOf(' bytes)');
  if (at < 0) return null;
  let i = at;
  while (i > 0 && isDigit(text.charCodeAt(i - 1))) i--;
  if (i === at || text.charCodeAt(i - 1) !== 40 || at - i > 15) return null;
  return Number(text.slice(i, at));
}
