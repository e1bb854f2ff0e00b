// Digests of WARC blocks and payloads (ISO 28500:2017, WARC 1.1 sections 5.8 and 5.9), computed
// while the bytes stream past, and the payload of an `application/http` block: its entity-body,
// the octets after the header section with the transfer coding (chunked) removed and any content
// coding kept (WARC 1.1 5.9: "the payload of an application/http block is its 'entity-body'
// (per [RFC2616])"; RFC 2616 4.3 and 7.2: the entity-body is the message-body with the transfer
// coding decoded). The IIPC settled the reading in warc-specifications issue 22; wget-lua and
// Heritrix digest the de-chunked body the same way.

import { createHash, type Hash } from 'node:crypto';
import { defineCode, LocatorError } from '../core/errors.js';

/** The algorithms a digest may name: sha1 (what wget, Heritrix and warcio write) and sha256. */
export type DigestAlgorithm = 'sha1' | 'sha256';

export const WARC_BAD_DIGEST = defineCode(
  'warc-bad-digest',
  'error',
  'WARC 1.1 5.8',
  'a WARC-Block-Digest or WARC-Payload-Digest does not name sha1, sha256 or md5 with a base32 or base16 value',
  'usage',
);

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 6: base32 with padding, as `sha1:` labels write it (a SHA-1 gives 32 characters). */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

