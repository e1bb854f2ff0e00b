// Gopher answers (RFC 1436 3.8; Gopher+ 2.3): the Gopher+ header, the data, the error replies.

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import type { GopherFields, GopherPlus } from '../../schemes/fields.js';
import { Connection, ipOf, pullStream } from '../connection.js';
import { redactUrl as redactHref } from '../../operations/redact.js';
import { CONNECTION_CLOSED, PROTOCOL_ERROR, TOO_LARGE, typedError, type Resource } from '../types.js';
import { firstLineOf, menuStart, parseErrorText, parseMenu, parsePlusHeader, type PlusHeader } from './parser.js';
import { concat } from '../framing/bytes.js';
import { dotBlockReader } from '../framing/reader.js';
import { GopherError, type GopherOpenOptions } from './types.js';
import { EMPTY, type Exchange } from './request.js';

export const text = new TextDecoder('utf-8');
/** How much of a reply starting with "3" is read to see whether it is a lone error line. */
const ERROR_LINE_PEEK = 4096;
/** The largest Gopher+ error text kept. */
const ERROR_TEXT_LIMIT = 64 * 1024;

export async function connect(url: Url, options: GopherOpenOptions, secrets: string[]): Promise<Connection> {
  const onTranscript = typeof options.transcript === 'function' ? options.transcript : undefined;
  return Connection.connect(url.host ?? '', url.port ?? 70, {
    signal: options.signal,
    timeout: options.timeout,
    policy: options.policy,
    onTranscript,
    secrets,
  });
}

/** Reads the Gopher+ header line (Gopher+ 2.3) and puts back what follows it. */
export async function readHeader(conn: Connection): Promise<PlusHeader> {
  let buf: Uint8Array = EMPTY;
  for (;;) {
    const chunk = await conn.read();
    if (chunk === null) {
      throw new LocatorError(
        CONNECTION_CLOSED,
        -1,
        buf.length === 0
          ? 'the server closed the connection without answering the Gopher+ request'
          : 'the server closed the connection in the middle of the Gopher+ header line',
      );
    }
    buf = concat(buf, chunk);
    const r = parsePlusHeader(buf);
    if (r.error !== null)
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `${r.error} (a server that does not speak Gopher+ answers such a request as a plain Gopher one)`,
      );
    if (r.header !== null) {
      conn.note('receive', r.header.line);
      conn.unread(r.rest);
      return r.header;
    }
  }
}

/**
 * A function giving the next chunk of the data that follows a Gopher+ header of `length`
 * (Gopher+ 2.3): exactly `length` octets (fewer is an error: the reply was cut), or data up to
 * the "." line (-1), or everything until the server closes (-2, and plain Gopher, RFC 1436).
 * At the end the connection is closed.
 */
export function dataReader(conn: Connection, length: number): () => Promise<Uint8Array | null> {
  const finish = (): null => closed(conn);
  if (length >= 0) {
    let remaining = length;
    return async () => {
      if (remaining === 0) return finish();
      const c = await conn.read();
      if (c === null) {
        throw new LocatorError(
          CONNECTION_CLOSED,
          -1,
          `the server announced ${length} octets ("+${length}") and closed the connection after ${length - remaining}`,
        );
      }
      if (c.length < remaining) {
        remaining -= c.length;
        return c;
      }
      if (c.length > remaining)
        conn.note('info', `ignored ${c.length - remaining} octets after the ${length} announced`);
      const piece = c.subarray(0, remaining);
      remaining = 0;
      return piece;
    };
  }
  if (length === -1) {
    return dotBlockReader(conn, {
      unstuff: 'double',
      closed: () =>
        new LocatorError(
          CONNECTION_CLOSED,
          -1,
          'the server closed the connection before the "." line that ends a "+-1" reply',
        ),
      end: finish,
    });
  }
  return async () => (await conn.read()) ?? finish();
}

/** The end of a reply: noted, and the connection closed. */
function closed(conn: Connection): null {
  conn.note('info', `received ${conn.received} octets; connection closed`);
  conn.close();
  return null;
}

/** Reads a whole (small) reply: at most `limit` octets, or `null` past it. */
export async function readAll(next: () => Promise<Uint8Array | null>, limit: number): Promise<Uint8Array | null> {
  let all: Uint8Array = EMPTY;
  for (let c = await next(); c !== null; c = await next()) {
    all = concat(all, c);
    if (all.length > limit) return null;
  }
  return all;
}

/**
 * Where to cut `bytes` to at most `limit` octets without splitting a UTF-8 sequence: a cut inside
 * one moves back to its lead octet, so the text kept ends with whole characters (no U+FFFD made
 * by the cut itself).
 */
export function utf8Cut(bytes: Uint8Array, limit: number): number {
  if (bytes.length <= limit) return bytes.length;
  let i = limit;
  // Back over at most three continuation octets (10xxxxxx) to the lead octet the cut would split.
  while (i > 0 && limit - i < 3 && (bytes[i]! & 0xc0) === 0x80) i--;
  return (bytes[i]! & 0xc0) === 0x80 ? limit : i;
}

