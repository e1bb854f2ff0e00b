// WAIS (RFC 1738 3.9; section 5 waisurl; the protocol is RFC 1625, WAIS over Z39.50-1988).
//
//   waisdatabase = "wais://" hostport "/" database
//   waisindex    = "wais://" hostport "/" database "?" search
//   waisdoc      = "wais://" hostport "/" database "/" wtype "/" wpath
//   database = wtype = wpath = *uchar
//
// The login is a hostport: no user name or password.
//
// Two draft forms are read as well, each with a `draft-only` warning:
// - draft 1993-07: waisdoc = wais://hostport/database/wtype/digits/path, where the digits are the
//   document length ("a client know the "type" and length of a object prior to retrieval");
// - draft 1994-03: wpath = digits "=" path ";" [ wpath ]: "the identifier field number is the
//   digits before the equals sign, and the field contents follow, encoded in the conventional
//   encoding, terminated by ";"" (the tagged fields of the WAIS document-id).

import type { Url } from '../core/url.js';
import type { Explanation, Report, SchemeSpec, WirePart } from './spec.js';
import { C_STRING, bodyRange, wirePart } from './wire.js';
import { defineCode } from '../core/errors.js';
import { HSEGMENT_SET, UCHAR_SET, decode, encode } from '../core/percent.js';
import { allowedRun, usualLogin } from '../core/analyze.js';
import { DRAFT_ONLY } from './codes.js';
import { checkRange, type Range } from './ranges.js';
import { decodeFrom, refuse, stringField, text } from './read.js';
import { buildLogin, refuseLogin } from './login.js';
import { formatRequest, violationNotes } from './notes.js';

export const WAIS_RESERVED = defineCode(
  'wais-reserved-char',
  'error',
  'RFC 1738 3.9',
  'database, wtype and wpath are *uchar and a search takes no "/" or "?": this reserved character must be encoded',
);
export const WAIS_MISSING_DATABASE = defineCode(
  'wais-missing-database',
  'error',
  'RFC 1738 3.9',
  'a WAIS URL is wais://<host>:<port>/<database>...: the "/" and the database are missing',
);
export const WAIS_MISSING_WPATH = defineCode(
  'wais-missing-wpath',
  'error',
  'RFC 1738 3.9',
  'a WAIS document URL is <database>/<wtype>/<wpath>: the "/" and the wpath are missing',
);

export const WAIS_NUMBER_RANGE = defineCode(
  'wais-number-out-of-range',
  'error',
  'draft 1993-07 (waisdoc)',
  'a document length (draft 1993-07) over 2^53-1 octets is no length a WAIS retrieval can ask for',
);

/** The characters of a draft wpath: uchar and "/" (draft 1993-07 path; draft 1994-03 field contents). */
const DRAFT_WPATH_SET = UCHAR_SET.with('/');

export type WaisKind = 'database' | 'index' | 'document';

/** One field of the 1994-03 draft's wpath encoding: number "=" contents ";". */
interface FieldRange {
  number: Range;
  contents: Range;
}

