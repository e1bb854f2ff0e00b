// Keeping what a client fetched: a `resource` record of the object open() delivered and a
// `metadata` record of the protocol exchange (the transcript `locator fetch --verbose` prints,
// passwords already hidden by the clients), the way Heritrix keeps FTP (heritrix3 issue 331).

import { open, type OpenOptions, type Resource, type TranscriptLine } from '../clients/index.js';
import type { WarcWriter, WrittenRecord } from './writer.js';

/**
 * The IIPC's WARC-Protocol identifiers (warc-specifications issue 42, "WARC-Protocol" in its
 * registry of extensions) for the schemes locator reaches: `ftp`, `gopher`, `http/1.1` (the HTTP
 * client speaks HTTP/1.1; over TLS for https, whose version open() does not report).
 * DEVIATION: the registry names no identifier for NNTP, WAIS or Prospero; these records carry
 * `nntp` (news: and nntp: URLs), `wais` and `prospero`, the URL schemes' names, until it does.
 * A file: URL crosses no network: no field.
 */
export function warcProtocols(scheme: string): string[] {
  const name = scheme.toLowerCase();
  return Object.hasOwn(WARC_PROTOCOL, name) ? [...(WARC_PROTOCOL[name] ?? [])] : [];
}

// The registry's identifiers by URL scheme: data of the registry, not behaviour of a client.
// https: only the HTTP layer, the TLS version not being in what open() reports.
const WARC_PROTOCOL: Record<string, readonly string[] | undefined> = {
  http: ['http/1.1'],
  https: ['http/1.1'],
  ftp: ['ftp'],
  gopher: ['gopher'],
  news: ['nntp'],
  nntp: ['nntp'],
  wais: ['wais'],
  prospero: ['prospero'],
};

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
 * DEVIATION: an http or https object is kept as a `resource` record here too, not as the
 * `request` and `response` records WARC 1.1 6.3 asks for: open() gives the entity decoded, not the
 * octets of the connection, and a response rebuilt from it would not be what was exchanged. A
 * caller that has the octets (the crawl's HTTP capture) writes writer.request()/response().
 */
export async function recordFetch(writer: WarcWriter, url: string, resource: Resource): Promise<FetchRecords> {
  const { meta } = resource;
  const protocols = warcProtocols(meta.scheme);
  const fields: Array<[string, string]> = protocols.map((p) => ['WARC-Protocol', p]);
  const target = meta.url || url;
  const record = await writer.resource(target, mediaTypeOf(meta), resource.body, fields);
  const lines: TranscriptLine[] = [...meta.transcript];
  for (const from of meta.redirects ?? []) lines.unshift({ direction: 'info', text: `redirected from ${from}` });
  const metadata = await writer.metadata(
    target,
    record.recordId,
    'text/plain; charset=utf-8',
    transcriptText(lines),
    fields,
  );
  return { resource: record, metadata };
}

/**
 * The open() options an archive fetches with, over the caller's: the transcript recorded, and
 * FTP text (TYPE A files and listings) kept as it crossed the wire, CR LF and all, instead of
 * the local line ends `fetch` hands over (RFC 959 3.1.1.1): the record is what the server sent.
 */
export const ARCHIVE_OPEN_OPTIONS = { transcript: true, ftpLineEnds: 'wire' } as const satisfies OpenOptions;

/** Opens `url` with ARCHIVE_OPEN_OPTIONS and writes its records with recordFetch(). */
export async function archiveFetch(writer: WarcWriter, url: string, options: OpenOptions = {}): Promise<FetchRecords> {
  return recordFetch(writer, url, await open(url, { ...options, ...ARCHIVE_OPEN_OPTIONS }));
}
