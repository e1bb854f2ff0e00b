// gopher (RFC 1738 3.4, RFC 1436, the Gopher+ protocol document): connect to host:port (70 by
// default), send exactly the request the gopher scheme module computes (`fields.request`, the
// steps of explain()), read the answer until the server closes. Gopher+ requests ("+", "!", "$",
// and the two exchanges of a "?" form) get a header line first ("+<length>", "+-1", "+-2", or
// "-..." for an error), which is read and stripped. The body is streamed with back-pressure.
//
// Menus are returned as their raw bytes like any other item; src/clients/gopher/menu.ts reads
// them into items (openMenu, readMenu, renderMenu); this module does not re-export them: menu.ts
// imports open(), which loads this module, so a re-export here would close an import cycle.

import type { Url } from '../../core/url.js';
import { INTERACTIVE_ONLY } from '../interactive.js';
import { parse } from '../../schemes/registry.js';
import { LocatorError } from '../../core/errors.js';
import { decode } from '../../core/percent.js';
import { INVALID_FIELD } from '../../schemes/codes.js';
import { formatRequest } from '../../schemes/notes.js';
import { gopherParts } from '../../schemes/gopher.js';
import { fieldsOf, type GopherFields, type GopherPlus } from '../../schemes/fields.js';
import { checkTimeout, Connection, pullStream } from '../connection.js';
import { redactUrl as redactHref } from '../../redact.js';
import {
  CONNECTION_CLOSED,
  NEEDS_INPUT,
  PROTOCOL_ERROR,
  TOO_LARGE,
  type Redirect,
  type Resource,
  type TranscriptLine,
} from '../types.js';
import {
  MENU_LINE_LIMIT,
  firstLineOf,
  menuStart,
  parseAsk,
  parseAttributes,
  parseErrorText,
  parseMenu,
  parsePlusHeader,
  type PlusHeader,
} from './parser.js';
import { CRLF, LF as LF_OCTET, TAB, concat, concatBytes } from '../framing/bytes.js';
import { dotBlockReader } from '../framing/reader.js';
import { GopherError, type AskQuestion, type GopherOpenOptions } from './types.js';

export {
  GopherError,
  GOPHER_ERROR,
  GOPHER_NOT_MENU,
  type MenuItem,
  type AskQuestion,
  type GopherOpenOptions,
} from './types.js';

/** One request to send: its octets, how the transcript shows it, and whether a Gopher+ header answers it. */
interface Exchange {
  request: Uint8Array;
  shown: string;
  plus: boolean;
  secrets: string[];
}

const EMPTY = new Uint8Array(0);
const TAB_OCTET = Uint8Array.of(TAB);
const utf8 = new TextEncoder();
const text = new TextDecoder('utf-8');
/** How much of a reply starting with "3" is read to see whether it is a lone error line. */
const ERROR_LINE_PEEK = 4096;
/** The largest Gopher+ error text kept, and the largest +ASK attribute reply accepted. */
const ERROR_TEXT_LIMIT = 64 * 1024;
const ASK_REPLY_LIMIT = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// What is sent

/**
 * The octets of the selector, search and Gopher+ string (RFC 1738 2.2: an escape stands for its
 * octet), cut where the scheme entry cuts them (gopherParts: the fields and lint's delimiter
 * check read the same ranges). The gophertype is not sent.
 */
function octetParts(url: Url): { selector: Uint8Array; search: Uint8Array | null; gopherPlus: Uint8Array | null } {
  const p = gopherParts(url);
  if (p === null) return { selector: EMPTY, search: null, gopherPlus: null };
  const octets = (r: { start: number; end: number } | null) =>
    r === null ? null : decode(url.href, { strict: false }, r.start, r.end);
  return { selector: octets(p.selector)!, search: octets(p.search), gopherPlus: octets(p.gopherPlus) };
}

/**
 * The octets of `fields.request` (RFC 1738 3.4.2-3.4.9): its UTF-8 form, except when the URL
 * escapes octets that are not UTF-8 (the fields show them as U+FFFD): then the same request is
 * composed from the URL's own octets, as explain() notes ("the client sends the octets themselves").
 */
export function requestOctets(url: Url): Uint8Array {
  const f = fieldsOf(url, 'gopher');
  return f.request.includes('\uFFFD') ? requestFromOctets(url) : utf8.encode(f.request);
}