/** Reads a Gopher+ error reply ("-" header, Gopher+ 2.3) and throws it as a GopherError. */
export async function throwPlusError(conn: Connection, header: PlusHeader, where: string): Promise<never> {
  const next = dataReader(conn, header.length);
  let all: Uint8Array = EMPTY;
  for (let c = await next(); c !== null && all.length < ERROR_TEXT_LIMIT; c = await next()) all = concat(all, c);
  const kept = text.decode(all.subarray(0, utf8Cut(all, ERROR_TEXT_LIMIT)));
  const t = parseErrorText(kept);
  for (const line of kept.split(/\r?\n/)) if (line !== '') conn.note('receive', line);
  throw new GopherError(t.errorNumber, t.contact, t.message, where);
}

/**
 * RFC 1436 3.8: a plain Gopher server reports a missing selector with an error item (type 3)
 * instead of the data. A reply that is nothing but type-3 menu lines (and an optional "." line)
 * is that error, thrown as a GopherError; only a reply whose first octet is "3" is read ahead for
 * it, at most ERROR_LINE_PEEK octets (an error item among others is data). The answer to a menu
 * (type 1) or a search (type 7) must start as a menu does (menuStart(), the probe's test): a
 * first line that is no menu line (a plain-text error page) is a `protocol-error`. A menu is never empty
 * on the wire (even an empty directory ends with its "." line), so a connection closed before
 * any octet of a menu is `connection-closed` (a document may be empty: an empty file). What was
 * read ahead is put back untouched.
 */
async function checkAnswerStart(conn: Connection, where: string, type: string): Promise<void> {
  const menu = type === '1' || type === '7';
  let buf: Uint8Array = EMPTY;
  let ended = false;
  for (;;) {
    const errorItems = buf[0] === 0x33 && buf.length <= ERROR_LINE_PEEK;
    const undecided = menu && menuStart(buf, false).kind === 'more';
    if (buf.length > 0 && !errorItems && !undecided) break;
    const chunk = await conn.read();
    if (chunk === null) {
      ended = true;
      break;
    }
    buf = concat(buf, chunk);
  }
  if (ended && buf.length === 0 && type === '1') {
    throw new LocatorError(
      CONNECTION_CLOSED,
      -1,
      `the server closed the connection without sending the menu of ${where} (not even its "." line)`,
    );
  }
  if (ended && buf[0] === 0x33) {
    const { items } = parseMenu(buf, true);
    if (items.length > 0 && items.every((i) => i.type === '3' && i.problem === null)) {
      for (const i of items) conn.note('receive', `3${i.display}`);
      throw new GopherError(null, null, items.map((i) => i.display).join('\n'), where);
    }
  }
  if (menu) {
    const start = menuStart(buf, ended);
    if (start.kind === 'malformed') {
      conn.note('receive', text.decode(firstLineOf(buf).subarray(0, 200)));
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the answer for ${where} is not a menu: no line of it is a menu line (the first: ${start.problem})`,
      );
    }
  }
  conn.unread(buf);
}

/** A MIME type for the answer (Gopher+ views are MIME types; otherwise by RFC 1436 item type). */
function contentTypeOf(type: string, plus: GopherPlus | null): string | null {
  if (plus !== null && (plus.kind === 'view' || plus.kind === 'form') && plus.view !== null && plus.view.includes('/'))
    return plus.view;
  if (plus !== null && (plus.kind === 'attributes' || plus.kind === 'directory-attributes')) return null;
  return TYPE_MIME[type] ?? null;
}

const TYPE_MIME: Record<string, string> = {
  0: 'text/plain',
  1: 'application/gopher-menu',
  4: 'application/mac-binhex40',
  5: 'application/octet-stream',
  6: 'text/x-uuencode',
  7: 'application/gopher-menu',
  9: 'application/octet-stream',
  g: 'image/gif',
  h: 'text/html',
};

/**
 * Sends one request and returns the answer as a stream (RFC 1436; Gopher+ 2.3): the Gopher+
 * header is read first when the request expects one, an error header or a lone type-3 line
 * becomes a GopherError, and the body is pulled from the socket as the consumer reads.
 */
export async function retrieve(url: Url, f: GopherFields, ex: Exchange, options: GopherOpenOptions): Promise<Resource> {
  const where = redactHref(url);
  const conn = await connect(url, options, ex.secrets);
  try {
    await conn.write(ex.request, ex.shown);
    let size: number | null = null;
    let length = -2;
    if (ex.plus) {
      const header = await readHeader(conn);
      if (!header.ok) await throwPlusError(conn, header, where);
      length = header.length;
      if (length >= 0) size = length;
    } else {
      await checkAnswerStart(conn, where, f.gophertype);
    }
    const body = pullStream(
      dataReader(conn, length),
      (reason) => conn.close(reason instanceof LocatorError ? reason : undefined),
      {
        maxBytes: options.maxBytes,
        tooLarge: () => new LocatorError(TOO_LARGE, -1, `the object is larger than ${options.maxBytes} octets`),
        // Data until the server closes (plain Gopher, "+-2"): the same octets written as they are
        // read (locator fetch; Connection.drain). The other forms are cut, so they are read.
        pipe: length === -2 ? (write) => conn.drain(write).then(() => void closed(conn)) : undefined,
      },
    );
    return {
      meta: {
        scheme: 'gopher',
        url: where,
        size,
        contentType: contentTypeOf(f.gophertype, f.plus),
        gopherType: f.gophertype,
        transcript: [],
        ...ipOf(conn),
      },
      body,
    };
  } catch (e) {
    const err = typedError(e, 'the Gopher exchange');
    conn.close(err);
    throw err;
  }
}
