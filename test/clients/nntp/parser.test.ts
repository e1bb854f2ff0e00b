// The pure NNTP parsers (src/clients/nntp/parser.ts, netrc.ts): status lines (RFC 3977 3.2),
// dot-stuffing (3.1.1) at every chunk boundary, CAPABILITIES (5.2), overview lines (8.3.2),
// LIST ACTIVE lines (7.6.3), headers (RFC 5322 2.2.3), encoded-words (RFC 2047), netrc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocatorError } from '../../../src/core/errors.js';
import {
  LineSplitter,
  activeListingLine,
  bareMessageId,
  decodeEncodedWords,
  decodeText,
  entryFromHeaders,
  overviewListingLine,
  parseActiveLine,
  parseCapabilities,
  parseHeaders,
  parseOverviewLine,
  parseReply,
  undotChunk,
  type DotState,
} from '../../../src/clients/nntp/parser.js';
import { netrcEntry, parseNetrc } from '../../../src/clients/nntp/netrc.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

const REPLIES: Array<[string, number | null, string, string]> = [
  ['200 news.example.test ready', 200, 'news.example.test ready', 'RFC 3977 5.1.1'],
  ['205', 205, '', 'RFC 3977 3.2: a code alone'],
  ['211 4 1 4 local.test', 211, '4 1 4 local.test', 'RFC 3977 6.1.1'],
  ['480\tauth', 480, 'auth', 'RFC 977 2.4.1: TAB separates too'],
  ['20 short', null, '', 'RFC 3977 3.2: three digits'],
  ['2000 long', null, '', 'RFC 3977 3.2: three digits, then a space'],
  ['600 out of range', null, '', 'RFC 3977 3.2: the first digit is 1 to 5'],
  ['HTTP/1.0 200 OK', null, '', 'another protocol'],
  ['', null, '', 'an empty line'],
];

for (const [line, code, text, section] of REPLIES) {
  test(`${section}: status line ${JSON.stringify(line)}`, () => {
    if (code === null) {
      assert.throws(
        () => parseReply(line),
        (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error',
      );
    } else {
      assert.deepEqual(parseReply(line), { code, text });
    }
  });
}

/** Feeds `wire` to undotChunk in pieces cut at `cuts`; returns the data, what follows, and whether it ended. */
function undot(wire: string, cuts: number[]): { data: string; rest: string; done: boolean } {
  const state: DotState = { atLineStart: true };
  const bytes = enc.encode(wire);
  let pending: Uint8Array = new Uint8Array(0);
  let data = '';
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    const piece = bytes.subarray(from, to);
    from = to;
    const buf = new Uint8Array(pending.length + piece.length);
    buf.set(pending);
    buf.set(piece, pending.length);
    const r = undotChunk(buf, state);
    data += dec.decode(r.data);
    pending = r.pending;
    if (r.done) return { data, rest: dec.decode(r.rest) + dec.decode(bytes.subarray(to)), done: true };
  }
  return { data, rest: '', done: false };
}

const DOT_ROWS: Array<[string, string, string, string]> = [
  ['a\r\n.\r\n', 'a\r\n', '', 'RFC 3977 3.1.1: "." alone ends the block'],
  ['..x\r\n.\r\n', '.x\r\n', '', 'RFC 3977 3.1.1: a stuffed "." is removed'],
  ['...\r\n.\r\n', '..\r\n', '', 'RFC 3977 3.1.1: only the first "."'],
  ['..\r\n.\r\n', '.\r\n', '', 'RFC 3977 3.1.1: a line that was "." alone'],
  ['a.b\r\n.c\r\n.\r\n', 'a.b\r\nc\r\n', '', 'RFC 3977 3.1.1: a "." inside a line stays'],
  ['.\r\n205 Bye\r\n', '', '205 Bye\r\n', 'RFC 3977 3.1.1: an empty block; what follows is kept'],
  ['x\n.\n', 'x\n', '', 'lenient: lone LF line ends'],
  ['a\r\n\r\n.\r\nnext', 'a\r\n\r\n', 'next', 'RFC 3977 3.1.1: an empty line is data'],
];

