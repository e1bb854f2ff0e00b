// The WARC 1.1 writer (ISO 28500:2017; the text at iipc.github.io/warc-specifications).
//
// Written here rather than taken from a library. webrecorder's warcio (npm) was the candidate the
// field offers: it writes good records, but it needs eight packages at run time (hash-wasm, pako,
// tempy, yargs ...) for what node:zlib and node:crypto already do, it digests a chunked HTTP body
// with its chunk framing (warcio issue 74), and the tests want a reader that did not write the
// files: warcio reads them there (test/archive/), which it could not check independently if it had
// written them. What this module needs is small: a header, a block streamed through two digests,
// one gzip member per record, files rolled at a size and renamed only when complete.
//
// A record is written as it arrives: its block streams through the block digest and the payload
// digest into a spool (memory, or a spill file past a limit; the header must state the length and
// digests before the block), then header and block go out as one gzip member (WARC 1.1 Annex D.2:
// "each record ... compressed individually"). A file is written under a temporary name created
// exclusively (O_EXCL, random suffix, `.open`) and gets its final name by link+unlink when it is
// closed, so no reader ever sees a half-written file under a WARC name (resume.ts finishes the
// ones a killed process left).

import { writeSync } from 'node:fs';
import { open, link, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { constants, createGzip, deflateRawSync, gzip, gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { defineCode, LocatorError } from '../core/errors.js';
import { Digester, HttpPayload, type DigestAlgorithm } from './digest.js';
import { chunksOf, Spool, type BlockSource } from './spool.js';

export type RecordType = 'warcinfo' | 'request' | 'response' | 'resource' | 'metadata' | 'revisit';

export const WARC_WRITER_CLOSED = defineCode(
  'warc-writer-closed',
  'error',
  null,
  'the WARC writer is closed: no record can be written',
  'usage',
);
export const WARC_RECORD_REQUIRES = defineCode(
  'warc-record-requires',
  'error',
  null,
  'the record this one goes with (its `requires`) was not written: neither is this one',
  'usage',
);
/** WARC 1.1 5.4 as newRecordId() makes them, and as a caller may give one: `<urn:uuid:...>`. */
const RECORD_ID = /^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}>$/i;
export const WARC_NAME_TAKEN = defineCode(
  'warc-name-taken',
  'error',
  null,
  'a WARC file of that name exists already: it is not overwritten',
  'usage',
);

/** WARC 1.1 6.7.2: the profile of a revisit whose payload is identical to an earlier record's. */
export const REVISIT_IDENTICAL_PAYLOAD = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';

export interface WriterOptions {
  /** The folder the files go in (must exist). */
  dir: string;
  /** The start of each file's name: `<prefix>-<date>-<serial>.warc.gz`; default `locator`. */
  prefix?: string;
  /** Roll to a new file once a record would take this one past this many octets; default 1 GB. */
  maxSize?: number;
  /** One gzip member per record (default true); false writes plain `.warc` files. */
  gzip?: boolean;
  /** The digest algorithm: sha1 (default: what wget, Heritrix, pywb and warcio write) or sha256. */
  digest?: DigestAlgorithm;
  /**
   * The fields of each file's `warcinfo` record (WARC 1.1 6.2, application/warc-fields), in
   * order, after `software`, `format`, `conformsTo` and `hostname`: for example `robots`
   * (obey/ignore), `operator` (a contact), `isPartOf`, `description` and the options of the run.
   */
  info?: Record<string, string>;
  /** `software` of the warcinfo record; default `locator`. */
  software?: string;
  /** Write a revisit record instead of a second copy of a payload seen before in this run (`--dedup`). */
  dedup?: boolean;
  /** Octets of a block kept in memory before it spills to a file; default 4 MiB. */
  spoolLimit?: number;
  /** The clock (for tests); default `() => new Date()`. */
  now?: () => Date;
}

export interface RecordInput {
  type: RecordType;
  targetUri?: string;
  /** Content-Type of the block; none for an empty block. */
  contentType?: string;
  block: BlockSource;
  /**
   * What the payload is (WARC 1.1 5.9): `http` the entity-body of an application/http block,
   * `block` the whole block (a resource), `none` no payload digest (default).
   */
  payload?: 'http' | 'block' | 'none';
  /** Further header fields, in order (WARC-Protocol, WARC-Concurrent-To ...). */
  fields?: Array<[string, string]>;
  date?: Date;
  /** The record's WARC-Record-ID (WARC 1.1 5.4, `<urn:uuid:...>`: newRecordId()); a new one by default. */
  recordId?: string;
  /**
   * The WARC-Record-ID of a record given to this writer before, with its `recordId`, that must be
   * in the file for this one to be written: if its write fails, this one fails too
   * (`warc-record-requires`). A request record and the response it is concurrent to are so given
   * at once, and never the request alone.
   */
  requires?: string;
}

/** Where a record went and what it holds: what the CDXJ index and a revisit need. */
export interface WrittenRecord {
  type: RecordType;
  recordId: string;
  /** The file's final name (without the folder). */
  filename: string;
  /** Offset of the record (its gzip member) in the file, and its length in the file. */
  offset: number;
  length: number;
  date: string;
  targetUri: string | null;
  contentType: string | null;
  blockDigest: string;
  payloadDigest: string | null;
  /** HTTP responses: the status code of the status line. */
  status: number | null;
  /** Revisits: the record whose payload this one repeats. */
  refersTo: string | null;
}

/** What writes records: WarcWriter, or ThreadWarcWriter (writer-thread.ts) on a worker thread. */
export interface RecordWriter {
  write(input: RecordInput): Promise<WrittenRecord>;
}

/** WARC 1.1 5.4: `<urn:uuid:...>`, a globally unique record id. */
export function newRecordId(): string {
  return `<urn:uuid:${randomUUID()}>`;
}

/** WARC 1.1 5.5: W3C-ISO8601 with fractional seconds (1.1 allows them), UTC. */
export function warcDate(d: Date): string {
  return d.toISOString();
}

/** A field value on one line: CR, LF and other controls made spaces (WARC 1.1 4: field values are TEXT). */
function fieldValue(v: string): string {
  // eslint-disable-next-line no-control-regex
  return v.replace(/[\x00-\x1f\x7f]/g, ' ');
}

/** WARC 1.1 6.2: `name: value` lines, CR LF ended (application/warc-fields). */
export function warcFields(fields: Array<[string, string]>): string {
  return fields.map(([k, v]) => `${k}: ${fieldValue(v)}\r\n`).join('');
}

const CRLF2 = Buffer.from('\r\n\r\n');
/** gzip() as a promise (a function, not promisify() at load: the module declares only). */
function gzipAsync(plain: Uint8Array, level: number): Promise<Buffer> {
  return new Promise((resolve, reject) => gzip(plain, { level }, (e, out) => (e === null ? resolve(out) : reject(e))));
}
/** Records up to this many octets are compressed on the calling thread (a millisecond at most). */
const SYNC_GZIP = 64 * 1024;

/** Octets of a larger block that are tried with deflate before the whole is compressed. */
const SAMPLE = 16 * 1024;

/**
 * The deflate level of a record whose block is larger than SYNC_GZIP, from a sample of its octets
 * (RFC 1951): none (stored blocks, 3.2.4) when the fastest level makes the sample less than 3%
 * smaller, the default (6) otherwise. Octets compressed already (images, archives, video, most of
 * a web archive's volume) or random gain nothing from deflate at any level, and deflate spends
 * 20-25 ms a megabyte finding that out, where storing them costs a copy and a CRC; the member is
 * a valid gzip member either way, and no larger (256 KiB of random octets: 262,197 octets stored,
 * 262,244 deflated; bench/RESULTS.md, "The archive"). A record of at most SYNC_GZIP octets takes the
 * default: there the fixed cost of a member is most of the work.
 */
function levelOf(sample: Uint8Array): number {
  if (sample.byteLength === 0) return constants.Z_DEFAULT_COMPRESSION;
  const out = deflateRawSync(sample, { level: 1 });
  return out.length > sample.byteLength * 0.97 ? constants.Z_NO_COMPRESSION : constants.Z_DEFAULT_COMPRESSION;
}

/** Up to `n` octets of `chunks` from the middle of their `length` (past an HTTP header section). */
function middleOf(chunks: readonly Uint8Array[], length: number, n: number): Uint8Array {
  const start = Math.max(0, Math.floor((length - n) / 2));
  const out = Buffer.alloc(Math.min(n, length));
  let at = 0;
  let pos = 0;
  for (const c of chunks) {
    const from = Math.max(start - pos, 0);
    if (from < c.byteLength && at < out.length) {
      const part = c.subarray(from, from + out.length - at);
      out.set(part, at);
      at += part.byteLength;
    }
    pos += c.byteLength;
  }
  return out;
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:TZ.]/g, '');
}