/** Where the parts of a WAIS url-path are (ranges of href); null when absent. */
interface WaisParts {
  kind: WaisKind;
  database: Range | null;
  search: Range | null;
  wtype: Range | null;
  /** draft 1993-07: the document length between wtype and wpath. */
  length: Range | null;
  wpath: Range | null;
  /** draft 1994-03: the wpath read as fields. */
  fields: FieldRange[] | null;
  /** Where a missing part would start (for reports). */
  end: number;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * The decimal digits href[s, e) as a number when it is at most 2^53-1 (Number.MAX_SAFE_INTEGER),
 * else null: a double holds no larger integer exactly, so such digits are never rounded to one.
 */
function safeNumber(h: string, s: number, e: number): number | null {
  while (s < e - 1 && h.charCodeAt(s) === 48) s++;
  if (e - s > 16 || (e - s === 16 && h.slice(s, e) > '9007199254740991')) return null;
  return Number(h.slice(s, e));
}

/** The decimal digits href[s, e) without their leading zeros ("0" for zeros only), exact at any length. */
function digitsOf(h: string, s: number, e: number): string {
  while (s < e - 1 && h.charCodeAt(s) === 48) s++;
  return h.slice(s, e);
}

/**
 * Reads the draft 1994-03 wpath field encoding in href[s, e): 1*( 1*digit "=" contents ";" ),
 * contents free of "=" and ";". Returns null when the range is not in that form, or when a
 * field number is over 2^53-1 (no tag a WAIS document-id can carry, nor a number held exactly).
 */
function readFields(h: string, s: number, e: number): FieldRange[] | null {
  if (s >= e) return null;
  const out: FieldRange[] = [];
  let i = s;
  while (i < e) {
    let d = i;
    while (d < e && isDigit(h.charCodeAt(d))) d++;
    if (d === i || d >= e || h.charCodeAt(d) !== 61 || safeNumber(h, i, d) === null) return null;
    let j = d + 1;
    while (j < e) {
      const c = h.charCodeAt(j);
      if (c === 59 || c === 61) break;
      j++;
    }
    if (j >= e || h.charCodeAt(j) !== 59) return null;
    out.push({ number: { start: i, end: d }, contents: { start: d + 1, end: j } });
    i = j + 1;
  }
  return out;
}

/**
 * The parts with no wtype, wpath or length yet. Speed: every WAIS record's parts are
 * made by this one object literal (one hidden class), not as spreads of a template.
 */
function waisParts(kind: WaisKind, database: Range | null, search: Range | null, end: number): WaisParts {
  return { kind, database, search, wtype: null, length: null, wpath: null, fields: null, end };
}

/**
 * Splits the url-path into the parts of RFC 1738 3.9 (and the draft forms). A "/" before the
 * first "?" makes a document (database/wtype/wpath, the wpath running to the end); else a "?"
 * makes a search (database?search); else the path is the database.
 */
function readParts(url: Url): WaisParts {
  const s = url.pathStart;
  const e = url.bodyEnd; // without a url-path the login runs to the end of the body
  const none = waisParts('database', null, null, e);
  if (s < 0) return none;
  const h = url.href;
  // Speed: the first "?" and "/" found by indexOf; whichever comes first decides.
  let q = h.indexOf('?', s);
  if (q >= e) q = -1;
  let slash = h.indexOf('/', s);
  if (slash >= e || (q >= 0 && q < slash)) slash = -1;
  else if (slash >= 0) q = -1;
  if (slash < 0) {
    if (q < 0) return waisParts('database', { start: s, end: e }, null, e);
    return waisParts('index', { start: s, end: q }, { start: q + 1, end: e }, e);
  }
  // waisdoc: database "/" wtype "/" wpath
  let slash2 = h.indexOf('/', slash + 1);
  if (slash2 >= e) slash2 = -1;
  const doc = waisParts('document', { start: s, end: slash }, null, e);
  if (slash2 < 0) {
    doc.wtype = { start: slash + 1, end: e };
    return doc;
  }
  doc.wtype = { start: slash + 1, end: slash2 };
  let ws = slash2 + 1;
  // draft 1993-07: wtype "/" digits "/" path
  let d = ws;
  while (d < e && isDigit(h.charCodeAt(d))) d++;
  if (d > ws && d < e && h.charCodeAt(d) === 47) {
    doc.length = { start: ws, end: d };
    ws = d + 1;
  }
  doc.wpath = { start: ws, end: e };
  doc.fields = readFields(h, ws, e);
  return doc;
}

/**
 * The usual wais URL, which neither the generic rules nor validate() report anything in (RFC
 * 1738 3.9, 5): host and port, then "/" and a database of uchar, followed by nothing, by "?" and
 * a search of hsegment characters, or by "/" wtype "/" wpath of uchar each (no draft form).
 */
const USUAL = /* @__PURE__ */ (() => {
  const u = allowedRun(UCHAR_SET.allowed);
  return usualLogin(`${u}(?:\\?${allowedRun(HSEGMENT_SET.allowed)}|/${u}/${u})?`, { pathRequired: true });
})();

/** RFC 1738 3.9 and section 5 (waisurl), with the draft forms reported as draft-only. */
function validate(url: Url, report: Report): void {
  refuseLogin(url, report, 'RFC 1738 3.9: "wais://" hostport');
  const p = readParts(url);
  if (p.database === null) {
    report(WAIS_MISSING_DATABASE, p.end + url.inputOffset);
    return;
  }
  checkRange(
    url,
    p.database.start,
    p.database.end,
    UCHAR_SET,
    report,
    WAIS_RESERVED,
    'the database is *uchar (RFC 1738 5): this reserved character must be encoded',
  );
  if (p.search !== null) {
    checkRange(
      url,
      p.search.start,
      p.search.end,
      HSEGMENT_SET,
      report,
      WAIS_RESERVED,
      'a search takes uchar, ";", ":", "@", "&" and "=" (RFC 1738 5): this reserved character must be encoded',
    );
  }
  if (p.wtype !== null) {
    checkRange(
      url,
      p.wtype.start,
      p.wtype.end,
      UCHAR_SET,
      report,
      WAIS_RESERVED,
      'the wtype is *uchar (RFC 1738 5): this reserved character must be encoded',
    );
  }
  if (p.kind === 'document' && p.wpath === null) {
    report(WAIS_MISSING_WPATH, p.end + url.inputOffset);
    return;
  }
  if (p.length !== null && safeNumber(url.href, p.length.start, p.length.end) === null) {
    report(WAIS_NUMBER_RANGE, p.length.start + url.inputOffset);
  }
  if (p.length !== null) {
    report(
      DRAFT_ONLY,
      p.length.start + url.inputOffset,
      "a document length between the wtype and the wpath is the 1993-07 draft's form (wais://host/database/wtype/length/path), not RFC 1738's",
    );
  }
  if (p.fields !== null) {
    report(
      DRAFT_ONLY,
      p.wpath!.start + url.inputOffset,
      'a wpath of number=contents; fields is the 1994-03 draft\'s encoding of the WAIS document-id; RFC 1738 encodes "=" and ";" in the wpath',
    );
    for (const f of p.fields) {
      checkRange(
        url,
        f.contents.start,
        f.contents.end,
        DRAFT_WPATH_SET,
        report,
        WAIS_RESERVED,
        'the contents of a wpath field are encoded (draft 1994-03): this reserved character must be encoded',
      );
    }
  } else if (p.wpath !== null) {
    if (p.length !== null) {
      checkRange(
        url,
        p.wpath.start,
        p.wpath.end,
        DRAFT_WPATH_SET,
        report,
        WAIS_RESERVED,
        'the path after a document length (draft 1993-07) takes no reserved character but "/": this one must be encoded',
      );
    } else {
      checkRange(
        url,
        p.wpath.start,
        p.wpath.end,
        UCHAR_SET,
        report,
        WAIS_RESERVED,
        'the wpath is *uchar (RFC 1738 5): this reserved character, "/" included, must be encoded',
      );
    }
  }
}

/** The decoded WAIS fields (contract: kind, database, search, wtype, wpath; plus the draft fields). */
export interface WaisFields {
  kind: WaisKind;
  database: string | null;
  search: string | null;
  wtype: string | null;
  wpath: string | null;
  /**
   * draft 1993-07: the document length in bytes; null when there is none, or when it is over
   * 2^53-1 (wais-number-out-of-range: its digits are in wlengthDigits, never rounded).
   */
  wlength: number | null;
  /** draft 1993-07: the document length's digits, leading zeros removed, exact at any length; null when there is none. */
  wlengthDigits: string | null;
  /** draft 1994-03: the wpath's fields in order, or null when the wpath is not in that form. */
  wpathFields: Array<{ number: number; contents: string }> | null;
}

/** The decoded fields, frozen with every part as they are made (the record walks nothing). */
function decodeParts(url: Url, p: WaisParts): WaisFields {
  const h = url.href;
  // One search for "%" serves every part, read in order (decodeFrom).
  const pc = h.indexOf('%', p.database === null ? p.end : p.database.start);
  let wpathFields: Array<{ number: number; contents: string }> | null = null;
  if (p.fields !== null) {
    wpathFields = [];
    for (const f of p.fields)
      wpathFields.push(
        Object.freeze({ number: Number(h.slice(f.number.start, f.number.end)), contents: text(url, f.contents) }),
      );
    Object.freeze(wpathFields);
  }
  return Object.freeze({
    kind: p.kind,
    database: part(h, p.database, pc),
    search: part(h, p.search, pc),
    wtype: part(h, p.wtype, pc),
    wpath: part(h, p.wpath, pc),
    wlength: p.length === null ? null : safeNumber(h, p.length.start, p.length.end),
    wlengthDigits: p.length === null ? null : digitsOf(h, p.length.start, p.length.end),
    wpathFields,
  });
}

/** A part decoded (decodeFrom), or null when absent. */
function part(h: string, r: Range | null, pc: number): string | null {
  return r === null ? null : decodeFrom(h, r.start, r.end, pc);
}

/** RFC 1738 3.9: the decoded fields; never throws. */
function fields(url: Url): WaisFields {
  // Speed: the object decodeParts() made, not a spread copy of it.
  return decodeParts(url, readParts(url));
}

/** The length of a WAIS variable-length integer (7 bits per octet). */
function varintLength(n: number): number {
  let len = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    len++;
  }
  return len;
}

