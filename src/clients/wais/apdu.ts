// The WAIS APDUs (RFC 1625, "WAIS over Z39.50-1988"; the WAIS Interface Protocol Prototype
// Functional Specification, Kahle et al., 1990 - "protspec" below): encoders and decoders, pure
// functions over bytes, no I/O. The layout, checked byte by byte against the freeWAIS captures in
// test/data/fixtures/wais (docs/wais.md says how):
//
//   APDU = Header-Length-Indicator (2 bytes, big-endian: the bytes of the Z39.50 part after it)
//          PDU-Type (1 byte) fixed fields (big-endian, untagged) tagged fields   <- Z39.50 part
//          user-information part (the WAIS extensions) up to the end of the APDU
//
// A tagged field is tag, length, value; tag and length are protspec's variable-length integers
// (7 bits a byte, most significant group first, the high bit set on all but the last byte). An
// integer value is big-endian in as few bytes as it needs; a string is its bytes; a group is
// itself a list of tagged fields. A diagnostic record (tag 28) has its own layout (see
// decodeDiagnostic).

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';

// PDU types (Z39.50-1988 APDU codes as WAIS writes them; protspec 5.1).
export const PDU_INIT_REQUEST = 20;
export const PDU_INIT_RESPONSE = 21;
export const PDU_SEARCH_REQUEST = 22;
export const PDU_SEARCH_RESPONSE = 23;

/** Data-element tags: Z39.50-1988 (2-46) and protspec 5.1's WAIS extensions (99 and up). */
export const TAG = {
  referenceId: 2,
  protocolVersion: 3,
  options: 4,
  preferredMessageSize: 5,
  maximumRecordSize: 6,
  idAuthentication: 7,
  implementationId: 8,
  implementationName: 9,
  implementationVersion: 10,
  resultSetName: 17,
  databaseNames: 18,
  elementSetNames: 19,
  queryType: 20,
  query: 21,
  presentStatus: 27,
  diagnosticRecord: 28,
  attributeList: 44,
  term: 45,
  operator: 46,
  userInformationLength: 99,
  chunkCode: 100,
  chunkIdLength: 101,
  seedWords: 106,
  dateFactor: 111,
  maxDocumentsRetrieved: 114,
  documentId: 116,
  versionNumber: 117,
  score: 118,
  bestMatch: 119,
  documentLength: 120,
  source: 121,
  date: 122,
  headline: 123,
  documentText: 127,
  lines: 131,
  typeBlock: 132,
  type: 133,
  documentHeaderGroup: 150,
  documentTextGroup: 153,
} as const;

/** The byte that ends a diagnostic record (the ASCII group separator's neighbour, 0x1D). */
const DIAGNOSTIC_END = 0x1d;

const latin1 = new TextDecoder('latin1');
/** Bytes as a string, one character per byte (the fields are ASCII; nothing is lost either way). */
export function bytesToString(b: Uint8Array): string {
  return latin1.decode(b);
}
/** A string of characters 0-255 as bytes (the inverse of bytesToString). */
export function stringToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 255) throw new RangeError('a WAIS field holds bytes: characters above U+00FF must be encoded first');
    out[i] = c;
  }
  return out;
}

function fail(message: string): never {
  throw new LocatorError(PROTOCOL_ERROR, -1, `malformed WAIS APDU: ${message}`);
}

// ---------------------------------------------------------------------------------------------
// Numbers and tagged fields

/** protspec 5.1: a tag or length as a variable-length integer (7 bits a byte, high bit = more). */
export function encodeVarint(n: number): number[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`a WAIS tag or length must be >= 0, not ${n}`);
  const groups = [n % 128];
  for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) groups.unshift((v % 128) | 0x80);
  return groups;
}

/** Reads a variable-length integer at `pos` (protspec 5.1); [value, next position]. */
export function decodeVarint(b: Uint8Array, pos: number, end = b.length): [number, number] {
  let v = 0;
  for (let i = pos; i < end; i++) {
    if (i - pos >= 6) fail(`a tag or length at ${pos} is longer than 6 bytes`);
    v = v * 128 + (b[i] & 0x7f);
    if ((b[i] & 0x80) === 0) return [v, i + 1];
  }
  return fail(`a tag or length at ${pos} runs past the end`);
}

