// The CDXJ index (pywb's format: `urlkey timestamp {json}`, one line per record, sorted by the
// octets of the line) and the SURT key of a URL of any scheme.
//
// SURT ("Sort-friendly URI Reordering Transform", Heritrix): the host's labels reversed and joined
// with commas, so that a server's captures sort together. For http and https the key is the one
// pywb and warcio write (`com,example)/a/b?a=2&z=1`: no scheme, `www.` dropped, lowercased, the
// default port dropped, the query's arguments sorted), so pywb finds locator's http captures.
// DEVIATION: for the other schemes pywb and warcio use the URL as it is written as the key; here
// the key keeps the scheme in front (`gopher://(1,0,0,127:7070)/1/files`), so that keys of
// different schemes never collide and a server's captures still sort together, and it keeps the
// path's case: a Gopher selector, an FTP path, a news message-id are case-sensitive (RFC 1436 2,
// RFC 959 3.1, RFC 5536 3.1.3), and lowercasing would make two objects one key. A URL with no
// host (news:, file:///, mailto:) is keyed as written, the scheme lowercased.

import { LocatorError } from '../core/errors.js';
import { tryParse } from '../schemes/registry.js';
import { readWarc } from './reader.js';
import type { WrittenRecord } from './writer.js';

/** The schemes whose keys are pywb's (no scheme in the key, `www.` dropped, lowercased): an index convention. */
const PYWB_KEYED = new Set(['http', 'https']);

/** A SURT key for a URL of any scheme (see the module comment for the rule per scheme). */
export function surt(url: string): string {
  const parsed = tryParse(url);
  const u = parsed instanceof LocatorError ? null : parsed;
  const scheme = u ? u.scheme.toLowerCase() : (/^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1] ?? '').toLowerCase();
  const host = u?.host ?? null;
  if (u === null || host === null || host === '') {
    const colon = url.indexOf(':');
    return colon > 0 ? scheme + url.slice(colon).replace(/#.*$/s, '') : url;
  }
  const http = PYWB_KEYED.has(scheme);
  let h = host.toLowerCase();
  if (http) h = h.replace(/^www\d*\./, '');
  const reversed = h.startsWith('[') ? h : h.split('.').reverse().join(',');
  const defaultPort = u.spec?.defaultPort ?? null;
  const port = u.explicitPort && u.port !== defaultPort ? `:${u.portDigits}` : '';
  const path = '/' + (u.path ?? '');
  if (http) {
    const lower = path.toLowerCase();
    const q = lower.indexOf('?');
    const key =
      q < 0
        ? lower
        : lower.slice(0, q) +
          '?' +
          lower
            .slice(q + 1)
            .split('&')
            .sort()
            .join('&');
    return `${reversed}${port})${key}`;
  }
  return `${scheme}://(${reversed}${port})${path}`;
}

/** WARC-Date as the 14 digits of a CDX timestamp (yyyyMMddHHmmss). */
export function cdxTimestamp(warcDate: string): string {
  return warcDate.replace(/[-:T]/g, '').slice(0, 14);
}

/** What one index line is made of: a written record, or one read back (reader.ts). */
export interface IndexEntry {
  type: string;
  targetUri: string | null;
  date: string;
  /**
   * The media type: for a response or request record the Content-Type of its HTTP message (null
   * when it has none), for any other record the record's Content-Type.
   */
  mime: string | null;
  status: number | null;
  payloadDigest: string | null;
  offset: number;
  length: number;
  filename: string;
  recordId?: string;
}

/**
 * The `mime` of a line: `warc/revisit` for a revisit, the media type of the HTTP message without
 * its parameters for a response or request (none when the message has no Content-Type), the
 * record's Content-Type as written for any other record.
 * DEVIATION (between the reference indexers): for a resource or metadata record warcio's
 * `cdx-index` gives the record's Content-Type whole, parameters and all, where pywb's
 * `cdx-indexer` and webrecorder's Python `cdxj-indexer` cut it at the first `;` or space; locator
 * writes what warcio's does, the indexer the tests run against (test/archive/cdxj-peer.test.ts).
 */
function mimeOf(e: IndexEntry): string | null {
  if (e.type === 'revisit') return 'warc/revisit';
  if (e.type === 'response' || e.type === 'request') return e.mime?.split(';', 1)[0].trim() || null;
  return e.mime || null;
}

