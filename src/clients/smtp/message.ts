// The message a mailto URL's client composes (RFC 1738 3.5: the URL gives only the address; the
// header fields and the body come from the user): pure functions, octets out, no I/O.
//
//   RFC 5322 3.3 (Date), 3.4 (mailboxes), 3.6.4 (Message-ID), 2.1.1 (998-octet lines), 2.2.3 (folding)
//   RFC 2045 6.7 (quoted-printable), RFC 2047 (encoded words in Subject and display names)
//   RFC 5321 4.5.2 (dot-stuffing), 2.3.8 (CR LF line ends)

import { LocatorError } from '../../core/errors.js';
import { CRLF_TEXT as CRLF, concatBytes } from '../framing/bytes.js';
import { checkAddrSpec } from '../../schemes/mailto.js';
import { BODY_NOT_UTF8, INVALID_MAILBOX, SMTP_CONTROL, SMTP_LINE_BREAK, SMTP_TOO_LONG } from './errors.js';

/** What the user gives: everything of the message but the recipient, which the URL gives. */
export interface MailMessage {
  /** The sender: "user@host" or "Display Name <user@host>" (RFC 5322 3.4). */
  from: string;
  /** The Subject field (any Unicode; encoded as RFC 2047 words when not ASCII). */
  subject?: string;
  /** The body: text, or octets (US-ASCII or UTF-8). Line ends LF, CR LF or CR; sent as CR LF. */
  body?: string | Uint8Array;
  /** The Date field's time (default: now). */
  date?: Date;
  /** The Message-ID field, "<left@right>" (default: made by send()). */
  messageId?: string;
}

/** A mailbox (RFC 5322 3.4): an optional display name and the addr-spec. */
export interface Mailbox {
  name: string | null;
  address: string;
}

const enc = new TextEncoder();

/**
 * Refuses a value that holds CR, LF or NUL (RFC 1738 6, RFC 5321 2.3.8): in a header field it
 * would end the field and start another; in a command, end the command and start another.
 */
export function assertNoLineBreak(what: string, value: string): void {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 13 || c === 10 || c === 0) {
      throw new LocatorError(
        SMTP_LINE_BREAK,
        -1,
        `${what} holds ${c === 0 ? 'NUL' : c === 13 ? 'CR' : 'LF'} at character ${i}: it would end the line early and start another (RFC 1738 6, RFC 5321 2.3.8); nothing was sent`,
      );
    }
  }
}

/**
 * Refuses a header field value that holds a control character (RFC 5322 3.2.5: unstructured text
 * is VCHAR and WSP; RFC 2047 5 keeps controls out of encoded words too): C0 other than TAB, DEL,
 * and C1 (U+0080-U+009F). ESC or BEL in a Subject would reach the reader's terminal. CR, LF and
 * NUL are `smtp-line-break` (assertNoLineBreak), checked first.
 */
export function assertNoControl(field: string, value: string): void {
  assertNoLineBreak(`the ${field}`, value);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 32 && c !== 9) || (c >= 0x7f && c <= 0x9f)) {
      throw new LocatorError(
        SMTP_CONTROL,
        -1,
        `the ${field} holds the control character U+${c.toString(16).toUpperCase().padStart(4, '0')} at character ${i} (RFC 5322 3.2.5): refused; nothing was sent`,
      );
    }
  }
}

/** RFC 5321 4.5.3.1.1-3: the longest local-part, domain and path (with its "<" ">"), in octets. */
export const MAX_LOCAL_PART = 64;
export const MAX_DOMAIN = 255;
export const MAX_PATH = 256;
/** RFC 5321 4.5.3.1.4: the longest command line, CR LF included. */
export const MAX_COMMAND_LINE = 512;

function tooLong(what: string, octets: number, limit: number, section: string): LocatorError {
  return new LocatorError(
    SMTP_TOO_LONG,
    -1,
    `${what} is ${octets} octets, longer than the ${limit} that ${section} allows; nothing was sent`,
  );
}

/** Refuses a command line (without its CR LF) longer than RFC 5321 4.5.3.1.4 allows. */
export function checkCommandLength(what: string, line: string): void {
  const n = enc.encode(line).length + 2;
  if (n > MAX_COMMAND_LINE)
    throw tooLong(`${what} (the command line, CR LF included)`, n, MAX_COMMAND_LINE, 'RFC 5321 4.5.3.1.4');
}