/** ISO 28500 (WARC 1.1) section 4 and Annex D: writes records to rolled, per-record gzip files. */
export class WarcWriter {
  readonly options: Required<Omit<WriterOptions, 'info'>> & { info: Record<string, string> };
  /** Final names of the files completed so far, in order. */
  readonly files: string[] = [];
  private file: FileHandle | null = null;
  private tempPath = '';
  private finalName = '';
  private size = 0;
  private recordsInFile = 0;
  /** The WARC-Record-ID of the current file's warcinfo record. */
  private warcinfoId: string | null = null;
  private serial = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Records given with their `recordId`, until written; the ids of those whose write failed (`requires`). */
  private readonly given = new Map<string, Promise<WrittenRecord>>();
  private readonly failedIds = new Set<string>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly seen = new Map<string, WrittenRecord>();

  constructor(options: WriterOptions) {
    this.options = {
      prefix: 'locator',
      maxSize: 1e9,
      gzip: true,
      digest: 'sha1',
      info: {},
      software: 'locator',
      dedup: false,
      spoolLimit: 4 * 1024 * 1024,
      now: () => new Date(),
      ...options,
    };
  }

  /**
   * Writes one record (WARC 1.1 4): the block streams through its digests into a spool, then
   * the record goes out as one gzip member. Records go out in the order their blocks end (many
   * fetches may write at once); a record that must follow another (metadata after its resource)
   * is written after the other's write() has resolved.
   */
  write(input: RecordInput): Promise<WrittenRecord> {
    const id = input.recordId;
    if (id !== undefined && !RECORD_ID.test(id))
      return Promise.reject(new RangeError(`WarcWriter: ${JSON.stringify(id)} is not a record id (<urn:uuid:...>)`));
    let p: Promise<WrittenRecord>;
    if (input.requires === undefined) p = this.writeOne(input);
    else {
      // Taken now (a close after this call waits for it); written once the record it requires is.
      if (this.closed) return Promise.reject(new LocatorError(WARC_WRITER_CLOSED, -1));
      const required = input.requires;
      const prior = this.given.get(required);
      const failed = () =>
        new LocatorError(WARC_RECORD_REQUIRES, -1, `the record ${required} this one goes with was not written`);
      p = this.failedIds.has(required)
        ? Promise.reject(failed())
        : (prior ?? Promise.resolve()).then(
            () => this.writeOne(input, true),
            () => Promise.reject(failed()),
          );
      this.inflight.add(p);
      const done = () => this.inflight.delete(p);
      p.then(done, done);
    }
    if (id !== undefined) {
      this.given.set(id, p);
      p.then(
        () => this.given.delete(id),
        () => {
          this.given.delete(id);
          this.failedIds.add(id);
        },
      );
    }
    return p;
  }

