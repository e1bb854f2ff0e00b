// The freeWAIS client's recorded requests (every c2s capture of test/data/fixtures/wais), sent
// message by message to locator's WAIS server over the same three documents (database "demo"),
// and each answer compared with the freeWAIS server's recorded answer (s2c) by structure: the
// same PDU-Type, the same kinds and numbers of records, the Reference-ID echoed the same way,
// the same document bytes. Where this server answers differently on purpose, the row says why.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { decodeHeader } from '../../../src/clients/wais/header.js';
import {
  bytesToString,
  decodeInitResponse,
  decodeSearchResponse,
  encodeSearchRequest,
  pduTypeOf,
  readFields,
  type DocumentHeader,
  type SearchResponse,
} from '../../../src/clients/wais/apdu.js';
import { message, retrievalRequest, seedSearchRequest } from '../../../src/clients/wais/client.js';
import { startWaisServer, type WaisServer } from '../../../src/clients/wais/server.js';
import { captures, doc, DOCS_DIR, messages, whole } from './captures.js';

let server: WaisServer;
before(async () => {
  server = await startWaisServer({ dir: DOCS_DIR, database: 'demo' });
});
after(() => server.close());

/** Sends each message and reads one whole answer (header + APDU) for each. */
async function replay(requests: Buffer[], port = server.port): Promise<Buffer[]> {
  const sock = connect(port, '127.0.0.1');
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

// WAIS_NEXT (waissearch's "next document"): freeWAIS-sf answers with the document after the given
// one in its index, which waisindex built from gophers.txt, ferrets.txt, weather.txt in that
// order (the fixtures README); locator's server answers in the order of its own index.

/** What names a document in a header: the file of its local id, length, lines, headline. */
function which(h: DocumentHeader) {
  const local = readFields(h.docId, 0, h.docId.length).find((f) => f.tag === 3)!;
  const file = basename(bytesToString(local.value).replace(/^[0-9]+ [0-9]+ /, ''));
  return { file, length: h.documentLength, lines: h.lines, headline: h.headline, types: h.types };
}

/** The documents a server gives, following WAIS_NEXT from `first` until it answers no record. */
async function chain(port: number, first: DocumentHeader): Promise<string[]> {
  const out = [which(first).file];
  let cur = first;
  for (let i = 0; i < 10; i++) {
    const req = encodeSearchRequest({
      ...seedSearchRequest('demo', 'foo'),
      query: {
        kind: 'seeds',
        seedWords: 'foo',
        documentIds: [cur.docId],
        types: ['WAIS_NEXT'],
        dateFactor: 1,
        maxDocumentsRetrieved: 1,
      },
    });
    const [, a] = await replay([whole(messages('01-search-two-hits.c2s.bin')[0]), Buffer.from(message(req))], port);
    const r = decodeSearchResponse(a.subarray(25));
    if (r.headers.length === 0) return out;
    cur = r.headers[0];
    out.push(which(cur).file);
  }
  throw new Error('WAIS_NEXT did not end in 10 steps');
}

test("replay 09.c2s against locator's server whose index was built in freeWAIS's order: the same next document (ferrets.txt after gophers.txt)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-wais-index-'));
  const srv = await startWaisServer({ dir, database: 'demo' });
  try {
    // The files enter the index as waisindex was given them: gophers.txt when the server starts
    // listing, ferrets.txt, then weather.txt, each seen by a request before the next is added.
    const search = whole(messages('01-search-two-hits.c2s.bin')[1]);
    const init = whole(messages('01-search-two-hits.c2s.bin')[0]);
    for (const name of ['gophers.txt', 'ferrets.txt', 'weather.txt']) {
      copyFileSync(join(DOCS_DIR, name), join(dir, name));
      await replay([init, search], srv.port);
    }
    const c2s = messages('09-next-document.c2s.bin');
    const s2c = messages('09-next-document.s2c.bin');
    const ours = await replay(c2s.map(whole), srv.port);
    const a = decodeSearchResponse(ours[3].subarray(25));
    const b = decodeSearchResponse(s2c[3].apdu);
    assert.equal(b.headers.length, 1);
    assert.deepEqual(a.headers.map(which), b.headers.map(which), 'the header of the next document in the index');
    assert.deepEqual(which(b.headers[0]).file, 'ferrets.txt');
    // The next document is retrieved by the DocID the answer gave: its bytes.
    const got = await replay(
      [init, Buffer.from(message(encodeSearchRequest(retrievalRequest('demo', a.headers[0].docId, 'TEXT', 0, 552))))],
      srv.port,
    );
    assert.ok(Buffer.from(decodeSearchResponse(got[1].subarray(25)).texts[0].text).equals(doc('ferrets.txt')));
    assert.deepEqual(await chain(srv.port, a.headers[0]), ['ferrets.txt', 'weather.txt']);
  } finally {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('server index: built in name order at start; a file added later goes to the end, one removed leaves it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-wais-index-'));
  for (const name of ['weather.txt', 'gophers.txt']) copyFileSync(join(DOCS_DIR, name), join(dir, name));
  const srv = await startWaisServer({ dir, database: 'demo' });
  try {
    const init = whole(messages('01-search-two-hits.c2s.bin')[0]);
    const firstHeader = async (words: string) => {
      const [, a] = await replay(
        [init, Buffer.from(message(encodeSearchRequest(seedSearchRequest('demo', words))))],
        srv.port,
      );
      return decodeSearchResponse(a.subarray(25)).headers[0];
    };
    assert.deepEqual(await chain(srv.port, await firstHeader('gopher')), ['gophers.txt', 'weather.txt']);
    // ferrets.txt sorts first by name, but entered the index last.
    copyFileSync(join(DOCS_DIR, 'ferrets.txt'), join(dir, 'ferrets.txt'));
    assert.deepEqual(await chain(srv.port, await firstHeader('gopher')), ['gophers.txt', 'weather.txt', 'ferrets.txt']);
    rmSync(join(dir, 'weather.txt'));
    assert.deepEqual(await chain(srv.port, await firstHeader('gopher')), ['gophers.txt', 'ferrets.txt']);
  } finally {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