/** Checks an addr-spec (RFC 5322 3.4.1 / RFC 822 6.1) given as plain text, not as a URL. */
export function checkAddress(what: string, address: string): void {
  assertNoLineBreak(what, address);
  // RFC 5321 4.5.3.1: the sizes of the parts, before the grammar (a long value is not scanned).
  const at = address.lastIndexOf('@');
  const local = enc.encode(at < 0 ? address : address.slice(0, at)).length;
  const domain = at < 0 ? 0 : enc.encode(address.slice(at + 1)).length;
  if (local > MAX_LOCAL_PART) throw tooLong(`the local-part of ${what}`, local, MAX_LOCAL_PART, 'RFC 5321 4.5.3.1.1');
  if (domain > MAX_DOMAIN) throw tooLong(`the domain of ${what}`, domain, MAX_DOMAIN, 'RFC 5321 4.5.3.1.2');
  const path = enc.encode(`<${address}>`).length;
  if (path > MAX_PATH) throw tooLong(`the path of ${what}`, path, MAX_PATH, 'RFC 5321 4.5.3.1.3');
  // checkAddrSpec reads "%XX" as an escape: a literal "%" is given to it as "%25".
  const asUrl = address.split('%').join('%25');
  const problem = checkAddrSpec(asUrl, 0, asUrl.length);
  if (problem !== null) {
    throw new LocatorError(
      INVALID_MAILBOX,
      -1,
      `${what} ${JSON.stringify(address)} is not an addr-spec: ${problem.message}`,
    );
  }
}

/**
 * Reads a sender (RFC 5322 3.4): "user@host", "<user@host>", or a display name before "<...>"
 * (a quoted string or words, any Unicode). Throws `invalid-mailbox` or `smtp-line-break`.
 */
export function parseMailbox(text: string): Mailbox {
  assertNoControl('sender', text);
  const t = text.trim();
  let name: string | null = null;
  let address = t;
  if (t.endsWith('>')) {
    const lt = t.lastIndexOf('<');
    if (lt < 0) throw new LocatorError(INVALID_MAILBOX, -1, `the sender ${JSON.stringify(text)} has ">" but no "<"`);
    address = t.slice(lt + 1, -1).trim();
    let n = t.slice(0, lt).trim();
    if (n.length >= 2 && n.startsWith('"') && n.endsWith('"')) n = n.slice(1, -1).replace(/\\(.)/g, '$1');
    name = n === '' ? null : n;
  }
  checkAddress('the sender', address);
  return { name, address };
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 126) return false;
  return true;
}

