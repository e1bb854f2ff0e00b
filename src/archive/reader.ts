// The WARC reader: the records of a .warc or .warc.gz file (WARC/1.0 as wget writes it, and 1.1),
// streamed, each with its header fields, its block as a stream, its offset and length in the file
// (a gzip member's, for a compressed file: WARC 1.1 Annex D.2) and the check of its block and
// payload digests once the block has been read.

import { open, type FileHandle } from 'node:fs/promises';
import { createHash, type Hash } from 'node:crypto';
import { defineCode, LocatorError } from '../core/errors.js';
import { base32, HttpPayload, parseDigest } from './digest.js';
import { inflateMember, isGzip, readAt, WARC_BAD_GZIP } from './gzip.js';

export const WARC_BAD_RECORD = defineCode(
  'warc-bad-record',
  'error',
  'WARC 1.1 4',
  'a WARC record is malformed (no WARC/ version line, a field line without a colon, no Content-Length)',
  'protocol',
);

/** The outcome of a digest check: true it matches, false it does not, null no digest to check. */
export type DigestCheck = boolean | null;

/** What is known of a record once its block has been read. */
export interface RecordEnd {
  /** Octets of the record in the file (its gzip member for a compressed file). */
  length: number;
  blockDigest: DigestCheck;
  payloadDigest: DigestCheck;
  /**
   * What the payload digest was found to cover: `entity` the entity-body (WARC 1.1 5.9), `chunked`
   * the body with its chunk framing (wget 1.21, warcio and wpull write that: warcio issue 74,
   * wpull issue 424); null when not checked or wrong.
   */
  payloadCovers: 'entity' | 'chunked' | null;
  /** The block's payload digest as computed here (`sha1:BASE32`), for an index; null without one. */
  payloadLabel: string | null;
}

export interface WarcRecord {
  /** `WARC/1.0` or `WARC/1.1`. */
  version: string;
  /** Offset of the record in the file (its gzip member's, for a compressed file). */
  offset: number;
  /** The header fields in order, names as written. */
  fields: Array<[string, string]>;
  /** The first value of a field, its name compared without case; null when absent. */
  get(name: string): string | null;
  type: string;
  /** WARC-Target-URI, without the angle brackets WARC/1.0's grammar showed (and some writers wrote). */
  targetUri: string | null;
  contentLength: number;
  /** The block, once: read it whole or not at all (end() skips what is left). */
  block: AsyncIterable<Buffer>;
  /** Reads what is left of the block, then gives the length and the digest checks. */
  end(): Promise<RecordEnd>;
}

/** A damaged part of a file that readWarc() went past (ReadOptions.onDamage). */
export interface ReadDamage {
  /** What was wrong where the damage starts (`warc-truncated`, `warc-bad-gzip`, `warc-bad-record`; its offset). */
  error: LocatorError;
  /** Where reading went on: the offset of the next record read whole; null when none followed. */
  next: number | null;
}

export interface ReadOptions {
  /** Check WARC-Block-Digest and WARC-Payload-Digest while the blocks stream (default true). */
  verify?: boolean;
  /**
   * Go past damage instead of throwing at it: a damaged or torn gzip member, octets that are no
   * member, a malformed record or one cut short are given here, once per damaged stretch (with
   * where reading went on), and the records after it are read: the next gzip member found (its
   * magic number, RFC 1952 2.3.1, that inflates to a record), or in a plain file the next line
   * that starts with `WARC/`. Without it the first damage throws (what a resume needs: it cuts
   * the file there).
   */
  onDamage?: (damage: ReadDamage) => void;
}

const MAX_HEAD = 1 << 20;

/** A pull reader over chunks: lines up to a delimiter, then counted octets. */
class Pull {
  private buf: Buffer = Buffer.alloc(0);
  private done = false;
  /** Octets taken out of the source so far. */
  taken = 0;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async more(): Promise<boolean> {
    if (this.done) return false;
    const r = await this.source.next();
    if (r.done) {
      this.done = true;
      return false;
    }
    this.buf = this.buf.length === 0 ? r.value : Buffer.concat([this.buf, r.value]);
    return true;
  }