  /** write() of one record; `accepted` when write() took it before a close (a record that required another). */
  private async writeOne(input: RecordInput, accepted = false): Promise<WrittenRecord> {
    if (this.closed && !accepted) throw new LocatorError(WARC_WRITER_CLOSED, -1);
    // A block given whole is written from memory up to spoolLimit octets; a larger one goes
    // through the spool as a stream does (no second copy of it in memory).
    const whole = wholeOf(input.block, this.options.spoolLimit);
    const p = whole !== null ? this.writeWhole(input, whole) : this.writeNow(input);
    this.inflight.add(p);
    try {
      return await p;
    } finally {
      this.inflight.delete(p);
    }
  }

  /**
   * A block given whole (octets, a string, a list of chunks: an HTTP exchange as captured): its
   * digests taken at once, without a spool, and a record of at most SYNC_GZIP octets compressed
   * and written in the queue's turn without leaving this thread (bench/RESULTS.md, "The
   * archive": the spool, the async steps and a file write on libuv's threads were most of a small
   * record's cost). The same record as writeNow() makes of the same block.
   */
  private writeWhole(input: RecordInput, chunks: readonly Uint8Array[]): Promise<WrittenRecord> {
    const d = this.digestsOf(input);
    let length = 0;
    for (const c of chunks) {
      d.update(c);
      length += c.byteLength;
    }
    const { blockDigest, payloadDigest, dedupKey, status, headerText } = d.end();
    // The octets as they are now (a caller may reuse its buffer once write() has returned).
    const body = { length, memory: [Buffer.concat(chunks as Uint8Array[], length)] };
    const job = this.queue.then(() => {
      const prior = dedupKey !== null ? this.seen.get(dedupKey) : undefined;
      if (prior) return this.writeRevisit(input, prior, dedupKey!, headerText, status);
      const written =
        this.file !== null && !this.mustRoll(length) && length <= SYNC_GZIP
          ? this.putNow(input, body, blockDigest, payloadDigest, status, null)
          : this.emit(input, body, blockDigest, payloadDigest, status, null);
      if (dedupKey === null) return written;
      return Promise.resolve(written).then((w) => {
        this.seen.set(dedupKey, w);
        return w;
      });
    });
    this.queue = job.catch(() => {});
    return job;
  }

