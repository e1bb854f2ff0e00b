// The WAIS codecs (src/clients/wais/header.ts, apdu.ts) against the freeWAIS captures
// (test/data/fixtures/wais, its README decodes every byte). Each row names the field of the
// specification it checks: RFC 1625, Z39.50-1988 data elements, protspec (the WAIS Interface
// Protocol Prototype Functional Specification, 1990) section 5.1's WAIS tags, and the README
// section where a layout is freeWAIS's own (the 25-byte header, the diagnostic record).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHeader, encodeHeader } from '../../../src/clients/wais/header.js';
import {
  decodeInitRequest,
  decodeInitResponse,
  decodeSearchRequest,
  decodeSearchResponse,
  decodeVarint,
  encodeInitRequest,
  encodeInitResponse,
  encodeSearchRequest,
  encodeSearchResponse,
  encodeVarint,
  encodeInteger,
  pduTypeOf,
  readRetrieval,
  type SearchResponse,
} from '../../../src/clients/wais/apdu.js';
import { initRequest, retrievalRequest, seedSearchRequest } from '../../../src/clients/wais/client.js';
import { rejects } from '../../helpers.js';
import { captures, doc, messages } from './captures.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test('README "Message = 25-byte header + APDU": every header of every capture decodes, and re-encodes byte for byte', () => {
  let n = 0;
  for (const c of captures()) {
    for (const dir of ['c2s', 's2c']) {
      for (const m of messages(`${c}.${dir}.bin`)) {
        const h = decodeHeader(m.header);
        assert.equal(h.length, m.apdu.length, `${c}.${dir} at ${m.offset}: bytes 0-9, the APDU length`);
        assert.deepEqual(
          [h.messageType, h.version, h.serverName, h.compression, h.encoding, h.checksum],
          ['z', '2', 'wais', ' ', ' ', '0'],
          `${c}.${dir} at ${m.offset}: bytes 10-24`,
        );
        assert.equal(hex(encodeHeader(h.length, h.serverName)), hex(m.header));
        n++;
      }
    }
  }
  assert.equal(n, 50, 'the README counts 50 headers');
});

const DECODERS: Record<number, (a: Uint8Array) => Uint8Array> = {
  20: (a) => encodeInitRequest(decodeInitRequest(a)),
  21: (a) => encodeInitResponse(decodeInitResponse(a)),
  22: (a) => encodeSearchRequest(decodeSearchRequest(a)),
  23: (a) => encodeSearchResponse(decodeSearchResponse(a)),
};

test('Z39.50-1988 PDU-Types 20-23 with the WAIS user information: every APDU of every capture decodes and re-encodes to the same bytes', () => {
  for (const c of captures()) {
    for (const dir of ['c2s', 's2c']) {
      for (const m of messages(`${c}.${dir}.bin`)) {
        const t = pduTypeOf(m.apdu);
        assert.ok(DECODERS[t], `${c}.${dir} at ${m.offset}: PDU-Type ${t}`);
        assert.equal(hex(DECODERS[t](m.apdu)), hex(m.apdu), `${c}.${dir} at ${m.offset}`);
      }
    }
  }
});

// protspec 5.1: tags and lengths as variable-length integers; the README's examples.
for (const [n, bytes] of [
  [5, '05'],
  [127, '7f'],
  [150, '8116'],
  [427, '832b'],
  [10000, 'ce10'],
] as const) {
  test(`protspec 5.1 (tag/length encoding): ${n} is ${bytes}`, () => {
    assert.equal(hex(new Uint8Array(encodeVarint(n))), bytes);
    assert.deepEqual(decodeVarint(Buffer.from(bytes, 'hex'), 0), [n, bytes.length / 2]);
  });
}

// Z39.50-1988 integer values: big-endian, as few bytes as needed (README "Tagged fields").
for (const [n, bytes] of [
  [0, '00'],
  [40, '28'],
  [183, 'b7'],
  [1000, '03e8'],
  [100000, '0186a0'],
] as const) {
  test(`Z39.50-1988 integer value: ${n} is ${bytes}`, () => {
    assert.equal(hex(new Uint8Array(encodeInteger(n))), bytes);
  });
}

const INIT_REQ = messages('01-search-two-hits.c2s.bin')[0].apdu;
const INIT_RES = messages('01-search-two-hits.s2c.bin')[0].apdu;

