// Properties of the scanner with a fixed seed (so a failure reproduces): on random texts built
// from the pieces the RFC 1738 appendix talks about (wrappers, "URL:", line breaks, hyphens,
// indentation, page breaks, quote prefixes, punctuation, non-ASCII), the push form gives the
// same matches as the whole-text form for any chunking; every match keeps the invariants; and
// the streaming buffer stays bounded by maxLength.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { extract, createExtractor, type Match } from '../../src/extract/index.js';
import { Scanner, LOOKBACK } from '../../src/extract/scan.js';
import { eachRow } from '../helpers.js';

const TOKENS = [
  // prose
  'Yes',
  'Jim',
  ' the ',
  'a:b',
  '3:4',
  '10:30',
  'Re:',
  'URL:',
  'see',
  '-',
  '--',
  '(',
  ')',
  '.',
  ',',
  "'",
  '"',
  '!',
  '?',
  ';',
  ':',
  '*',
  '=',
  // URL pieces
  'http://',
  'ftp://ds.in',
  'ternic.net/rfc',
  'mailto:a@b.c',
  'news:*',
  'news:',
  '#frag',
  '#',
  '%41',
  '%',
  '%4',
  '~',
  '/',
  'draft-',
  'x-',
  'gopher',
  'HTTP:',
  'file:///',
  'host.com',
  '_(wiki)',
  'nntp://h/g',
  // wrappers
  '<',
  '>',
  '<URL:',
  '<http:',
  '<ftp://',
  '<url: ',
  '<news:',
  '<uri@bunyip.com>',
  // white space and line ends
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\u00a0',
  '\n\n',
  '\f',
  '\n      ',
  '-\n   ',
  '-\r\n',
  // quote prefixes
  '\n> ',
  '\n> > ',
  // non-ASCII and controls
  'ü',
  '🙂',
  '\ud83d',
  '\u0007',
  '\u0000',
];
const PAGE_BREAK = '\n\n\nBerners-Lee, Masinter & McCahill      [Page 3]\n\nRFC 1738    URLs    December 1994\n\n\n   ';
// A wrapper, mostly well formed: "<", maybe "URL:", a scheme, then body pieces and line breaks
// of every kind the appendix mentions, and usually a ">".
const wrapper = fc
  .tuple(
    fc.constantFrom('<', '<URL:', '<url: ', '< URL:'),
    fc.constantFrom('http:', 'ftp:', 'news:', 'mailto:', 'x-y:', 'wais:', 'zz:'),
    fc.array(
      fc.oneof(
        fc.constantFrom('//host.com', '/path', '-', 'seg', '#f', ';type=d', '%41', 'a@b.c', '~u', '*'),
        fc.constantFrom('\n   ', '-\n  ', '-\r\n', '\r\n  ', '\r', ' ', '\n> ', '\n> > ', '\n\n', PAGE_BREAK, '<'),
      ),
      { maxLength: 10 },
    ),
    fc.constantFrom('>', '>', '>', '>.', ''),
  )
  .map(([open, scheme, body, close]) => open + scheme + body.join('') + close);
const text = fc.array(fc.oneof(fc.constantFrom(...TOKENS), wrapper), { maxLength: 60 }).map((a) => a.join(''));
const sizes = fc.array(fc.integer({ min: 1, max: 24 }), { minLength: 1, maxLength: 8 });
const maxLength = fc.oneof(fc.constant(65536), fc.integer({ min: 8, max: 120 }));

function streamed(t: string, chunk: number[], options: { maxLength: number }): Match[] {
  const ex = createExtractor(options);
  const out: Match[] = [];
  for (let i = 0, k = 0; i < t.length; k++) {
    const n = chunk[k % chunk.length];
    out.push(...ex.push(t.slice(i, i + n)));
    i += n;
  }
  out.push(...ex.end());
  return out;
}

/** Line and column of an offset, computed independently: LF, CR LF and lone CR end lines. */
function lineColumn(t: string, at: number): [number, number] {
  const before = t.slice(0, at);
  const breaks = before.match(/\r\n|\r|\n/g)?.length ?? 0;
  const last = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
  return [breaks + 1, at - (last + 1) + 1];
}

