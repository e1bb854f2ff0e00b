// Keeping what a client fetched: a `resource` record of the object open() delivered and a
// `metadata` record of the protocol exchange (the transcript `locator fetch --verbose` prints,
// passwords already hidden by the clients), the way Heritrix keeps FTP (heritrix3 issue 331).

import {
  open,
  warcProtocolsOf,
  type HttpExchange,
  type OpenOptions,
  type Resource,
  type TranscriptLine,
} from '../clients/index.js';
import { newRecordId, type RecordWriter, type WrittenRecord } from './writer.js';
import { chunksOf } from './spool.js';

/**
 * The IIPC's WARC-Protocol identifiers (warc-specifications issue 42, "WARC-Protocol" in its
 * registry of extensions) for the schemes locator reaches, as each client's face declares them:
 * `ftp`, `gopher`, `http/1.1` (the HTTP client speaks HTTP/1.1; over TLS for https, whose version
 * open() does not report).
 * DEVIATION: the registry names no identifier for NNTP, WAIS or Prospero; these records carry
 * `nntp` (news: and nntp: URLs), `wais` and `prospero`, the URL schemes' names, until it does.
 * A file: URL crosses no network: no field (its face, made from ftp's, declares none).
 */
export function warcProtocols(scheme: string): string[] {
  return warcProtocolsOf(scheme);
}

/**
 * The media type a resource record gets: the client's Content-Type, except for the views that
 * locator makes of a listing given as plain text (an FTP listing), which get
 * `text/x-locator-<view>` so that a replay knows to draw them as a listing (docs/archive.md lists
 * them). A Gopher menu is `application/gopher-menu`, the NNTP overviews and the WAIS and Prospero
 * listings have their own types already.
 */
export function mediaTypeOf(meta: Resource['meta']): string {
  const ct = meta.contentType;
  if (meta.view && (ct === null || /^text\/plain\b/i.test(ct))) return `text/x-locator-${meta.view}`;
  return ct ?? 'application/octet-stream';
}

/** The transcript as `locator fetch --verbose` shows it: `> ` sent, `< ` received, `* ` done. */
export function transcriptText(lines: readonly TranscriptLine[]): string {
  const mark = { send: '> ', receive: '< ', info: '* ' } as const;
  return lines.map((l) => mark[l.direction] + l.text.replace(/\r?\n/g, ' ') + '\n').join('');
}

export interface FetchRecords {
  /** The object: a `resource` record (a `revisit` when the writer dedups and has seen its payload). */
  resource: WrittenRecord;
  /** The protocol exchange: a `metadata` record, WARC-Concurrent-To the first. */
  metadata: WrittenRecord;
}

/**
 * Writes what open() gave (called with `transcript: true`) as a `resource` record (WARC 1.1 6.5)
 * and the protocol exchange as a `metadata` record (6.6) concurrent to it, once the body has been
 * read whole (the exchange ends after the object: an FTP 226, a QUIT).
 * DEVIATION: an http or https object opened without the `httpCapture` option is kept as a
 * `resource` record here too, not as the `request` and `response` records WARC 1.1 6.3 asks for:
 * open() gives the entity decoded, not the octets of the connection, and a response rebuilt from
 * it would not be what was exchanged. With the capture, recordExchange() writes those records
 * (archiveFetch() and the archive crawl do).
 */
export async function recordFetch(writer: RecordWriter, url: string, resource: Resource): Promise<FetchRecords> {
  const { meta } = resource;
  const protocols = warcProtocols(meta.scheme);
  const fields: Array<[string, string]> = protocols.map((p) => ['WARC-Protocol', p]);
  // WARC 1.1 5.12: the address the object was retrieved from, as the http records carry it.
  if (meta.ip !== undefined) fields.unshift(['WARC-IP-Address', meta.ip]);
  const target = meta.url || url;
  const record = await writer.write({
    type: 'resource',
    targetUri: target,
    contentType: mediaTypeOf(meta),
    block: resource.body,
    payload: 'block',
    fields,
  });
  const lines: TranscriptLine[] = [...meta.transcript];
  for (const from of meta.redirects ?? []) lines.unshift({ direction: 'info', text: `redirected from ${from}` });
  const metadata = await writer.write({
    type: 'metadata',
    targetUri: target,
    contentType: 'text/plain; charset=utf-8',
    block: transcriptText(lines),
    fields: [['WARC-Concurrent-To', record.recordId], ...fields],
  });
  return { resource: record, metadata };
}

