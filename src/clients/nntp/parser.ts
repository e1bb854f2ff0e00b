// Pure parsers of what an NNTP server sends (RFC 3977; RFC 977 is its first edition): status
// lines, the dot-stuffed multi-line data blocks, CAPABILITIES lists, overview lines, LIST ACTIVE
// lines and article headers, and the encoded-words of RFC 2047 in header text. No networking
// here: every function takes octets or text and returns values, so each is tested alone.

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';
import { undot, type DotChunk, type DotState } from '../framing/dot.js';
import { LineSplitter as Lines } from '../framing/lines.js';
import { lineEnd } from '../framing/bytes.js';
import type { ReplyGrammar } from '../framing/reply.js';

/** A status line (RFC 3977 3.1): three digits, then the rest of the line (its arguments). */
export interface Reply {
  code: number;
  text: string;
}

/** The longest status line accepted (RFC 3977 3.1: 512 octets; some slack for old servers). */
export const MAX_STATUS_LINE = 2048;
/** The longest line of a listing (overview, LIST ACTIVE, headers) accepted. */
export const MAX_DATA_LINE = 256 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('windows-1252');

/**
 * Header and listing text as UTF-8 (RFC 3977 3.1: UTF-8 is the charset of responses), or, when
 * the octets are not UTF-8, as Windows-1252.
 *
 * DEVIATION: RFC 3977 3.2 lets a client treat such octets as an error; old articles carry 8-bit
 * headers in a local charset, most often Latin-1, which is shown rather than lost to U+FFFD.
 */
export function decodeText(octets: Uint8Array): string {
  try {
    return decoder.decode(octets);
  } catch {
    return latin1.decode(octets);
  }
}

/**
 * Reads one status line (RFC 3977 3.1, 3.2): "ddd" alone or "ddd text". The line end (CR LF, or
 * a lone LF) must be gone. Anything else is a protocol error naming the line.
 */
export function parseReply(line: string): Reply {
  const m = /^([1-5][0-9][0-9])(?:[ \t](.*))?$/s.exec(line);
  if (m === null) {
    throw new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `the NNTP server sent ${JSON.stringify(line.slice(0, 80))}, not a status line ("ddd text", RFC 3977 3.2)`,
    );
  }
  return { code: Number(m[1]), text: m[2] ?? '' };
}

/** A status line as read from the wire: the reply and the line itself, for the transcript. */
export interface StatusLine extends Reply {
  line: string;
}

/**
 * NNTP's reply grammar for the framing engine (RFC 3977 3.1): a reply is one status line, at most
 * MAX_STATUS_LINE octets, its text decodeText's.
 */
export const NNTP_STATUS: ReplyGrammar<StatusLine> = {
  maxOctets: MAX_STATUS_LINE,
  text: (bytes, start, end) => decodeText(bytes.subarray(start, lineEnd(bytes, start, end))),
  codeOf(bytes, start, end) {
    try {
      return parseReply(NNTP_STATUS.text!(bytes, start, end)).code;
    } catch {
      return -1;
    }
  },
  ends: () => true,
  reply: (_code, lines) => ({ ...parseReply(lines[0]), line: lines[0] }),
  notAReply(bytes, start, end) {
    try {
      parseReply(NNTP_STATUS.text!(bytes, start, end));
    } catch (e) {
      return e as LocatorError;
    }
    return new LocatorError(PROTOCOL_ERROR, -1, 'the NNTP server sent a line that is not a status line (RFC 3977 3.2)');
  },
  tooLong: () =>
    new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `the NNTP server sent a status line of more than ${MAX_STATUS_LINE} octets (RFC 3977 3.1: at most 512)`,
    ),
};

export type { DotState } from '../framing/dot.js';

/**
 * Undoes the dot-stuffing of a multi-line data block (RFC 3977 3.1.1): a line that starts with
 * "." loses that "."; the line "." alone ends the block. Takes the octets received so far (after
 * the status line) and returns the data in them (line ends kept as sent), the octets it could not
 * judge yet (a "." or ".\r" at the end, which the next chunk decides), what follows the block
 * (when done), and whether the block ended. The framing core's decoder (../framing/dot.ts).
 */
