// Replay of WARC archives (`locator serve --warc`): the objects of WARC files served as the
// clients would give them, from an index made once, never from the network.
//
// The index maps the normal form of each URL (objectKey(), the key open()'s redirect loop and the
// gateway's cache use) to its captures: file, offset and length of the record (its gzip member,
// WARC 1.1 Annex D.2), date and payload digest. It is made when the archives are opened, from the
// CDXJ index beside a file when there is one as new as the file (`locator archive --index` writes
// it), else by reading the file through once. A capture is then served by one positioned read of
// its record and the inflation of that one member: no scan, whatever the size of the archive.
//
// What a record gives back (docs/gateway.md, "Replay"):
// - a `resource` record (locator's objects of every scheme, wget's FTP files): its block, with
//   the view the clients' face gives the URL and its Content-Type (a `text/x-locator-<view>` type,
//   which the archive writes for a listing given as plain text, gives that view back);
// - a `response` record (HTTP, as wget and other crawlers write it): the entity-body, the
//   transfer coding removed (RFC 9112 7.1) as the HTTP client hands it over; a 3xx is followed
//   inside the archive, a 404 or 410 is `not-found`, another error status `warc-recorded-status`;
// - a `revisit` record: the payload of the capture it names by its payload digest (WARC 1.1
//   6.7.2, the identical-payload-digest profile), under the revisit's date, with the status and
//   headers of the HTTP response it keeps when it keeps them.
// URLs that open() reached through a redirect (an FTP name that is a directory) are found too:
// locator's `metadata` records name them (`* redirected from URL`).

