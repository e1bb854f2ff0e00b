// extractStream(): the URLs of a text that arrives in chunks of bytes or strings (RFC 1738
// appendix), with UTF-8 sequences split between chunks, from a Node Readable, a web
// ReadableStream or any iterable; the same matches as extract() over the decoded whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { fixture, eachRow } from '../helpers.js';
import { extract, extractStream, type Match } from '../../src/extract/index.js';

async function collect(it: AsyncIterable<Match>): Promise<Match[]> {
  const out: Match[] = [];
  for await (const m of it) out.push(m);
  return out;
}

/** The bytes cut at the given sizes (cycled). */
function cut(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0, k = 0; i < bytes.length; k++) {
    out.push(bytes.subarray(i, i + sizes[k % sizes.length]));
    i += sizes[k % sizes.length];
  }
  return out;
}

const TEXT =
  '\ufeffü 🙂 <URL:ftp://ds.in\r\n   ternic.net/rfc> — café http://a.com/x-y. 日本 <news:*>\n> mailto:a@b.c\n';

test('the text of the chunking tests has 4 matches', () => {
  assert.equal([...extract(TEXT)].length, 4);
});

eachRow(
  'bytes split inside multi-byte UTF-8 sequences at these sizes give the matches of the decoded whole',
  [[1], [2], [3, 1], [5, 7], [1000]],
  async (sizes) => {
    const bytes = Buffer.from(TEXT, 'utf8');
    const expected = [...extract(bytes.toString('utf8'))];
    assert.deepEqual(await collect(extractStream(cut(bytes, sizes))), expected, `sizes ${sizes}`);
  },
);

test('random byte chunkings of the fixture texts give the whole-text matches (seed 1738)', async () => {
  const texts = ['mail-crlf.txt', 'references-draft-1993-10.txt', 'news.txt'].map((n) => fixture(`extract/${n}`));
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(0, 1, 2),
      fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
      async (which, sizes) => {
        const t = texts[which];
        assert.deepEqual(await collect(extractStream(cut(Buffer.from(t, 'utf8'), sizes))), [...extract(t)]);
      },
    ),
    { seed: 1738, numRuns: 60 },
  );
});

test('a byte order mark is kept as U+FEFF, so offsets match readFileSync(f, "utf8")', async () => {
  const [m] = await collect(extractStream([Buffer.from('\ufeffhttp://a.com/', 'utf8')]));
  assert.deepEqual([m.start, m.column], [1, 2]);
});

test('invalid UTF-8 becomes U+FFFD, as Buffer#toString makes it', async () => {
  const bytes = Buffer.from([0x68, 0xff, 0x20, ...Buffer.from('http://a.com/ '), 0xe2, 0x82]);
  const expected = [...extract(bytes.toString('utf8'))];
  assert.deepEqual(await collect(extractStream(cut(bytes, [1]))), expected);
  assert.equal(expected[0].start, 3);
});

test('sources: a Node Readable, a web ReadableStream, an async generator, an array of strings', async () => {
  const expected = [...extract(TEXT)];
  assert.deepEqual(await collect(extractStream(Readable.from(cut(Buffer.from(TEXT), [4])))), expected);
  assert.deepEqual(await collect(extractStream(Readable.from([TEXT.slice(0, 20), TEXT.slice(20)]))), expected);
  const web = new ReadableStream<Uint8Array>({
    start(c) {
      for (const b of cut(Buffer.from(TEXT), [3])) c.enqueue(b);
      c.close();
    },
  });
  assert.deepEqual(await collect(extractStream(web)), expected);
  // a ReadableStream seen only through getReader (as in browsers without async iteration)
  const readerOnly = { getReader: () => web2.getReader() } as unknown as ReadableStream<Uint8Array>;
  const web2 = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(Buffer.from(TEXT));
      c.close();
    },
  });
  assert.deepEqual(await collect(extractStream(readerOnly)), expected);
  async function* gen() {
    for (const ch of TEXT) yield ch;
  }
  assert.deepEqual(await collect(extractStream(gen())), expected);
  assert.deepEqual(await collect(extractStream([...TEXT])), expected);
});

test('options go to the extractor; bad sources, chunks and options are API misuse (TypeError, RangeError)', async () => {
  assert.deepEqual(
    (await collect(extractStream([TEXT], { bare: false }))).map((m) => m.form),
    ['prefixed', 'bracketed'],
  );
  // API misuse (a source or chunk of the wrong type) is a TypeError naming it, not a LocatorError.
  await assert.rejects(
    () => collect(extractStream(42 as unknown as string[])),
    (e: unknown) => e instanceof TypeError && /source/.test(e.message),
  );
  await assert.rejects(
    () => collect(extractStream([{}] as unknown as string[])),
    (e: unknown) => e instanceof TypeError && /chunk/.test(e.message),
  );
  await assert.rejects(() => collect(extractStream([], { maxLength: -1 })), RangeError);
});