/** An integer value: big-endian, as few bytes as it needs (one byte for 0). */
export function encodeInteger(n: number): number[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`a WAIS integer must be >= 0, not ${n}`);
  const out = [n % 256];
  for (let v = Math.floor(n / 256); v > 0; v = Math.floor(v / 256)) out.unshift(v % 256);
  return out;
}

/** Reads a big-endian integer value of any length up to 6 bytes. */
export function decodeInteger(b: Uint8Array): number {
  if (b.length === 0 || b.length > 6) fail(`an integer value of ${b.length} bytes`);
  let v = 0;
  for (const x of b) v = v * 256 + x;
  return v;
}

/** A fixed-width big-endian integer (the untagged fields after the PDU-Type). */
function fixed(n: number, width: number): number[] {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 256 ** width) throw new RangeError(`${n} does not fit ${width} bytes`);
  const out: number[] = [];
  for (let i = width - 1; i >= 0; i--) out.push(Math.floor(n / 256 ** i) % 256);
  return out;
}

/** Collects bytes and tagged fields. */
class Writer {
  readonly bytes: number[] = [];
  raw(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.bytes.push(b[i]);
    return this;
  }
  field(tag: number, value: ArrayLike<number>): this {
    return this.raw(encodeVarint(tag)).raw(encodeVarint(value.length)).raw(value);
  }
  string(tag: number, s: string): this {
    return this.field(tag, stringToBytes(s));
  }
  integer(tag: number, n: number): this {
    return this.field(tag, encodeInteger(n));
  }
  group(tag: number, w: Writer): this {
    return this.field(tag, w.bytes);
  }
}

/** One tagged field as read: its tag and value (a view of the APDU's bytes). */
export interface Field {
  tag: number;
  value: Uint8Array;
  /** Offset of the tag in the buffer read. */
  offset: number;
}

/** A diagnostic record (Z39.50-1988 tag 28, in the WAIS layout). */
export interface Diagnostic {
  /** Two ASCII characters (freeWAIS: "S1" for a failed search, "D2" and so on). */
  code: string;
  /** The additional information, a text (NUL-free). */
  text: string;
  /** The surrogate flag byte. */
  surrogate: number;
}

/**
 * Reads the tagged fields in b[start, end) (protspec 5.1). With `diagnostics`, a tag 28 is read as
 * a diagnostic record: "1c", a 2-byte big-endian length L, two characters of diagnostic code, L-3
 * bytes of additional information, one surrogate flag byte, then 0x1D, which L does not count (the
 * freeWAIS layout, RFC 1625 3 names the record without giving bytes).
 */
export function readFields(
  b: Uint8Array,
  start: number,
  end: number,
  diagnostics: Diagnostic[] | null = null,
): Field[] {
  const out: Field[] = [];
  let p = start;
  while (p < end) {
    const offset = p;
    const [tag, q] = decodeVarint(b, p, end);
    if (tag === TAG.diagnosticRecord && diagnostics !== null) {
      if (q + 2 > end) fail(`a diagnostic record at ${offset} is cut short`);
      const len = b[q] * 256 + b[q + 1];
      const body = q + 2;
      if (len < 3 || body + len + 1 > end)
        fail(`a diagnostic record at ${offset} states ${len} bytes that are not there`);
      if (b[body + len] !== DIAGNOSTIC_END) fail(`a diagnostic record at ${offset} does not end with 0x1D`);
      let text = bytesToString(b.subarray(body + 2, body + len - 1));
      const nul = text.indexOf('\0');
      if (nul >= 0) text = text.slice(0, nul);
      diagnostics.push({ code: bytesToString(b.subarray(body, body + 2)), text, surrogate: b[body + len - 1] });
      p = body + len + 1;
      continue;
    }
    const [len, v] = decodeVarint(b, q, end);
    if (v + len > end) fail(`the field with tag ${tag} at ${offset} states ${len} bytes, but only ${end - v} remain`);
    out.push({ tag, value: b.subarray(v, v + len), offset });
    p = v + len;
  }
  return out;
}

