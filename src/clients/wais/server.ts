// A WAIS server over a folder of text files (`locator serve --wais DIR`), written from RFC 1625
// and the WAIS protocol specification (protspec), with the framing and tag layout of apdu.ts and
// header.ts. One database, named after the folder unless told otherwise. It answers:
//
// - InitRequest: accepted, version 1, search only, 100000-byte messages, Chunk-Code 0.
// - SearchRequest, query type "3" (seed words): every regular file of the folder (not those whose
//   name starts with ".") is scored (see scoreOf) and the hits are returned best first, at most
//   Max-Documents-Retrieved of them, each a document header: DocID, Score, Document-Length,
//   Lines, Type TEXT, Source, Headline (the first non-empty line). Empty seed words (or "?") ask
//   for help: the source description (type WSRC) and a catalogue of the files (TEXT). A request
//   that carries a Document-ID and the type WAIS_NEXT asks for the document after that one in
//   the server's index (see Index), as freeWAIS-sf answers in the order of its index.
// - SearchRequest, query type "1" (RFC 1625 4): the DocID, type and byte range [from, to) of a
//   document; the answer is a document text record with those bytes (fewer at the end of the
//   file, none past it), the Reference-ID echoed.
// - Anything else: a diagnostic record (code "S1", freeWAIS's code for a failed search, with a
//   text) in a SearchResponse; bytes that are not a WAIS message close the connection.
//
// The folder is listed on every request and its files kept in an index (the order of WAIS_NEXT,
// the catalogue and the source description); a file is read again only when its size or
// modification time changed. Every connection has an idle timeout, and back-pressure: no request
// is read or answered while an answer waits for the client to take it (see serve()).

import net from 'node:net';
import { readdir, readFile, lstat } from 'node:fs/promises';
import { basename, join, resolve as resolvePath } from 'node:path';
import { HEADER_LENGTH, decodeHeader, encodeHeader } from './header.js';
import {
  PDU_INIT_REQUEST,
  PDU_SEARCH_REQUEST,
  TAG,
  bytesToString,
  decodeInitRequest,
  decodeSearchRequest,
  encodeInitResponse,
  encodeSearchResponse,
  encodeVarint,
  readFields,
  readRetrieval,
  stringToBytes,
  type Diagnostic,
  type DocumentHeader,
  type SearchRequest,
  type SearchResponse,
} from './apdu.js';

export interface WaisServerOptions {
  /** The folder of text files. */
  dir: string;
  /** The database name (default: the folder's name). */
  database?: string;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /**
   * Milliseconds a connection may stay silent, and a client may leave an answer unread, before
   * it is disconnected (default 60000).
   */
  idleTimeout?: number;
  /** Called for each request handled (a log line), if given. */
  log?: (line: string) => void;
}

export interface WaisServer {
  port: number;
  host: string;
  database: string;
  /** Octets written and not yet taken by the clients, over all connections (monitoring, tests). */
  bufferedBytes(): number;
  close(): Promise<void>;
}

/** The largest APDU the server reads from a client. */
const MAX_REQUEST = 1024 * 1024;
/** Unanswered input past which a connection is not read while a request is being answered. */
const INPUT_HIGH = 64 * 1024;
/** The largest piece of text sent in one answer (the InitResponse's Maximum-Record-Size). */
const MAX_PIECE = 100000;

interface Doc {
  name: string;
  bytes: Uint8Array;
}

/** What was read of each file, kept while its size and modification time stay the same. */
type Cache = Map<string, { mtimeMs: number; size: number; bytes: Uint8Array }>;

/**
 * The index: the names of the folder's files in the order they entered it, as freeWAIS-sf's
 * waisindex numbers documents in the order it is given them (and `-a` appends). It is built when
 * the server starts, the files in name order; a file that appears later goes to the end of it
 * (several found by the same listing, in name order); a file that disappears leaves it; a file
 * that changes keeps its place.
 */
type Index = string[];

/** The folder's names that are not hidden ("." first), by name. */
async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
}

/** Brings the index up to date with a listing of the folder (see Index). */
function reindex(index: Index, names: string[]): void {
  const present = new Set(names);
  const kept = index.filter((n) => present.has(n));
  const known = new Set(kept);
  index.splice(0, index.length, ...kept, ...names.filter((n) => !known.has(n)));
}