export function undotChunk(buf: Uint8Array, state: DotState): DotChunk {
  return undot(buf, state, 'any');
}

/**
 * Splits the data of a listing (RFC 3977 3.1.1: CR LF ends each line) into whole lines (their CR
 * LF, or a lone LF, cut off), keeping an unfinished last line for the next call. A line longer
 * than MAX_DATA_LINE is a protocol error. The framing core's splitter (../framing/lines.ts).
 */
export class LineSplitter extends Lines {
  constructor() {
    super(
      MAX_DATA_LINE,
      (max) => new LocatorError(PROTOCOL_ERROR, -1, `the NNTP server sent a line of more than ${max} octets`),
    );
  }
}

/**
 * A CAPABILITIES list (RFC 3977 5.2): one capability per line, its label first (case-insensitive)
 * and then arguments. Returns the labels upper-cased, each with its arguments.
 */
export function parseCapabilities(lines: string[]): Map<string, string[]> {
  const caps = new Map<string, string[]>();
  for (const line of lines) {
    const words = line.trim().split(/[ \t]+/);
    if (words[0] === '') continue;
    caps.set(words[0].toUpperCase(), words.slice(1));
  }
  return caps;
}

// ---------------------------------------------------------------------------------------------
// Header text (RFC 2047)

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

function charsetDecoder(charset: string): TextDecoder | null {
  // RFC 2231 5: a language may follow the charset ("utf-8*en").
  const name = charset.replace(/\*.*$/, '');
  try {
    return new TextDecoder(name);
  } catch {
    return null;
  }
}

function wordOctets(encoding: string, text: string): Uint8Array | null {
  if (encoding === 'B' || encoding === 'b') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
    return Uint8Array.from(Buffer.from(text, 'base64'));
  }
  // Q (RFC 2047 4.2): "_" is a space, "=XX" an octet.
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 95) out.push(32);
    else if (c === 61) {
      const h = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(h)) return null;
      out.push(parseInt(h, 16));
      i += 2;
    } else out.push(c & 0xff);
  }
  return Uint8Array.from(out);
}

/**
 * Decodes the encoded-words of a header value (RFC 2047 2, 4, 6.2): "=?charset?B|Q?text?=" stands
 * for the text in that charset; white space between two adjacent encoded-words is dropped
 * (RFC 2047 6.2). A word in an unknown charset, or malformed, is left as it is.
 */
export function decodeEncodedWords(value: string): string {
  if (!value.includes('=?')) return value;
  let out = '';
  let last = 0;
  let previousWasWord = false;
  for (const m of value.matchAll(ENCODED_WORD)) {
    const start = m.index;
    const between = value.slice(last, start);
    const dec = charsetDecoder(m[1]);
    const octets = dec === null ? null : wordOctets(m[2], m[3]);
    if (dec === null || octets === null) {
      out += between + m[0];
      previousWasWord = false;
    } else {
      if (!(previousWasWord && /^[ \t\r\n]*$/.test(between))) out += between;
      out += dec.decode(octets);
      previousWasWord = true;
    }
    last = start + m[0].length;
  }
  return out + value.slice(last);
}

/**
 * A field of a listing line (docs/news.md; RFC 3977 8.3.2 does the same in overview fields): TAB,
 * CR and LF, which separate fields and lines, become spaces.
 */
export function field(value: string): string {
  return value.replace(/[\t\r\n]/g, ' ');
}

// ---------------------------------------------------------------------------------------------
// Listings

/** One article of a group listing: its number and the header fields a reader shows. */
export interface OverviewEntry {
  number: string;
  subject: string;
  from: string;
  date: string;
  messageId: string;
  /** The article's size in octets (":bytes"), or "" when the server does not say. */
  bytes: string;
}