function one(fields: Field[], tag: number): Uint8Array | null {
  return fields.find((f) => f.tag === tag)?.value ?? null;
}
function str(fields: Field[], tag: number): string | null {
  const v = one(fields, tag);
  return v === null ? null : bytesToString(v);
}
function int(fields: Field[], tag: number): number | null {
  const v = one(fields, tag);
  return v === null ? null : decodeInteger(v);
}

// ---------------------------------------------------------------------------------------------
// The APDU frame: Header-Length-Indicator, PDU-Type, the Z39.50 part, the user-information part

/** Puts an APDU together: HLI (2 bytes), then the Z39.50 part (starting with the PDU-Type), then the user information. */
function frame(z: Writer, userInfo: ArrayLike<number> | null): Uint8Array {
  const n = z.bytes.length;
  if (n > 0xffff) throw new RangeError('the Z39.50 part of a WAIS APDU is at most 65535 bytes');
  const u = userInfo ?? [];
  const out = new Uint8Array(2 + n + u.length);
  out[0] = n >> 8;
  out[1] = n & 0xff;
  out.set(z.bytes, 2);
  out.set(Array.from(u), 2 + n);
  return out;
}

interface Split {
  pduType: number;
  /** Offset of the first byte after the PDU-Type. */
  body: number;
  /** End of the Z39.50 part (2 + HLI). */
  zEnd: number;
}

function split(apdu: Uint8Array): Split {
  if (apdu.length < 3) fail(`an APDU of ${apdu.length} bytes`);
  const hli = apdu[0] * 256 + apdu[1];
  if (hli < 1 || 2 + hli > apdu.length)
    fail(`the Header-Length-Indicator (${hli}) does not fit the APDU (${apdu.length} bytes)`);
  return { pduType: apdu[2], body: 3, zEnd: 2 + hli };
}

/** The PDU-Type of an APDU (its third byte; Z39.50-1988). */
export function pduTypeOf(apdu: Uint8Array): number {
  return split(apdu).pduType;
}

// ---------------------------------------------------------------------------------------------
// InitRequest and InitResponse (Z39.50-1988 InitializeRequest/Response; protspec 5.2)

export interface InitRequest {
  pdu: 'init-request';
  /** Tag 3, a bit map; [0x80] = version 1. */
  protocolVersion: Uint8Array;
  /** Tag 4, a bit map; [0x80] = search only. */
  options: Uint8Array;
  /** Tag 5. */
  preferredMessageSize: number;
  /** Tag 6. */
  maximumRecordSize: number;
  /** Tag 7 (free text in WAIS), or null. */
  idAuthentication: string | null;
  /** Tags 8, 9, 10, or null. */
  implementationId: string | null;
  implementationName: string | null;
  implementationVersion: string | null;
  /** Tag 2, or null. */
  referenceId: Uint8Array | null;
  /** The user-information part, raw, or null when absent. */
  userInformation: Uint8Array | null;
}

export interface InitResponse extends Omit<InitRequest, 'pdu'> {
  pdu: 'init-response';
  /** The 1-byte Result field: true = accepted. */
  result: boolean;
  /** From the user-information group (tags 100 and 101), when present. */
  chunkCode: number | null;
  chunkIdLength: number | null;
}

function initFields(w: Writer, m: Omit<InitRequest, 'pdu'>): void {
  w.field(TAG.protocolVersion, m.protocolVersion);
  w.field(TAG.options, m.options);
  w.integer(TAG.preferredMessageSize, m.preferredMessageSize);
  w.integer(TAG.maximumRecordSize, m.maximumRecordSize);
  if (m.idAuthentication !== null) w.string(TAG.idAuthentication, m.idAuthentication);
  if (m.implementationId !== null) w.string(TAG.implementationId, m.implementationId);
  if (m.implementationName !== null) w.string(TAG.implementationName, m.implementationName);
  if (m.implementationVersion !== null) w.string(TAG.implementationVersion, m.implementationVersion);
  if (m.referenceId !== null) w.field(TAG.referenceId, m.referenceId);
}

