// wais (RFC 1738 3.9 over RFC 1625, "WAIS over Z39.50-1988"): connect to host:port (210 by
// default), send an InitRequest, then SearchRequests, each message a 25-byte WAIS header
// (header.ts) and an APDU (apdu.ts). Client and server strictly alternate.
//
//   wais://host:port/database?search          a seed-word search: the headlines found, one line
//                                              each (text/x-locator-wais-headlines)
//   wais://host:port/database/wtype/wpath     the document whose DocID the wpath holds, read in
//                                              byte ranges (type-1 queries), streamed
//   wais://host:port/database                 the database's source description: the "help"
//                                              search (empty seed words), then its WSRC record

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { decode } from '../../core/percent.js';
import { fieldsOf } from '../../schemes/fields.js';
import { redactUrl as redactHref } from '../../operations/redact.js';
import { checkTimeout, ipOf, pullStream } from '../connection.js';
import { NOT_FOUND, PROTOCOL_ERROR, TOO_LARGE, typedError, type OpenOptions, type Resource } from '../types.js';
import { bytesToString, encodeVarint, stringToBytes, type DocumentHeader, type SearchResponse } from './apdu.js';
import { CHUNK, retrievalRequest, seedSearchRequest } from './request.js';
import { connect, diagnosticsClause, partialDiagnostics, throwDiagnostics, type Session } from './session.js';

export { WaisError, WAIS_DIAGNOSTIC } from './types.js';
export { CHUNK, initRequest, message, retrievalRequest, seedSearchRequest } from './request.js';
export { MAX_APDU } from './session.js';

/** The content type of a search's answer: one line per hit (see formatHeadline). */
export const HEADLINES_TYPE = 'text/x-locator-wais-headlines; charset=utf-8';

// ---------------------------------------------------------------------------------------------
// URLs of hits (RFC 1738 3.9 and 2.2)

const SAFE = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128);
  for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$-_.+!*'(),") t[ch.charCodeAt(0)] = 1;
  return t;
})();

/**
 * Bytes as *uchar (RFC 1738 2.2, 5): unreserved characters as they are, every other byte
 * (reserved ones, "/", controls, bytes over 127) as %XX. The DocID's bytes go into the wpath this
 * way; they come back unchanged (RFC 1738 3.9: the wpath is opaque to the client).
 */
export function encodeOctets(b: Uint8Array): string {
  let s = '';
  for (const x of b)
    s += x < 128 && SAFE[x] ? String.fromCharCode(x) : '%' + x.toString(16).toUpperCase().padStart(2, '0');
  return s;
}

/**
 * The URL of a database: wais://host:port/database (RFC 1738 3.9 waisdatabase), its name's
 * bytes escaped as a wpath's are, so a "/" in it is "%2F" and the name stays one segment.
 */
export function databaseUrl(authority: string, database: string): string {
  return `wais://${authority}/${encodeOctets(stringToBytes(database))}`;
}

/**
 * The URL of one hit: wais://host:port/database/wtype/length/wpath when the header gives the
 * Document-Length, not 0 (the 1993-07 draft's waisdoc, "wtype / digits / path": "a client know the
 * "type" and length of a object prior to retrieval"; CERN libwww's HTWAIS writes and reads the
 * same form), else wais://host:port/database/wtype/wpath (RFC 1738 3.9). So the size the search
 * answer gave is the document's meta.size, and the retrieval asks for exactly its bytes, as
 * waissearch does.
 *
 * DEVIATION: RFC 1738 3.9's waisdoc has no length; the draft form is written because no RFC 1625
 * request returns the length of a DocID, so a URL without it cannot know its size before the end.
 */
export function documentUrl(authority: string, database: string, h: DocumentHeader): string {
  const wtype = h.types[0] ?? 'TEXT';
  // A length of 0 is not written: a URL that says 0 would ask for nothing, and without it an
  // empty first piece shows the size as well.
  const length = h.documentLength === null || h.documentLength === 0 ? '' : `${h.documentLength}/`;
  return `wais://${authority}/${encodeOctets(stringToBytes(database))}/${encodeOctets(stringToBytes(wtype))}/${length}${encodeOctets(h.docId)}`;
}