  /**
   * The digests of a record as its block passes (WARC 1.1 5.8, 5.9): the block's, the payload's
   * (an HTTP entity-body, or the block itself for a resource), and what dedup and the index need.
   */
  private digestsOf(input: RecordInput) {
    const block = new Digester(this.options.digest);
    // A payload that is the block (WARC 1.1 5.9: a resource's) takes the block's digest: one
    // hash over the octets, not two (a 50 MB FTP file was hashed twice).
    const sameAsBlock = input.payload === 'block';
    const payload = input.payload === 'http' ? new Digester(this.options.digest) : null;
    // The payload's length: an empty payload is never deduplicated (below).
    let payloadLength = 0;
    const http =
      input.payload === 'http' && payload
        ? new HttpPayload((c) => {
            payloadLength += c.byteLength;
            payload.update(c);
          })
        : null;
    const dedup = this.options.dedup && (input.type === 'response' || input.type === 'resource');
    return {
      update(chunk: Uint8Array): void {
        block.update(chunk);
        if (http) http.update(chunk);
        else if (sameAsBlock) payloadLength += chunk.byteLength;
      },
      end() {
        const blockDigest = block.label();
        const payloadDigest = sameAsBlock ? blockDigest : payload ? payload.label() : null;
        const headerText = http?.headerText ?? null;
        // Two objects with no payload (two empty files, two 204 or 304 answers) share the digest
        // of the empty string and nothing else: a revisit of one for the other would have a
        // replay give one object's headers for the other. Only a payload of at least one octet
        // is deduplicated; an empty one is written as a record of its own.
        const dedupKey = dedup && payloadLength > 0 ? payloadDigest : null;
        return {
          blockDigest,
          payloadDigest,
          dedupKey,
          headerText,
          status: headerText ? statusOf(headerText) : null,
        };
      },
    };
  }

  private async writeNow(input: RecordInput): Promise<WrittenRecord> {
    const spool = new Spool(this.options.dir, this.options.spoolLimit);
    try {
      const d = this.digestsOf(input);
      for await (const chunk of chunksOf(input.block)) {
        d.update(chunk);
        await spool.write(chunk);
      }
      const { blockDigest, payloadDigest, dedupKey, status, headerText } = d.end();
      // The payloads written are looked up and noted in the queue's turn: of two records of one
      // payload whose blocks end at once, the second is the revisit of the first.
      const job = this.queue.then(async () => {
        const prior = dedupKey !== null ? this.seen.get(dedupKey) : undefined;
        if (prior) return this.writeRevisit(input, prior, dedupKey!, headerText, status);
        const written = await this.emit(input, spoolBody(spool), blockDigest, payloadDigest, status, null);
        if (dedupKey !== null) this.seen.set(dedupKey, written);
        return written;
      });
      this.queue = job.catch(() => {});
      return await job;
    } finally {
      await spool.dispose();
    }
  }