/** RFC 5322 3.2.3 atext, with the spaces between words of a phrase. */
function isPhrase(s: string): boolean {
  return /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+(?: [A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/.test(s);
}

/**
 * RFC 2047 encoded words ("=?UTF-8?B?...?=") for text that is not ASCII, cut between characters,
 * never inside one (RFC 2047 5 (3)), joined by spaces (where headerField folds; a decoder drops
 * the white space between adjacent encoded words, RFC 2047 6.2). Each word carries at most 36
 * octets, 60 characters, so that a folded line holding one stays within 76 characters (RFC 2047
 * 2), "Subject: " included. ASCII text is returned as it is, unless `force` (a word too long to
 * fold, text that looks like an encoded word).
 */
export function encodeWords(text: string, force = false): string {
  if (!force && isAscii(text)) return text;
  const words: string[] = [];
  let chunk: number[] = [];
  for (const ch of text) {
    const bytes = enc.encode(ch);
    if (chunk.length + bytes.length > 36) {
      words.push(word(chunk));
      chunk = [];
    }
    chunk.push(...bytes);
  }
  if (chunk.length > 0) words.push(word(chunk));
  return words.join(' ');
}

function word(octets: number[]): string {
  return `=?UTF-8?B?${base64(Uint8Array.from(octets))}?=`;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 (RFC 2045 6.8) of a few octets, without line breaks. */
export function base64(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    out += i + 1 < b.length ? B64[(n >> 6) & 63] : '=';
    out += i + 2 < b.length ? B64[n & 63] : '=';
  }
  return out;
}

/** A mailbox as a header field writes it (RFC 5322 3.4): the name as a phrase, quoted or encoded. */
export function formatMailbox(m: Mailbox): string {
  if (m.name === null) return m.address;
  const name = needsWords(m.name)
    ? encodeWords(m.name, true)
    : isPhrase(m.name)
      ? m.name
      : `"${m.name.replace(/(["\\])/g, '\\$1')}"`;
  return `${name} <${m.address}>`;
}

/** The longest run of non-blank text kept as it is in a header field; a longer one is encoded. */
const MAX_PLAIN_WORD = 60;

/**
 * True when text must go as RFC 2047 encoded words: not ASCII, a word (or a run of white space
 * with the word after it) too long to fold within 78 octets (RFC 5322 2.1.1: folding happens
 * only at white space, so only encoded words can cut it), or something a decoder would take for
 * an encoded word ("=?").
 */
function needsWords(text: string): boolean {
  if (!isAscii(text) || text.includes('=?')) return true;
  // A run of white space and the word after it is what folding cannot cut.
  for (const piece of text.match(/[ \t]*[^ \t]*/g) ?? []) if (piece.length > MAX_PLAIN_WORD) return true;
  return false;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** The Date field (RFC 5322 3.3): "Mon, 23 Nov 2026 21:41:04 +0000", always in UTC. */
export function formatDate(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError('the message date is not a valid Date');
  return (
    `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`
  );
}

/**
 * One header field, folded so that lines stay within 76 characters where the value allows it
 * (RFC 5322 2.1.1 asks for 78; RFC 2047 2 for 76 where encoded words stand; 2.2.3: folding is CR
 * LF before white space). The value is cut into pieces, each a run of white space and the word
 * after it; a fold goes only before a piece, so every folded line holds a word (RFC 5322 3.2.2:
 * a line of white space alone is not allowed); white space at the very end stays on the last
 * line. The value must already be ASCII (encoded words) and hold no CR or LF.
 */
export function headerField(name: string, value: string): string {
  const pieces = value.match(/[ \t]*[^ \t]+|[ \t]+$/g) ?? [];
  let line = `${name}:`;
  let out = '';
  let words = false;
  for (let i = 0; i < pieces.length; i++) {
    const piece = i === 0 ? ' ' + pieces[i] : pieces[i];
    const word = /[^ \t]/.test(piece);
    if (word && words && line.length + piece.length > 76) {
      out += line + CRLF;
      line = '';
    }
    line += piece;
    words ||= word;
  }
  return out + line + CRLF;
}

/** RFC 5322 2.1.1: the longest line of a message, CR LF not counted. */
const MAX_LINE = 998;

/** The body as lines (without their ends): LF, CR LF and a lone CR each end a line. */
function splitLines(body: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === 10 || c === 13) {
      lines.push(body.subarray(start, i));
      if (c === 13 && body[i + 1] === 10) i++;
      start = i + 1;
    }
  }
  if (start < body.length) lines.push(body.subarray(start));
  return lines;
}

/** True when the line can go as 7bit (RFC 2045 2.7): ASCII, no NUL or control but TAB, at most 998 octets. */
function sevenBit(line: Uint8Array): boolean {
  if (line.length > 998) return false;
  for (const c of line) if (c > 126 || (c < 32 && c !== 9)) return false;
  return true;
}

const HEX = '0123456789ABCDEF';

/**
 * Quoted-printable (RFC 2045 6.7) of one line of text: "=" and every octet outside 33-126 but
 * SPACE and TAB as "=XX"; SPACE or TAB at the end as "=20"/"=09" (rule 3); lines of at most 76
 * characters, continued with a soft line break "=" CR LF (rule 5). A leading "." is encoded as
 * "=2E", so no line of the encoded body starts with "." (safe with any SMTP implementation).
 */
export function quotedPrintableLine(line: Uint8Array): string {
  let out = '';
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    const last = i === line.length - 1;
    const literal = (c >= 33 && c <= 126 && c !== 61 && !(c === 46 && cur === '')) || ((c === 32 || c === 9) && !last);
    const piece = literal ? String.fromCharCode(c) : `=${HEX[c >> 4]}${HEX[c & 15]}`;
    // A soft break leaves room for the "=" itself: at most 75 characters before it.
    if (cur.length + piece.length > 75) {
      out += cur + '=' + CRLF;
      cur = '';
      if (piece === '.') {
        cur = '=2E';
        continue;
      }
    }
    cur += piece;
  }
  return out + cur;
}