/**
 * One line of a search's answer: score, size, type, headline, URL, TAB-separated, LF-terminated;
 * a TAB, CR or LF in the headline becomes a space; an absent number is empty.
 */
export function formatHeadline(authority: string, database: string, h: DocumentHeader): string {
  const n = (v: number | null) => (v === null ? '' : String(v));
  const headline = (h.headline ?? '').replace(/[\t\r\n]/g, ' ');
  return `${n(h.score)}\t${n(h.documentLength)}\t${h.types.join(',')}\t${headline}\t${documentUrl(authority, database, h)}\n`;
}

const TYPE_MIME: Record<string, string> = {
  TEXT: 'text/plain',
  WSRC: 'text/plain',
  HTML: 'text/html',
  GIF: 'image/gif',
  PS: 'application/postscript',
};

/** A MIME type for a WAIS document type (TEXT is plain text; unknown types: null). */
export function contentTypeOf(wtype: string): string | null {
  return TYPE_MIME[wtype.toUpperCase()] ?? null;
}

/** Parts of the url-path as written (RFC 1738 3.9): database, wtype, wpath, search. */
interface Target {
  database: string;
  kind: 'database' | 'index' | 'document';
  search: string;
  wtype: string;
  docId: Uint8Array;
  /** draft 1993-07: the document length in the URL, else null. */
  size: number | null;
}

const latin1 = (b: Uint8Array) => bytesToString(b);

/** The DocID a wpath stands for: its octets (RFC 1738 3.9), or, in the 1994-03 draft's form, its fields as tagged fields. */
function targetOf(url: Url): Target {
  const f = fieldsOf(url, 'wais');
  const raw = url.path ?? '';
  const cut = raw.search(/[/?]/);
  const dbRaw = cut < 0 ? raw : raw.slice(0, cut);
  const database = latin1(decode(dbRaw, { strict: false }));
  const base = { database, search: '', wtype: '', docId: new Uint8Array(0), size: f.wlength };
  if (f.kind === 'database') return { ...base, kind: 'database' };
  if (f.kind === 'index') return { ...base, kind: 'index', search: f.search ?? '' };
  const after = raw.slice(dbRaw.length + 1);
  const slash = after.indexOf('/');
  if (slash < 0) throw new LocatorError(NOT_FOUND, -1, 'the WAIS URL has no wpath (RFC 1738 3.9)');
  const wtype = latin1(decode(after.slice(0, slash), { strict: false }));
  let wpath = after.slice(slash + 1);
  if (f.wlengthDigits !== null) wpath = wpath.slice(wpath.indexOf('/') + 1);
  let docId: Uint8Array;
  if (f.wpathFields !== null) {
    const bytes: number[] = [];
    for (const m of wpath.matchAll(/([0-9]+)=([^;=]*);/g)) {
      const v = decode(m[2], { strict: false });
      // Byte by byte: a spread of a long field would pass each byte as an argument (a RangeError).
      for (const b of encodeVarint(Number(m[1]))) bytes.push(b);
      for (const b of encodeVarint(v.length)) bytes.push(b);
      for (const b of v) bytes.push(b);
    }
    docId = new Uint8Array(bytes);
  } else {
    docId = decode(wpath, { strict: false });
  }
  return { ...base, kind: 'document', wtype, docId };
}

/**
 * The pieces of a document, pulled one request at a time (RFC 1625 4): bytes [pos, pos+CHUNK)
 * until `size` is read, or, when the size is not known, until a piece comes back shorter than
 * asked (or empty).
 *
 * DEVIATION: when the size is unknown and a document's length is a multiple of CHUNK, the request
 * past its end may be answered with a diagnostic record instead of an empty piece (RFC 1625 says
 * nothing of ranges past the end); after at least one full piece such a diagnostic ends the
 * document instead of failing it.
 */