/** RFC 4648 6: the octets of a base32 text (padding optional, case ignored); null when not base32. */
export function fromBase32(text: string): Uint8Array | null {
  const s = text.replace(/=+$/, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of s) {
    const v = BASE32.indexOf(c);
    if (v < 0) return null;
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** A digest computed as chunks pass; `label()` gives the WARC field value `sha1:BASE32`. */
export class Digester {
  readonly algorithm: DigestAlgorithm;
  private readonly hash: Hash;

  constructor(algorithm: DigestAlgorithm) {
    this.algorithm = algorithm;
    this.hash = createHash(algorithm);
  }

  update(chunk: Uint8Array): void {
    this.hash.update(chunk);
  }

  /** WARC 1.1 5.8: `algorithm ":" digest-value`, the value in base32 as the field's tools write it. */
  label(): string {
    return `${this.algorithm}:${base32(this.hash.digest())}`;
  }
}

/**
 * WARC 1.1 5.8: reads a digest field (`sha1:BASE32`, also base16 and the md5 some tools write) so
 * that a reader can recompute it; throws `warc-bad-digest` for anything else.
 */
export function parseDigest(field: string): { algorithm: 'sha1' | 'sha256' | 'md5'; bytes: Uint8Array } {
  const colon = field.indexOf(':');
  const name = field.slice(0, colon).trim().toLowerCase().replace('-', '');
  const value = field.slice(colon + 1).trim();
  const size = name === 'sha1' ? 20 : name === 'sha256' ? 32 : name === 'md5' ? 16 : 0;
  if (colon < 0 || size === 0) throw new LocatorError(WARC_BAD_DIGEST, -1, `unknown digest ${JSON.stringify(field)}`);
  let bytes: Uint8Array | null = null;
  if (/^[0-9a-f]+$/i.test(value) && value.length === size * 2) bytes = Buffer.from(value, 'hex');
  else bytes = fromBase32(value);
  if (bytes === null || bytes.length !== size)
    throw new LocatorError(WARC_BAD_DIGEST, -1, `digest value ${JSON.stringify(field)} is not base32 or base16`);
  return { algorithm: name as 'sha1' | 'sha256' | 'md5', bytes };
}

/** True when `field` (a WARC digest field value) is the digest of what `digest` was given. */
export function digestMatches(field: string, hashed: Uint8Array): boolean {
  return Buffer.from(parseDigest(field).bytes).equals(Buffer.from(hashed));
}

const CRLF2 = Buffer.from('\r\n\r\n');
/** The longest header section read (as the WARC reader's own): one longer is no HTTP message read here. */
const MAX_HTTP_HEAD = 1 << 20;
/** The longest chunk-size line (RFC 9112 7.1: the size, its extensions): a longer one breaks the body. */
const MAX_CHUNK_LINE = 64 * 1024;

/**
 * The entity-body of an HTTP message (RFC 2616 4.3), pulled out of its bytes as they stream:
 * the header section is skipped (to CR LF CR LF; a bare LF LF is taken too, as readers of the
 * field do), then the body goes to `sink` as received, or de-chunked when the header section
 * names `Transfer-Encoding: chunked` (RFC 2616 3.6.1; chunk extensions and trailers skipped).
 * `ended` is false when the message stopped inside the header section or a chunk, and stays
 * false once the header section runs past 1 MiB or a chunk-size line past 64 KiB (`broken`):
 * the rest of the message is not parsed, so a hostile block takes neither memory nor time.
 */
export class HttpPayload {
  private head: Buffer[] = [];
  private headSize = 0;
  private inBody = false;
  private chunked = false;
  /** Chunked state: octets left in the current chunk, or -1 when a size line is awaited. */
  private left = -1;
  private line = '';
  private afterChunk = 0; // CR LF after chunk data still to skip
  private done = false;
  /** True once the header section or a chunk-size line ran past its limit: nothing more is read. */
  broken = false;
  /** The header section, once read. */
  headerText: string | null = null;

  /**
   * `sink` gets the entity-body; `raw`, when given, the body as it came (chunk framing kept), for
   * a reader that meets the digests of writers that hash that (see reader.ts).
   */
  constructor(
    private readonly sink: (chunk: Uint8Array) => void,
    private readonly raw?: (chunk: Uint8Array) => void,
  ) {}

  /** Feeds the next octets of the message. */
  update(chunk: Uint8Array): void {
    if (this.broken) return;
    let buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!this.inBody) {
      // The end is looked for in the new octets only (and the three before them).
      const from = Math.max(0, this.headSize - 3);
      this.head.push(buf);
      this.headSize += buf.length;
      const all = Buffer.concat(this.head, this.headSize);
      let end = all.indexOf(CRLF2, from);
      let skip = 4;
      const lf = all.indexOf('\n\n', from);
      if (lf >= 0 && (end < 0 || lf < end)) {
        end = lf;
        skip = 2;
      }
      if (end < 0 || end > MAX_HTTP_HEAD) {
        this.head = [all];
        if (this.headSize > MAX_HTTP_HEAD) {
          this.broken = true;
          this.head = [];
        }
        return;
      }
      this.inBody = true;
      this.headerText = all.subarray(0, end).toString('latin1');
      this.chunked = /^transfer-encoding:[^\r\n]*\bchunked\b/im.test(this.headerText);
      this.head = [];
      buf = all.subarray(end + skip);
    }
    if (buf.length === 0) return;
    this.raw?.(buf);
    if (!this.chunked) {
      this.sink(buf);
      return;
    }
    this.dechunk(buf);
  }

  private dechunk(buf: Buffer): void {
    let i = 0;
    while (i < buf.length && !this.done) {
      if (this.afterChunk > 0) {
        i++;
        this.afterChunk--;
        continue;
      }
      if (this.left > 0) {
        const n = Math.min(this.left, buf.length - i);
        this.sink(buf.subarray(i, i + n));
        i += n;
        this.left -= n;
        if (this.left === 0) {
          this.left = -1;
          this.afterChunk = 2;
        }
        continue;
      }
      // A size line (hex size, optional extensions), up to LF.
      const lf = buf.indexOf(10, i);
      this.line += buf.subarray(i, lf < 0 ? buf.length : lf).toString('latin1');
      if (this.line.length > MAX_CHUNK_LINE) {
        this.broken = true;
        this.line = '';
        return;
      }
      if (lf < 0) return;
      i = lf + 1;
      const size = parseInt(this.line.split(';')[0].trim(), 16);
      this.line = '';
      if (Number.isNaN(size)) continue; // a blank line before the size: tolerated
      if (size === 0) this.done = true;
      else this.left = size;
    }
  }

  /** True when the header section names the chunked transfer coding. */
  get isChunked(): boolean {
    return this.chunked;
  }

  /** True when the header section was complete and, if chunked, the last chunk was read. */
  get ended(): boolean {
    return this.inBody && (!this.chunked || this.done);
  }
}