test('InitRequest (Z39.50-1988 InitializeRequest, PDU-Type 20): the fields of 01 c2s message 1', () => {
  const r = decodeInitRequest(INIT_REQ);
  assert.equal(hex(r.protocolVersion), '80', 'Protocol-Version (tag 3): version 1');
  assert.equal(hex(r.options), '80', 'Options (tag 4): search only');
  assert.equal(r.preferredMessageSize, 100000, 'Preferred-Message-Size (tag 5)');
  assert.equal(r.maximumRecordSize, 100000, 'Maximum-Record-Size (tag 6)');
  assert.equal(r.idAuthentication?.length, 79, 'ID-Authentication (tag 7), 79 bytes');
  assert.equal(r.implementationId, 'LS6', 'Implementation-ID (tag 8)');
  assert.equal(r.implementationName, 'University of Dortmund Informatik VI', 'Implementation-Name (tag 9)');
  assert.equal(r.implementationVersion, '2.2.8 string', 'Implementation-Version (tag 10)');
  assert.equal(r.userInformation, null, 'no user-information part (HLI 155 covers the APDU)');
});

test('InitResponse (PDU-Type 21): Result 1 and the WAIS user information Chunk-Code 0, Chunk-ID-Length 0 (protspec tags 100, 101)', () => {
  const r = decodeInitResponse(INIT_RES);
  assert.equal(r.result, true, 'Result (1 byte)');
  assert.equal(r.idAuthentication, null);
  assert.equal(r.preferredMessageSize, 100000);
  assert.equal([r.chunkCode, r.chunkIdLength].join(), '0,0');
  assert.equal(hex(r.userInformation!), '6306640100650100');
});

test("our InitRequest differs from waissearch's only where Z39.50 leaves the choice to the client (tags 7-10)", () => {
  const ours = decodeInitRequest(encodeInitRequest(initRequest()));
  const theirs = decodeInitRequest(INIT_REQ);
  // Fixed by the protocol version and what WAIS offers: version 1, search only, the sizes.
  assert.equal(hex(ours.protocolVersion), hex(theirs.protocolVersion));
  assert.equal(hex(ours.options), hex(theirs.options));
  assert.equal(ours.preferredMessageSize, theirs.preferredMessageSize);
  assert.equal(ours.maximumRecordSize, theirs.maximumRecordSize);
  // Choices: waissearch writes the local host and Unix user into ID-Authentication (free text,
  // tag 7); locator sends none (it would reveal them). Tags 8-10 name the implementation.
  assert.equal(ours.idAuthentication, null);
  assert.match(theirs.idAuthentication!, /user: nobody/);
  assert.equal(ours.implementationId, 'locator');
  assert.notEqual(ours.implementationId, theirs.implementationId);
});

// SearchRequest, query type "3" (RFC 1625 4, protspec 5.3): our requests equal waissearch's
// byte for byte - the fixed fields, tags 17/18/20, and the user information (Seed-Words tag 106,
// Date-Factor 111, Max-Documents-Retrieved 114) are the same choices.
for (const [capture, database, words] of [
  ['01-search-two-hits', 'demo', 'burrow'],
  ['02-search-no-hits', 'demo', 'zeppelin'],
  ['03-retrieve-short-doc', 'demo', 'ferret'],
  ['04-retrieve-long-doc', 'demo', 'forecast'],
  ['05-source-description', 'demo', ''],
  ['07-unknown-database', 'nosuchdb', 'burrow'],
  ['08-help-query-diagnostic', 'demo', '?'],
] as const) {
  test(`RFC 1625 4 (query type 3, Seed-Words tag 106): search ${database} ${JSON.stringify(words)} equals ${capture} c2s message 2`, () => {
    const m = messages(`${capture}.c2s.bin`)[1];
    assert.equal(hex(encodeSearchRequest(seedSearchRequest(database, words))), hex(m.apdu));
    assert.equal(hex(encodeHeader(m.apdu.length)), hex(m.header));
    const r = decodeSearchRequest(m.apdu);
    assert.equal(r.databaseNames, database, 'Database-Names (tag 18)');
    assert.equal(r.queryType, '3', 'Query-Type (tag 20)');
    assert.equal(r.query?.kind === 'seeds' && r.query.seedWords, words, 'Seed-Words (tag 106)');
  });
}

