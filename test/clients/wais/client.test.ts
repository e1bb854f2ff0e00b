// The WAIS client (RFC 1738 3.9 over RFC 1625) end to end against locator's own WAIS server
// (src/clients/wais/server.ts) over a folder of text files, on port 0; and against the freeWAIS
// server's recorded answers, replayed (the client's requests must then equal waissearch's bytes).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, probe } from '../../../src/clients/index.js';
import { WaisError, documentUrl } from '../../../src/clients/wais/client.js';
import { decodeSearchRequest, readRetrieval, type DocumentHeader } from '../../../src/clients/wais/apdu.js';
import { startWaisServer, type WaisServer } from '../../../src/clients/wais/server.js';
import type { TranscriptLine } from '../../../src/clients/types.js';
import { rejects } from '../../helpers.js';
import { DOCS_DIR, doc, messages, replaying, whole } from './captures.js';

const OPTS = { gateway: false as const, timeout: 5000 };
const readAll = async (body: ReadableStream<Uint8Array>) => Buffer.from(await new Response(body).arrayBuffer());

let demo: WaisServer;
let big: WaisServer;
let bigDir: string;
before(async () => {
  demo = await startWaisServer({ dir: DOCS_DIR, database: 'demo' });
  bigDir = mkdtempSync(join(tmpdir(), 'locator-wais-'));
  // 30000 bytes: a multiple of the 10000-byte piece; 25001: one byte past two pieces.
  writeFileSync(join(bigDir, 'even.txt'), 'even pieces\n' + 'x'.repeat(30000 - 12));
  writeFileSync(join(bigDir, 'odd.txt'), 'odd pieces\n' + 'y'.repeat(25001 - 11));
  writeFileSync(join(bigDir, 'empty.txt'), '');
  writeFileSync(join(bigDir, '.hidden'), 'pieces');
  writeFileSync(join(bigDir, 'tabbed.txt'), '\n  A\tB headline\r\nzebra\n');
  symlinkSync(join(DOCS_DIR, 'ferrets.txt'), join(bigDir, 'link.txt'));
  big = await startWaisServer({ dir: bigDir });
});
after(async () => {
  await demo.close();
  await big.close();
});

const base = () => `wais://127.0.0.1:${demo.port}/demo`;

/** The lines of a search's answer, split into their five fields. */
async function search(url: string): Promise<string[][]> {
  const r = await open(url, OPTS);
  assert.equal(r.meta.contentType, 'text/x-locator-wais-headlines; charset=utf-8');
  assert.equal(r.meta.ip, '127.0.0.1', 'the peer of the connection (WARC-IP-Address)');
  const text = (await readAll(r.body)).toString('utf8');
  assert.equal(r.meta.size, Buffer.byteLength(text));
  assert.ok(text === '' || text.endsWith('\n'));
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
}

test('RFC 1738 3.9 database?search: the headlines found, best first, each with score, size, type and document URL', async () => {
  const lines = await search(`${base()}?burrow`);
  assert.deepEqual(
    lines.map((l) => l.slice(1, 4)),
    [
      ['636', 'TEXT', 'Notes on pocket gophers'],
      ['552', 'TEXT', 'Notes on ferrets'],
    ],
  );
  assert.equal(lines[0][0], '1000', 'RFC 1625 4: the top document scores 1000');
  assert.ok(Number(lines[1][0]) < 1000 && Number(lines[1][0]) > 0);
  // The URL carries the headline's Document-Length (draft 1993-07 waisdoc: wtype/length/wpath).
  for (const l of lines)
    assert.match(l[4], new RegExp(`^wais://127\\.0\\.0\\.1:${demo.port}/demo/TEXT/${l[1]}/[^/?#]+$`));
});