function octets(url: Url, r: Range): number {
  return decode(url.href, { strict: false }, r.start, r.end).length;
}

/**
 * The access algorithm (RFC 1738 3.9 over RFC 1625): an InitRequest, then a SearchRequest of
 * query type 3 (database name and seed words) for a search, or of query type 1 (the DocID, the
 * type and a byte range) to retrieve a document. Step names follow what a freeWAIS client sends.
 */
function explain(url: Url): Explanation {
  const p = readParts(url);
  const f = decodeParts(url, p);
  const host = url.host;
  const port = url.port;
  const steps: string[] = [];
  const notes: string[] = [];
  if (host === null || host === '') notes.push('no host is given: there is nothing to connect to');
  else steps.push(`connect ${host}:${url.portDigits ?? port}`);
  const db = f.database === null ? null : formatRequest(f.database);
  if (db === null) {
    notes.push(
      'no database is given: the URL names only a WAIS server, which the WAIS URL scheme does not designate (RFC 1738 3.9)',
    );
  } else {
    steps.push('init (InitRequest: Z39.50-1988 with the WAIS extensions, RFC 1625)');
    if (p.kind === 'database') {
      steps.push(
        `search ${db} with no words (SearchRequest, query type 3: Database-Names "${db}", Seed-Words empty: the "help" search waissearch sends)`,
      );
      steps.push('retrieve the record of type WSRC the answer lists: the source description');
      notes.push(
        "the URL designates a WAIS database that is available for searching (RFC 1738 3.9): what is retrieved is the database's source description; a search is the URL with ?words",
      );
      notes.push("an empty seed-word search asks the server for the database's source description and catalogue");
    } else if (p.kind === 'index') {
      const words = formatRequest(f.search ?? '');
      steps.push(`search ${db} ${words} (SearchRequest, query type 3: Database-Names "${db}", Seed-Words "${words}")`);
      notes.push(
        'the URL designates a particular search (RFC 1738 3.9): the response lists the matching documents (headline, DocID, type, length); retrieving one is a further request',
      );
      if ((f.search ?? '').includes('+')) {
        notes.push(
          '"+" is sent as it stands; in the 1993-07 draft the search is "+"-separated keywords, which a client may send separated by spaces',
        );
      }
    } else if (p.wpath === null) {
      notes.push('the wpath is missing, so no document can be retrieved');
    } else {
      const wtype = formatRequest(f.wtype ?? '');
      const raw = url.href.slice(p.wpath.start, p.wpath.end);
      let docid: string;
      if (p.fields !== null) {
        let n = 0;
        for (let i = 0; i < p.fields.length; i++) {
          const len = octets(url, p.fields[i].contents);
          n += varintLength(f.wpathFields![i].number) + varintLength(len) + len;
        }
        docid = `DocID = the ${n} octets of fields ${f.wpathFields!.map((x) => x.number).join(', ')} as tagged fields`;
        notes.push(
          "the wpath uses the 1994-03 draft's field encoding: each number=contents; field is one tagged field of the WAIS document-id, in order",
        );
      } else {
        docid = `DocID = the ${octets(url, p.wpath)} octets the wpath decodes to`;
        notes.push(
          'the wpath is the WAIS document-id: the client sends its octets back unchanged; only the server that issued it may decompose it (RFC 1738 3.9)',
        );
      }
      const chunk = f.wlength !== null ? `byte chunk 0-${f.wlength}` : 'byte chunks from 0 to the end of the document';
      steps.push(
        `retrieve ${wtype} ${raw} (SearchRequest, query type 1: Database-Names "${db}", ${docid}, type "${wtype}", ${chunk})`,
      );
      notes.push(
        `the wtype "${wtype}" is the WAIS type of the object, which the server needs to retrieve it (RFC 1738 3.9)`,
      );
      if (f.wlength !== null) {
        notes.push(
          `the document length (${f.wlength} bytes, the 1993-07 draft's form) gives the end of the byte range`,
        );
      } else if (f.wlengthDigits !== null) {
        notes.push(
          `the document length (${f.wlengthDigits} bytes, the 1993-07 draft's form) is over 2^53-1, no byte range a retrieval can ask for: the client asks for chunks (freeWAIS: 10000 bytes at a time) until a shorter one arrives`,
        );
      } else {
        notes.push(
          'the document length is not in the URL: the client asks for chunks (freeWAIS: 10000 bytes at a time) until a shorter one arrives',
        );
      }
    }
  }
  violationNotes(url, notes);
  return { protocol: 'wais', host, port, steps, notes };
}

