// Reading a WARC file with a reader locator does not use to write (webrecorder's warcio, npm),
// and recomputing every record's block and payload digest here, without src/archive/: the
// digest is sha1 or sha256 in base32 (WARC 1.1 5.8), the payload of an application/http block
// is its entity-body (the octets after the header section, the chunked transfer coding removed:
// WARC 1.1 5.9, RFC 2616 4.3), of a resource the whole block.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { connect } from 'node:net';
import { WARCParser } from 'warcio';

export interface PeerRecord {
  type: string;
  targetUri: string | null;
  fields: Map<string, string>;
  block: Buffer;
  offset: number;
  length: number;
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** RFC 4648 6, written again here so the check shares no code with the writer. */
export function b32(bytes: Uint8Array): string {
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += B32[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

export function digestOf(label: string, data: Uint8Array): string {
  const alg = label.split(':')[0];
  return `${alg}:${b32(createHash(alg).update(data).digest())}`;
}

/** RFC 2616 3.6.1: the chunked coding removed, the whole body at once. */
export function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let i = 0;
  for (;;) {
    const lf = body.indexOf('\n', i);
    assert.ok(lf >= 0, 'a chunk size line');
    const size = parseInt(body.subarray(i, lf).toString('latin1').split(';')[0].trim(), 16);
    i = lf + 1;
    if (size === 0) return Buffer.concat(parts);
    parts.push(body.subarray(i, i + size));
    i += size + 2;
  }
}

/** The entity-body of an HTTP message's octets. */
export function entityOf(message: Buffer): Buffer {
  const end = message.indexOf('\r\n\r\n');
  assert.ok(end >= 0, 'an HTTP header section');
  const head = message.subarray(0, end).toString('latin1');
  const body = message.subarray(end + 4);
  return /^transfer-encoding:.*chunked/im.test(head) ? dechunk(body) : body;
}

/**
 * Every record of the file as warcio reads it (the HTTP part left unparsed, so the block is the
 * block), with warcio's offset and length of each.
 */
export async function warcioRecords(path: string): Promise<PeerRecord[]> {
  const parser = new WARCParser(createReadStream(path), { parseHttp: false, keepHeadersCase: true });
  const out: PeerRecord[] = [];
  for await (const record of parser) {
    const block = Buffer.from(await record.readFully(false));
    const fields = new Map<string, string>();
    for (const [k, v] of record.warcHeaders.headers as Map<string, string>) fields.set(k.toLowerCase(), v);
    out.push({
      type: record.warcType ?? '',
      targetUri: record.warcTargetURI ?? null,
      fields,
      block,
      // As warcio's own indexer reads them: once the record has been read whole.
      offset: parser.offset,
      length: parser.recordLength,
    });
  }
  return out;
}

/**
 * Asserts that every record warcio reads has a block digest and, where it has a payload digest,
 * the right one, both computed here. Returns the records.
 */
export async function assertDigests(path: string): Promise<PeerRecord[]> {
  const records = await warcioRecords(path);
  assert.ok(records.length > 0, `warcio read no record of ${path}`);
  for (const r of records) {
    const where = `${path} ${r.type} ${r.targetUri ?? ''}`;
    const block = r.fields.get('warc-block-digest');
    assert.ok(block, `${where}: no WARC-Block-Digest`);
    assert.equal(digestOf(block, r.block), block, `${where}: block digest`);
    assert.equal(Number(r.fields.get('content-length')), r.block.length, `${where}: Content-Length`);
    const payload = r.fields.get('warc-payload-digest');
    if (payload && r.type !== 'revisit') {
      const isHttp = /^application\/http/.test(r.fields.get('content-type') ?? '');
      assert.equal(digestOf(payload, isHttp ? entityOf(r.block) : r.block), payload, `${where}: payload digest`);
    }
  }
  return records;
}

/** One HTTP/1.1 exchange with nginx on a socket: the request sent, the response as it arrives. */
export function exchange(path: string): { request: Buffer; response: AsyncIterable<Buffer> } {
  const request = Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: locator\r\nConnection: close\r\n\r\n`,
  );
  const socket = connect(8080, '127.0.0.1');
  socket.write(request);
  return { request, response: socket };
}
