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

import { open, link, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { createGzip, gzip, gzipSync } from 'node:zlib';
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
function gzipAsync(plain: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => gzip(plain, (e, out) => (e === null ? resolve(out) : reject(e))));
}
/** Records up to this many octets are compressed on the calling thread (a millisecond at most). */
const SYNC_GZIP = 64 * 1024;

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
  async write(input: RecordInput): Promise<WrittenRecord> {
    if (this.closed) throw new LocatorError(WARC_WRITER_CLOSED, -1);
    const p = this.writeNow(input);
    this.inflight.add(p);
    try {
      return await p;
    } finally {
      this.inflight.delete(p);
    }
  }

  private async writeNow(input: RecordInput): Promise<WrittenRecord> {
    const spool = new Spool(this.options.dir, this.options.spoolLimit);
    try {
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
      for await (const chunk of chunksOf(input.block)) {
        block.update(chunk);
        if (http) http.update(chunk);
        else if (sameAsBlock) payloadLength += chunk.byteLength;
        await spool.write(chunk);
      }
      const blockDigest = block.label();
      const payloadDigest = sameAsBlock ? blockDigest : payload ? payload.label() : null;
      const status = http?.headerText ? statusOf(http.headerText) : null;
      // Two objects with no payload (two empty files, two 204 or 304 answers) share the digest of
      // the empty string and nothing else: a revisit of one for the other would have a replay
      // give one object's headers for the other. Only a payload of at least one octet is
      // deduplicated; an empty one is written as a record of its own.
      const dedupKey =
        this.options.dedup && payloadLength > 0 && (input.type === 'response' || input.type === 'resource')
          ? payloadDigest
          : null;
      // The payloads written are looked up and noted in the queue's turn: of two records of one
      // payload whose blocks end at once, the second is the revisit of the first.
      const job = this.queue.then(async () => {
        const prior = dedupKey !== null ? this.seen.get(dedupKey) : undefined;
        if (prior) return this.writeRevisit(input, prior, dedupKey!, http?.headerText ?? null, status);
        const written = await this.emit(input, spool, blockDigest, payloadDigest, status, null);
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
    const spool = new Spool(this.options.dir, this.options.spoolLimit);
    await spool.write(block);
    const digest = new Digester(this.options.digest);
    digest.update(block);
    const fields: Array<[string, string]> = [
      ['WARC-Profile', REVISIT_IDENTICAL_PAYLOAD],
      ['WARC-Refers-To', prior.recordId],
      ['WARC-Refers-To-Target-URI', prior.targetUri ?? ''],
      ['WARC-Refers-To-Date', prior.date],
      ...(input.fields ?? []),
    ];
    try {
      return await this.emit(
        {
          ...input,
          type: 'revisit',
          contentType: headerText !== null ? input.contentType : undefined,
          fields,
        },
        spool,
        digest.label(),
        payloadDigest,
        status,
        prior.recordId,
      );
    } finally {
      await spool.dispose();
    }
  }

  private async emit(
    input: RecordInput,
    spool: Spool,
    blockDigest: string,
    payloadDigest: string | null,
    status: number | null,
    refersTo: string | null,
  ): Promise<WrittenRecord> {
    if (this.file !== null && this.recordsInFile > 1 && this.size + spool.length + 1024 > this.options.maxSize)
      await this.finish();
    if (this.file === null) await this.start();
    return this.put(input, spool, blockDigest, payloadDigest, status, refersTo);
  }

  private async put(
    input: RecordInput,
    spool: Spool,
    blockDigest: string,
    payloadDigest: string | null,
    status: number | null,
    refersTo: string | null,
  ): Promise<WrittenRecord> {
    const recordId = newRecordId();
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
    if (spool.length > 0 && input.contentType) fields.push(['Content-Type', input.contentType]);
    fields.push(['WARC-Block-Digest', blockDigest]);
    if (payloadDigest !== null) fields.push(['WARC-Payload-Digest', payloadDigest]);
    fields.push(['Content-Length', String(spool.length)]);
    const head = Buffer.from(`WARC/1.1\r\n${warcFields(fields)}\r\n`, 'utf8');
    const offset = this.size;
    const file = this.file!;
    const memory = spool.inMemory;
    if (memory !== null) {
      // A block held in memory goes out as one gzip member made at once and one write: under
      // SYNC_GZIP octets on this thread (less than the round trip to zlib's thread costs), else
      // on zlib's thread.
      const plain = Buffer.concat([head, ...memory, CRLF2]);
      const out = !this.options.gzip ? plain : plain.length <= SYNC_GZIP ? gzipSync(plain) : await gzipAsync(plain);
      await file.write(out, 0, out.length, this.size);
      this.size += out.length;
    } else await this.stream(head, spool, file);
    this.recordsInFile++;
    return {
      type: input.type,
      recordId,
      filename: this.finalName,
      offset,
      length: this.size - offset,
      date,
      targetUri: input.targetUri ?? null,
      contentType: spool.length > 0 ? (input.contentType ?? null) : null,
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
      const gzip = createGzip();
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
    const spool = new Spool(o.dir, o.spoolLimit);
    await spool.write(block);
    const digest = new Digester(o.digest);
    digest.update(block);
    const warcinfo = await this.put(
      {
        type: 'warcinfo',
        contentType: 'application/warc-fields',
        block,
        fields: [['WARC-Filename', this.finalName]],
      },
      spool,
      digest.label(),
      null,
      null,
      null,
    );
    await spool.dispose();
    this.warcinfoId = warcinfo.recordId;
  }

  /** Ends the current file: fsync, close, then its final name (never over an existing file). */
  private async finish(): Promise<void> {
    if (this.file === null) return;
    const file = this.file;
    this.file = null;
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