function lengthField(v: unknown): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    refuse(`wlength must be a non-negative integer, not ${String(v)}`);
  return v;
}

function fieldList(v: unknown): Array<{ number: number; contents: string }> | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || v.length === 0)
    refuse('wpathFields must be a non-empty array of { number, contents }, or null');
  return v.map((x: unknown, i: number) => {
    const o = x as { number?: unknown; contents?: unknown } | null;
    if (typeof o !== 'object' || o === null) refuse(`wpathFields[${i}] must be { number, contents }`);
    if (typeof o.number !== 'number' || !Number.isSafeInteger(o.number) || o.number < 0) {
      refuse(`wpathFields[${i}].number must be a non-negative integer`);
    }
    if (typeof o.contents !== 'string') refuse(`wpathFields[${i}].contents must be a string`);
    return { number: o.number, contents: o.contents };
  });
}

/**
 * Builds wais://hostport/database[?search | /wtype/[wlength/]wpath] (RFC 1738 3.9): database,
 * wtype and wpath are encoded as *uchar (so "/", "?", ";" and "=" become escapes), the search as
 * section 5's search. wlength writes the 1993-07 draft's form; wpathFields the 1994-03 draft's
 * field encoding (each contents encoded, number "=" contents ";").
 */
function build(input: Record<string, unknown>): string {
  const database = stringField(input, 'database');
  const search = stringField(input, 'search');
  const wtype = stringField(input, 'wtype');
  const wpath = stringField(input, 'wpath');
  const wlength = lengthField(input.wlength);
  const wpathFields = fieldList(input.wpathFields);
  const kind =
    input.kind ??
    (wtype !== null || wpath !== null || wpathFields !== null || wlength !== null
      ? 'document'
      : search !== null
        ? 'index'
        : 'database');
  if (kind !== 'database' && kind !== 'index' && kind !== 'document') {
    refuse(`kind must be "database", "index" or "document", not ${JSON.stringify(kind)}`);
  }
  if (database === null) refuse('a WAIS URL names a database (RFC 1738 3.9)');
  let out = buildLogin(input, { allowLogin: false, defaultPort: 210 }) + '/' + encode(database, UCHAR_SET);
  if (kind !== 'document' && (wtype !== null || wpath !== null || wpathFields !== null || wlength !== null)) {
    refuse(`wtype, wpath, wlength and wpathFields belong to a document, not a ${kind}`);
  }
  if (kind === 'database') {
    if (search !== null) refuse('a search makes the URL an index (kind "index"), not a database');
    return out;
  }
  if (kind === 'index') {
    if (search === null) refuse('an index URL needs a search');
    return out + '?' + encode(search, HSEGMENT_SET);
  }
  if (search !== null) refuse('a document URL takes no search (RFC 1738 3.9)');
  if (wtype === null) refuse('a document URL needs a wtype (RFC 1738 3.9)');
  out += '/' + encode(wtype, UCHAR_SET) + '/';
  if (wlength !== null) out += wlength + '/';
  if (wpathFields !== null) {
    let joined = '';
    let written = '';
    for (const x of wpathFields) {
      joined += `${x.number}=${x.contents};`;
      written += `${x.number}=${encode(x.contents, UCHAR_SET)};`;
    }
    if (wpath !== null && wpath !== joined) {
      refuse('wpath and wpathFields disagree: give wpathFields null to write the wpath as an opaque document-id');
    }
    return out + written;
  }
  if (wpath === null) refuse('a document URL needs a wpath (RFC 1738 3.9)');
  return out + encode(wpath, UCHAR_SET);
}