// SearchRequest, query type "1" (RFC 1625 4: DocID, type, byte range ANDed in reverse Polish):
// our retrieval requests equal waissearch's byte for byte, the DocID sent back unchanged.
for (const [capture, index, wtype, from, to] of [
  ['03-retrieve-short-doc', 2, 'TEXT', 0, 552],
  ['04-retrieve-long-doc', 2, 'TEXT', 0, 10000],
  ['04-retrieve-long-doc', 3, 'TEXT', 10000, 11867],
  ['05-source-description', 2, 'WSRC', 0, 540],
] as const) {
  test(`RFC 1625 4 (query type 1: un/wt/wb ro/wb rl terms): ${capture} c2s message ${index + 1} (${wtype} ${from}-${to})`, () => {
    const m = messages(`${capture}.c2s.bin`)[index];
    const r = decodeSearchRequest(m.apdu);
    assert.equal(r.queryType, '1');
    assert.equal(r.elementSetNames, ' \x1fDocument Text', 'Element-Set-Names (tag 19)');
    assert.equal(hex(r.referenceId!), '33', 'Reference-ID (tag 2)');
    assert.ok(r.query?.kind === 'retrieval');
    const q = readRetrieval(r.query);
    assert.ok(q !== null);
    assert.deepEqual([q.wtype, q.from, q.to], [wtype, from, to]);
    assert.equal(hex(encodeSearchRequest(retrievalRequest('demo', q.docId, wtype, from, to))), hex(m.apdu));
  });
}

test('09 c2s message 4 ("next document"): a Document-ID (tag 116) and Type WAIS_NEXT (tag 133) inside a type-3 query', () => {
  const r = decodeSearchRequest(messages('09-next-document.c2s.bin')[3].apdu);
  assert.ok(r.query?.kind === 'seeds');
  assert.equal(r.query.seedWords, 'foo');
  assert.equal(r.query.documentIds.length, 1);
  assert.equal(r.query.documentIds[0].length, 139);
  assert.deepEqual(r.query.types, ['WAIS_NEXT']);
  assert.equal(r.query.maxDocumentsRetrieved, 1);
});

function response(capture: string, index: number): SearchResponse {
  return decodeSearchResponse(messages(`${capture}.s2c.bin`)[index].apdu);
}

// SearchResponse (PDU-Type 23) records: protspec's WAIS-Document-Header (tag 150 group) fields
// Score 118, Document-Length 120, Lines 131, Type 133, Source 121, Headline 123.
for (const [capture, index, status, records, want] of [
  [
    '01-search-two-hits',
    1,
    1,
    2,
    [
      [85, 636, 15, 'TEXT', 'Notes on pocket gophers'],
      [78, 552, 13, 'TEXT', 'Notes on ferrets'],
    ],
  ],
  [
    '02-search-no-hits',
    1,
    1,
    1,
    [[0, 358, 17, 'TEXT', "Search produced no result. Here's the Catalog for database: demo"]],
  ],
  ['03-retrieve-short-doc', 1, 1, 1, [[183, 552, 13, 'TEXT', 'Notes on ferrets']]],
  ['04-retrieve-long-doc', 1, 1, 1, [[124, 11867, 108, 'TEXT', 'Weather notes from a small hill town']]],
  [
    '05-source-description',
    1,
    1,
    2,
    [
      [1000, 540, 24, 'WSRC', 'Information on database: demo'],
      [1000, 358, 17, 'TEXT', 'Catalog for database: demo'],
    ],
  ],
  ['06-search-zero-records', 1, 1, 0, []],
  ['09-next-document', 3, 1, 1, [[null, 552, 13, 'TEXT', 'Notes on ferrets']]],
] as const) {
  test(`protspec WAIS-Document-Header (tags 118, 120, 131, 133, 123): ${capture} s2c message ${index + 1}`, () => {
    const r = response(capture, index);
    assert.equal(r.searchStatus, status, 'Search-Status (1 byte)');
    assert.equal(r.numberOfRecordsReturned, records, 'Number-of-Records-Returned (3 bytes)');
    assert.equal(r.presentStatus, 0, 'Present-Status (tag 27)');
    assert.deepEqual(
      r.headers.map((h) => [h.score, h.documentLength, h.lines, h.types[0], h.headline]),
      want,
    );
    assert.equal(r.diagnostics.length, 0);
  });
}

