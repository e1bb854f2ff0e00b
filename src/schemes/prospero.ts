// Prospero (RFC 1738 3.11; section 5 prosperourl). The protocol is "The Prospero Protocol"
// (Neuman and Augart, RFC 1738 reference [14]).
//
//   prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
//   ppath       = psegment *[ "/" psegment ]
//   psegment    = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
//   fieldspec   = ";" fieldname "=" fieldvalue
//   fieldname   = *[ uchar | "?" | ":" | "@" | "&" ]
//   fieldvalue  = *[ uchar | "?" | ":" | "@" | "&" ]
//
// The hsoname is the ppath, decoded: "<URL:prospero://host.dom//pros/name> designates a <hsoname>
// of "/pros/name"". No user name or password is allowed.
//
// The 1993-10 draft (and the 1993-07 one) write a version and attributes after the hsoname instead:
// prosperolink = prospero://hostport/hsoname [ %00 version [ attributes ] ], "separated from the
// host specific object name and from each other by the characters "%00"", version = digits
// ("may be the empty string"), attribute = alphanums. That form is read with `draft-only`.

import type { Url } from '../core/url.js';
import type { Explanation, Report, SchemeSpec, WirePart } from './spec.js';
import { CR, LF, LINE, bodyRange, wirePart } from './wire.js';
import { defineCode } from '../core/errors.js';
import { SEGMENT_SET, UCHAR_SET, encode } from '../core/percent.js';
import { allowedRun, bodySet, usualLogin } from '../core/analyze.js';
import { DRAFT_ONLY } from './codes.js';
import { checkRange, type Range } from './ranges.js';
import { refuse, stringField, text } from './read.js';
import { buildLogin, refuseLogin } from './login.js';
import { formatRequest, violationNotes } from './notes.js';

export const PROSPERO_MISSING_PATH = defineCode(
  'prospero-missing-path',
  'error',
  'RFC 1738 3.11',
  'a Prospero URL is prospero://<host>:<port>/<hsoname>: the "/" and the hsoname are missing',
);
export const PROSPERO_FIELD_SYNTAX = defineCode(
  'prospero-field-syntax',
  'error',
  'RFC 1738 3.11',
  'a field after the hsoname is ";" <field> "=" <value>: this one has no "="',
);
export const PROSPERO_RESERVED = defineCode(
  'prospero-reserved-char',
  'error',
  'RFC 1738 3.11',
  'a field name or value takes no "/", ";" or "=": this reserved character must be encoded',
);
export const PROSPERO_DUPLICATE_FIELD = defineCode(
  'prospero-duplicate-field',
  'warning',
  'RFC 1738 3.11',
  'this field is given twice; the last value is used',
);
export const PROSPERO_VERSION = defineCode(
  'prospero-version',
  'error',
  'draft 1993-10 (prospero)',
  'the version after "%00" is digits (or empty)',
);
export const PROSPERO_ATTRIBUTE = defineCode(
  'prospero-attribute',
  'error',
  'draft 1993-10 (prospero)',
  'an attribute after the version is one or more letters and digits',
);

/** fieldname and fieldvalue: uchar | "?" | ":" | "@" | "&" (RFC 1738 5). */
const FIELD_SET = UCHAR_SET.with('?:@&');
/** ppath: psegments and "/" (RFC 1738 5). */
const PPATH_SET = SEGMENT_SET.with('/');

interface FieldSpec {
  /** The ";" that starts it. */
  at: number;
  name: Range;
  /** null when the fieldspec has no "=". */
  value: Range | null;
}

interface ProsperoParts {
  hsoname: Range | null;
  /** draft 1993-10: the "%00" separators in the ppath, in order. */
  nuls: number[];
  /** draft 1993-10: the version (after the first "%00"). */
  version: Range | null;
  attributes: Range[];
  fieldspecs: FieldSpec[];
  /** Where a missing path would start. */
  end: number;
}