function pieces(
  s: Session,
  t: Target,
  where: string,
  size: number | null,
  first: SearchResponse | null,
): () => Promise<Uint8Array | null> {
  let pos = 0;
  let done = size === 0;
  let pending = first;
  return async () => {
    if (done) {
      s.conn.close();
      return null;
    }
    const want = size === null ? CHUNK : Math.min(CHUNK, size - pos);
    const r =
      pending ??
      (await s.search(
        retrievalRequest(t.database, t.docId, t.wtype, pos, pos + want),
        `retrieve ${t.wtype} bytes ${pos}-${pos + want}`,
      ));
    pending = null;
    if (r.texts.length === 0) {
      if (r.diagnostics.length > 0 && !(size === null && pos > 0)) throwDiagnostics(r, where);
      if (size !== null && pos < size) {
        throw new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the WAIS server sent no text for bytes ${pos}-${pos + want} of ${where}`,
        );
      }
      done = true;
      s.conn.close();
      return null;
    }
    let n = 0;
    for (const x of r.texts) n += x.text.length;
    if (n > want) {
      throw new LocatorError(PROTOCOL_ERROR, -1, `the WAIS server sent ${n} bytes where ${want} were asked for`);
    }
    const out = new Uint8Array(n);
    let p = 0;
    for (const x of r.texts) {
      out.set(x.text, p);
      p += x.text.length;
    }
    pos += n;
    if (size !== null) {
      if (n < want) {
        throw new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the WAIS server sent ${n} bytes where ${want} were asked for, before the announced ${size}`,
        );
      }
      if (pos >= size) done = true;
    } else if (n < want) done = true;
    if (done) s.conn.close();
    return out;
  };
}

function stream(s: Session, next: () => Promise<Uint8Array | null>, options: OpenOptions): ReadableStream<Uint8Array> {
  const typedNext = () =>
    next().catch((e: unknown) => {
      throw typedError(e, 'reading the WAIS document');
    });
  return pullStream(typedNext, (reason) => s.conn.close(reason instanceof LocatorError ? reason : undefined), {
    maxBytes: options.maxBytes,
    tooLarge: () => new LocatorError(TOO_LARGE, -1, `the object is larger than ${options.maxBytes} octets`),
  });
}

/**
 * Retrieves a wais URL (RFC 1738 3.9, RFC 1625): an InitRequest, then a seed-word search for
 * database?search (the headlines, one line each), the byte-range retrievals of a document, or
 * the "help" search and the retrieval of the source description for a database. Fails with a
 * LocatorError: `wais-diagnostic` (WaisError) for a diagnostic record, `not-found` when a
 * database has no source description, `connection-closed`, `protocol-error`, `timeout`,
 * `aborted`, `too-large`.
 */
