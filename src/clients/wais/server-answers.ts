// What a WAIS server answers (`locator serve --wais DIR`; ./server.ts reads the requests and
// writes the answers): an InitRequest, a search of the folder's documents by seed words (query
// type "3": the hits best first, the next document of the index, or the help records), the
// retrieval of a piece of a document (query type "1", RFC 1625 4), and a diagnostic record for
// anything else. RFC 1625 and the WAIS protocol specification (protspec), with the tag layout of
// apdu.ts.

import { basename } from 'node:path';
import {
  PDU_INIT_REQUEST,
  PDU_SEARCH_REQUEST,
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
import { documents, headlineOf, linesOf, scoreOf, wordsOf, type Cache, type Doc, type Index } from './server-folder.js';

/** The largest piece of text sent in one answer (the InitResponse's Maximum-Record-Size). */
export const MAX_PIECE = 100000;

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

/** The database a server answers for: its folder and name, and where it listens. */
export interface Database {
  dir: string;
  database: string;
  host: string;
  /** The port it listens on (known once it listens). */
  port(): number;
  cache: Cache;
  index: Index;
  /** Called for each request handled (a log line), if given. */
  log?: (line: string) => void;
}

/**
 * The answer to one APDU (RFC 1625; protspec): an InitResponse, a SearchResponse, or null for a
 * message that is no InitRequest or SearchRequest (the connection is then closed).
 */
export function answerer(db: Database): (apdu: Uint8Array) => Promise<Uint8Array | null> {
  const { dir, database, host, cache, index } = db;
  const serverName = () => `${host}:${db.port()}`;
  const srcId = () => `0 0 ${database}.src`;
  const catId = () => `0 0 ${database}.cat`;

  function sourceDescription(docs: Doc[]): Uint8Array {
    const q = (s: string) => JSON.stringify(s);
    return stringToBytes(
      [
        '(:source',
        '   :version 3',
        `   :ip-name ${q(host)}`,
        `   :tcp-port ${db.port()}`,
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

  /** Query type "1" (RFC 1625 4): the bytes [from, to) of a document, at most MAX_PIECE of them. */
  function retrieve(req: SearchRequest, docs: Doc[]): Uint8Array {
    const r = req.query?.kind === 'retrieval' ? readRetrieval(req.query) : null;
    if (r === null) return failed('the type-1 query is not a DocID, a type and a byte range', req.referenceId);
    const found = lookup(docs, localIdOf(r.docId));
    if (found === null) return failed('no such document', req.referenceId);
    if (r.to < r.from) return failed(`bad byte range ${r.from}-${r.to}`, req.referenceId);
    const end = Math.min(r.to, found.bytes.length, r.from + MAX_PIECE);
    const piece = found.bytes.subarray(Math.min(r.from, end), end);
    db.log?.(`retrieve ${bytesToString(r.docId).length}-byte DocID ${r.from}-${r.to}: ${piece.length} bytes`);
    return response(
      { texts: [{ docId: r.docId, versionNumber: 0, text: piece }], referenceId: req.referenceId },
      false,
    );
  }

  /** WAIS_NEXT: the header of the document after `docId` in the index (none after the last). */
  function next(docs: Doc[], docId: Uint8Array): Uint8Array {
    const cur = lookup(docs, localIdOf(docId));
    const after = cur !== null && cur.index >= 0 ? docs[cur.index + 1] : undefined;
    if (after === undefined) return response({}, true);
    const id = docIdOf(serverName(), database, `0 ${after.bytes.length} ${after.name}`);
    return response({ headers: [header(id, after.bytes, 'TEXT', headlineOf(after.bytes), null)] }, true);
  }

  /** No seed words: the help records, the source description and the catalogue. */
  function help(docs: Doc[]): Uint8Array {
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

  /** The documents that hold the seed words, best first, at most `max`, scored up to 1000 (RFC 1625 4). */
  function hits(docs: Doc[], seeds: string[], max: number): Uint8Array {
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

  /** A SearchRequest: a retrieval (type "1"), or a search by seed words (type "3"), of this database only. */
  async function search(req: SearchRequest): Promise<Uint8Array> {
    const names = req.databaseNames.split('\x1f');
    if (!names.includes(database)) {
      return failed(`The following database is not available: ${req.databaseNames}`, req.referenceId);
    }
    const docs = await documents(dir, cache, index);
    const q = req.query;
    if (req.queryType === '1' && q?.kind === 'retrieval') return retrieve(req, docs);
    if (req.queryType !== '3' || q?.kind !== 'seeds') {
      return failed(`query type ${JSON.stringify(req.queryType)} is not supported`, req.referenceId);
    }
    if (q.types.includes('WAIS_NEXT') && q.documentIds.length > 0) return next(docs, q.documentIds[0]);
    const seeds = wordsOf(q.seedWords);
    db.log?.(`search ${database} ${JSON.stringify(q.seedWords)}`);
    if (seeds.length === 0) return help(docs);
    return hits(docs, seeds, q.maxDocumentsRetrieved ?? 40);
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

  return answer;
}