/**
 * One line of an OVER/XOVER reply (RFC 3977 8.3.2; RFC 2980 2.8): the article number, then
 * Subject, From, Date, Message-ID, References, :bytes and :lines, TAB-separated, in that order,
 * whatever LIST OVERVIEW.FMT says of the fields after them. Returns null for a line that does not
 * start with an article number (RFC 3977 8.3.2: the server should not send one; it is skipped).
 */
export function parseOverviewLine(line: string): OverviewEntry | null {
  const f = line.split('\t');
  if (!/^[0-9]+$/.test(f[0] ?? '')) return null;
  const at = (i: number) => (f[i] ?? '').trim();
  return {
    number: String(BigInt(f[0])),
    subject: at(1),
    from: at(2),
    date: at(3),
    messageId: at(4),
    bytes: /^[0-9]+$/.test(at(6)) ? at(6) : '',
  };
}

/**
 * The header of an article (RFC 5536 3, RFC 5322 2.2): "Name: value" lines, a line starting with
 * white space continuing the one before (folding, RFC 5322 2.2.3). Returns the fields by lower-
 * cased name (the first of each), values unfolded.
 */
export function parseHeaders(lines: string[]): Map<string, string> {
  const headers = new Map<string, string>();
  let name: string | null = null;
  let value = '';
  const flush = () => {
    if (name !== null && !headers.has(name)) headers.set(name, value.trim());
    name = null;
  };
  for (const line of lines) {
    if (line === '') break;
    if ((line[0] === ' ' || line[0] === '\t') && name !== null) {
      value += ' ' + line.trim();
      continue;
    }
    flush();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    name = line.slice(0, colon).trim().toLowerCase();
    value = line.slice(colon + 1);
  }
  flush();
  return headers;
}

/** An overview entry from the header of a HEAD reply (RFC 3977 6.2.2): no size unless a Bytes header gives it. */
export function entryFromHeaders(number: string, headers: Map<string, string>): OverviewEntry {
  const bytes = headers.get('bytes') ?? '';
  return {
    number,
    subject: headers.get('subject') ?? '',
    from: headers.get('from') ?? '',
    date: headers.get('date') ?? '',
    messageId: headers.get('message-id') ?? '',
    bytes: /^[0-9]+$/.test(bytes) ? bytes : '',
  };
}

/** The message-id without its angle brackets (RFC 1738 3.6 writes it so), or null when it is not one. */
export function bareMessageId(id: string): string | null {
  const m = /^<([^<>\s]+@[^<>\s]+)>$/.exec(id.trim());
  return m === null ? null : m[1];
}

/**
 * The line of a group listing for one article: number, subject, from, date, bytes and url,
 * TAB-separated, LF-terminated, header text decoded from encoded-words (RFC 2047).
 */
export function overviewListingLine(e: OverviewEntry, url: string): string {
  return (
    [
      e.number,
      field(decodeEncodedWords(e.subject)),
      field(decodeEncodedWords(e.from)),
      field(e.date),
      e.bytes,
      field(url),
    ].join('\t') + '\n'
  );
}

/** One line of LIST ACTIVE (RFC 3977 7.6.3): group, high water mark, low water mark, status. */
export interface ActiveEntry {
  group: string;
  high: string;
  low: string;
  status: string;
}

/** Reads a LIST ACTIVE line (RFC 3977 7.6.3; RFC 977 3.6.1), or null for one that is not "group high low status". */
export function parseActiveLine(line: string): ActiveEntry | null {
  const m = /^(\S+)[ \t]+([0-9]+)[ \t]+([0-9]+)[ \t]+(\S+)/.exec(line.trim());
  if (m === null) return null;
  return { group: m[1], high: String(BigInt(m[2])), low: String(BigInt(m[3])), status: m[4] };
}

/**
 * The line of the all-groups listing (news:*): group, high, low, status, url, TAB-separated. The
 * url is news:<group>, or "" when the name cannot be written in a news URL (RFC 1738 5 group).
 */
export function activeListingLine(e: ActiveEntry, url: string): string {
  return [field(e.group), e.high, e.low, field(e.status), url].join('\t') + '\n';
}