  /** WARC 1.1 6.4: an HTTP request as sent on the connection. */
  request(targetUri: string, bytes: BlockSource, fields: Array<[string, string]> = []): Promise<WrittenRecord> {
    return this.write({
      type: 'request',
      targetUri,
      contentType: 'application/http;msgtype=request',
      block: bytes,
      fields,
    });
  }

  /**
   * WARC 1.1 6.3: an HTTP response as received on the connection (status line, header section,
   * body with its transfer coding), WARC-Payload-Digest over the entity-body.
   */
  response(targetUri: string, bytes: BlockSource, fields: Array<[string, string]> = []): Promise<WrittenRecord> {
    return this.write({
      type: 'response',
      targetUri,
      contentType: 'application/http;msgtype=response',
      block: bytes,
      payload: 'http',
      fields,
    });
  }

  /** WARC 1.1 6.5: an object retrieved whole, without protocol framing; its payload is the block. */
  resource(
    targetUri: string,
    contentType: string,
    body: BlockSource,
    fields: Array<[string, string]> = [],
  ): Promise<WrittenRecord> {
    return this.write({ type: 'resource', targetUri, contentType, block: body, payload: 'block', fields });
  }

  /** WARC 1.1 6.6: more about a record (`WARC-Concurrent-To` its id), for example the protocol exchange. */
  metadata(
    targetUri: string,
    concurrentTo: string,
    contentType: string,
    block: BlockSource,
    fields: Array<[string, string]> = [],
  ): Promise<WrittenRecord> {
    return this.write({
      type: 'metadata',
      targetUri,
      contentType,
      block,
      fields: [['WARC-Concurrent-To', concurrentTo], ...fields],
    });
  }

  /** Ends the current file (fsync, then its final name). Further writes fail with `warc-writer-closed`. */
  async close(): Promise<string[]> {
    if (this.closed) return this.files;
    this.closed = true;
    await Promise.allSettled([...this.inflight]);
    await this.queue;
    await this.finish();
    return this.files;
  }

  private async writeRevisit(
    input: RecordInput,
    prior: WrittenRecord,
    payloadDigest: string,
    headerText: string | null,
    status: number | null,
  ): Promise<WrittenRecord> {
    // WARC 1.1 6.7.2: the block may hold the header section of the HTTP response; for a resource
    // there is nothing but the payload, so the block is empty.
    const block = headerText !== null ? Buffer.concat([Buffer.from(headerText, 'latin1'), CRLF2]) : Buffer.alloc(0);
    const digest = new Digester(this.options.digest);
    digest.update(block);
    const fields: Array<[string, string]> = [
      ['WARC-Profile', REVISIT_IDENTICAL_PAYLOAD],
      ['WARC-Refers-To', prior.recordId],
      ['WARC-Refers-To-Target-URI', prior.targetUri ?? ''],
      ['WARC-Refers-To-Date', prior.date],
      ...(input.fields ?? []),
    ];
    return this.emit(
      {
        ...input,
        type: 'revisit',
        contentType: headerText !== null ? input.contentType : undefined,
        fields,
      },
      { length: block.length, memory: [block] },
      digest.label(),
      payloadDigest,
      status,
      prior.recordId,
    );
  }

  /** Whether a record of `length` octets must go to the next file (`maxSize`). */
  private mustRoll(length: number): boolean {
    return this.file !== null && this.recordsInFile > 1 && this.size + length + 1024 > this.options.maxSize;
  }