/** A headline's document URL without its length: RFC 1738 3.9's waisdoc. */
const rfc1738 = (url: string) => url.replace(/\/TEXT\/[0-9]+\//, '/TEXT/');

test('the size a search answer gives is the meta.size of its document URL, and the retrieval asks for exactly it', async () => {
  for (const [words, name] of [
    ['ferret', 'ferrets.txt'],
    ['forecast', 'weather.txt'],
  ]) {
    const [hit] = await search(`${base()}?${words}`);
    assert.equal(hit[1], String(doc(name).length));
    const lines: TranscriptLine[] = [];
    const r = await open(hit[4], { ...OPTS, transcript: (l) => lines.push(l) });
    assert.equal(r.meta.size, doc(name).length, name);
    assert.ok((await readAll(r.body)).equals(doc(name)), name);
    const asked = lines.filter((l) => l.direction === 'send' && l.text.startsWith('retrieve')).map((l) => l.text);
    assert.deepEqual(
      asked,
      name === 'ferrets.txt'
        ? ['retrieve TEXT bytes 0-552']
        : ['retrieve TEXT bytes 0-10000', 'retrieve TEXT bytes 10000-11867'],
    );
  }
});

test('documentUrl: the length only when the header gives one above 0, else RFC 1738 3.9 wtype/wpath', () => {
  const h = (documentLength: number | null): DocumentHeader => ({
    docId: new Uint8Array([3, 2, 0x61, 0x2f]),
    versionNumber: null,
    score: 1,
    bestMatch: null,
    documentLength,
    lines: null,
    types: ['TEXT'],
    source: null,
    date: null,
    headline: 'x',
  });
  assert.equal(documentUrl('h:210', 'a/b', h(552)), 'wais://h:210/a%2Fb/TEXT/552/%03%02a%2F');
  assert.equal(documentUrl('h:210', 'db', h(null)), 'wais://h:210/db/TEXT/%03%02a%2F');
  assert.equal(documentUrl('h:210', 'db', h(0)), 'wais://h:210/db/TEXT/%03%02a%2F');
});

test('RFC 1738 3.9 waisdoc without a length: a first piece shorter than asked gives meta.size; a longer document has none', async () => {
  const [short] = await search(`${base()}?ferret`);
  const r = await open(rfc1738(short[4]), OPTS);
  assert.equal(r.meta.size, 552);
  assert.ok((await readAll(r.body)).equals(doc('ferrets.txt')));
  const [long] = await search(`${base()}?forecast`);
  const r2 = await open(rfc1738(long[4]), OPTS);
  assert.equal(r2.meta.size, null);
  assert.ok((await readAll(r2.body)).equals(doc('weather.txt')));
  // An empty document: the first piece is empty, so the size is 0.
  const empty = await open(
    `wais://127.0.0.1:${big.port}/${bigDir.split('/').pop()}/TEXT/%03%0D0%200%20empty.txt`,
    OPTS,
  );
  assert.equal(empty.meta.size, 0);
  assert.equal((await readAll(empty.body)).length, 0);
});

test('RFC 1738 3.9 database?search: no match gives no line; words are matched whole, case ignored', async () => {
  assert.deepEqual(await search(`${base()}?zeppelin`), []);
  assert.deepEqual(
    (await search(`${base()}?FERRET`)).map((l) => l[3]),
    ['Notes on ferrets'],
  );
});

test('RFC 1738 3.9 waisdoc: each headline URL retrieves its document, byte for byte, type TEXT as text/plain', async () => {
  for (const [words, name] of [
    ['ferret', 'ferrets.txt'],
    ['forecast', 'weather.txt'],
    ['gopher', 'gophers.txt'],
  ]) {
    const [hit] = await search(`${base()}?${words}`);
    const r = await open(hit[4], OPTS);
    assert.equal(r.meta.contentType, 'text/plain');
    assert.ok((await readAll(r.body)).equals(doc(name)), name);
  }
});

test('RFC 1625 4: without a length, a document is read in 10000-byte pieces until a shorter one (25001 bytes: 3 requests; 30000: 4, the last empty)', async () => {
  for (const [name, size, requests] of [
    ['odd.txt', 25001, 3],
    ['even.txt', 30000, 4],
  ] as const) {
    const [hit] = await search(`wais://127.0.0.1:${big.port}/${bigDir.split('/').pop()}?${name.split('.')[0]}`);
    assert.equal(hit[1], String(size));
    const lines: TranscriptLine[] = [];
    const r = await open(rfc1738(hit[4]), { ...OPTS, transcript: (l) => lines.push(l) });
    assert.ok((await readAll(r.body)).equals(readFileSync(join(bigDir, name))));
    assert.equal(lines.filter((l) => l.direction === 'send' && l.text.startsWith('retrieve')).length, requests);
    // With the headline's length: 3 requests each, none past the end.
    const withLength: TranscriptLine[] = [];
    const r2 = await open(hit[4], { ...OPTS, transcript: (l) => withLength.push(l) });
    assert.equal(r2.meta.size, size);
    assert.ok((await readAll(r2.body)).equals(readFileSync(join(bigDir, name))));
    assert.equal(withLength.filter((l) => l.direction === 'send' && l.text.startsWith('retrieve')).length, 3);
  }
});

test('server: only regular files that are not hidden are searched; a TAB or CR in a headline becomes a space', async () => {
  const db = `wais://127.0.0.1:${big.port}/${bigDir.split('/').pop()}`;
  assert.deepEqual(
    (await search(`${db}?pieces`)).map((l) => l[3]),
    ['even pieces', 'odd pieces'],
  );
  assert.deepEqual(await search(`${db}?ferret`), [], 'a symbolic link is not served');
  assert.deepEqual(
    (await search(`${db}?zebra`)).map((l) => l.slice(1, 4)),
    [[String(readFileSync(join(bigDir, 'tabbed.txt')).length), 'TEXT', 'A B headline']],
  );
});

test('server: the help records (empty search) are the source description (WSRC) and a catalogue whose size is its length', async () => {
  const r = await open(`${base()}?`, OPTS);
  const lines = (await readAll(r.body))
    .toString()
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  assert.deepEqual(
    lines.map((l) => [l[0], l[2], l[3]]),
    [
      ['1000', 'WSRC', 'Information on database: demo'],
      ['1000', 'TEXT', 'Catalog for database: demo'],
    ],
  );
  const cat = await readAll((await open(lines[1][4], OPTS)).body);
  assert.equal(cat.length, Number(lines[1][1]));
  assert.match(cat.toString(), /Headline: Notes on ferrets/);
});

test('draft 1993-07 waisdoc with a length: the announced size is meta.size and bounds the requests', async () => {
  const [hit] = await search(`${base()}?forecast`);
  const url = rfc1738(hit[4]).replace('/TEXT/', '/TEXT/11867/');
  const lines: TranscriptLine[] = [];
  const r = await open(url, { ...OPTS, transcript: (l) => lines.push(l) });
  assert.equal(r.meta.size, 11867);
  assert.ok((await readAll(r.body)).equals(doc('weather.txt')));
  assert.deepEqual(
    lines.filter((l) => l.direction === 'send' && l.text.startsWith('retrieve')).map((l) => l.text),
    ['retrieve TEXT bytes 0-10000', 'retrieve TEXT bytes 10000-11867'],
  );
});

test('RFC 1738 3.9 waisdatabase: the source description (the "help" search, then its WSRC record), as text/plain', async () => {
  const r = await open(base(), OPTS);
  assert.equal(r.meta.contentType, 'text/plain');
  const t = (await readAll(r.body)).toString('latin1');
  assert.equal(r.meta.size, t.length);
  assert.match(t, /^\(:source/);
  assert.match(t, /:database-name "demo"/);
});

test("RFC 1625 3: an unknown database is a WaisError (wais-diagnostic) with the server's text", async () => {
  const e = await rejects(open(`wais://127.0.0.1:${demo.port}/nosuchdb?burrow`, OPTS));
  assert.ok(e instanceof WaisError);
  assert.equal(e.code, 'wais-diagnostic');
  assert.equal(e.diagnosticCode, 'S1');
  assert.match(e.text, /not available: nosuchdb/);
});

test('RFC 1625 3: a DocID the server did not issue is a WaisError', async () => {
  const e = await rejects(open(`${base()}/TEXT/%03%0D0%200%20nosuch.txt`, OPTS));
  assert.equal(e.code, 'wais-diagnostic');
});

test('maxBytes: a longer document fails with too-large', async () => {
  const [hit] = await search(`${base()}?forecast`);
  const r = await open(hit[4], { ...OPTS, maxBytes: 5000 });
  const e = await rejects(readAll(r.body));
  assert.equal(e.code, 'too-large');
});

// Against the freeWAIS server's recorded answers: the requests the client sends for the same
// operations are waissearch's bytes, but for the InitRequest (tags 7-10, see codec.test.ts).

test("replayed 01 (freeWAIS): search demo?burrow sends waissearch's SearchRequest and lists freeWAIS's two hits", async () => {
  const s2c = messages('01-search-two-hits.s2c.bin');
  const c2s = messages('01-search-two-hits.c2s.bin');
  const fake = await replaying(s2c.map(whole));
  try {
    const lines = await search(`wais://127.0.0.1:${fake.port}/demo?burrow`);
    assert.deepEqual(
      lines.map((l) => l.slice(0, 4)),
      [
        ['85', '636', 'TEXT', 'Notes on pocket gophers'],
        ['78', '552', 'TEXT', 'Notes on ferrets'],
      ],
    );
    assert.equal(fake.received.length, 2);
    assert.ok(fake.received[1].equals(whole(c2s[1])), 'the SearchRequest message equals the recorded one');
    // The document URL carries freeWAIS's DocID and the headline's length (draft 1993-07's
    // waisdoc), so the retrieval is waissearch's bytes exactly: it asks for 0-552, the length
    // the headline gave.
    assert.match(lines[1][4], new RegExp(`:${fake.port}/demo/TEXT/552/`));
    const recorded = messages('03-retrieve-short-doc.c2s.bin')[2];
    const replies = messages('03-retrieve-short-doc.s2c.bin').map(whole);
    const fake3 = await replaying([replies[0], replies[2]]);
    try {
      const url = lines[1][4].replace(`:${fake.port}/`, `:${fake3.port}/`);
      const r = await open(url, OPTS);
      assert.ok((await readAll(r.body)).equals(doc('ferrets.txt')));
      assert.ok(fake3.received[1].equals(whole(recorded)));
    } finally {
      await fake3.close();
    }
    // RFC 1738's waisdoc has no length: the client asks for a first 10000-byte piece. The request
    // differs from waissearch's only in that end offset (the "wb rl" term), a client's choice.
    const fake4 = await replaying([replies[0], replies[2]]);
    try {
      const r = await open(rfc1738(lines[1][4]).replace(`:${fake.port}/`, `:${fake4.port}/`), OPTS);
      assert.ok((await readAll(r.body)).equals(doc('ferrets.txt')));
      const ours = decodeSearchRequest(fake4.received[1].subarray(25));
      const theirs = decodeSearchRequest(recorded.apdu);
      assert.ok(ours.query?.kind === 'retrieval' && theirs.query?.kind === 'retrieval');
      const a = readRetrieval(ours.query)!;
      const b = readRetrieval(theirs.query)!;
      assert.deepEqual([a.to, b.to], [10000, 552]);
      assert.deepEqual({ ...a, to: 0 }, { ...b, to: 0 });
      assert.deepEqual({ ...ours, query: null }, { ...theirs, query: null });
    } finally {
      await fake4.close();
    }
  } finally {
    await fake.close();
  }
});

test('replayed 07 and 08 (freeWAIS): a diagnostic alone is a WaisError; beside records it is not', async () => {
  const f7 = await replaying(messages('07-unknown-database.s2c.bin').map(whole));
  const f8 = await replaying(messages('08-help-query-diagnostic.s2c.bin').map(whole));
  try {
    const e = await rejects(open(`wais://127.0.0.1:${f7.port}/nosuchdb?burrow`, OPTS));
    assert.ok(e instanceof WaisError);
    assert.equal(e.text, 'The following database is not available: /srv/wais/db/nosuchdb');
    assert.deepEqual(
      (await search(`wais://127.0.0.1:${f8.port}/demo?%3F`)).map((l) => l[3]),
      ['Information on database: demo', 'Catalog for database: demo'],
    );
    assert.ok(f8.received[1].equals(whole(messages('08-help-query-diagnostic.c2s.bin')[1])));
  } finally {
    await f7.close();
    await f8.close();
  }
});

test("replayed 08 (freeWAIS): the diagnostic beside the help records is kept: meta.diagnostics, the transcript, the probe's reason", async () => {
  const f8 = await replaying(messages('08-help-query-diagnostic.s2c.bin').map(whole));
  const f8b = await replaying(messages('08-help-query-diagnostic.s2c.bin').map(whole));
  try {
    const lines: TranscriptLine[] = [];
    const r = await open(`wais://127.0.0.1:${f8.port}/demo?%3F`, { ...OPTS, transcript: (l) => lines.push(l) });
    await readAll(r.body);
    assert.deepEqual(r.meta.diagnostics, [{ code: 'S1', text: 'query syntax error: ?' }]);
    assert.ok(
      lines.some((l) => l.text === "the server's diagnostic beside its answer: S1 query syntax error: ?"),
      lines.map((l) => l.text).join('\n'),
    );
    const p = await probe(`wais://127.0.0.1:${f8b.port}/demo?%3F`, OPTS);
    assert.equal(p.status, 'ok');
    assert.equal(p.reason, "the search found 2 documents; the server's diagnostic beside it: S1 query syntax error: ?");
    // An answer without one has no diagnostics field.
    const plain = await open(`${base()}?burrow`, OPTS);
    await readAll(plain.body);
    assert.equal(plain.meta.diagnostics, undefined);
  } finally {
    await f8.close();
    await f8b.close();
  }
});