/** Splits the url-path into hsoname, the draft version and attributes, and the fieldspecs. */
function readParts(url: Url): ProsperoParts {
  const s = url.pathStart;
  const e = url.bodyEnd; // without a url-path the login runs to the end of the body
  const parts: ProsperoParts = { hsoname: null, nuls: [], version: null, attributes: [], fieldspecs: [], end: e };
  if (s < 0) return parts;
  const h = url.href;
  // Speed: the first ";" and the "%00" before it found by indexOf, not by a look at every character.
  let semi = h.indexOf(';', s);
  if (semi < 0 || semi > e) semi = e;
  for (let i = h.indexOf('%00', s); i >= 0 && i < semi; i = h.indexOf('%00', i + 3)) parts.nuls.push(i);
  const nuls = parts.nuls;
  parts.hsoname = { start: s, end: nuls.length > 0 ? nuls[0] : semi };
  for (let k = 0; k < nuls.length; k++) {
    const r = { start: nuls[k] + 3, end: k + 1 < nuls.length ? nuls[k + 1] : semi };
    if (k === 0) parts.version = r;
    else parts.attributes.push(r);
  }
  for (let a = semi; a < e;) {
    let b = a + 1;
    let eq = -1;
    while (b < e && h.charCodeAt(b) !== 59) {
      if (eq < 0 && h.charCodeAt(b) === 61) eq = b;
      b++;
    }
    parts.fieldspecs.push(
      eq < 0
        ? { at: a, name: { start: a + 1, end: b }, value: null }
        : { at: a, name: { start: a + 1, end: eq }, value: { start: eq + 1, end: b } },
    );
    a = b;
  }
  return parts;
}

const isAlnum = (c: number) => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);

/**
 * The usual prospero URL, which neither the generic rules nor validate() report anything in (RFC
 * 1738 3.11, 5): host and port, then "/" and an hsoname without ";" or "%00", and at most one
 * ";" fieldname "=" fieldvalue.
 */
const USUAL = /* @__PURE__ */ (() => {
  const b = `[${bodySet(';')}]*`;
  const f = allowedRun(FIELD_SET.allowed);
  return usualLogin(`${b}(?:%(?!00)[0-9A-Fa-f]{2}${b})*(?:;${f}=${f})?`, { pathRequired: true });
})();

/** RFC 1738 3.11 and section 5 (prosperourl), and the 1993-10 draft's %00 form. */
function validate(url: Url, report: Report): void {
  refuseLogin(url, report, 'RFC 1738 3.11');
  const p = readParts(url);
  const off = url.inputOffset;
  if (p.hsoname === null) {
    report(PROSPERO_MISSING_PATH, p.end + off);
    return;
  }
  const h = url.href;
  if (p.version !== null) {
    report(
      DRAFT_ONLY,
      p.nuls[0] + off,
      'a version and attributes after "%00" are the 1993-10 draft\'s form; RFC 1738 writes ";OBJECT-VERSION=" fields instead',
    );
    for (let i = p.version.start; i < p.version.end; i++) {
      const c = h.charCodeAt(i);
      if (c < 48 || c > 57) {
        report(PROSPERO_VERSION, i + off);
        break;
      }
    }
    for (const a of p.attributes) {
      if (a.start === a.end) {
        report(
          PROSPERO_ATTRIBUTE,
          a.start - 3 + off,
          'an attribute after the version is one or more letters and digits: this one is empty',
        );
        continue;
      }
      for (let i = a.start; i < a.end; i++) {
        if (!isAlnum(h.charCodeAt(i))) {
          report(PROSPERO_ATTRIBUTE, i + off);
          break;
        }
      }
    }
  }
  let seen: Set<string> | null = null;
  for (const f of p.fieldspecs) {
    checkRange(url, f.name.start, f.name.end, FIELD_SET, report, PROSPERO_RESERVED);
    if (f.value === null) {
      report(PROSPERO_FIELD_SYNTAX, f.at + off);
      continue;
    }
    checkRange(url, f.value.start, f.value.end, FIELD_SET, report, PROSPERO_RESERVED);
    if (p.fieldspecs.length > 1) {
      seen ??= new Set();
      const name = text(url, f.name);
      if (seen.has(name))
        report(
          PROSPERO_DUPLICATE_FIELD,
          f.at + off,
          `the field ${JSON.stringify(name)} is given twice; the last value is used`,
        );
      seen.add(name);
    }
  }
}

/**
 * Sets an own enumerable property, even for a name such as "__proto__". A field given twice keeps
 * its last value (RFC 1738 3.11 does not say; the duplicate is reported as a warning).
 */
function put(o: Record<string, string>, name: string, value: string): void {
  // Speed: "__proto__" is the one name that assignment would not make an own data
  // property of a plain object (Object.prototype has an accessor by that name, and no other);
  // every other name is assigned, which V8 does inline, instead of a defineProperty call and its
  // descriptor object per field.
  if (name !== '__proto__') o[name] = value;
  else Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
}

interface DecodedFields {
  hsoname: string | null;
  fields: Readonly<Record<string, string>>;
  version: string | null;
  attributes: readonly string[] | null;
}