  /** Skips CR and LF; false at the end of the source. */
  async skipBlankLines(): Promise<boolean> {
    for (;;) {
      let i = 0;
      while (i < this.buf.length && (this.buf[i] === 13 || this.buf[i] === 10)) i++;
      this.consume(i);
      if (this.buf.length > 0) return true;
      if (!(await this.more())) return false;
    }
  }

  /** The octets up to and including `delim`; null when the source ends first. */
  async until(delim: Buffer, max: number): Promise<Buffer | null> {
    for (;;) {
      const i = this.buf.indexOf(delim);
      if (i >= 0) {
        const line = this.buf.subarray(0, i + delim.length);
        this.consume(i + delim.length);
        return line;
      }
      if (this.buf.length > max) return null;
      if (!(await this.more())) return null;
    }
  }

  /** Up to n octets (at least one); null when the source has ended. */
  async some(n: number): Promise<Buffer | null> {
    if (this.buf.length === 0 && !(await this.more())) return null;
    const k = Math.min(n, this.buf.length);
    const c = this.buf.subarray(0, k);
    this.consume(k);
    return c;
  }

  private consume(n: number): void {
    this.buf = this.buf.subarray(n);
    this.taken += n;
  }

  /** Octets read from the source but not taken. */
  get pending(): number {
    return this.buf.length;
  }
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * WARC 1.1 4: the version line and the named fields of a record's header (the octets up to its
 * blank line); `warc-bad-record` naming `offset` when it has no version line or a field line has
 * no colon. Continuation lines (a leading space or tab) are joined to the field before.
 */
export function parseHead(head: Buffer, offset: number): { version: string; fields: Array<[string, string]> } {
  const text = head.toString('utf8');
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const version = lines.shift() ?? '';
  if (!/^WARC\/\d+\.\d+$/.test(version))
    throw new LocatorError(WARC_BAD_RECORD, offset, `no WARC/ version line at offset ${offset}`);
  const fields: Array<[string, string]> = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && fields.length > 0) {
      fields[fields.length - 1][1] += ' ' + line.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0)
      throw new LocatorError(WARC_BAD_RECORD, offset, `a field line without a colon at offset ${offset}: ${line}`);
    fields.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return { version, fields };
}

function hashFor(field: string | null): { hash: Hash; field: string } | null {
  if (field === null) return null;
  try {
    const { algorithm } = parseDigest(field);
    return { hash: createHash(algorithm), field };
  } catch {
    return null;
  }
}

function matches(h: { hash: Hash; field: string } | null): DigestCheck {
  if (h === null) return null;
  return Buffer.from(parseDigest(h.field).bytes).equals(h.hash.digest());
}

/**
 * ISO 28500 (WARC 1.1) section 4: the records of the file at `path`, in order. Each record's
 * block is streamed; the next record is read only after the block (what the caller did not read
 * is skipped). Throws `warc-truncated` or `warc-bad-gzip` for a damaged gzip member and
 * `warc-bad-record` for a malformed record, with the offset of where it starts, unless
 * `options.onDamage` is given: then the damage is reported there and skipped.
 */