/** Files of the folder in index order: regular files only, no dotfiles (read again when they change). */
async function documents(dir: string, cache: Cache, index: Index): Promise<Doc[]> {
  const names = await listing(dir);
  reindex(index, names);
  const out: Doc[] = [];
  for (const name of index) {
    const p = join(dir, name);
    const st = await lstat(p).catch(() => null);
    if (st === null || !st.isFile()) continue;
    const known = cache.get(name);
    if (known !== undefined && known.mtimeMs === st.mtimeMs && known.size === st.size) {
      out.push({ name, bytes: known.bytes });
      continue;
    }
    const bytes = await readFile(p).catch(() => null);
    if (bytes === null) continue;
    cache.set(name, { mtimeMs: st.mtimeMs, size: st.size, bytes });
    out.push({ name, bytes });
  }
  for (const name of cache.keys()) if (!names.includes(name)) cache.delete(name);
  return out;
}

const text = new TextDecoder('latin1');

/** The first non-empty line of a document, cut to 200 characters (the headline). */
export function headlineOf(bytes: Uint8Array): string {
  const s = text.decode(bytes.subarray(0, 4096));
  const line = s.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, 200);
}

function linesOf(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 10) n++;
  return n;
}

/** The words of a text: runs of ASCII letters and digits, lower case. */
export function wordsOf(s: string): string[] {
  return s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/**
 * The score of a document for some seed words: the number of times each seed word occurs in it
 * as a whole word (case ignored), summed. The hits are then scaled so the best one scores 1000
 * (RFC 1625 4: a citation's rank is normalized to a top score of 1000), the others in
 * proportion, at least 1.
 */
export function scoreOf(bytes: Uint8Array, seeds: string[]): number {
  if (seeds.length === 0) return 0;
  const want = new Set(seeds);
  let n = 0;
  for (const w of wordsOf(text.decode(bytes))) if (want.has(w)) n++;
  return n;
}

/** DocID: tagged fields 1 (server), 2 (database), 3 (local id "0 <size> <name>"), 7 (copyright 0). */
function docIdOf(server: string, database: string, localId: string): Uint8Array {
  const out: number[] = [];
  const field = (tag: number, v: Uint8Array) => out.push(...encodeVarint(tag), ...encodeVarint(v.length), ...v);
  field(1, stringToBytes(server));
  field(2, stringToBytes(database));
  field(3, stringToBytes(localId));
  field(7, new Uint8Array([0]));
  return new Uint8Array(out);
}

/** The local id of a DocID (tag 3), or null. */
function localIdOf(docId: Uint8Array): string | null {
  try {
    const f = readFields(docId, 0, docId.length).find((x) => x.tag === 3);
    return f === undefined ? null : bytesToString(f.value);
  } catch {
    return null;
  }
}

/**
 * The file a local id names: "<start> <end> <name or path>" (the form this server writes, and
 * freeWAIS's, whose paths are reduced to their last part), only ever a file of the folder.
 */
function fileNameOf(localId: string): string | null {
  const m = /^[0-9]+ [0-9]+ (.+)$/s.exec(localId);
  return m === null ? null : basename(m[1]);
}

/** Starts the server (loopback by default); resolves once it listens. */
export async function startWaisServer(options: WaisServerOptions): Promise<WaisServer> {
  const dir = resolvePath(options.dir);
  const database = options.database ?? basename(dir);
  const host = options.host ?? '127.0.0.1';
  const idle = options.idleTimeout ?? 60_000;
  const sockets = new Set<net.Socket>();
  const cache: Cache = new Map();
  // Built now, in name order (a folder that cannot be listed yet starts an empty index).
  const index: Index = await listing(dir).catch(() => []);
  let port = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(idle, () => socket.destroy());
    serve(socket).catch(() => socket.destroy());
  });

  const serverName = () => `${host}:${port}`;
  const srcId = () => `0 0 ${database}.src`;
  const catId = () => `0 0 ${database}.cat`;

  function sourceDescription(docs: Doc[]): Uint8Array {
    const q = (s: string) => JSON.stringify(s);
    return stringToBytes(
      [
        '(:source',
        '   :version 3',
        `   :ip-name ${q(host)}`,
        `   :tcp-port ${port}`,
        `   :database-name ${q(database)}`,
        '   :cost 0.00',
        '   :cost-unit :free',
        `   :maintainer ${q('')}`,
        `   :description ${q(`A folder of ${docs.length} text files, served by locator: ${docs.map((d) => d.name).join(', ')}`)}`,
        ')',
        '',
      ].join('\n'),
    );
  }

  function catalogue(docs: Doc[]): Uint8Array {
    const lines = [`Catalog for database: ${database}`, `${docs.length} total documents`, ''];
    for (const d of docs) lines.push(`Document # ${d.name}`, `Headline: ${headlineOf(d.bytes)}`, '');
    return stringToBytes(lines.join('\n'));
  }

  function header(
    docId: Uint8Array,
    bytes: Uint8Array,
    type: string,
    headline: string,
    score: number | null,
  ): DocumentHeader {
    return {
      docId,
      versionNumber: null,
      score,
      bestMatch: null,
      documentLength: bytes.length,
      lines: linesOf(bytes),
      types: [type],
      source: database,
      date: null,
      headline,
    };
  }

  function response(m: Partial<SearchResponse>, search: boolean): Uint8Array {
    const headers = m.headers ?? [];
    const texts = m.texts ?? [];
    const diagnostics = m.diagnostics ?? [];
    return encodeSearchResponse({
      searchStatus: search ? 1 : 0,
      resultCount: headers.length,
      numberOfRecordsReturned: headers.length + texts.length + diagnostics.length,
      nextResultSetPosition: 0,
      presentStatus: 0,
      referenceId: m.referenceId ?? null,
      headers,
      texts,
      diagnostics,
    });
  }

  const failed = (text: string, referenceId: Uint8Array | null = null): Uint8Array =>
    response({ diagnostics: [{ code: 'S1', text, surrogate: 0 } satisfies Diagnostic], referenceId }, false);

  /** The named file, the source description or the catalogue a local id stands for. */
  function lookup(docs: Doc[], localId: string | null): { bytes: Uint8Array; type: string; index: number } | null {
    if (localId === null) return null;
    const name = fileNameOf(localId);
    // The help records: "0 0 <database>.src" and ".cat" (a path before the name is ignored, as
    // for files; the database name may itself hold "/").
    const help = (suffix: string) =>
      localId.startsWith('0 0 ') &&
      (localId.slice(4) === `${database}${suffix}` || localId.endsWith(`/${database}${suffix}`));
    if (help('.src')) return { bytes: sourceDescription(docs), type: 'WSRC', index: -1 };
    if (help('.cat')) return { bytes: catalogue(docs), type: 'TEXT', index: -1 };
    const index = docs.findIndex((d) => d.name === name);
    return index < 0 ? null : { bytes: docs[index].bytes, type: 'TEXT', index };
  }

  async function search(req: SearchRequest): Promise<Uint8Array> {
    const names = req.databaseNames.split('\x1f');
    if (!names.includes(database)) {
      return failed(`The following database is not available: ${req.databaseNames}`, req.referenceId);
    }
    const docs = await documents(dir, cache, index);
    const q = req.query;
    if (req.queryType === '1' && q?.kind === 'retrieval') {
      const r = readRetrieval(q);
      if (r === null) return failed('the type-1 query is not a DocID, a type and a byte range', req.referenceId);
      const found = lookup(docs, localIdOf(r.docId));
      if (found === null) return failed('no such document', req.referenceId);
      if (r.to < r.from) return failed(`bad byte range ${r.from}-${r.to}`, req.referenceId);
      const end = Math.min(r.to, found.bytes.length, r.from + MAX_PIECE);
      const piece = found.bytes.subarray(Math.min(r.from, end), end);
      options.log?.(`retrieve ${bytesToString(r.docId).length}-byte DocID ${r.from}-${r.to}: ${piece.length} bytes`);
      return response(
        { texts: [{ docId: r.docId, versionNumber: 0, text: piece }], referenceId: req.referenceId },
        false,
      );
    }
    if (req.queryType !== '3' || q?.kind !== 'seeds') {
      return failed(`query type ${JSON.stringify(req.queryType)} is not supported`, req.referenceId);
    }
    const max = q.maxDocumentsRetrieved ?? 40;
    if (q.types.includes('WAIS_NEXT') && q.documentIds.length > 0) {
      const cur = lookup(docs, localIdOf(q.documentIds[0]));
      const next = cur !== null && cur.index >= 0 ? docs[cur.index + 1] : undefined;
      if (next === undefined) return response({}, true);
      const id = docIdOf(serverName(), database, `0 ${next.bytes.length} ${next.name}`);
      return response({ headers: [header(id, next.bytes, 'TEXT', headlineOf(next.bytes), null)] }, true);
    }
    const seeds = wordsOf(q.seedWords);
    options.log?.(`search ${database} ${JSON.stringify(q.seedWords)}`);
    if (seeds.length === 0) {
      const src = sourceDescription(docs);
      const cat = catalogue(docs);
      return response(
        {
          headers: [
            header(docIdOf(serverName(), database, srcId()), src, 'WSRC', `Information on database: ${database}`, 1000),
            header(docIdOf(serverName(), database, catId()), cat, 'TEXT', `Catalog for database: ${database}`, 1000),
          ],
        },
        true,
      );
    }
    const scored = docs
      .map((d) => ({ d, n: scoreOf(d.bytes, seeds) }))
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n || (a.d.name < b.d.name ? -1 : 1))
      .slice(0, max);
    const top = scored[0]?.n ?? 1;
    return response(
      {
        headers: scored.map(({ d, n }) =>
          header(
            docIdOf(serverName(), database, `0 ${d.bytes.length} ${d.name}`),
            d.bytes,
            'TEXT',
            headlineOf(d.bytes),
            Math.max(1, Math.round((n * 1000) / top)),
          ),
        ),
      },
      true,
    );
  }

  async function answer(apdu: Uint8Array): Promise<Uint8Array | null> {
    const type = apdu[2];
    if (type === PDU_INIT_REQUEST) {
      const r = decodeInitRequest(apdu);
      return encodeInitResponse({
        result: true,
        protocolVersion: new Uint8Array([0x80]),
        options: new Uint8Array([0x80]),
        preferredMessageSize: Math.min(r.preferredMessageSize || MAX_PIECE, 100000),
        maximumRecordSize: Math.min(r.maximumRecordSize || MAX_PIECE, 100000),
        idAuthentication: null,
        implementationId: 'locator',
        implementationName: 'locator WAIS server',
        implementationVersion: '0.1',
        referenceId: r.referenceId,
        chunkCode: 0,
        chunkIdLength: 0,
      });
    }
    if (type === PDU_SEARCH_REQUEST) return search(decodeSearchRequest(apdu));
    return null;
  }

  /**
   * Resolves true once the client has taken what was written ('drain'), false when the
   * connection closes first; a client that takes nothing for `idle` ms is disconnected.
   */
  function drained(socket: net.Socket): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        socket.off('drain', onDrain);
        socket.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const timer = setTimeout(() => {
        socket.destroy();
        done(false);
      }, idle);
      socket.once('drain', onDrain);
      socket.once('close', onClose);
    });
  }

  // Back-pressure: a client that sends requests and does not read the answers must not make the
  // server queue answers without bound. While an answer waits to go out (socket.write returned
  // false), no other request is answered and the socket is not read (paused), so the client's
  // requests wait in its own buffers; while a request is being answered, input beyond
  // INPUT_HIGH stops reading too. What the server holds per connection is then at most one
  // answer (100000 octets and the framing) over the socket's high-water mark, and INPUT_HIGH
  // plus one read of input.
  async function serve(socket: net.Socket): Promise<void> {
    let buf: Buffer = Buffer.alloc(0);
    let busy = false;
    const pump = async () => {
      if (busy) return;
      busy = true;
      try {
        for (;;) {
          if (buf.length < HEADER_LENGTH) break;
          const h = decodeHeader(buf.subarray(0, HEADER_LENGTH));
          if (h.length > MAX_REQUEST) throw new Error('request too large');
          if (buf.length < HEADER_LENGTH + h.length) break;
          const apdu = buf.subarray(HEADER_LENGTH, HEADER_LENGTH + h.length);
          buf = buf.subarray(HEADER_LENGTH + h.length);
          const out = await answer(new Uint8Array(apdu));
          if (out === null) throw new Error('unknown APDU');
          if (socket.destroyed) return;
          const msg = new Uint8Array(HEADER_LENGTH + out.length);
          msg.set(encodeHeader(out.length, h.serverName.slice(0, 10)), 0);
          msg.set(out, HEADER_LENGTH);
          if (!socket.write(msg)) {
            socket.pause();
            if (!(await drained(socket))) return;
          }
        }
        // Every whole request is answered: read on.
        if (!socket.destroyed) socket.resume();
      } catch {
        socket.destroy();
      } finally {
        busy = false;
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      if (buf.length > MAX_REQUEST + HEADER_LENGTH) {
        socket.destroy();
        return;
      }
      if (busy && buf.length >= INPUT_HIGH) socket.pause(); // pump() resumes when it has used it
      void pump();
    });
    socket.on('end', () => socket.end());
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as net.AddressInfo).port;
  return {
    port,
    host,
    database,
    bufferedBytes: () => {
      let n = 0;
      for (const s of sockets) n += s.writableLength;
      return n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