function readInit(f: Field[]): Omit<InitRequest, 'pdu' | 'userInformation'> {
  return {
    protocolVersion: one(f, TAG.protocolVersion) ?? new Uint8Array(0),
    options: one(f, TAG.options) ?? new Uint8Array(0),
    preferredMessageSize: int(f, TAG.preferredMessageSize) ?? 0,
    maximumRecordSize: int(f, TAG.maximumRecordSize) ?? 0,
    idAuthentication: str(f, TAG.idAuthentication),
    implementationId: str(f, TAG.implementationId),
    implementationName: str(f, TAG.implementationName),
    implementationVersion: str(f, TAG.implementationVersion),
    referenceId: one(f, TAG.referenceId),
  };
}

/** Encodes an InitRequest (Z39.50-1988 InitializeRequest, PDU-Type 20; protspec 5.2). */
export function encodeInitRequest(m: Omit<InitRequest, 'pdu'>): Uint8Array {
  const w = new Writer().raw([PDU_INIT_REQUEST]);
  initFields(w, m);
  return frame(w, m.userInformation);
}

/** Encodes an InitResponse (PDU-Type 21, the Result byte; user information: Chunk-Code, Chunk-ID-Length). */
export function encodeInitResponse(m: Omit<InitResponse, 'pdu' | 'userInformation'>): Uint8Array {
  const w = new Writer().raw([PDU_INIT_RESPONSE, m.result ? 1 : 0]);
  initFields(w, { ...m, userInformation: null });
  let ui: number[] | null = null;
  if (m.chunkCode !== null || m.chunkIdLength !== null) {
    const g = new Writer();
    if (m.chunkCode !== null) g.integer(TAG.chunkCode, m.chunkCode);
    if (m.chunkIdLength !== null) g.integer(TAG.chunkIdLength, m.chunkIdLength);
    ui = new Writer().group(TAG.userInformationLength, g).bytes;
  }
  return frame(w, ui);
}

/** Decodes an InitRequest. */
export function decodeInitRequest(apdu: Uint8Array): InitRequest {
  const s = split(apdu);
  if (s.pduType !== PDU_INIT_REQUEST) fail(`PDU-Type ${s.pduType} where an InitRequest (20) was expected`);
  const f = readFields(apdu, s.body, s.zEnd);
  return {
    pdu: 'init-request',
    ...readInit(f),
    userInformation: s.zEnd < apdu.length ? apdu.subarray(s.zEnd) : null,
  };
}

/** Decodes an InitResponse (PDU-Type 21: Result, the Z39.50 fields, the WAIS user information). */
export function decodeInitResponse(apdu: Uint8Array): InitResponse {
  const s = split(apdu);
  if (s.pduType !== PDU_INIT_RESPONSE) fail(`PDU-Type ${s.pduType} where an InitResponse (21) was expected`);
  if (s.zEnd < 4) fail('the InitResponse has no Result byte');
  const f = readFields(apdu, s.body + 1, s.zEnd);
  let chunkCode: number | null = null;
  let chunkIdLength: number | null = null;
  if (s.zEnd < apdu.length) {
    const g = one(readFields(apdu, s.zEnd, apdu.length), TAG.userInformationLength);
    if (g !== null) {
      const inner = readFields(g, 0, g.length);
      chunkCode = int(inner, TAG.chunkCode);
      chunkIdLength = int(inner, TAG.chunkIdLength);
    }
  }
  return {
    pdu: 'init-response',
    result: apdu[s.body] !== 0,
    ...readInit(f),
    userInformation: s.zEnd < apdu.length ? apdu.subarray(s.zEnd) : null,
    chunkCode,
    chunkIdLength,
  };
}

// ---------------------------------------------------------------------------------------------
// SearchRequest (Z39.50-1988 SearchRequest, PDU-Type 22; protspec 5.3; RFC 1625 4)

/** A query of type "3" (protspec 5.3, RFC 1625 4: relevance search by seed words). */
export interface SeedQuery {
  kind: 'seeds';
  /** Tag 106, the words as typed. */
  seedWords: string;
  /** Tag 116: documents for relevance feedback (or the "next document" request's current DocID). */
  documentIds: Uint8Array[];
  /** Tag 133 after the Document-IDs (`WAIS_NEXT` in waissearch's "next document" request). */
  types: string[];
  /** Tag 111, or null. */
  dateFactor: number | null;
  /** Tag 114, or null. */
  maxDocumentsRetrieved: number | null;
}