/**
 * The request of src/schemes/gopher.ts (RFC 1738 3.4.2-3.4.9, with its DEVIATION: an empty
 * search or Gopher+ string is not sent), composed from the URL's octets instead of its text.
 */
export function requestFromOctets(url: Url): Uint8Array {
  const f = fieldsOf(url, 'gopher');
  const p = octetParts(url);
  if (f.plus?.kind === 'ask') return concatBytes([p.selector, utf8.encode('\t!+ASK\r\n')]);
  let out = p.selector;
  if (p.search !== null && p.search.length > 0) out = concatBytes([out, TAB_OCTET, p.search]);
  if (p.gopherPlus !== null && p.gopherPlus.length > 0) {
    out = concatBytes([out, TAB_OCTET, p.gopherPlus]);
    if (f.gopherPlus!.includes('\r\n')) return out;
  }
  return concatBytes([out, CRLF]);
}

/** True when the server answers with a Gopher+ header (RFC 1738 3.4.4-3.4.9: "+", "!", "$"). */
function isPlusRequest(f: GopherFields): boolean {
  const g = f.gopherPlus;
  return g !== null && g !== '' && (g[0] === '+' || g[0] === '!' || g[0] === '$');
}

/**
 * Type 7 with no search in the URL (RFC 1738 3.4.2, RFC 1436 3.7): the client asks for the
 * search string (options.search, a string or a prompt) and sends selector TAB search CR LF.
 */