export async function* readWarc(path: string, options: ReadOptions = {}): AsyncGenerator<WarcRecord> {
  const verify = options.verify ?? true;
  const onDamage = options.onDamage;
  const fh = await open(path, 'r');
  // The damage not reported yet: it is, with where reading went on, once a record after it has
  // been read whole (a stretch of damage gives one report, not one per false start in it).
  let lost: LocatorError | null = null;
  const found = (next: number | null) => {
    if (lost !== null) onDamage!({ error: lost, next });
    lost = null;
  };
  /** The damage `e`, thrown, or kept for its report when damage is skipped. */
  const damaged = (e: unknown): void => {
    if (onDamage === undefined || !(e instanceof LocatorError)) throw e;
    lost ??= e;
  };
  try {
    const size = (await fh.stat()).size;
    if (await isGzip(fh)) {
      for (let pos = 0; pos < size;) {
        const memberStart = pos;
        let end = -1;
        try {
          // Some writers pad the file after the last member (zeros): nothing more to read. Other
          // octets where a member should start are damage, which would hide the members after it.
          const peek = await readAt(fh, pos, 2);
          if (peek[0] !== 0x1f || peek[1] !== 0x8b) {
            if (await zerosFrom(fh, pos, size)) break;
            throw new LocatorError(WARC_BAD_GZIP, pos, `no gzip member at offset ${pos}, and the file goes on`);
          }
          const member = inflateMember(fh, pos, size);
          const source: AsyncIterator<Buffer> = {
            next: async () => {
              const r = await member.next();
              if (r.done) {
                end = r.value.end;
                return { done: true, value: undefined };
              }
              return r;
            },
          };
          const pull = new Pull(source);
          // The length of a record is its member's, once the member has been read to its end; a
          // record that shares its member with others (a whole file gzipped at once, against WARC
          // 1.1 D.2's advice) has length 0: it cannot be reached by offset alone.
          const complete = async () => ((await pull.skipBlankLines()) ? 0 : end - memberStart);
          while (await pull.skipBlankLines()) {
            const record = await recordAt(pull, memberStart, verify, complete);
            yield record;
            await record.end();
            found(memberStart);
          }
          pos = end;
        } catch (e) {
          damaged(e);
          // A record cut short in a member read whole: the next member is where this one ended.
          const next = end >= 0 ? end : await nextAt(fh, GZIP_MAGIC, memberStart + 1, size);
          if (next === null) break;
          pos = next;
        }
      }
    } else {
      for (let from = 0; from !== -1;) {
        const buf = Buffer.alloc(1 << 16);
        let pos = from;
        const source: AsyncIterator<Buffer> = {
          next: async () => {
            const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
            if (bytesRead === 0) return { done: true, value: undefined };
            pos += bytesRead;
            return { done: false, value: Buffer.from(buf.subarray(0, bytesRead)) };
          },
        };
        const pull = new Pull(source);
        let start = from;
        try {
          while (await pull.skipBlankLines()) {
            const begun = pull.taken;
            start = from + begun;
            // A plain file: the record runs to the CR LF CR LF after its block (WARC 1.1 4) and any
            // blank lines after it (tolerated when missing, as some writers leave them out).
            const complete = async () => {
              await pull.skipBlankLines();
              return pull.taken - begun;
            };
            const record = await recordAt(pull, start, verify, complete);
            yield record;
            await record.end();
            found(start);
          }
          from = -1;
        } catch (e) {
          damaged(e);
          // The next record: a line that starts with the version of one.
          const next = await nextAt(fh, LINE_WARC, start + 1, size);
          from = next === null ? -1 : next + 1;
        }
      }
    }
    found(null);
  } finally {
    await fh.close();
  }
}

/** RFC 1952 2.3.1: ID1, ID2 and CM 8 (deflate), how a gzip member starts. */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 8]);
/** WARC 1.1 4: a record's version line, after the line before it. */
const LINE_WARC = Buffer.from('\nWARC/');

/** The offset of the first `what` in the file at or after `from`; null when there is none. */
async function nextAt(fh: FileHandle, what: Buffer, from: number, size: number): Promise<number | null> {
  const step = 1 << 16;
  for (let at = from; at < size; at += step) {
    // Each read takes the octets before it too, so that a match across two reads is found.
    const b = await readAt(fh, at, Math.min(step + what.length - 1, size - at));
    const i = b.indexOf(what);
    if (i >= 0) return at + i;
  }
  return null;
}

/** True when the octets of the file from `pos` to its end are all zeros (the padding of some writers). */
async function zerosFrom(fh: FileHandle, pos: number, size: number): Promise<boolean> {
  for (let at = pos; at < size;) {
    const b = await readAt(fh, at, Math.min(1 << 16, size - at));
    if (b.length === 0) return true;
    for (const o of b) if (o !== 0) return false;
    at += b.length;
  }
  return true;
}

