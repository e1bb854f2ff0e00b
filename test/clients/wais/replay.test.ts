// The freeWAIS client's recorded requests (every c2s capture of test/data/fixtures/wais), sent
// message by message to locator's WAIS server over the same three documents (database "demo"),
// and each answer compared with the freeWAIS server's recorded answer (s2c) by structure: the
// same PDU-Type, the same kinds and numbers of records, the Reference-ID echoed the same way,
// the same document bytes. Where this server answers differently on purpose, the row says why.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { decodeHeader } from '../../../src/clients/wais/header.js';
import {
  decodeInitResponse,
  decodeSearchResponse,
  pduTypeOf,
  type SearchResponse,
} from '../../../src/clients/wais/apdu.js';
import { startWaisServer, type WaisServer } from '../../../src/clients/wais/server.js';
import { captures, DOCS_DIR, messages, whole } from './captures.js';

let server: WaisServer;
before(async () => {
  server = await startWaisServer({ dir: DOCS_DIR, database: 'demo' });
});
after(() => server.close());

/** Sends each message and reads one whole answer (header + APDU) for each. */
async function replay(requests: Buffer[]): Promise<Buffer[]> {
  const sock = connect(server.port, '127.0.0.1');
  const answers: Buffer[] = [];
  let buf = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  sock.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    wake?.();
  });
  const closed = new Promise<void>((r) => sock.on('close', () => r()));
  sock.on('error', () => {});
  try {
    for (const req of requests) {
      sock.write(req);
      for (;;) {
        if (buf.length >= 25) {
          const n = decodeHeader(buf.subarray(0, 25)).length;
          if (buf.length >= 25 + n) {
            answers.push(buf.subarray(0, 25 + n));
            buf = buf.subarray(25 + n);
            break;
          }
        }
        await Promise.race([
          new Promise<void>((r) => (wake = r)),
          new Promise<void>((_, j) => setTimeout(() => j(new Error('no answer in 5 s')), 5000).unref()),
        ]);
      }
    }
  } finally {
    sock.end();
    await closed;
  }
  return answers;
}

/** What a WAIS client looks at in an answer. */
function shape(r: SearchResponse) {
  return {
    headers: r.headers.length,
    texts: r.texts.length,
    diagnostics: r.diagnostics.length,
    records: r.numberOfRecordsReturned,
    referenceId: r.referenceId === null ? null : Buffer.from(r.referenceId).toString('latin1'),
    types: r.headers.map((h) => h.types.join()),
    withLength: r.headers.every((h) => h.documentLength !== null && h.headline !== null),
  };
}

/** Differences from freeWAIS on purpose, by capture and message index: why, and what to compare instead. */
const DIFFERENT: Record<string, Record<number, { why: string; want: Partial<ReturnType<typeof shape>> }>> = {
  '02-search-no-hits': {
    1: {
      why: 'freeWAIS answers a search without hits with its catalogue as a hit; this server answers with no record, as freeWAIS does without a catalogue (capture 06), which waissearch accepts',
      want: { headers: 0, records: 0, diagnostics: 0 },
    },
  },
  '06-search-zero-records': { 1: { why: 'as 02', want: { headers: 0, records: 0 } } },
  '08-help-query-diagnostic': {
    1: {
      why: 'freeWAIS rejects the query "?" with a diagnostic beside the help records; this server reads "?" as a help request (no seed word) and adds no diagnostic',
      want: { headers: 2, diagnostics: 0, records: 2, types: ['WSRC', 'TEXT'] },
    },
  },
};

for (const c of captures()) {
  test(`replay ${c}.c2s against locator's server: answers shaped like ${c}.s2c`, async () => {
    const c2s = messages(`${c}.c2s.bin`);
    const s2c = messages(`${c}.s2c.bin`);
    const ours = await replay(c2s.map(whole));
    assert.equal(ours.length, s2c.length, 'one answer per request');
    for (let i = 0; i < ours.length; i++) {
      const h = decodeHeader(ours[i]);
      assert.equal(h.length, ours[i].length - 25, `message ${i + 1}: the header's length`);
      assert.equal(h.serverName, 'wais', 'the server name copied from the request');
      const apdu = ours[i].subarray(25);
      const theirs = s2c[i].apdu;
      assert.equal(pduTypeOf(apdu), pduTypeOf(theirs), `message ${i + 1}: PDU-Type`);
      if (pduTypeOf(apdu) === 21) {
        const a = decodeInitResponse(apdu);
        const b = decodeInitResponse(theirs);
        assert.deepEqual(
          [a.result, a.protocolVersion, a.options, a.chunkCode, a.chunkIdLength],
          [b.result, b.protocolVersion, b.options, b.chunkCode, b.chunkIdLength],
        );
        continue;
      }
      const a = decodeSearchResponse(apdu);
      const b = decodeSearchResponse(theirs);
      const diff = DIFFERENT[c]?.[i];
      if (diff !== undefined) {
        const got = shape(a);
        for (const [k, v] of Object.entries(diff.want)) assert.deepEqual(got[k as keyof typeof got], v, diff.why);
        continue;
      }
      assert.deepEqual(shape(a), shape(b), `message ${i + 1}`);
      // A retrieved piece is the same bytes (the same documents, the same range), except the
      // source description, which describes this server.
      if (a.texts.length > 0 && c !== '05-source-description') {
        assert.ok(Buffer.from(a.texts[0].text).equals(Buffer.from(b.texts[0].text)), `message ${i + 1}: the text`);
        assert.ok(Buffer.from(a.texts[0].docId).equals(Buffer.from(b.texts[0].docId)), 'the DocID echoed unchanged');
      }
    }
  });
}