for (const [wire, data, rest, section] of DOT_ROWS) {
  test(`${section}: ${JSON.stringify(wire)}, cut at every position`, () => {
    for (let cut = 0; cut <= wire.length; cut++) {
      assert.deepEqual(undot(wire, [cut]), { data, rest, done: true }, `cut at ${cut}`);
    }
    // one octet at a time
    const all = Array.from({ length: wire.length }, (_, i) => i);
    assert.deepEqual(undot(wire, all), { data, rest, done: true }, 'octet by octet');
  });
}

test('RFC 3977 3.1.1: a block without its "." line is not done', () => {
  assert.deepEqual(undot('a\r\n..b\r\n', []), { data: 'a\r\n.b\r\n', rest: '', done: false });
  assert.equal(undot('a\r\n.', []).done, false);
  assert.equal(undot('a\r\n.\r', []).done, false);
});

test('LineSplitter: lines across pushes, CR LF and LF cut, the unfinished last line kept', () => {
  const s = new LineSplitter();
  const show = (ls: Uint8Array[]) => ls.map((l) => dec.decode(l));
  assert.deepEqual(show(s.push(enc.encode('one\r\ntw'))), ['one']);
  assert.deepEqual(show(s.push(enc.encode('o\nthree\r'))), ['two']);
  assert.deepEqual(show(s.push(enc.encode('\n'))), ['three']);
  assert.deepEqual(show(s.push(enc.encode('tail'))), []);
  assert.equal(dec.decode(s.end()!), 'tail');
  assert.equal(s.end(), null);
});