export async function open(url: Url, options: OpenOptions): Promise<Resource> {
  const { where, t, s } = await start(url, options);
  try {
    await s.init();
    const meta = { scheme: 'wais', url: where, transcript: [], ...ipOf(s.conn) };
    if (t.kind === 'index') {
      const r = await s.search(seedSearchRequest(t.database, t.search), `search ${t.database} ${t.search}`);
      throwDiagnostics(r, where);
      const diagnostics = partialDiagnostics(s, r);
      s.conn.close();
      const authority = `${url.host}:${url.port ?? 210}`;
      const text = r.headers.map((h) => formatHeadline(authority, t.database, h)).join('');
      const bytes = new TextEncoder().encode(text);
      let sent = false;
      const body = stream(
        s,
        async () => {
          if (sent) return null;
          sent = true;
          return bytes;
        },
        options,
      );
      return {
        meta: {
          ...meta,
          size: bytes.length,
          contentType: HEADLINES_TYPE,
          ...(diagnostics.length > 0 ? { diagnostics } : {}),
        },
        body,
      };
    }
    if (t.kind === 'database') {
      const r = await s.search(
        seedSearchRequest(t.database, ''),
        `search ${t.database} (empty: the source description)`,
      );
      throwDiagnostics(r, where);
      const src = r.headers.find((h) => h.types.includes('WSRC'));
      if (src === undefined) {
        throw new LocatorError(NOT_FOUND, -1, `the WAIS server gave no source description (type WSRC) for ${where}`);
      }
      const diagnostics = partialDiagnostics(s, r);
      const doc: Target = { ...t, kind: 'document', wtype: 'WSRC', docId: src.docId };
      const size = src.documentLength;
      return {
        meta: { ...meta, size, contentType: 'text/plain', ...(diagnostics.length > 0 ? { diagnostics } : {}) },
        body: stream(s, pieces(s, doc, where, size, null), options),
      };
    }
    // A document: the first piece is asked for now, so that a diagnostic (an unknown DocID) fails open().
    const want = t.size === null ? CHUNK : Math.min(CHUNK, t.size);
    let first: SearchResponse | null = null;
    let size = t.size;
    if (want > 0) {
      first = await s.search(
        retrievalRequest(t.database, t.docId, t.wtype, 0, want),
        `retrieve ${t.wtype} bytes 0-${want}`,
      );
      throwDiagnostics(first, where);
      // Without a length, a first piece shorter than asked is the whole document: its size is known.
      if (size === null && first.texts.length > 0) {
        const n = first.texts.reduce((a, x) => a + x.text.length, 0);
        if (n < want) size = n;
      }
    }
    return {
      meta: { ...meta, size, contentType: contentTypeOf(t.wtype) },
      body: stream(s, pieces(s, t, where, t.size, first), options),
    };
  } catch (e) {
    const err = typedError(e, `retrieving ${where}`);
    s.conn.close(err);
    throw err;
  }
}

/** The checks, the target and the session (not yet initialised) of open() and probeWais(). */
async function start(url: Url, options: OpenOptions) {
  checkTimeout(options.timeout);
  return { where: redactHref(url), t: targetOf(url), s: await connect(url, options) };
}

/**
 * What a probe of a wais URL asks (RFC 1738 3.9, RFC 1625): the InitRequest, then the
 * search of database?search, the empty search whose answer names a database's source description,
 * or the first piece of a document; nothing more is retrieved, and the connection is closed.
 * Resolves to what was proved; fails as open() does (`wais-diagnostic`, `not-found`, ...).
 */
export async function probeWais(url: Url, options: OpenOptions): Promise<string> {
  const { where, t, s } = await start(url, options);
  try {
    await s.init();
    if (t.kind === 'index') {
      const r = await s.search(seedSearchRequest(t.database, t.search), `search ${t.database} ${t.search}`);
      throwDiagnostics(r, where);
      return `the search found ${r.headers.length} document${r.headers.length === 1 ? '' : 's'}${diagnosticsClause(r)}`;
    }
    if (t.kind === 'database') {
      const r = await s.search(
        seedSearchRequest(t.database, ''),
        `search ${t.database} (empty: the source description)`,
      );
      throwDiagnostics(r, where);
      if (!r.headers.some((h) => h.types.includes('WSRC'))) {
        throw new LocatorError(NOT_FOUND, -1, `the WAIS server gave no source description (type WSRC) for ${where}`);
      }
      return `the server has the database (its source description)${diagnosticsClause(r)}`;
    }
    const want = t.size === null ? CHUNK : Math.min(CHUNK, t.size);
    if (want > 0) {
      const r = await s.search(
        retrievalRequest(t.database, t.docId, t.wtype, 0, want),
        `retrieve ${t.wtype} bytes 0-${want}`,
      );
      throwDiagnostics(r, where);
    }
    return 'the server has the document (its first piece)';
  } catch (e) {
    throw typedError(e, `probing ${where}`);
  } finally {
    s.conn.close();
  }
}