  private async emit(
    input: RecordInput,
    body: Body,
    blockDigest: string,
    payloadDigest: string | null,
    status: number | null,
    refersTo: string | null,
  ): Promise<WrittenRecord> {
    if (this.mustRoll(body.length)) await this.finish();
    if (this.file === null) await this.start();
    const memory = body.memory;
    if (memory !== null && (!this.options.gzip || body.length <= SYNC_GZIP))
      return this.putNow(input, body, blockDigest, payloadDigest, status, refersTo);
    const head = this.head(input, body, blockDigest, payloadDigest);
    const offset = this.size;
    const file = this.file!;
    try {
      if (memory !== null) {
        // A larger block held in memory: one gzip member made on zlib's thread, then written.
        const level = levelOf(middleOf(memory, body.length, SAMPLE));
        const out = await gzipAsync(Buffer.concat([head.bytes, ...memory, CRLF2]), level);
        for (let at = 0; at < out.length;) {
          const { bytesWritten } = await file.write(out, at, out.length - at, this.size + at);
          if (bytesWritten === 0) throw new Error(`no octet of the record could be written to ${this.tempPath}`);
          at += bytesWritten;
        }
        this.size += out.length;
      } else await this.stream(head.bytes, body.spool!, file);
    } catch (e) {
      // A record not written whole is not in the file: the next one starts where it started, and
      // whatever of it reached the file is cut off when the file ends (finish()).
      this.size = offset;
      throw e;
    }
    return this.written(input, body, offset, head, blockDigest, payloadDigest, status, refersTo);
  }

  /**
   * A record of at most SYNC_GZIP octets held in memory, written now: one gzip member made on this
   * thread (less than the round trip to zlib's thread costs) and one write to the open file
   * (a page-cache copy of a few KiB; a write on libuv's threads cost more than it).
   */
  private putNow(
    input: RecordInput,
    body: Body,
    blockDigest: string,
    payloadDigest: string | null,
    status: number | null,
    refersTo: string | null,
  ): WrittenRecord {
    const head = this.head(input, body, blockDigest, payloadDigest);
    const offset = this.size;
    const plain = Buffer.concat([head.bytes, ...body.memory!, CRLF2]);
    const out = this.options.gzip ? gzipSync(plain) : plain;
    for (let at = 0; at < out.length;) {
      const n = writeSync(this.file!.fd, out, at, out.length - at, this.size + at);
      if (n === 0) throw new Error(`no octet of the record could be written to ${this.tempPath}`);
      at += n;
    }
    this.size += out.length;
    return this.written(input, body, offset, head, blockDigest, payloadDigest, status, refersTo);
  }

  /** The record's header (WARC 1.1 4): version line, fields, the empty line. */
  private head(input: RecordInput, body: Body, blockDigest: string, payloadDigest: string | null): Head {
    const recordId = input.recordId ?? newRecordId();
    const date = warcDate(input.date ?? this.options.now());
    const fields: Array<[string, string]> = [
      ['WARC-Type', input.type],
      ['WARC-Record-ID', recordId],
      ['WARC-Date', date],
    ];
    if (input.targetUri !== undefined) fields.push(['WARC-Target-URI', input.targetUri]);
    // WARC 1.1 5.13: the warcinfo record of the file, on every other record (as wget writes it),
    // so that a record copied out of its file (an extract by index, a merged collection) still
    // names the crawl that made it: software, options, robots policy, operator.
    if (input.type !== 'warcinfo' && this.warcinfoId !== null) fields.push(['WARC-Warcinfo-ID', this.warcinfoId]);
    fields.push(...(input.fields ?? []));
    if (body.length > 0 && input.contentType) fields.push(['Content-Type', input.contentType]);
    fields.push(['WARC-Block-Digest', blockDigest]);
    if (payloadDigest !== null) fields.push(['WARC-Payload-Digest', payloadDigest]);
    fields.push(['Content-Length', String(body.length)]);
    return { bytes: Buffer.from(`WARC/1.1\r\n${warcFields(fields)}\r\n`, 'utf8'), recordId, date };
  }

  /** What a record written at `offset` (up to this.size) holds, for the index and a revisit. */
  private written(
    input: RecordInput,
    body: Body,
    offset: number,
    head: Head,
    blockDigest: string,
    payloadDigest: string | null,
    status: number | null,
    refersTo: string | null,
  ): WrittenRecord {
    this.recordsInFile++;
    return {
      type: input.type,
      recordId: head.recordId,
      filename: this.finalName,
      offset,
      length: this.size - offset,
      date: head.date,
      targetUri: input.targetUri ?? null,
      contentType: body.length > 0 ? (input.contentType ?? null) : null,
      blockDigest,
      payloadDigest,
      status,
      refersTo,
    };
  }