async function searchExchange(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<Exchange> {
  const given = options.search;
  if (given === undefined) {
    throw new LocatorError(
      NEEDS_INPUT,
      -1,
      `${redactHref(url.href)} is a type 7 search and gives no search string: pass the search option (RFC 1738 3.4.2)`,
    );
  }
  let search: unknown;
  try {
    search = typeof given === 'string' ? given : await given();
  } catch (e) {
    // A prompt that fails (closed terminal, a bug in the caller's callback) is a typed error.
    if (e instanceof LocatorError) throw e;
    throw new LocatorError(
      NEEDS_INPUT,
      -1,
      `asking for the search string failed: ${(e as Error)?.message ?? String(e)}`,
      { cause: e },
    );
  }
  if (typeof search !== 'string') {
    throw new LocatorError(
      NEEDS_INPUT,
      -1,
      `the search prompt gave no search string (${search === null ? 'null' : typeof search}) (RFC 1738 3.4.2)`,
    );
  }
  const bad = search.search(/[\t\r\n]/);
  if (bad >= 0) {
    throw new LocatorError(
      INVALID_FIELD,
      bad,
      'a search string cannot hold a TAB, CR or LF: they end the Gopher request (RFC 1436)',
    );
  }
  const request = concatBytes([octetParts(url).selector, TAB_OCTET, utf8.encode(search), CRLF]);
  return { request, shown: formatRequest(`${f.selector}\t${search}\r\n`), plus: false, secrets: [] };
}

/** The one exchange of every URL but "?" forms (RFC 1738 3.4.2-3.4.9). */
async function plainExchange(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<Exchange> {
  const noSearch = f.search === null || f.search === '';
  if (f.gophertype === '7' && noSearch && f.gopherPlus === null) return searchExchange(url, f, options);
  return { request: requestOctets(url), shown: formatRequest(f.request), plus: isPlusRequest(f), secrets: [] };
}

// ---------------------------------------------------------------------------------------------
// What is received

async function connect(url: Url, options: GopherOpenOptions, secrets: string[]): Promise<Connection> {
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
async function readHeader(conn: Connection): Promise<PlusHeader> {
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
function dataReader(conn: Connection, length: number): () => Promise<Uint8Array | null> {
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
async function readAll(next: () => Promise<Uint8Array | null>, limit: number): Promise<Uint8Array | null> {
  let all: Uint8Array = EMPTY;
  for (let c = await next(); c !== null; c = await next()) {
    all = concat(all, c);
    if (all.length > limit) return null;
  }
  return all;
}

/** Reads a Gopher+ error reply ("-" header, Gopher+ 2.3) and throws it as a GopherError. */
async function throwPlusError(conn: Connection, header: PlusHeader, where: string): Promise<never> {
  const next = dataReader(conn, header.length);
  let all: Uint8Array = EMPTY;
  for (let c = await next(); c !== null && all.length < ERROR_TEXT_LIMIT; c = await next()) all = concat(all, c);
  const t = parseErrorText(text.decode(all.subarray(0, ERROR_TEXT_LIMIT)));
  for (const line of text.decode(all.subarray(0, ERROR_TEXT_LIMIT)).split(/\r?\n/))
    if (line !== '') conn.note('receive', line);
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
    const firstLine = menu && buf.indexOf(LF_OCTET) < 0 && buf.length < MENU_LINE_LIMIT;
    if (buf.length > 0 && !errorItems && !firstLine) break;
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
    const line = firstLineOf(buf);
    const start = menuStart(line);
    if (start.kind === 'malformed') {
      conn.note('receive', text.decode(line.subarray(0, 200)));
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the answer for ${where} is not a menu: its first line is not a menu line: ${start.problem}`,
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
async function retrieve(url: Url, f: GopherFields, ex: Exchange, options: GopherOpenOptions): Promise<Resource> {
  const where = redactHref(url.href);
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
      },
      body,
    };
  } catch (e) {
    conn.close(e instanceof LocatorError ? e : undefined);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// +ASK forms (RFC 1738 3.4.5, 3.4.9)

/**
 * The request for an item's +ASK attribute (RFC 1738 3.4.5; Gopher+ 2.7): selector TAB "!+ASK"
 * CR LF, from the URL's octets (the first exchange of a "?" form and of a filled-in form).
 */
function askExchange(url: Url, f: GopherFields): Exchange {
  return {
    request: concatBytes([octetParts(url).selector, utf8.encode('\t!+ASK\r\n')]),
    shown: formatRequest(`${f.selector}\t!+ASK\r\n`),
    plus: true,
    secrets: [],
  };
}

/** Asks the server for the item's +ASK attribute (the first exchange of explain()) and reads the questions. */
async function fetchForm(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<AskQuestion[]> {
  const where = redactHref(url.href);
  const conn = await connect(url, options, []);
  try {
    const ask = askExchange(url, f);
    await conn.write(ask.request, ask.shown);
    const header = await readHeader(conn);
    if (!header.ok) await throwPlusError(conn, header, where);
    const all = await readAll(dataReader(conn, header.length), ASK_REPLY_LIMIT);
    if (all === null)
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the +ASK attribute of ${where} is larger than ${ASK_REPLY_LIMIT} octets`,
      );
    const block = parseAttributes(text.decode(all)).find((s) => s.blocks.ASK !== undefined)?.blocks.ASK;
    if (block === undefined) throw new LocatorError(PROTOCOL_ERROR, -1, `the server sent no +ASK block for ${where}`);
    return parseAsk(block);
  } finally {
    conn.close();
  }
}

/**
 * The second exchange of a "?" form (RFC 1738 3.4.9, draft 1994-03 Gopher): selector [TAB
 * search] TAB "+" TAB "1" CR LF, then the answers as a "+-1" data block: one line each (an
 * AskL answer may take several), a line starting with "." doubled, and a "." line at the end.
 */
function answerExchange(url: Url, f: GopherFields, questions: AskQuestion[], answers: string[]): Exchange {
  if (answers.length !== questions.length) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `the +ASK form has ${questions.length} questions but ${answers.length} answers were given`,
    );
  }
  const lines: string[] = [];
  answers.forEach((a, i) => {
    const split = a.split(/\r?\n/);
    if (split.length > 1 && questions[i].kind !== 'AskL') {
      throw new LocatorError(
        INVALID_FIELD,
        -1,
        `the answer to "${questions[i].prompt}" (${questions[i].kind}) must be one line`,
      );
    }
    for (const l of split) lines.push(l.startsWith('.') ? '.' + l : l);
  });
  const head = f.selector + (f.search === null || f.search === '' ? '' : '\t' + f.search);
  const block = `\t+\t1\r\n+-1\r\n${lines.map((l) => l + '\r\n').join('')}.\r\n`;
  const p = octetParts(url);
  const selectorAndSearch =
    p.search !== null && p.search.length > 0 ? concatBytes([p.selector, TAB_OCTET, p.search]) : p.selector;
  const secrets = answers.filter((_, i) => questions[i].kind === 'AskP');
  return {
    request: concatBytes([selectorAndSearch, utf8.encode(block)]),
    shown: formatRequest(head + block),
    plus: true,
    secrets,
  };
}

/** "?" (RFC 1738 3.4.5): fetch the form, have options.ask fill it in, send the answers. */
async function openForm(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<Resource> {
  if (options.ask === undefined) {
    throw new LocatorError(
      NEEDS_INPUT,
      -1,
      `${redactHref(url.href)} names an item with a +ASK form to fill in: pass the ask option (RFC 1738 3.4.5)`,
    );
  }
  const questions = (await fetchForm(url, f, options)).filter((q) => q.kind !== 'Note');
  const answers = await options.ask(questions);
  return retrieve(url, f, answerExchange(url, f, questions, answers), options);
}

/**
 * A form filled in within the URL (RFC 1738 3.4.9): its data block is several request lines that
 * the URL, not the client, writes. The policy has let it through (the default port, or a port
 * allowed explicitly that is no other protocol's; never after a redirect). The client first asks
 * for the item's +ASK attribute, as for "?", and sends the data block only when the server
 * answers as a Gopher+ server with the form, and the block holds a value for each question (an
 * AskL question may take several lines). A server of another protocol answers the one-line
 * question with no Gopher+ header, and the lines are never sent.
 *
 * DEVIATION: RFC 1738 3.4.9 has the client send the form as written, in one exchange; locator
 * asks for the form first (RFC 1738 6: a URL must not make the client write lines of its choosing
 * to a server that did not ask for them).
 */
async function openFilledForm(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<Resource> {
  const questions = (await fetchForm(url, f, options)).filter((q) => q.kind !== 'Note');
  const values = f.plus?.askData ?? null;
  if (values !== null) {
    const many = questions.some((q) => q.kind === 'AskL');
    if (many ? values.length < questions.length : values.length !== questions.length) {
      throw new LocatorError(
        INVALID_FIELD,
        -1,
        `the +ASK form of ${redactHref(url.href)} has ${questions.length} questions, but the URL's data block holds ${values.length} values (RFC 1738 3.4.9)`,
      );
    }
  }
  return retrieve(
    url,
    f,
    { request: requestOctets(url), shown: formatRequest(f.request), plus: true, secrets: [] },
    options,
  );
}

// ---------------------------------------------------------------------------------------------
// Items that are not retrieved from this server

/** The URL named by an "h" item's "URL:" selector (a Gopher server convention), or null. */
function linkedUrl(selector: string): string | null {
  if (selector.startsWith('URL:')) return selector.slice(4);
  if (selector.startsWith('/URL:')) return selector.slice(5);
  return null;
}

/**
 * An "h" item whose selector starts with "URL:" names another URL: the client goes there
 * instead of sending the selector (the note of explain()). Nothing is sent to the gopher server:
 * the answer is a Redirect, which open() follows like any other (the policy's redirect budget,
 * never to a file URL, no loops).
 */
function linked(url: Url, target: string): Redirect {
  let next: Url;
  try {
    next = parse(target);
  } catch (e) {
    throw new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `${redactHref(url.href)} links to ${JSON.stringify(redactHref(target))}, which is not a URL`,
      { cause: e },
    );
  }
  return { redirect: next, reason: 'the Gopher "URL:" link' };
}

// ---------------------------------------------------------------------------------------------

/**
 * Retrieves a gopher URL (RFC 1738 3.4, RFC 1436, Gopher+): performs exactly the steps of
 * explain(url). Resolves to `{ meta, body }` once the server has started to answer; fails with
 * a LocatorError: `gopher-error` (GopherError) when the server reports an error,
 * `needs-input` for a type 7 search without a search string or a "?" form without `ask`,
 * `connection-closed` when a reply is cut short, `protocol-error` for a reply that is not
 * Gopher+ where a Gopher+ header is due, `timeout`, `aborted`, `too-large`.
 */
export async function open(url: Url, options: GopherOpenOptions): Promise<Resource | Redirect> {
  checkTimeout(options.timeout);
  const f = fieldsOf(url, 'gopher');
  const type = f.gophertype;
  if (type === '8' || type === 'T') {
    const scheme = type === '8' ? 'telnet' : 'tn3270';
    throw new LocatorError(
      INTERACTIVE_ONLY,
      -1,
      `a type ${type} item is a ${type === '8' ? 'Telnet' : 'tn3270'} session, not a document (RFC 1436 3.8): open ${scheme}://${url.host}:${url.port}/ with connect() (\`locator connect\`)`,
    );
  }
  const link = type === 'h' ? linkedUrl(f.selector) : null;
  if (link !== null) return linked(url, link);
  if (f.plus?.kind === 'ask') return openForm(url, f, options);
  if (f.plus?.kind === 'form') return openFilledForm(url, f, options);
  return retrieve(url, f, await plainExchange(url, f, options), options);
}