/**
 * pywb's CDXJ line (pywb docs, "CDXJ Format"): `urlkey timestamp {json}`, the JSON with `url`,
 * `mime`, `status`, `digest` (the payload digest without its algorithm, as pywb writes it),
 * `length`, `offset`, `filename`, and locator's `type` for the records other than responses and
 * revisits (pywb reads the fields it knows). The fields are those warcio's `cdx-index --all`
 * writes for the same record, field for field (test/archive/cdxj-peer.test.ts): `status` only of
 * a response or revisit with an HTTP message, `digest` only of a record with a
 * WARC-Payload-Digest field. Records without a target (warcinfo) have no line: null.
 */
export function cdxjLine(e: IndexEntry): string | null {
  if (e.targetUri === null) return null;
  const json: Record<string, string> = { url: e.targetUri };
  const mime = mimeOf(e);
  if (mime) json.mime = mime;
  if (e.status !== null) json.status = String(e.status);
  if (e.payloadDigest) json.digest = e.payloadDigest.slice(e.payloadDigest.indexOf(':') + 1);
  json.length = String(e.length);
  json.offset = String(e.offset);
  json.filename = e.filename;
  if (e.type !== 'response' && e.type !== 'revisit') json.type = e.type;
  return `${surt(e.targetUri)} ${cdxTimestamp(e.date)} ${JSON.stringify(json)}`;
}

/** The entry of a record the writer wrote. */
export function entryOf(r: WrittenRecord, mime: string | null = r.contentType): IndexEntry {
  return {
    type: r.type,
    targetUri: r.targetUri,
    date: r.date,
    mime,
    status: r.status,
    payloadDigest: r.payloadDigest,
    offset: r.offset,
    length: r.length,
    filename: r.filename,
    recordId: r.recordId,
  };
}

/** The CDXJ text of the entries: one line each, sorted by octets (as `LC_ALL=C sort`), LF-ended. */
export function cdxj(entries: Iterable<IndexEntry>): string {
  const lines: string[] = [];
  for (const e of entries) {
    const l = cdxjLine(e);
    if (l !== null) lines.push(l);
  }
  const bytes = lines.map((l) => Buffer.from(l, 'utf8'));
  bytes.sort(Buffer.compare);
  return bytes.map((b) => b.toString('utf8') + '\n').join('');
}

/**
 * The index entries of a WARC file, read back (any writer's: wget's too): one per record, the
 * HTTP status of a response's (or an HTTP revisit's) status line, the Content-Type of a response's
 * or request's HTTP header section.
 * The payload digest is the record's WARC-Payload-Digest field, as warcio's `cdx-index` and
 * pywb's `cdx-indexer` take it: a request record has none (DEVIATION between the reference
 * indexers: webrecorder's Python `cdxj-indexer`, with `--records all`, computes one, the digest
 * of the request's empty body for a GET; locator follows the other two). A response or resource
 * without the field (a writer that wrote none; locator's writer always writes it) gets the digest
 * computed here, as pywb's and the Python indexer do (warcio's gives none).
 */
export async function indexWarc(path: string, filename = path.replace(/^.*\//, '')): Promise<IndexEntry[]> {
  const out: IndexEntry[] = [];
  for await (const r of readWarc(path)) {
    let mime = r.get('Content-Type');
    let status: number | null = null;
    const http = /^application\/http/i.test(mime ?? '');
    if ((r.type === 'response' || r.type === 'revisit' || r.type === 'request') && http) {
      // The header section of the HTTP message: the first octets of the block.
      let head = '';
      for await (const c of r.block) {
        head += c.toString('latin1');
        if (/\r?\n\r?\n/.test(head) || head.length > 65536) break;
      }
      if (r.type !== 'request') {
        const m = /^HTTP\/\d+\.\d+\s+(\d{3})/.exec(head);
        status = m ? Number(m[1]) : null;
      }
      const end = head.search(/\r?\n\r?\n/);
      const ct = /^content-type:[ \t]*([^\r\n]*)/im.exec(end >= 0 ? head.slice(0, end) : head);
      mime = ct ? ct[1] : null;
    } else if (r.type === 'response' || r.type === 'request') {
      // Not an HTTP message (a WARC of another protocol's exchange): no HTTP Content-Type.
      mime = null;
    }
    const end = await r.end();
    const field = r.get('WARC-Payload-Digest');
    out.push({
      type: r.type,
      targetUri: r.targetUri,
      date: r.get('WARC-Date') ?? '',
      mime,
      status,
      payloadDigest: field ?? (r.type === 'response' || r.type === 'resource' ? end.payloadLabel : null),
      offset: r.offset,
      length: end.length,
      filename,
      recordId: r.get('WARC-Record-ID') ?? undefined,
    });
  }
  return out;
}