  /** Writes a record whose block spilled to a file: header, block and end streamed through gzip. */
  private async stream(head: Buffer, spool: Spool, file: FileHandle): Promise<void> {
    async function* record(): AsyncIterable<Uint8Array> {
      yield head;
      yield* spool.read();
      yield CRLF2;
    }
    const source = Readable.from(record());
    let out: Readable = source;
    if (this.options.gzip) {
      const gzip = createGzip({ level: levelOf(await spool.slice(Math.floor((spool.length - SAMPLE) / 2), SAMPLE)) });
      source.on('error', (e) => gzip.destroy(e));
      out = source.pipe(gzip);
    }
    for await (const chunk of out as AsyncIterable<Buffer>) {
      await file.write(chunk, 0, chunk.length, this.size);
      this.size += chunk.length;
    }
  }

  /** Opens the next file under a temporary name and writes its warcinfo record (WARC 1.1 6.2). */
  private async start(): Promise<void> {
    const o = this.options;
    const ext = o.gzip ? '.warc.gz' : '.warc';
    this.serial++;
    this.finalName = `${o.prefix}-${stamp(o.now())}-${String(this.serial).padStart(5, '0')}${ext}`;
    this.tempPath = join(o.dir, `${this.finalName}.${randomBytes(6).toString('hex')}.open`);
    this.file = await open(this.tempPath, 'wx', 0o644);
    this.size = 0;
    this.recordsInFile = 0;
    this.warcinfoId = null;
    const info: Array<[string, string]> = [
      ['software', o.software],
      ['format', 'WARC File Format 1.1'],
      ['conformsTo', 'http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/'],
      ['hostname', hostname()],
      ...Object.entries(o.info),
    ];
    const block = Buffer.from(warcFields(info), 'utf8');
    const digest = new Digester(o.digest);
    digest.update(block);
    const warcinfo = this.putNow(
      {
        type: 'warcinfo',
        contentType: 'application/warc-fields',
        block,
        fields: [['WARC-Filename', this.finalName]],
      },
      { length: block.length, memory: [block] },
      digest.label(),
      null,
      null,
      null,
    );
    this.warcinfoId = warcinfo.recordId;
  }

  /** Ends the current file: fsync, close, then its final name (never over an existing file). */
  private async finish(): Promise<void> {
    if (this.file === null) return;
    const file = this.file;
    this.file = null;
    // Octets past the last whole record (a record whose write failed part of the way) are cut off.
    await file.truncate(this.size);
    await file.sync();
    await file.close();
    const final = join(this.options.dir, this.finalName);
    try {
      await link(this.tempPath, final);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST')
        throw new LocatorError(
          WARC_NAME_TAKEN,
          -1,
          `${final} exists already; the records are kept in ${this.tempPath}`,
        );
      throw e;
    }
    await unlink(this.tempPath);
    this.files.push(basename(final));
  }
}

/** RFC 2616 6.1: the status code of a response's status line; null for a request or HTTP/0.9. */
function statusOf(head: string): number | null {
  const m = /^HTTP\/\d+\.\d+\s+(\d{3})/.exec(head);
  return m ? Number(m[1]) : null;
}

/** A record's block: its length, and its chunks when held in memory, else the spool it spilled to. */
interface Body {
  length: number;
  memory: readonly Uint8Array[] | null;
  spool?: Spool;
}

/** A record's header as written, with the id and date it gave the record. */
interface Head {
  bytes: Buffer;
  recordId: string;
  date: string;
}

function spoolBody(spool: Spool): Body {
  return { length: spool.length, memory: spool.inMemory, spool };
}

/** The chunks of a block given whole (octets, a string, a list of chunks); null for a stream or past `most` octets. */
function wholeOf(block: BlockSource, most: number): readonly Uint8Array[] | null {
  let list: readonly Uint8Array[];
  if (typeof block === 'string') list = [Buffer.from(block, 'utf8')];
  else if (block instanceof Uint8Array) list = [block];
  else if (Array.isArray(block)) list = block as readonly Uint8Array[];
  else return null;
  let size = 0;
  for (const c of list) size += c.byteLength;
  return size > most ? null : list;
}