test('LineSplitter: a line longer than the limit is a protocol error', () => {
  const s = new LineSplitter();
  assert.throws(
    () => s.push(new Uint8Array(300 * 1024).fill(65)),
    (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error',
  );
});

test('RFC 3977 5.2: CAPABILITIES labels are upper-cased, with their arguments', () => {
  const caps = parseCapabilities(['VERSION 2', 'mode-reader', 'LIST ACTIVE NEWSGROUPS', '', 'OVER MSGID']);
  assert.deepEqual([...caps.keys()], ['VERSION', 'MODE-READER', 'LIST', 'OVER']);
  assert.deepEqual(caps.get('LIST'), ['ACTIVE', 'NEWSGROUPS']);
});

// RFC 2047 8 (examples), and 6.2 (white space between adjacent encoded-words).
const WORDS: Array<[string, string, string]> = [
  ['=?ISO-8859-1?Q?a?=', 'a', 'RFC 2047 8'],
  ['=?ISO-8859-1?Q?a?= b', 'a b', 'RFC 2047 8'],
  ['=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?=', 'ab', 'RFC 2047 8: space between words dropped'],
  ['=?ISO-8859-1?Q?a?=  \t =?ISO-8859-1?Q?b?=', 'ab', 'RFC 2047 8'],
  ['=?ISO-8859-1?Q?a_b?=', 'a b', 'RFC 2047 8: "_" is a space'],
  ['=?ISO-8859-1?Q?a?= =?ISO-8859-2?Q?_b?=', 'a b', 'RFC 2047 8'],
  ['=?US-ASCII?Q?Keith_Moore?= <moore@cs.utk.edu>', 'Keith Moore <moore@cs.utk.edu>', 'RFC 2047 8'],
  ['=?ISO-8859-1?Q?Keld_J=F8rn_Simonsen?=', 'Keld Jørn Simonsen', 'RFC 2047 8'],
  ['=?UTF-8?B?R3LDvMOfZSBhdXM=?= =?UTF-8?Q?_K=C3=B6ln?=', 'Grüße aus Köln', 'RFC 2047 4.1, 4.2'],
  ['=?utf-8*de?q?K=C3=B6ln?=', 'Köln', 'RFC 2231 5: a language after the charset'],
  ['=?X-UNKNOWN?Q?abc?=', '=?X-UNKNOWN?Q?abc?=', 'RFC 2047 6.2: an unknown charset is left as it is'],
  ['=?UTF-8?Q?bad=Z1?=', '=?UTF-8?Q?bad=Z1?=', 'a malformed word is left as it is'],
  ['plain text', 'plain text', 'no encoded-word'],
];

for (const [input, want, section] of WORDS) {
  test(`${section}: decodes ${JSON.stringify(input)}`, () => {
    assert.equal(decodeEncodedWords(input), want);
  });
}

test('RFC 3977 8.3.2: an overview line; fields past :lines are ignored', () => {
  const line =
    '3\tSubj\tA <a@b.example>\tMon, 23 Nov 2026 21:38:36 +0000\t<m.3@b.example>\t<r@b.example>\t647\t1\tXref: x local.test:3';
  assert.deepEqual(parseOverviewLine(line), {
    number: '3',
    subject: 'Subj',
    from: 'A <a@b.example>',
    date: 'Mon, 23 Nov 2026 21:38:36 +0000',
    messageId: '<m.3@b.example>',
    bytes: '647',
  });
  assert.equal(parseOverviewLine('not a number\tx'), null);
  assert.equal(parseOverviewLine('0007\ts')!.number, '7');
  assert.equal(parseOverviewLine('7\ts\tf\td\t<m@h>\t\tmany\t1')!.bytes, '');
});

test('the listing line: TAB-separated, encoded-words decoded, TAB/CR/LF in a field made spaces', () => {
  const e = {
    number: '9',
    subject: '=?UTF-8?Q?a=09b=0Dc?=',
    from: 'x',
    date: 'd',
    messageId: '<m@h.example>',
    bytes: '',
  };
  assert.equal(overviewListingLine(e, 'news:m@h.example'), '9\ta b c\tx\td\t\tnews:m@h.example\n');
});

test('RFC 3977 7.6.3: LIST ACTIVE lines; numbers without their leading zeros', () => {
  assert.deepEqual(parseActiveLine('local.test 0000000004 0000000001 y'), {
    group: 'local.test',
    high: '4',
    low: '1',
    status: 'y',
  });
  assert.equal(parseActiveLine('garbage'), null);
  assert.equal(
    activeListingLine({ group: 'a.b', high: '10', low: '2', status: 'm' }, 'news:a.b'),
    'a.b\t10\t2\tm\tnews:a.b\n',
  );
});

test('RFC 5322 2.2.3: headers unfolded, names case-insensitive, the first of each kept', () => {
  const h = parseHeaders(['Subject: one', '  two', 'FROM: a@b', 'Subject: again', '', 'Body: no']);
  assert.equal(h.get('subject'), 'one two');
  assert.equal(h.get('from'), 'a@b');
  assert.equal(h.has('body'), false);
  assert.deepEqual(entryFromHeaders('5', parseHeaders(['Message-ID: <x@y>', 'Bytes: 12'])), {
    number: '5',
    subject: '',
    from: '',
    date: '',
    messageId: '<x@y>',
    bytes: '12',
  });
});

test('RFC 1738 3.6: the message-id of a news URL has no angle brackets', () => {
  assert.equal(bareMessageId('<a.1@example.test>'), 'a.1@example.test');
  assert.equal(bareMessageId(' <a@b> '), 'a@b');
  assert.equal(bareMessageId('a@b'), null);
  assert.equal(bareMessageId('<no-at>'), null);
});

test('RFC 3977 3.1: UTF-8 text, else Windows-1252 (an old 8-bit header)', () => {
  assert.equal(decodeText(enc.encode('Köln')), 'Köln');
  assert.equal(decodeText(Uint8Array.from([0x4b, 0xf6, 0x6c, 0x6e])), 'Köln');
});

test('netrc: machine entries, default, quoted tokens, macdef and comments', () => {
  const entries = parseNetrc(
    [
      '# comment',
      'machine news.example.test login alice password "s3 cret"',
      'macdef init',
      'machine fake login x password y',
      '',
      'machine [::1] login six password p6',
      'default login anon password guest',
    ].join('\n'),
  );
  assert.deepEqual(netrcEntry(entries, 'NEWS.example.test'), {
    machine: 'news.example.test',
    login: 'alice',
    password: 's3 cret',
  });
  assert.equal(netrcEntry(entries, 'fake')?.login, 'anon', 'the macro body is no entry');
  assert.equal(netrcEntry(entries, '::1')?.login, 'six');
  assert.equal(netrcEntry(entries, 'other.example')?.login, 'anon');
  assert.equal(netrcEntry(entries, 'news.example.test', 'alice')?.password, 's3 cret');
  assert.equal(netrcEntry(entries, 'news.example.test', 'bob'), null, 'no entry for that user');
  assert.equal(netrcEntry(parseNetrc(''), 'h'), null);
});