/**
 * The open() options an archive fetches with, over the caller's: the transcript recorded, and
 * FTP text (TYPE A files and listings) kept as it crossed the wire, CR LF and all, instead of
 * the local line ends `fetch` hands over (RFC 959 3.1.1.1): the record is what the server sent.
 */
export const ARCHIVE_OPEN_OPTIONS = { transcript: true, ftpLineEnds: 'wire' } as const satisfies OpenOptions;

/** Opens `url` with ARCHIVE_OPEN_OPTIONS and writes its records with recordFetch(). */
export async function archiveFetch(
  writer: RecordWriter,
  url: string,
  options: OpenOptions = {},
): Promise<FetchRecords> {
  return recordFetch(writer, url, await open(url, { ...options, ...ARCHIVE_OPEN_OPTIONS }));
}

export interface ExchangeRecords {
  /** The response as read from the connection (a `revisit` when the writer dedups and has seen its payload). */
  response: WrittenRecord;
  /** The request as written, WARC-Concurrent-To the response. */
  request: WrittenRecord;
}

/**
 * The WARC-Protocol of an exchange, from the version of its status line (`http/1.0`, `http/1.1`,
 * the IIPC registry's identifiers), or null when the response has none.
 */
export function exchangeProtocol(ex: HttpExchange): string | null {
  const first = ex.received[0];
  if (first === undefined) return null;
  const m = /^HTTP\/(\d)\.(\d) /.exec(
    Buffer.from(first.buffer, first.byteOffset, Math.min(first.byteLength, 16)).toString('latin1'),
  );
  return m ? `http/${m[1]}.${m[2]}` : null;
}

/**
 * Writes one HTTP exchange (the `httpCapture` option of open()) once it has ended: a `response`
 * record (WARC 1.1 6.3) of the octets read from the connection, status line, header section and
 * body with its transfer and content codings as received, WARC-Payload-Digest over the entity-body
 * (the chunked coding removed, a content coding kept: WARC 1.1 5.9, warc-specifications issue 22),
 * then a `request` record (6.4) of the octets written, WARC-Concurrent-To the response; both dated
 * when the request went out and with the peer's WARC-IP-Address (5.12). An exchange that did not
 * end (the connection closed or the caller cancelled before the response's last octet) writes
 * nothing: null.
 */
export async function recordExchange(writer: RecordWriter, ex: HttpExchange): Promise<ExchangeRecords | null> {
  if (!(await ex.ended)) return null;
  const fields: Array<[string, string]> = [];
  if (ex.ip !== null) fields.push(['WARC-IP-Address', ex.ip]);
  const protocol = exchangeProtocol(ex);
  if (protocol !== null) fields.push(['WARC-Protocol', protocol]);
  const responseId = newRecordId();
  const response = writer.write({
    type: 'response',
    targetUri: ex.url,
    contentType: 'application/http;msgtype=response',
    block: ex.received,
    payload: 'http',
    fields,
    date: ex.date,
    recordId: responseId,
  });
  // Given at once (one message to the writer's thread), written only once the response is in
  // the file: a request record never names a response that is not.
  const request = writer.write({
    type: 'request',
    targetUri: ex.url,
    contentType: 'application/http;msgtype=request',
    block: ex.sent,
    fields: [['WARC-Concurrent-To', responseId], ...fields],
    date: ex.date,
    requires: responseId,
  });
  // The response's failure is the one to report (the request's only says it followed).
  request.catch(() => {});
  return { response: await response, request: await request };
}

/**
 * Opens `url` with ARCHIVE_OPEN_OPTIONS and the HTTP capture, reads the object whole and writes
 * it: each HTTP exchange of the chain (redirects included) as a response and a request record
 * (recordExchange()); an object that is not the answer of an HTTP exchange (any other scheme, or
 * a redirect from http to one) as recordFetch() writes it.
 */
export async function archiveHttpFetch(
  writer: RecordWriter,
  url: string,
  options: OpenOptions = {},
): Promise<{ exchanges: ExchangeRecords[]; fetched: FetchRecords | null }> {
  const captured: HttpExchange[] = [];
  const r = await open(url, { ...options, ...ARCHIVE_OPEN_OPTIONS, httpCapture: (e) => captured.push(e) });
  const last = captured.at(-1);
  let fetched: FetchRecords | null = null;
  if (last !== undefined && last.url === r.meta.url) {
    for await (const _ of chunksOf(r.body));
  } else fetched = await recordFetch(writer, url, r);
  const exchanges: ExchangeRecords[] = [];
  for (const ex of captured) {
    const w = await recordExchange(writer, ex);
    if (w !== null) exchanges.push(w);
  }
  return { exchanges, fetched };
}