import { open as openFile, stat, readFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createGunzip, gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { defineCode, LocatorError } from '../core/errors.js';
import { Url } from '../core/url.js';
import { tryParse } from '../schemes/registry.js';
import { objectKey } from '../operations/normalize.js';
import { TOO_MANY_REDIRECTS } from '../operations/policy.js';
import { classify, NOT_FOUND, type Meta, type Resource } from '../clients/index.js';
import { parseHead, readWarc, WARC_BAD_RECORD, type ReadDamage, type RecordEnd } from './reader.js';
import { HttpPayload } from './digest.js';
import { isGzip, readAt, WARC_BAD_GZIP, WARC_TRUNCATED } from './gzip.js';

export const WARC_RECORDED_STATUS = defineCode(
  'warc-recorded-status',
  'error',
  'RFC 9110 15',
  'the archived HTTP response is an error status',
  'protocol',
);
export const WARC_STALE_INDEX = defineCode(
  'warc-stale-index',
  'error',
  'WARC 1.1 Annex D.2',
  'the index names a record the WARC file does not hold at that offset (the CDXJ is older than the file)',
  'protocol',
);

/** One capture of a URL: where its record is, and when it was made. */
export interface Capture {
  /** The WARC file, as its path was given. */
  file: string;
  /** Offset and length of the record in the file (its gzip member's, for a compressed file). */
  offset: number;
  length: number;
  /** WARC-Date (from a CDXJ line: its 14 digits as a date, `2026-11-29T08:50:00Z`). */
  date: string;
  type: 'response' | 'resource' | 'revisit';
  /** WARC-Target-URI as written. */
  target: string;
  /** WARC-Payload-Digest (`sha1:BASE32`), or null. */
  digest: string | null;
}

/** A capture as an object: what the clients' open() would have given, and the capture's facts. */
export interface Replayed {
  resource: Resource;
  /** WARC-Date of the capture served (a revisit's own date). */
  date: string;
  /** The file the record is in (its name, without the folder). */
  file: string;
  /** How many captures of the URL the archives hold (the latest is served). */
  captures: number;
}

export interface ReplayOptions {
  /**
   * CDXJ files to read the index from (pywb's format, as `locator archive --index` writes it).
   * Without them, a `.cdxj` beside each WARC file (`NAME.cdxj` for `NAME-<date>-<serial>.warc.gz`,
   * or the file's name with `.cdxj` for `.warc.gz`) is read when it is at least as new as the file
   * and names it; any file no CDXJ covers is read through.
   */
  cdxj?: string[];
}

/** How the index of one file was made. */
export interface IndexedFile {
  file: string;
  /** `cdxj` (the path of the CDXJ read) or `scan` (the file read through once). */
  from: string;
  /** Records indexed (read whole, or named by the CDXJ). */
  records: number;
  /**
   * The damage gone past (left out of the index): a torn or damaged gzip member, a malformed
   * record; from a CDXJ, a metadata record that could not be read (the others are read when asked for).
   */
  damaged: ReadDamage[];
}

/** Records up to this size are read and inflated in one call; larger ones stream. */
const WHOLE_LIMIT = 4 * 1024 * 1024;
/**
 * The most a record read in one call may inflate to: deflate packs up to 1032 octets in one, so
 * a member of 4 MiB may hold 4 GiB (a decompression bomb, or only zeros). One past it streams.
 */
const INFLATE_LIMIT = 16 * 1024 * 1024;
/** A metadata record larger than this is no exchange whose redirects are read. */
const METADATA_LIMIT = 64 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
const REDIRECTED = '* redirected from ';
const MAX_REDIRECTS = 5;

interface OpenFile {
  path: string;
  fh: FileHandle;
  gzip: boolean;
}

/**
 * RFC 1738 2.1-3: the key of a URL in the index, its normal form without the fragment
 * (objectKey()), else the text less its fragment.
 */
export function replayKey(url: string | Url): string {
  const u = typeof url === 'string' ? tryParse(url) : url;
  if (u instanceof Url) return objectKey(u);
  return (url as string).replace(/#.*$/s, '');
}

/**
 * ISO 28500 (WARC 1.1) Annex D.2 and the CDXJ index: a set of WARC files opened for replay, with
 * the index of their captures by URL. open() reads nothing but the records it serves.
 */
export class ReplayArchive {
  private readonly index = new Map<string, Capture[]>();
  /** Key of a URL open() was redirected from -> key of the URL it reached. */
  private readonly aliases = new Map<string, string>();
  private readonly byDigest = new Map<string, Capture>();
  private readonly files = new Map<string, OpenFile>();
  /** How each file was indexed, in the order given. */
  readonly indexed: IndexedFile[] = [];

  private constructor() {}

  /** Opens the files and makes the index (see ReplayOptions for where it comes from). */
  static async open(paths: readonly string[], options: ReplayOptions = {}): Promise<ReplayArchive> {
    const a = new ReplayArchive();
    try {
      for (const path of paths) {
        if (a.files.has(path)) continue;
        const fh = await openFile(path, 'r');
        a.files.set(path, { path, fh, gzip: await isGzip(fh) });
      }
      const lines = new Map<string, string[]>();
      for (const c of options.cdxj ?? []) await a.readCdxj(c, lines);
      const besides = new Map<string, Map<string, string[]>>();
      for (const path of a.files.keys()) {
        let got = lines.get(basename(path));
        let from = got ? (options.cdxj ?? []).join(', ') : 'scan';
        if (got === undefined && options.cdxj === undefined) {
          const beside = await besideCdxj(path);
          if (beside !== null) {
            // One CDXJ may index many files (`locator archive --index`): read once.
            let more = besides.get(beside);
            if (more === undefined) {
              more = new Map<string, string[]>();
              await a.readCdxj(beside, more);
              besides.set(beside, more);
            }
            got = more.get(basename(path));
            if (got !== undefined) from = beside;
          }
        }
        const damaged: ReadDamage[] = [];
        const records = got !== undefined ? await a.fromCdxj(path, got, damaged) : await a.scan(path, damaged);
        a.indexed.push({ file: path, from, records, damaged });
      }
    } catch (e) {
      await a.close();
      throw e;
    }
    for (const list of a.index.values()) list.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
    return a;
  }

  /** Closes the files. */
  async close(): Promise<void> {
    const all = [...this.files.values()];
    this.files.clear();
    await Promise.allSettled(all.map((f) => f.fh.close()));
  }

  /** The number of URLs with a capture. */
  get size(): number {
    return this.index.size;
  }

  /** The URLs with a capture, as written in their records (one each, the latest capture's). */
  *urls(): Generator<string> {
    for (const list of this.index.values()) yield list[list.length - 1].target;
  }

  /** The captures of a URL, oldest first (through the redirect a metadata record names); [] when none. */
  captures(url: string | Url): readonly Capture[] {
    const key = replayKey(url);
    const list = this.index.get(key) ?? this.index.get(this.aliases.get(key) ?? '');
    return list ?? [];
  }

  /** True when the archives hold a capture of the URL. */
  has(url: string | Url): boolean {
    return this.captures(url).length > 0;
  }

  /**
   * The latest capture of `url` as an object (WARC 1.1 6.3-6.7.2; see the head of this module),
   * or null when the archives hold none (nor of the URL an archived 3xx leads to). The body
   * streams from the one record.
   */
  async open(url: string | Url): Promise<Replayed | null> {
    const u = typeof url === 'string' ? tryParse(url) : url;
    if (!(u instanceof Url)) return null;
    let list = this.captures(u);
    if (list.length === 0) return null;
    const count = list.length;
    const redirects: string[] = [];
    let asked = u;
    for (let hop = 0; ; hop++) {
      const cap = list[list.length - 1];
      const own = await this.record(cap);
      // The record's own date (a CDXJ line keeps only its seconds).
      const date = own.get('WARC-Date') ?? cap.date;
      // A revisit (WARC 1.1 6.7.2) keeps at most the header section of its HTTP response: the
      // status and headers are its own, the payload the record it repeats. One with an empty
      // block (a resource repeated) is that record under its own date.
      const original = cap.type === 'revisit' ? this.repeated(cap) : null;
      let head = own;
      if (original !== null && !(isHttp(own) && own.contentLength > 0)) {
        await own.block.return(undefined);
        head = await this.record(original);
      }
      const payload = async (): Promise<AsyncGenerator<Buffer>> => {
        if (original === null || head !== own) return head.block;
        const r = await this.record(original);
        return isHttp(r) ? (await httpReply(r.block, original)).body : r.block;
      };
      if (!isHttp(head)) {
        const meta = resourceMeta(asked, cap.target, head.get('Content-Type'), head.contentLength, redirects);
        return { resource: { meta, body: streamOf(await payload()) }, date, file: basename(cap.file), captures: count };
      }
      const reply = await httpReply(head.block, head === own ? cap : original!);
      const location = reply.header('location');
      if (reply.status >= 300 && reply.status < 400 && location !== null) {
        await reply.cancel();
        if (hop >= MAX_REDIRECTS)
          throw new LocatorError(
            TOO_MANY_REDIRECTS,
            -1,
            `the archived response of ${cap.target} redirects once more after ${MAX_REDIRECTS} redirects; redirections this many times usually indicate an infinite loop (RFC 1945 9.3)`,
          );
        let next: Url | LocatorError | null = null;
        try {
          next = tryParse(new URL(location, cap.target).href);
        } catch {
          // a Location that is no URL: the 3xx leads nowhere the archives can hold
        }
        if (!(next instanceof Url)) return null;
        redirects.push(cap.target);
        list = this.captures(next);
        if (list.length === 0) return null;
        asked = next;
        continue;
      }
      if (reply.status >= 400) {
        await reply.cancel();
        const gone = reply.status === 404 || reply.status === 410;
        throw new LocatorError(
          gone ? NOT_FOUND : WARC_RECORDED_STATUS,
          -1,
          `the archived response of ${cap.target} (${date}) is ${reply.statusLine}`,
        );
      }
      const meta: Meta = {
        scheme: asked.scheme,
        url: cap.target,
        size: null,
        contentType: reply.header('content-type'),
        status: reply.status,
        redirects,
        transcript: [],
      };
      classify(asked, meta);
      let body = reply.body;
      if (head === own && original !== null) {
        await reply.cancel();
        body = await payload();
      }
      return { resource: { meta, body: streamOf(body) }, date, file: basename(cap.file), captures: count };
    }
  }

  /** The capture a revisit repeats: the first of the same payload digest that is no revisit. */
  private repeated(cap: Capture): Capture {
    const c = cap.digest === null ? undefined : this.byDigest.get(cap.digest);
    if (c === undefined)
      throw new LocatorError(
        WARC_STALE_INDEX,
        cap.offset,
        `the revisit record of ${cap.target} in ${cap.file} repeats a payload (${cap.digest}) no record of these archives holds`,
      );
    return c;
  }

  /** The record of a capture: one positioned read of its member, inflated; its fields, and its block as it streams. */
  private async record(cap: Capture): Promise<ReadRecord> {
    const f = this.files.get(cap.file)!;
    const r = await recordOf(memberChunks(f, cap.offset, cap.length), cap);
    const target = r.get('WARC-Target-URI')?.replace(/^<(.*)>$/, '$1') ?? null;
    // The record must be the capture: of its URL, and a capture (a request or metadata record of
    // the same URL is not one). A CDXJ line without locator's `type` calls a resource a response.
    const type = r.get('WARC-Type');
    const served = type === 'response' || type === 'resource' || type === 'revisit';
    if (target !== cap.target || !served || (type === 'revisit') !== (cap.type === 'revisit')) {
      await r.block.return(undefined);
      throw new LocatorError(
        WARC_STALE_INDEX,
        cap.offset,
        `${cap.file} holds no ${cap.type} record of ${cap.target} at offset ${cap.offset}`,
      );
    }
    return r;
  }

  /** Reads the index lines of a CDXJ file, by the file name they name. */
  private async readCdxj(path: string, into: Map<string, string[]>): Promise<void> {
    const text = await readFile(path, 'utf8');
    for (const line of text.split('\n')) {
      const parts = cdxjParts(line);
      if (parts === null) continue;
      let name: unknown;
      try {
        name = (JSON.parse(parts.json) as { filename?: unknown }).filename;
      } catch {
        continue;
      }
      if (typeof name !== 'string') continue;
      const list = into.get(name);
      if (list) list.push(line);
      else into.set(name, [line]);
    }
  }

  /**
   * The index of a file from its CDXJ lines; metadata records are read for the redirects they
   * name (one that cannot be read is put in `damaged`, and names none). The records of the
   * objects are not read here: a damaged one is found when it is asked for.
   */
  private async fromCdxj(path: string, lines: string[], damaged: ReadDamage[]): Promise<number> {
    let n = 0;
    for (const line of lines) {
      const { stamp, json } = cdxjParts(line)!;
      const j = JSON.parse(json) as Record<string, unknown>;
      const url = j.url;
      const offset = Number(j.offset);
      const length = Number(j.length);
      // A line of another shape (a value that is no string, an offset or length that is no
      // whole number from 0) names no record.
      if (typeof url !== 'string' || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) continue;
      if (offset < 0 || length < 0) continue;
      const type = j.type ?? (j.mime === 'warc/revisit' ? 'revisit' : 'response');
      n++;
      if (type === 'metadata') {
        if (length <= METADATA_LIMIT) {
          try {
            await this.aliasesOf(path, offset, length);
          } catch (e) {
            if (!(e instanceof LocatorError)) throw e;
            damaged.push({ error: e, next: offset + length });
          }
        }
        continue;
      }
      if (type !== 'response' && type !== 'resource' && type !== 'revisit') continue;
      const digest = typeof j.digest !== 'string' ? null : j.digest.includes(':') ? j.digest : `sha1:${j.digest}`;
      this.add({ file: path, offset, length, date: dateOfStamp(stamp), type, target: url, digest });
    }
    return n;
  }

  /** The redirects a metadata record (at offset, of length) names. */
  private async aliasesOf(path: string, offset: number, length: number): Promise<void> {
    const f = this.files.get(path)!;
    const r = await recordOf(memberChunks(f, offset, length), { file: path, offset });
    const target = r.get('WARC-Target-URI')?.replace(/^<(.*)>$/, '$1') ?? null;
    // The bound of scan(): the block's own length, not its member's (which may inflate a thousandfold).
    if (target === null || r.contentLength > METADATA_LIMIT) {
      await r.block.return(undefined);
      return;
    }
    const parts: Buffer[] = [];
    for await (const c of r.block) parts.push(c);
    this.aliasesIn(Buffer.concat(parts), target);
  }

  private aliasesIn(block: Buffer, target: string): void {
    const to = replayKey(target);
    for (const line of block.toString('utf8').split('\n')) {
      if (!line.startsWith(REDIRECTED)) continue;
      const from = replayKey(line.slice(REDIRECTED.length).trim());
      if (from !== to && !this.aliases.has(from)) this.aliases.set(from, to);
    }
  }

  /**
   * The index of a file read through once (WARC 1.1 4: record after record). A damaged record
   * (a torn or damaged gzip member, a malformed record) is left out and put in `damaged`, and the
   * records after it are read; a file with damage and no record read whole throws its first damage.
   */
  private async scan(path: string, damaged: ReadDamage[]): Promise<number> {
    let n = 0;
    for await (const r of readWarc(path, { verify: false, onDamage: (d) => damaged.push(d) })) {
      const target = r.targetUri;
      let aliases: Buffer | null = null;
      let end: RecordEnd;
      try {
        if (r.type === 'metadata' && target !== null && r.contentLength <= METADATA_LIMIT) {
          const parts: Buffer[] = [];
          for await (const c of r.block) parts.push(c);
          aliases = Buffer.concat(parts);
        }
        end = await r.end();
      } catch (e) {
        // The record is damaged: readWarc() reports it (onDamage) and reads on after it.
        if (e instanceof LocatorError) continue;
        throw e;
      }
      n++;
      if (aliases !== null) this.aliasesIn(aliases, target!);
      // A record that shares its gzip member with others (a file gzipped whole) cannot be
      // reached by its offset: it has length 0, and is not indexed.
      if (target === null || end.length === 0) continue;
      if (r.type !== 'response' && r.type !== 'resource' && r.type !== 'revisit') continue;
      this.add({
        file: path,
        offset: r.offset,
        length: end.length,
        date: r.get('WARC-Date') ?? '',
        type: r.type,
        target,
        digest: r.get('WARC-Payload-Digest'),
      });
    }
    if (n === 0 && damaged.length > 0) throw damaged[0].error;
    return n;
  }

  private add(c: Capture): void {
    const key = replayKey(c.target);
    const list = this.index.get(key);
    if (list) list.push(c);
    else this.index.set(key, [c]);
    if (c.type !== 'revisit' && c.digest !== null && !this.byDigest.has(c.digest)) this.byDigest.set(c.digest, c);
  }
}

/**
 * pywb's CDXJ line, `urlkey timestamp {json}`: the timestamp and the JSON. The key is a SURT,
 * which keeps the spaces and braces of a URL as written: the JSON starts after the first
 * ` timestamp {`, not at the first brace, and the timestamp is not the second word. A line
 * with no timestamp is taken from its first brace on.
 */
function cdxjParts(line: string): { stamp: string; json: string } | null {
  const m = / (\d{1,14}) \{/.exec(line);
  if (m !== null) return { stamp: m[1], json: line.slice(m.index + m[0].length - 1) };
  const brace = line.indexOf('{');
  return brace < 0 ? null : { stamp: '', json: line.slice(brace) };
}

/** A CDXJ timestamp (14 digits, or fewer) as a W3C date (WARC 1.1 5.5). */
function dateOfStamp(s: string): string {
  const d = s.padEnd(14, '0');
  return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${d.slice(8, 10)}:${d.slice(10, 12)}:${d.slice(12, 14)}Z`;
}

/**
 * The CDXJ beside a WARC file, when there is one at least as new as the file: `PREFIX.cdxj` for
 * `PREFIX-<date>-<serial>.warc.gz` (what `locator archive --index` writes), `NAME.cdxj` for
 * `NAME.warc.gz`, or `FILE.cdxj`.
 */
async function besideCdxj(path: string): Promise<string | null> {
  const name = basename(path);
  const dir = dirname(path);
  const candidates = [
    name.replace(/-\d{14,17}-\d{5}\.warc(?:\.gz)?$/, '.cdxj'),
    name.replace(/\.warc(?:\.gz)?$/, '.cdxj'),
    `${name}.cdxj`,
  ].filter((c) => c !== name);
  const own = (await stat(path)).mtimeMs;
  for (const c of new Set(candidates)) {
    const p = join(dir, c);
    try {
      if ((await stat(p)).mtimeMs >= own) return p;
    } catch {
      // none there
    }
  }
  return null;
}

/** The inflated octets of the record at `offset` (one gzip member), or the octets of a plain record. */
async function* memberChunks(f: OpenFile, offset: number, length: number): AsyncGenerator<Buffer> {
  if (length <= WHOLE_LIMIT) {
    const raw = await readAt(f.fh, offset, length);
    if (raw.length < length)
      throw new LocatorError(WARC_STALE_INDEX, offset, `${f.path} ends before the record at offset ${offset}`);
    if (!f.gzip) {
      yield raw;
      return;
    }
    let whole: Buffer | null = null;
    try {
      whole = gunzipSync(raw, { maxOutputLength: INFLATE_LIMIT });
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'ERR_BUFFER_TOO_LARGE') throw noMember(f, offset, raw, e);
    }
    if (whole !== null) yield whole;
    else yield* gunzipped([raw], f, offset);
    return;
  }
  async function* raw(): AsyncGenerator<Buffer> {
    const step = 1 << 20;
    for (let at = 0; at < length;) {
      const b = await readAt(f.fh, offset + at, Math.min(step, length - at));
      if (b.length === 0) return;
      at += b.length;
      yield b;
    }
  }
  if (!f.gzip) yield* raw();
  else yield* gunzipped(raw(), f, offset);
}

/** RFC 1952: the member whose octets `chunks` are, inflated as it streams. */
async function* gunzipped(
  chunks: Iterable<Buffer> | AsyncIterable<Buffer>,
  f: OpenFile,
  offset: number,
): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  const source = Readable.from(chunks);
  source.on('error', (e) => gunzip.destroy(e));
  try {
    for await (const c of source.pipe(gunzip) as AsyncIterable<Buffer>) yield c;
  } catch (e) {
    if (e instanceof LocatorError) throw e;
    throw noMember(f, offset, await readAt(f.fh, offset, 3), e);
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

/**
 * The error for octets at `offset` that do not inflate (`head`: their first octets): a gzip
 * member that starts there but is damaged or cut short (RFC 1952 2.3, `warc-bad-gzip`,
 * `warc-truncated`), else no member at all, an index that names the wrong offset (`warc-stale-index`).
 */
function noMember(f: OpenFile, offset: number, head: Buffer, cause: unknown): LocatorError {
  if (head[0] !== 0x1f || head[1] !== 0x8b || head[2] !== 8)
    return new LocatorError(WARC_STALE_INDEX, offset, `${f.path} holds no gzip member at offset ${offset}`, { cause });
  const cut = /unexpected end/i.test((cause as Error)?.message ?? '');
  return cut
    ? new LocatorError(WARC_TRUNCATED, offset, `${f.path} ends inside the gzip member at offset ${offset}`, { cause })
    : new LocatorError(WARC_BAD_GZIP, offset, `the gzip member at offset ${offset} of ${f.path} is damaged`, {
        cause,
      });
}

interface ReadRecord {
  get(name: string): string | null;
  contentLength: number;
  block: AsyncGenerator<Buffer>;
}

/** WARC 1.1 4: a record's header fields, then its block (Content-Length octets) as it streams. */
async function recordOf(chunks: AsyncGenerator<Buffer>, at: { file: string; offset: number }): Promise<ReadRecord> {
  let buf: Buffer = Buffer.alloc(0);
  let end = -1;
  while (end < 0) {
    const r = await chunks.next();
    if (r.done) break;
    buf = buf.length === 0 ? r.value : Buffer.concat([buf, r.value]);
    end = buf.indexOf(HEAD_END);
    if (end < 0 && buf.length > 1 << 20) break;
  }
  if (end < 0) {
    await chunks.return(undefined);
    throw new LocatorError(WARC_STALE_INDEX, at.offset, `${at.file} holds no WARC record at offset ${at.offset}`);
  }
  const { fields } = parseHead(buf.subarray(0, end + 4), at.offset);
  const get = (name: string): string | null => {
    const n = name.toLowerCase();
    for (const [k, v] of fields) if (k.toLowerCase() === n) return v;
    return null;
  };
  const contentLength = Number(get('Content-Length') ?? NaN);
  if (!Number.isSafeInteger(contentLength) || contentLength < 0)
    throw new LocatorError(WARC_BAD_RECORD, at.offset, `no Content-Length in the record at offset ${at.offset}`);
  const first = buf.subarray(end + 4);
  async function* block(): AsyncGenerator<Buffer> {
    let left = contentLength;
    try {
      if (first.length > 0 && left > 0) {
        const c = first.subarray(0, left);
        left -= c.length;
        yield c;
      }
      while (left > 0) {
        const r = await chunks.next();
        if (r.done)
          throw new LocatorError(
            WARC_BAD_RECORD,
            at.offset,
            `the record at offset ${at.offset} ends ${left} octets short of its Content-Length`,
          );
        const c = r.value.length > left ? r.value.subarray(0, left) : r.value;
        left -= c.length;
        yield c;
      }
    } finally {
      await chunks.return(undefined);
    }
  }
  return { get, contentLength, block: block() };
}

/**
 * The meta of a resource record as open() gives it: the view the URL's face names, else the one
 * its Content-Type names; a `text/x-locator-<view>` type (what the archive writes for a listing
 * given as text/plain) gives that view back, and text/plain.
 */
function resourceMeta(asked: Url, target: string, type: string | null, size: number, redirects: string[]): Meta {
  const meta: Meta = { scheme: asked.scheme, url: target, size, contentType: type, redirects, transcript: [] };
  const named = /^text\/x-locator-([a-z0-9-]+)\s*$/i.exec(type ?? '')?.[1]?.toLowerCase() ?? null;
  if (named !== null) {
    const plain: Meta = { ...meta, contentType: 'text/plain' };
    classify(asked, plain);
    if (plain.view === named) return plain;
  }
  classify(asked, meta);
  if (meta.view === null && named !== null) {
    meta.kind = 'listing';
    meta.view = named;
  }
  return meta;
}

/** True when a record's block is an HTTP message (application/http, WARC 1.1 6.3). */
function isHttp(r: ReadRecord): boolean {
  return /^application\/http/i.test(r.get('Content-Type') ?? '');
}

interface HttpReply {
  status: number;
  statusLine: string;
  header(name: string): string | null;
  /** The entity-body (RFC 9112 6: the transfer coding removed). */
  body: AsyncGenerator<Buffer>;
  cancel(): Promise<void>;
}

/** RFC 9112 4-7: the status, header section and entity-body of an archived HTTP response. */
async function httpReply(block: AsyncGenerator<Buffer>, cap: Capture): Promise<HttpReply> {
  const out: Buffer[] = [];
  const parser = new HttpPayload((c) => out.push(Buffer.from(c)));
  while (parser.headerText === null && !parser.broken) {
    const r = await block.next();
    if (r.done) break;
    parser.update(r.value);
  }
  const head = parser.headerText ?? '';
  const lines = head.split(/\r?\n/);
  const statusLine = lines[0] ?? '';
  const m = /^HTTP\/\d(?:\.\d)?\s+([1-9]\d\d)/.exec(statusLine);
  // RFC 9112 4: a message with no status line (or no end to its header section) is no response.
  if (parser.headerText === null || m === null) {
    await block.return(undefined);
    throw new LocatorError(
      WARC_BAD_RECORD,
      cap.offset,
      `the archived HTTP response of ${cap.target} (offset ${cap.offset} in ${cap.file}) has ${parser.headerText === null ? 'no end to its header section' : 'no status line'}`,
    );
  }
  const status = Number(m[1]);
  const header = (name: string): string | null => {
    const n = name.toLowerCase();
    for (const l of lines.slice(1)) {
      const colon = l.indexOf(':');
      if (colon > 0 && l.slice(0, colon).trim().toLowerCase() === n) return l.slice(colon + 1).trim();
    }
    return null;
  };
  async function* body(): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        while (out.length > 0) yield out.shift()!;
        if (parser.broken)
          throw new LocatorError(
            WARC_BAD_RECORD,
            cap.offset,
            `the archived HTTP response of ${cap.target} (offset ${cap.offset} in ${cap.file}) has a chunk-size line past 64 KiB`,
          );
        const r = await block.next();
        if (r.done) return;
        parser.update(r.value);
      }
    } finally {
      await block.return(undefined);
    }
  }
  return {
    status,
    statusLine: statusLine.trim(),
    header,
    body: body(),
    cancel: async () => {
      await block.return(undefined);
    },
  };
}

/** A generator of chunks as a web stream; cancelling it ends the generator (and its reads). */
function streamOf(chunks: AsyncGenerator<Buffer>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      const r = await chunks.next();
      if (r.done) c.close();
      else c.enqueue(new Uint8Array(r.value.buffer, r.value.byteOffset, r.value.byteLength));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