/** One element of a type-1 query in reverse Polish order: an operand (Attribute-List and Term) or an Operator. */
export type QueryItem = { attributes: string; term: Uint8Array } | { operator: string };

/** A query of type "1" (RFC 1625 4: retrieve a document: DocID, type, byte range, ANDed). */
export interface RetrievalQuery {
  kind: 'retrieval';
  items: QueryItem[];
}

export interface SearchRequest {
  pdu: 'search-request';
  smallSetUpperBound: number;
  largeSetLowerBound: number;
  mediumSetPresentNumber: number;
  /** 1 byte. */
  replaceIndicator: number;
  /** Tag 17. */
  resultSetName: string;
  /** Tag 18 (several names are separated by 0x1F). */
  databaseNames: string;
  /** Tag 20: "3" seed words, "1" retrieval. */
  queryType: string;
  /** Tag 19, raw (waissearch: " " 0x1F "Document Text"), or null. */
  elementSetNames: string | null;
  /** Tag 2, or null. */
  referenceId: Uint8Array | null;
  query: SeedQuery | RetrievalQuery | null;
}

function encodeQuery(q: SeedQuery | RetrievalQuery): number[] {
  if (q.kind === 'seeds') {
    const g = new Writer().string(TAG.seedWords, q.seedWords);
    for (const d of q.documentIds) g.field(TAG.documentId, d);
    for (const t of q.types) g.string(TAG.type, t);
    if (q.dateFactor !== null) g.integer(TAG.dateFactor, q.dateFactor);
    if (q.maxDocumentsRetrieved !== null) g.integer(TAG.maxDocumentsRetrieved, q.maxDocumentsRetrieved);
    return new Writer().group(TAG.userInformationLength, g).bytes;
  }
  const g = new Writer();
  for (const it of q.items) {
    if ('operator' in it) g.string(TAG.operator, it.operator);
    else g.string(TAG.attributeList, it.attributes).field(TAG.term, it.term);
  }
  return new Writer().group(TAG.query, g).bytes;
}

/** Encodes a SearchRequest: fixed fields 3+3+3+1 bytes, tags 17, 18, 20, [19], [2], then the query. */
export function encodeSearchRequest(m: Omit<SearchRequest, 'pdu'>): Uint8Array {
  const w = new Writer().raw([PDU_SEARCH_REQUEST]);
  w.raw(fixed(m.smallSetUpperBound, 3))
    .raw(fixed(m.largeSetLowerBound, 3))
    .raw(fixed(m.mediumSetPresentNumber, 3))
    .raw(fixed(m.replaceIndicator, 1));
  w.string(TAG.resultSetName, m.resultSetName);
  w.string(TAG.databaseNames, m.databaseNames);
  w.string(TAG.queryType, m.queryType);
  if (m.elementSetNames !== null) w.string(TAG.elementSetNames, m.elementSetNames);
  if (m.referenceId !== null) w.field(TAG.referenceId, m.referenceId);
  return frame(w, m.query === null ? null : encodeQuery(m.query));
}