async function recordAt(
  pull: Pull,
  offset: number,
  verify: boolean,
  complete: () => Promise<number>,
): Promise<WarcRecord> {
  const head = await pull.until(HEAD_END, MAX_HEAD);
  if (head === null) throw new LocatorError(WARC_BAD_RECORD, offset, `a WARC header with no end at offset ${offset}`);
  const { version, fields } = parseHead(head, offset);
  const get = (name: string): string | null => {
    const n = name.toLowerCase();
    for (const [k, v] of fields) if (k.toLowerCase() === n) return v;
    return null;
  };
  const lengthField = get('Content-Length');
  if (lengthField === null || !/^\d+$/.test(lengthField))
    throw new LocatorError(WARC_BAD_RECORD, offset, `no Content-Length in the record at offset ${offset}`);
  const contentLength = Number(lengthField);
  const type = get('WARC-Type') ?? '';
  const blockHash = verify ? hashFor(get('WARC-Block-Digest')) : null;
  const payloadHash = verify && type !== 'revisit' ? hashFor(get('WARC-Payload-Digest')) : null;
  // The payload digest as computed here, for an index: sha1 unless the record names another.
  const payloadOwn = createHash(payloadHash ? parseDigest(payloadHash.field).algorithm : 'sha1');
  const isHttp = /^application\/http/i.test(get('Content-Type') ?? '');
  const hasPayload = type === 'response' || type === 'resource' || type === 'request' || type === 'conversion';
  const toPayload = (c: Uint8Array) => {
    payloadHash?.hash.update(c);
    payloadOwn.update(c);
  };
  // DEVIATION: WARC 1.1 5.9 makes the payload of a chunked response its entity-body, but wget
  // 1.21 (Debian's), warcio and wpull digest the body with its chunk framing. A reader that
  // called their records wrong would call most WARC files of the field wrong: the digest is
  // checked against both readings, and payloadCovers says which one it matched.
  const rawHash = payloadHash ? createHash(parseDigest(payloadHash.field).algorithm) : null;
  const http = isHttp ? new HttpPayload(toPayload, (c) => rawHash?.update(c)) : null;
  let left = contentLength;
  // The block's next piece, through the digests; null at its end. A caller that stops reading
  // early (break) leaves the rest for end() to skip: the iterator's return() closes nothing.
  // A read that failed fails again with the same error (end() after a caller's failed read, or a
  // read after a failed end(), names the damage, not a source that has since ended).
  let failure: unknown = null;
  const piece = async (): Promise<Buffer | null> => {
    if (failure !== null) throw failure;
    try {
      return await nextPiece();
    } catch (e) {
      failure = e;
      throw e;
    }
  };
  const nextPiece = async (): Promise<Buffer | null> => {
    if (left === 0) return null;
    const c = await pull.some(left);
    if (c === null)
      throw new LocatorError(
        WARC_BAD_RECORD,
        offset,
        `the record at offset ${offset} ends after ${contentLength - left} of its ${contentLength} octets`,
      );
    left -= c.length;
    blockHash?.hash.update(c);
    if (hasPayload) {
      if (http) http.update(c);
      else toPayload(c);
    }
    return c;
  };
  const iterable: AsyncIterable<Buffer> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const c = await piece();
        return c === null ? { done: true, value: undefined } : { done: false, value: c };
      },
      return: async () => ({ done: true, value: undefined }),
    }),
  };
  let endValue: Promise<RecordEnd> | null = null;
  const finish = async (): Promise<RecordEnd> => {
    while ((await piece()) !== null);
    const length = await complete();
    const payloadOk = hasPayload && (http === null || http.ended);
    let payloadDigest: DigestCheck = payloadHash !== null && !payloadOk ? false : matches(payloadHash);
    let payloadCovers: RecordEnd['payloadCovers'] = payloadDigest ? 'entity' : null;
    if (payloadDigest === false && http?.isChunked && rawHash && payloadHash) {
      payloadDigest = Buffer.from(parseDigest(payloadHash.field).bytes).equals(rawHash.digest());
      if (payloadDigest) payloadCovers = 'chunked';
    }
    return {
      length,
      blockDigest: matches(blockHash),
      payloadDigest,
      payloadCovers,
      payloadLabel: payloadOk ? labelOf(payloadOwn) : null,
    };
  };
  return {
    version,
    offset,
    fields,
    get,
    type,
    targetUri: get('WARC-Target-URI')?.replace(/^<(.*)>$/, '$1') ?? null,
    contentLength,
    block: iterable,
    end() {
      endValue ??= finish();
      return endValue;
    },
  };
}

function labelOf(hash: Hash): string {
  const bytes = hash.digest();
  const alg = bytes.length === 32 ? 'sha256' : bytes.length === 16 ? 'md5' : 'sha1';
  return `${alg}:${base32(bytes)}`;
}