/** The decoded fields, frozen with every part as they are made (the record walks nothing). */
/** The fields of a Prospero URL without fieldspecs: one frozen empty object for all. */
const NO_FIELDSPECS: Readonly<Record<string, string>> = Object.freeze({});

function decodeParts(url: Url, p: ProsperoParts): DecodedFields {
  let fields = NO_FIELDSPECS;
  if (p.fieldspecs.length > 0) {
    const o: Record<string, string> = {};
    for (const f of p.fieldspecs) put(o, text(url, f.name), f.value === null ? '' : text(url, f.value));
    fields = Object.freeze(o);
  }
  let attributes: readonly string[] | null = null;
  if (p.version !== null) {
    const list: string[] = [];
    for (const a of p.attributes) list.push(text(url, a));
    attributes = Object.freeze(list);
  }
  return Object.freeze({
    hsoname: p.hsoname === null ? null : text(url, p.hsoname),
    fields,
    version: p.version === null ? null : text(url, p.version),
    attributes,
  });
}

/** prospero (RFC 1738 3.11): the hsoname, the field=value pairs, the 1993-10 draft's version and attributes. */
export interface ProsperoFields {
  hsoname: string | null;
  fields: Record<string, string>;
  version: string | null;
  attributes: string[] | null;
}

/** RFC 1738 3.11: hsoname (the decoded ppath), fields, and the draft's version and attributes. */
function fields(url: Url): ProsperoFields {
  // Speed: the object decodeParts() made, not a spread copy of it.
  return decodeParts(url, readParts(url)) as ProsperoFields;
}

/**
 * Quotes a Prospero protocol token (Prospero v5 2.1): in single quotes, quotes doubled, when it is
 * empty or holds white space or one of "/", "'", "+", "," (the characters the historic library
 * quotes, lib/pfs/vqsprintf.c; src/clients/prospero/protocol.ts sends the same).
 */