/** Decodes a SearchRequest, its query read by Query-Type ("3": tag-99 group; "1": tag-21 type-1 query). */
export function decodeSearchRequest(apdu: Uint8Array): SearchRequest {
  const s = split(apdu);
  if (s.pduType !== PDU_SEARCH_REQUEST) fail(`PDU-Type ${s.pduType} where a SearchRequest (22) was expected`);
  const p = s.body;
  if (p + 10 > s.zEnd) fail('the SearchRequest is shorter than its fixed fields');
  const n3 = (i: number) => apdu[i] * 65536 + apdu[i + 1] * 256 + apdu[i + 2];
  const f = readFields(apdu, p + 10, s.zEnd);
  const queryType = str(f, TAG.queryType) ?? '';
  let query: SeedQuery | RetrievalQuery | null = null;
  const ui = readFields(apdu, s.zEnd, apdu.length);
  const group = one(ui, TAG.userInformationLength);
  const q1 = one(f, TAG.query) ?? one(ui, TAG.query);
  if (group !== null) {
    const g = readFields(group, 0, group.length);
    query = {
      kind: 'seeds',
      seedWords: str(g, TAG.seedWords) ?? '',
      documentIds: g.filter((x) => x.tag === TAG.documentId).map((x) => x.value),
      types: g.filter((x) => x.tag === TAG.type).map((x) => bytesToString(x.value)),
      dateFactor: int(g, TAG.dateFactor),
      maxDocumentsRetrieved: int(g, TAG.maxDocumentsRetrieved),
    };
  } else if (q1 !== null) {
    const items: QueryItem[] = [];
    const g = readFields(q1, 0, q1.length);
    for (let i = 0; i < g.length; i++) {
      const x = g[i];
      if (x.tag === TAG.operator) items.push({ operator: bytesToString(x.value) });
      else if (x.tag === TAG.attributeList) {
        const t = g[i + 1];
        if (t === undefined || t.tag !== TAG.term)
          fail('an Attribute-List in a type-1 query is not followed by a Term');
        items.push({ attributes: bytesToString(x.value), term: t.value });
        i++;
      } else if (x.tag === TAG.term) items.push({ attributes: '', term: x.value });
      else fail(`tag ${x.tag} inside a type-1 query`);
    }
    query = { kind: 'retrieval', items };
  }
  return {
    pdu: 'search-request',
    smallSetUpperBound: n3(p),
    largeSetLowerBound: n3(p + 3),
    mediumSetPresentNumber: n3(p + 6),
    replaceIndicator: apdu[p + 9],
    resultSetName: str(f, TAG.resultSetName) ?? '',
    databaseNames: str(f, TAG.databaseNames) ?? '',
    queryType,
    elementSetNames: str(f, TAG.elementSetNames),
    referenceId: one(f, TAG.referenceId),
    query,
  };
}

// The attribute lists of a retrieval query (RFC 1625 4; the six codes are use, relation,
// position, structure, truncation, completeness).
export const ATTR_DOCID = 'un re ig ig ig ig';
export const ATTR_TYPE = 'wt re ig ig ig ig';
export const ATTR_FROM = 'wb ro ig ig ig ig';
export const ATTR_TO = 'wb rl ig ig ig ig';

/**
 * The type-1 query that retrieves bytes [from, to) of a document (RFC 1625 4): the DocID (use
 * "un", relation "re"), AND the type ("wt"), AND the start ("wb", relation "ro", greater than or
 * equal), AND the end ("wb", relation "rl", less than), offsets as ASCII decimal, in reverse
 * Polish order. (RFC 1625's worked example writes "ro" for the end term too; its table, freeWAIS's
 * client and its server use "rl".)
 */
export function retrievalQuery(docId: Uint8Array, wtype: string, from: number, to: number): RetrievalQuery {
  const ascii = (n: number) => stringToBytes(String(n));
  return {
    kind: 'retrieval',
    items: [
      { attributes: ATTR_DOCID, term: docId },
      { attributes: ATTR_TYPE, term: stringToBytes(wtype) },
      { operator: 'a' },
      { attributes: ATTR_FROM, term: ascii(from) },
      { operator: 'a' },
      { attributes: ATTR_TO, term: ascii(to) },
      { operator: 'a' },
    ],
  };
}

/** The DocID, type and byte range of a retrieval query, or null when it is not one (RFC 1625 4). */
export function readRetrieval(
  q: RetrievalQuery,
): { docId: Uint8Array; wtype: string; from: number; to: number } | null {
  let docId: Uint8Array | null = null;
  let wtype: string | null = null;
  let from: number | null = null;
  let to: number | null = null;
  const num = (b: Uint8Array) => {
    const s = bytesToString(b);
    return /^[0-9]{1,15}$/.test(s) ? Number(s) : null;
  };
  for (const it of q.items) {
    if ('operator' in it) {
      if (it.operator !== 'a') return null;
      continue;
    }
    const [use, rel] = it.attributes.split(' ');
    if (use === 'un') docId = it.term;
    else if (use === 'wt') wtype = bytesToString(it.term);
    else if (use === 'wb' && rel === 'ro') from = num(it.term);
    else if (use === 'wb' && rel === 'rl') to = num(it.term);
  }
  if (docId === null || wtype === null || from === null || to === null) return null;
  return { docId, wtype, from, to };
}