/**
 * What the client sends (RFC 1738 3.9, 6; RFC 1625: Z39.50 APDUs in BER, every field
 * length-prefixed): the database, the wtype, the search, each sent by length, so an escaped NUL
 * is a warning only (servers such as freeWAIS read them as C strings). The wpath is the DocID:
 * octets the server issued, sent back unchanged.
 */
function wire(url: Url): WirePart[] {
  const r = bodyRange(url);
  if (r === null) return [];
  const h = url.href;
  const [s, e] = r;
  let k = s;
  while (k < e && h.charCodeAt(k) !== 47 && h.charCodeAt(k) !== 63) k++;
  const note =
    'WAIS fields are length-prefixed (RFC 1625), but servers such as freeWAIS read them as C strings, which NUL ends';
  const out = [wirePart('the database name', s, k, note, C_STRING, 'encoded')];
  if (k >= e) return out;
  if (h.charCodeAt(k) === 63) {
    out.push(wirePart('the search', k + 1, e, note, C_STRING, 'encoded'));
    return out;
  }
  let w = k + 1;
  while (w < e && h.charCodeAt(w) !== 47) w++;
  out.push(wirePart('the wtype', k + 1, w, note, C_STRING, 'encoded'));
  return out;
}

/** wais (RFC 1738 3.9). */
export const wais: SchemeSpec<WaisFields> = {
  name: 'wais',
  defaultPort: 210,
  syntax: 'internet',
  status: 'rfc1738',
  // Not hierarchical. 3.9 and 5: database, wtype and wpath are *uchar in fixed positions ("/"
  // cannot occur inside them), so "/" separates fields of different kinds, not levels of one
  // name space; and "The WAIS document-id should be treated opaquely; it may only be decomposed
  // by the server that issued it." (The drafts' remark that "Within the WAIS world, names do not
  // of course need to be prefixed by "wais:" (by the partial form rules)" is about omitting the
  // scheme, which net-path and absolute-path references still do.)
  hierarchical: false,
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  build,
  explain,
  wire,
};