const SPACE = /[\s\u00a0\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

function isSubsequence(small: string, big: string): boolean {
  let j = 0;
  for (let i = 0; i < big.length && j < small.length; i++) if (big[i] === small[j]) j++;
  return j === small.length;
}

test('the push form gives the same matches as extract() for any chunking (seed 1738)', () => {
  fc.assert(
    fc.property(text, sizes, maxLength, (t, chunk, max) => {
      assert.deepEqual(streamed(t, chunk, { maxLength: max }), [...extract(t, { maxLength: max })]);
    }),
    { seed: 1738, numRuns: 1500 },
  );
});

test('every match keeps the invariants: order, bounds, lines, the URL inside its text (seed 1738)', () => {
  fc.assert(
    fc.property(text, maxLength, (t, max) => {
      let prevEnd = 0;
      for (const m of extract(t, { maxLength: max })) {
        assert.ok(m.start >= prevEnd && m.start < m.end && m.end <= t.length);
        assert.ok(m.end - m.start <= max);
        prevEnd = m.end;
        assert.deepEqual([m.line, m.column], lineColumn(t, m.start));
        const slice = t.slice(m.start, m.end);
        if (m.form === 'bare') {
          assert.equal(slice, m.url);
          assert.doesNotMatch(m.url, /[\s<>"{}|\\^~[\]`\u0080-\uffff]/);
          assert.doesNotMatch(m.url, /[.,;:!?]$/);
          assert.deepEqual(m.alternatives, []);
        } else {
          assert.equal(slice[0], '<');
          assert.equal(slice[slice.length - 1], '>');
          assert.doesNotMatch(m.url, SPACE);
          assert.ok(isSubsequence(m.url, slice), `${m.url} in ${JSON.stringify(slice)}`);
          const inner = [...slice.slice(1, -1)].filter((c) => !SPACE.test(c)).join('');
          if (!/[\r\n]/.test(slice)) assert.equal(m.form === 'prefixed' ? inner.slice(4) : inner, m.url);
          assert.equal(m.form === 'prefixed', /^url:/i.test(inner));
          for (const alt of m.alternatives) {
            assert.ok(alt.length < m.url.length && isSubsequence(alt, m.url));
            assert.equal(alt.replace(/-/g, '').length, m.url.replace(/-/g, '').length, 'only hyphens are removed');
          }
        }
      }
    }),
    { seed: 1738, numRuns: 1500 },
  );
});

test('matches of the stream form continue offsets, lines and columns across chunks (seed 1738)', () => {
  fc.assert(
    fc.property(fc.array(text, { minLength: 2, maxLength: 5 }), (parts) => {
      const whole = parts.join('');
      const ex = createExtractor();
      const got = parts.flatMap((p) => ex.push(p)).concat(ex.end());
      for (const m of got) assert.deepEqual([m.line, m.column], lineColumn(whole, m.start));
    }),
    { seed: 1738, numRuns: 500 },
  );
});

/** Streams `chunks` through a Scanner and returns the largest buffer it held. */
function peakBuffer(chunks: Iterable<string>, max: number): { peak: number; found: number } {
  const s = new Scanner({ maxLength: max, bare: true, written: false });
  let peak = 0;
  let found = 0;
  for (const c of chunks) {
    s.append(c);
    while (s.next() !== null) found++;
    peak = Math.max(peak, s.buf.length);
  }
  s.final = true;
  while (s.next() !== null) found++;
  return { peak, found };
}

function* repeat(piece: string, total: number, chunk: number): Generator<string> {
  let t = '';
  let n = 0;
  while (n < total) {
    while (t.length < chunk) t += piece;
    yield t.slice(0, chunk);
    t = t.slice(chunk);
    n += chunk;
  }
}

const BUFFER_MAX = 4096;
const BUFFER_CHUNK = 1000;
const BUFFER_CASES: Array<[string, string, number]> = [
  ['prose with URLs', 'Yes, Jim, see <URL:ftp://ds.in\n   ternic.net/rfc> and http://a.com/x. ', 2000],
  ['one endless line of prose', 'word ', 0],
  ['an unclosed wrapper over and over', '<URL:http://a.com/ab cd ef\n', 0],
  ['a bare URL with no end', 'http://a.com/' + 'x'.repeat(50), 0],
  ['a run of URL characters', 'xyz', 0],
  ['colons everywhere', 'a:b:c:http:', 0],
  ['opening brackets everywhere', '<<<< <', 0],
];
eachRow(
  'the stream buffer stays within maxLength + LOOKBACK + one chunk, whatever the text',
  BUFFER_CASES,
  ([what, piece, expectFound]) => {
    const bound = BUFFER_MAX + LOOKBACK + BUFFER_CHUNK;
    const { peak, found } = peakBuffer(repeat(piece, 400_000, BUFFER_CHUNK), BUFFER_MAX);
    assert.ok(peak <= bound, `${what}: peak ${peak} > ${bound}`);
    if (expectFound > 0) assert.ok(found >= expectFound, `${what}: found ${found}`);
  },
);