// ---------------------------------------------------------------------------------------------
// SearchResponse (Z39.50-1988 SearchResponse, PDU-Type 23; protspec 5.3 and appendix A)

/** One search hit (protspec: a WAIS-Document-Header; tag 150 in the freeWAIS encoding). */
export interface DocumentHeader {
  /** Tag 116: the DocID, opaque bytes to be sent back unchanged. */
  docId: Uint8Array;
  /** Tag 117, or null. */
  versionNumber: number | null;
  /** Tag 118, or null. */
  score: number | null;
  /** Tag 119, or null. */
  bestMatch: number | null;
  /** Tag 120: the size in bytes, or null. */
  documentLength: number | null;
  /** Tag 131, or null. */
  lines: number | null;
  /** Tag 133 in the Type-Block (tag 132). */
  types: string[];
  /** Tag 121, or null. */
  source: string | null;
  /** Tag 122, or null. */
  date: string | null;
  /** Tag 123, or null. */
  headline: string | null;
}

/** One retrieved piece (protspec: a WAIS-Document-Text; tag 153). */
export interface DocumentText {
  docId: Uint8Array;
  versionNumber: number | null;
  /** Tag 127. */
  text: Uint8Array;
}

export interface SearchResponse {
  pdu: 'search-response';
  /** 1 byte; not a dependable success flag (freeWAIS: 1 after a seed search, 0 after a retrieval). */
  searchStatus: number;
  resultCount: number;
  numberOfRecordsReturned: number;
  nextResultSetPosition: number;
  /** Tag 27, or null. */
  presentStatus: number | null;
  /** Tag 2, or null. */
  referenceId: Uint8Array | null;
  headers: DocumentHeader[];
  texts: DocumentText[];
  diagnostics: Diagnostic[];
}

function encodeHeaderGroup(h: DocumentHeader): Writer {
  const g = new Writer().field(TAG.documentId, h.docId);
  if (h.versionNumber !== null) g.integer(TAG.versionNumber, h.versionNumber);
  if (h.score !== null) g.integer(TAG.score, h.score);
  if (h.bestMatch !== null) g.integer(TAG.bestMatch, h.bestMatch);
  if (h.documentLength !== null) g.integer(TAG.documentLength, h.documentLength);
  if (h.lines !== null) g.integer(TAG.lines, h.lines);
  if (h.types.length > 0) {
    const t = new Writer();
    for (const x of h.types) t.string(TAG.type, x);
    g.group(TAG.typeBlock, t);
  }
  if (h.source !== null) g.string(TAG.source, h.source);
  if (h.date !== null) g.string(TAG.date, h.date);
  if (h.headline !== null) g.string(TAG.headline, h.headline);
  return g;
}

/** A diagnostic record's bytes: 1c, L (2 bytes), code, text, surrogate, 1d (see readFields). */
export function encodeDiagnostic(d: Diagnostic): number[] {
  if (d.code.length !== 2) throw new RangeError('a diagnostic code is two characters');
  const body = [...stringToBytes(d.code), ...stringToBytes(d.text), d.surrogate];
  if (body.length > 0xffff) throw new RangeError('a diagnostic record is at most 65535 bytes');
  return [TAG.diagnosticRecord, body.length >> 8, body.length & 0xff, ...body, DIAGNOSTIC_END];
}

/**
 * Encodes a SearchResponse: Search-Status (1 byte), Result-Count, Number-of-Records-Returned,
 * Next-Result-Set-Position (3 bytes each), Present-Status (tag 27), [Reference-ID], then one
 * tag-99 group holding the header groups (150), the text groups (153), then the diagnostic records.
 */