/** The body, ready for the header fields to describe it. */
export interface PreparedBody {
  /** The body's octets with CR LF line ends, ending with CR LF (nothing for an empty body). */
  octets: Uint8Array;
  /** `7bit` (US-ASCII, short lines) or `quoted-printable` (UTF-8 text, or long lines). */
  encoding: '7bit' | 'quoted-printable';
}

/**
 * Prepares a body (RFC 5322 2.1, 2.3; RFC 2045 6.7): line ends become CR LF; a body that is all
 * US-ASCII with lines of at most 998 octets goes as it is; anything else that is UTF-8 goes as
 * quoted-printable. Throws `body-not-utf8` for octets that are neither.
 */
export function prepareBody(body: string | Uint8Array): PreparedBody {
  const bytes = typeof body === 'string' ? enc.encode(body) : body;
  const lines = splitLines(bytes);
  if (lines.every(sevenBit)) {
    const text = lines.map((l) => String.fromCharCode(...l)).join(CRLF);
    return { octets: enc.encode(lines.length === 0 ? '' : text + CRLF), encoding: '7bit' };
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LocatorError(
      BODY_NOT_UTF8,
      -1,
      'the message body is neither US-ASCII nor valid UTF-8: convert it to UTF-8 first (RFC 2045 6.7 needs a charset to name)',
    );
  }
  return { octets: enc.encode(lines.map(quotedPrintableLine).join(CRLF) + CRLF), encoding: 'quoted-printable' };
}

/** Everything composeMessage needs: the recipient and the message with date and id settled. */
export interface Composition {
  to: string;
  from: Mailbox;
  subject?: string;
  body: string | Uint8Array;
  date: Date;
  messageId: string;
}

/**
 * The message as it goes after DATA, before dot-stuffing (RFC 5322 3.6): Date, From, To, Subject
 * (when given), Message-ID, and for a body that is not US-ASCII MIME-Version, Content-Type
 * (text/plain; charset=UTF-8) and Content-Transfer-Encoding (quoted-printable) (RFC 2045 4, 5,
 * 6); an empty line; the body. Header values are checked for CR, LF and NUL first.
 */
export function composeMessage(c: Composition): Uint8Array {
  assertNoLineBreak('the recipient', c.to);
  if (c.subject !== undefined) assertNoControl('Subject', c.subject);
  if (c.from.name !== null) assertNoControl('sender', c.from.name);
  assertNoLineBreak('the Message-ID', c.messageId);
  if (c.messageId.length > MAX_LINE - 'Message-ID: '.length) {
    throw tooLong('the Message-ID', c.messageId.length, MAX_LINE - 'Message-ID: '.length, 'RFC 5322 2.1.1');
  }
  if (!/^<[\x21-\x3d\x3f-\x7e]+@[\x21-\x3d\x3f-\x7e]+>$/.test(c.messageId)) {
    throw new LocatorError(
      INVALID_MAILBOX,
      -1,
      `the Message-ID ${JSON.stringify(c.messageId)} is not "<left@right>" (RFC 5322 3.6.4)`,
    );
  }
  const body = prepareBody(c.body);
  let head =
    headerField('Date', formatDate(c.date)) + headerField('From', formatMailbox(c.from)) + headerField('To', c.to);
  if (c.subject !== undefined && c.subject !== '')
    head += headerField('Subject', encodeWords(c.subject, needsWords(c.subject)));
  head += headerField('Message-ID', c.messageId);
  if (body.encoding === 'quoted-printable') {
    head +=
      'MIME-Version: 1.0' +
      CRLF +
      'Content-Type: text/plain; charset=UTF-8' +
      CRLF +
      'Content-Transfer-Encoding: quoted-printable' +
      CRLF;
  }
  // RFC 5322 2.1.1: no line over 998 octets (the folding above keeps them within 78; a To
  // address within RFC 5321's 256 octets fits) - checked, so that nothing longer is ever sent.
  for (const l of head.split(CRLF))
    if (l.length > MAX_LINE) throw tooLong('a header line', l.length, MAX_LINE, 'RFC 5322 2.1.1');
  return concatBytes([enc.encode(head + CRLF), body.octets]);
}

/** The message as DATA sends it, dot-stuffed (RFC 5321 4.5.2): the framing core's encoder. */
export { dotStuff } from '../framing/dot.js';