function quote(s: string): string {
  if (s !== '' && !/[\s'/+,]/.test(s)) return s;
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * The access algorithm (RFC 1738 3.11): "Prospero URLs are interpreted by contacting a Prospero
 * directory server on the specified host and port to determine appropriate access methods for a
 * resource". The steps are the lines of the request the client sends (Prospero protocol version
 * 5, 3.1 and 3.7, one ARDP message over UDP): the object is named by its hsoname and version
 * (the draft's %00 version, else an OBJECT-VERSION field, else 0, the current one), and its
 * ACCESS-METHOD attribute asked for. RFC 1738 only says the other fields "serve to identify the
 * target of the URL", so they are left to notes.
 */
function explain(url: Url): Explanation {
  const p = readParts(url);
  const f = decodeParts(url, p);
  const host = url.host;
  const port = url.port;
  const steps: string[] = [];
  const notes: string[] = [];
  if (host === null || host === '') notes.push('no host is given: there is no directory server to ask');
  if (f.hsoname === null) {
    notes.push('no hsoname is given: there is no object to ask about');
  } else {
    const names = Object.keys(f.fields);
    const objectVersion = names.find((n) => n.toUpperCase() === 'OBJECT-VERSION');
    const version =
      f.version !== null && f.version !== ''
        ? f.version
        : objectVersion !== undefined && f.fields[objectVersion] !== ''
          ? f.fields[objectVersion]
          : '0';
    steps.push('VERSION 5');
    steps.push(
      `GET-OBJECT-INFO ACCESS-METHOD ASCII ${formatRequest(quote(f.hsoname))} ${formatRequest(quote(version))}`,
    );
    if (host !== null && host !== '')
      notes.push(
        `the request goes to the directory server at ${host}:${url.portDigits ?? port} as one ARDP message over UDP`,
      );
    notes.push(
      `the hsoname ${JSON.stringify(f.hsoname)} is opaque: only the server interprets it, and a "/" in it need not mean hierarchy (RFC 1738 3.11)`,
    );
    notes.push(
      'the reply names the access methods of the object, which might themselves be represented as URLs of other schemes; the client then retrieves the object by one of them (RFC 1738 3.11)',
    );
    notes.push('a directory object has no access method: its links are listed with DIRECTORY and LIST instead');
    if (names.length > 0) {
      notes.push(
        `the fields ${names.map((n) => `${n}=${f.fields[n]}`).join(', ')} identify the target of the URL (RFC 1738 3.11)${objectVersion !== undefined ? '; OBJECT-VERSION selects the version of the object' : ''}`,
      );
    }
    if (f.version !== null) {
      const attrs =
        f.attributes!.length > 0 ? ` and the attributes ${f.attributes!.map((a) => JSON.stringify(a)).join(', ')}` : '';
      notes.push(
        `the 1993-10 draft's %00 form gives the version ${JSON.stringify(f.version)}${attrs}; the version is sent after the hsoname`,
      );
    }
    notes.push(
      'the URL carries no user name or password (RFC 1738 3.11): the client sends no AUTHENTICATE line, so the server treats it as an unauthenticated principal',
    );
  }
  violationNotes(url, notes);
  return { protocol: 'prospero', host, port, steps, notes };
}

/**
 * Builds prospero://hostport/hsoname[%00version[%00attribute...]][;name=value...] (RFC 1738 3.11;
 * draft 1993-10 for the %00 form). The hsoname keeps "/" and the psegment characters; a ";" in it
 * is encoded. A field name or value has "/", ";" and "=" encoded.
 */
function build(input: Record<string, unknown>): string {
  const hsoname = stringField(input, 'hsoname');
  if (hsoname === null) refuse('a Prospero URL names an hsoname (RFC 1738 3.11)');
  if (hsoname.includes('\0')) {
    refuse('an hsoname cannot hold NUL: "%00" separates the version in the 1993-10 draft\'s form');
  }
  let out = buildLogin(input, { allowLogin: false, defaultPort: 1525 }) + '/' + encode(hsoname, PPATH_SET);
  const version = stringField(input, 'version');
  const attributes = input.attributes;
  if (version !== null) {
    for (let i = 0; i < version.length; i++) {
      const c = version.charCodeAt(i);
      if (c < 48 || c > 57) refuse(`the version is digits or empty (draft 1993-10), not ${JSON.stringify(version)}`);
    }
    out += '%00' + version;
  }
  if (attributes !== undefined && attributes !== null) {
    if (!Array.isArray(attributes)) refuse('attributes must be an array of strings');
    if (attributes.length > 0 && version === null)
      refuse('attributes need a version before them (it may be empty: "%00%00", draft 1993-10)');
    for (const a of attributes) {
      if (typeof a !== 'string' || a.length === 0)
        refuse('each attribute is one or more letters and digits (draft 1993-10)');
      for (let i = 0; i < a.length; i++) {
        if (!isAlnum(a.charCodeAt(i)))
          refuse(`each attribute is one or more letters and digits (draft 1993-10), not ${JSON.stringify(a)}`);
      }
      out += '%00' + a;
    }
  }
  const fields = input.fields;
  if (fields !== undefined && fields !== null) {
    if (typeof fields !== 'object' || Array.isArray(fields)) refuse('fields must be an object of field name to value');
    for (const name of Object.keys(fields)) {
      const value = (fields as Record<string, unknown>)[name];
      if (typeof value !== 'string') refuse(`the value of the field ${JSON.stringify(name)} must be a string`);
      out += ';' + encode(name, FIELD_SET) + '=' + encode(value, FIELD_SET);
    }
  }
  return out;
}

/**
 * What the client sends (RFC 1738 3.11, 6; the Prospero protocol's text lines, "GET-OBJECT-INFO
 * ACCESS-METHOD ASCII <hsoname> <version>"): the hsoname, where CR and LF end the line (a "%00" in the ppath is the 1993-10
 * draft's separator), and the field names and values, where NUL does too.
 */
function wire(url: Url): WirePart[] {
  const r = bodyRange(url);
  if (r === null) return [];
  let semi = url.href.indexOf(';', r[0]);
  if (semi < 0 || semi > r[1]) semi = r[1];
  const line = 'the Prospero request lines ("GET-OBJECT-INFO ACCESS-METHOD ASCII <hsoname> <version>")';
  return [wirePart('the hsoname', r[0], semi, line, [CR, LF]), wirePart('a field', semi, r[1], line, LINE)];
}

/** prospero (RFC 1738 3.11). */
export const prospero: SchemeSpec<ProsperoFields> = {
  name: 'prospero',
  defaultPort: 1525,
  syntax: 'internet',
  status: 'rfc1738',
  // Not hierarchical. 3.11: "a slash "/" may appear in the <hsoname> without quoting and no
  // significance may be assumed by the application. Though slashes may indicate hierarchical
  // structure on the server, such structure is not guaranteed." (The hsoname is "opaque and
  // interpreted by the Prospero server".)
  hierarchical: false,
  indirect: true,
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  build,
  explain,
  wire,
};