test("01 s2c message 2: the DocIDs (tag 116) are the README's DocID 1 and 2, 139 bytes each", () => {
  const r = response('01-search-two-hits', 1);
  assert.match(Buffer.from(r.headers[0].docId).toString('latin1'), /0 636 \/srv\/wais\/docs\/gophers\.txt/);
  assert.equal(r.headers[1].docId.length, 139);
  assert.equal(r.headers[0].source, '/srv/wais/db/demo', 'Source (tag 121)');
  assert.equal(r.headers[0].date, '0', 'Date (tag 122)');
  assert.equal(r.headers[0].bestMatch, 0, 'Best-Match (tag 119)');
});

// protspec WAIS-Document-Text (tag 153 group: Document-ID, Version-Number 117, Document-Text 127).
for (const [capture, indexes, name] of [
  ['03-retrieve-short-doc', [2], 'ferrets.txt'],
  ['04-retrieve-long-doc', [2, 3], 'weather.txt'],
  ['09-next-document', [2], 'gophers.txt'],
  ['09-next-document', [4], 'ferrets.txt'],
] as const) {
  test(`protspec WAIS-Document-Text (tags 117, 127): ${capture} s2c messages ${indexes.map((i) => i + 1).join(', ')} are docs/${name}`, () => {
    const parts = indexes.map((i) => response(capture, i));
    for (const r of parts) {
      assert.equal(hex(r.referenceId!), '33', 'the Reference-ID echoed (tag 2)');
      assert.equal(r.texts.length, 1);
      assert.equal(r.texts[0].versionNumber, 0);
    }
    assert.ok(Buffer.concat(parts.map((r) => r.texts[0].text)).equals(doc(name)));
  });
}

test('05 s2c message 3: the source description, a (:source ...) text of 540 bytes', () => {
  const r = response('05-source-description', 2);
  const t = Buffer.from(r.texts[0].text).toString('latin1');
  assert.equal(t.length, 540);
  assert.match(t, /^\s*\(:source/);
  assert.match(t, /:maintainer "nobody@localhost"/);
});

// Z39.50-1988 diagnostic record (tag 28) in freeWAIS's layout (README "Diagnostic records").
for (const [capture, headers, text] of [
  ['07-unknown-database', 0, 'The following database is not available: /srv/wais/db/nosuchdb'],
  ['08-help-query-diagnostic', 2, 'query syntax error: ?'],
] as const) {
  test(`Z39.50-1988 diagnostic record (tag 28: code, addinfo, surrogate, 0x1D): ${capture}`, () => {
    const r = response(capture, 1);
    assert.equal(r.searchStatus, 0);
    assert.equal(r.headers.length, headers);
    assert.deepEqual(r.diagnostics, [{ code: 'S1', text, surrogate: 0 }]);
    assert.equal(r.numberOfRecordsReturned, headers + 1, 'the diagnostic is counted as a record');
  });
}

// Malformed input: typed protocol-error, never a crash.
for (const [what, bytes] of [
  ['an APDU shorter than 3 bytes', '0001'],
  ['a Header-Length-Indicator larger than the APDU', '00ff17'],
  ['a length that runs past the APDU', '000e17010000000000000000001b0500'],
  ['a length that never ends (high bit on every byte)', '000e170100000000000000000080808080808080'],
  [
    'a diagnostic record without its 0x1D',
    '000e1700000000000001000000' + '1b0100' + '630a' + '1c0006' + '5331414243' + '00' + '00',
  ],
  ['a wrong PDU-Type', '000e160000000000000000000000'],
] as const) {
  test(`decodeSearchResponse: ${what} is protocol-error`, async () => {
    const e = await rejects((async () => decodeSearchResponse(Buffer.from(bytes, 'hex')))());
    assert.equal(e.code, 'protocol-error');
  });
}

for (const [what, header] of [
  ['a length field with a letter', '00000000x5z2wais        0'],
  ['a message type other than "z"', '0000000005y2wais        0'],
  ['a compressed message', '0000000005z2wais      C 0'],
] as const) {
  test(`decodeHeader: ${what} is protocol-error`, async () => {
    const e = await rejects((async () => decodeHeader(Buffer.from(header, 'latin1')))());
    assert.equal(e.code, 'protocol-error');
  });
}