export function encodeSearchResponse(m: Omit<SearchResponse, 'pdu'>): Uint8Array {
  const w = new Writer()
    .raw([PDU_SEARCH_RESPONSE])
    .raw(fixed(m.searchStatus, 1))
    .raw(fixed(m.resultCount, 3))
    .raw(fixed(m.numberOfRecordsReturned, 3))
    .raw(fixed(m.nextResultSetPosition, 3));
  if (m.presentStatus !== null) w.integer(TAG.presentStatus, m.presentStatus);
  if (m.referenceId !== null) w.field(TAG.referenceId, m.referenceId);
  const g = new Writer();
  for (const h of m.headers) g.group(TAG.documentHeaderGroup, encodeHeaderGroup(h));
  for (const t of m.texts) {
    const x = new Writer().field(TAG.documentId, t.docId);
    if (t.versionNumber !== null) x.integer(TAG.versionNumber, t.versionNumber);
    x.field(TAG.documentText, t.text);
    g.group(TAG.documentTextGroup, x);
  }
  for (const d of m.diagnostics) g.raw(encodeDiagnostic(d));
  return frame(w, new Writer().group(TAG.userInformationLength, g).bytes);
}

function readHeaderGroup(v: Uint8Array): DocumentHeader {
  const f = readFields(v, 0, v.length);
  const docId = one(f, TAG.documentId);
  if (docId === null) fail('a document header without a Document-ID');
  const block = one(f, TAG.typeBlock);
  const types =
    block === null
      ? f.filter((x) => x.tag === TAG.type).map((x) => bytesToString(x.value))
      : readFields(block, 0, block.length)
          .filter((x) => x.tag === TAG.type)
          .map((x) => bytesToString(x.value));
  return {
    docId,
    versionNumber: int(f, TAG.versionNumber),
    score: int(f, TAG.score),
    bestMatch: int(f, TAG.bestMatch),
    documentLength: int(f, TAG.documentLength),
    lines: int(f, TAG.lines),
    types,
    source: str(f, TAG.source),
    date: str(f, TAG.date),
    headline: str(f, TAG.headline),
  };
}

/** Decodes a SearchResponse (PDU-Type 23) with its records and diagnostic records. */
export function decodeSearchResponse(apdu: Uint8Array): SearchResponse {
  const s = split(apdu);
  if (s.pduType !== PDU_SEARCH_RESPONSE) fail(`PDU-Type ${s.pduType} where a SearchResponse (23) was expected`);
  const p = s.body;
  if (p + 10 > s.zEnd) fail('the SearchResponse is shorter than its fixed fields');
  const n3 = (i: number) => apdu[i] * 65536 + apdu[i + 1] * 256 + apdu[i + 2];
  const f = readFields(apdu, p + 10, s.zEnd);
  const diagnostics: Diagnostic[] = [];
  const headers: DocumentHeader[] = [];
  const texts: DocumentText[] = [];
  // Records may stand in the tag-99 group (freeWAIS) or directly in the user-information part.
  const ui = readFields(apdu, s.zEnd, apdu.length, diagnostics);
  const records: Field[] = [];
  for (const x of ui) {
    // One push per field: a spread of the group's fields (hundreds of thousands of empty ones fit in
    // an APDU) would pass them all as arguments and overflow the call stack.
    if (x.tag === TAG.userInformationLength)
      for (const r of readFields(x.value, 0, x.value.length, diagnostics)) records.push(r);
    else records.push(x);
  }
  for (const r of records) {
    if (r.tag === TAG.documentHeaderGroup) headers.push(readHeaderGroup(r.value));
    else if (r.tag === TAG.documentTextGroup) {
      const g = readFields(r.value, 0, r.value.length);
      const docId = one(g, TAG.documentId);
      const text = one(g, TAG.documentText);
      if (docId === null || text === null) fail('a document text record without a Document-ID or a Document-Text');
      texts.push({ docId, versionNumber: int(g, TAG.versionNumber), text });
    }
  }
  return {
    pdu: 'search-response',
    searchStatus: apdu[p],
    resultCount: n3(p + 1),
    numberOfRecordsReturned: n3(p + 4),
    nextResultSetPosition: n3(p + 7),
    presentStatus: int(f, TAG.presentStatus),
    referenceId: one(f, TAG.referenceId),
    headers,
    texts,
    diagnostics,
  };
}
