// The framing core (src/clients/framing/): the reply engine with a grammar per protocol (RFC 959
// 4.2, RFC 5321 4.2, RFC 3977 3.1), the dot-terminated block codec (RFC 3977 3.1.1, RFC 5321
// 4.5.2, RFC 1436 3.9) at every chunk boundary, the line splitter, the byte join and ReplyError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocatorError } from '../../../src/core/errors.js';
import { CRLF, concat, concatBytes } from '../../../src/clients/framing/bytes.js';
import { LineSplitter } from '../../../src/clients/framing/lines.js';
import { dotStuff, undot, type Unstuff } from '../../../src/clients/framing/dot.js';
import { lineText, parseReplies, type ReplyGrammar } from '../../../src/clients/framing/reply.js';
import { ReplyError } from '../../../src/clients/framing/errors.js';
import { FTP_REPLIES, type FtpReply } from '../../../src/clients/ftp/parser.js';
import { SMTP_REPLIES, type SmtpReply } from '../../../src/clients/smtp/reply.js';
import { FtpReplyError } from '../../../src/clients/ftp/errors.js';
import { SmtpReplyError } from '../../../src/clients/smtp/errors.js';
import { NntpReplyError } from '../../../src/clients/nntp/errors.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string) => enc.encode(s);

/** Feeds `wire` cut at `cuts` to the engine, carrying the rest as a session does. */
function feedReplies<R>(wire: Uint8Array, cuts: number[], grammar: ReplyGrammar<R>): { replies: R[]; rest: string } {
  const replies: R[] = [];
  let rest: Uint8Array = new Uint8Array(0);
  let from = 0;
  for (const to of [...cuts, wire.length]) {
    const r = parseReplies(concat(rest, wire.subarray(from, to)), grammar);
    replies.push(...r.replies);
    rest = r.rest;
    from = to;
  }
  return { replies, rest: dec.decode(rest) };
}

/** Every single cut point of `n` octets, and none. */
function everyCut(n: number): number[][] {
  const out: number[][] = [[]];
  for (let i = 1; i < n; i++) out.push([i]);
  return out;
}

type Row = [string, string, Array<[number, string[]]> | string, string];

// [wire, grammar, replies as [code, lines] or the exact message of the error it gives, rest]
const ROWS: Row[] = [
  ['226 Transfer complete.\r\n', 'ftp', [[226, ['226 Transfer complete.']]], ''],
  [
    '211-Features:\r\n EPSV\r\n PASV\r\n211 End\r\n',
    'ftp',
    [[211, ['211-Features:', ' EPSV', ' PASV', '211 End']]],
    '',
  ],
  ['211-a\r\n 211-b not the end\r\n211\r\n', 'ftp', [[211, ['211-a', ' 211-b not the end', '211']]], ''],
  ['211-a\r\n212 other code\r\n211 end\r\n', 'ftp', [[211, ['211-a', '212 other code', '211 end']]], ''],
  ['211-a\r\n b\r\n', 'ftp', [], '211-a\r\n b\r\n'],
  [
    '220 a\r\n221 b\r\n230',
    'ftp',
    [
      [220, ['220 a']],
      [221, ['221 b']],
    ],
    '230',
  ],
  ['220 bare LF\n', 'ftp', [[220, ['220 bare LF']]], ''],
  [
    'hello\r\n',
    'ftp',
    'the FTP server sent "hello", which is not a reply: a reply starts with a three-digit code (RFC 959 4.2) (protocol-error)',
    '',
  ],
  ['250-a\r\n250-b\r\n250 c\r\n', 'smtp', [[250, ['250-a', '250-b', '250 c']]], ''],
  ['250-a\r\n250-b\r\n', 'smtp', [], '250-a\r\n250-b\r\n'],
  [
    '250-a\r\n continuation\r\n250 c\r\n',
    'smtp',
    'the SMTP server sent " continuation", which is not a reply line: a reply line is a three-digit code from 200 to 559, then " ", "-" or the end of the line (RFC 5321 4.2) (protocol-error)',
    '',
  ],
  [
    '250-a\r\n251 b\r\n',
    'smtp',
    'the SMTP server changed the reply code from 250 to 251 inside one multi-line reply (RFC 5321 4.2.1) (protocol-error)',
    '',
  ],
  [
    '250 Ok\r\n354 go\r\n',
    'smtp',
    [
      [250, ['250 Ok']],
      [354, ['354 go']],
    ],
    '',
  ],
];

const GRAMMARS: Record<string, ReplyGrammar<FtpReply | SmtpReply>> = { ftp: FTP_REPLIES, smtp: SMTP_REPLIES };

for (const [wire, g, want, rest] of ROWS) {
  test(`reply engine, ${g} grammar: ${JSON.stringify(wire)} at every split point`, () => {
    const w = bytes(wire);
    for (const cuts of everyCut(w.length)) {
      if (typeof want === 'string') {
        assert.throws(
          () => feedReplies(w, cuts, GRAMMARS[g]),
          (e: unknown) =>
            e instanceof LocatorError && e.code === 'protocol-error' && e.offset === -1 && e.message === want,
          `cut at ${cuts}`,
        );
        continue;
      }
      const r = feedReplies(w, cuts, GRAMMARS[g]);
      assert.deepEqual(
        r.replies.map((x) => [x.code, x.lines]),
        want,
        `cut at ${cuts}`,
      );
      assert.equal(r.rest, rest, `cut at ${cuts}`);
    }
  });
}

test('reply engine: an unfinished reply past maxOctets is refused, a finished one of that size is not', () => {
  const tiny: ReplyGrammar<{ code: number; lines: string[] }> = {
    ...(FTP_REPLIES as ReplyGrammar<never>),
    maxOctets: 16,
    reply: (code, lines) => ({ code, lines }),
    tooLong: () => new LocatorError('protocol-error', -1, 'too long'),
  };
  // 15 octets so far: under the bound, kept as the rest
  assert.equal(parseReplies(bytes('211-abcdefghij\r'), tiny).rest.length, 15);
  // a line without its end past the bound
  assert.throws(() => parseReplies(bytes('211 abcdefghijklmnop'), tiny), /too long/);
  // the continuation lines of one reply past the bound, its end not yet come
  assert.throws(() => parseReplies(bytes('211-abcdef\r\n x\r\n y\r\n z\r\n'), tiny), /too long/);
  // a single-line reply is whole when its line ends: no bound applies to what is complete
  assert.deepEqual(parseReplies(bytes('211 abcdefghijklmnopqrstuvwxyz\r\n'), tiny).replies.length, 1);
});

test('reply engine: `limit` stops after that many replies and leaves the rest unread', () => {
  const r = parseReplies(bytes('220 a\r\n221 b\r\n'), FTP_REPLIES, 1);
  assert.deepEqual(
    r.replies.map((x) => x.code),
    [220],
  );
  assert.equal(dec.decode(r.rest), '221 b\r\n');
});

test('lineText: the CR before LF dropped, UTF-8 decoded, anything else U+FFFD', () => {
  const b = Uint8Array.from([...bytes('caf'), 0xc3, 0xa9, 0xff, 13]);
  assert.equal(lineText(b, 0, b.length), 'caf\u00e9\uFFFD');
});

// ---------------------------------------------------------------------------------------------
// Dot-terminated blocks

/** Feeds `wire` cut at `cuts` to undot, carrying the pending octets; the data, what follows, done. */
function feedDots(wire: Uint8Array, cuts: number[], unstuff: Unstuff): { data: string; after: string; done: boolean } {
  const state = { atLineStart: true };
  let pending: Uint8Array = new Uint8Array(0);
  const data: Uint8Array[] = [];
  let from = 0;
  for (const to of [...cuts, wire.length]) {
    const r = undot(concat(pending, wire.subarray(from, to)), state, unstuff);
    data.push(r.data);
    pending = r.pending;
    if (r.done) {
      return { data: dec.decode(concatBytes(data)), after: dec.decode(concat(r.rest, wire.subarray(to))), done: true };
    }
    from = to;
  }
  return { data: dec.decode(concatBytes(data)), after: dec.decode(pending), done: false };
}

// [wire, unstuff, data, after, done]
const DOTS: Array<[string, Unstuff, string, string, boolean]> = [
  ['a\r\nb\r\n.\r\n', 'any', 'a\r\nb\r\n', '', true],
  ['..a\r\n.b\r\n.\r\n211 next\r\n', 'any', '.a\r\nb\r\n', '211 next\r\n', true],
  ['..a\r\n.b\r\n.\r\n', 'double', '.a\r\n.b\r\n', '', true],
  ['.\r\n', 'any', '', '', true],
  ['a\n.\nrest', 'any', 'a\n', 'rest', true],
  ['x.\r\n.\r\n', 'any', 'x.\r\n', '', true],
  ['a\r\n.\rx\r\n.\r\n', 'any', 'a\r\n\rx\r\n', '', true],
  ['a\r\n.\rx\r\n.\r\n', 'double', 'a\r\n.\rx\r\n', '', true],
  ['a\r\nb', 'any', 'a\r\nb', '', false],
  ['a\r\n.', 'any', 'a\r\n', '.', false],
  ['a\r\n.\r', 'double', 'a\r\n', '.\r', false],
];

for (const [wire, unstuff, data, after, done] of DOTS) {
  test(`undot (${unstuff}): ${JSON.stringify(wire)} at every pair of split points`, () => {
    const w = bytes(wire);
    for (let i = 0; i <= w.length; i++) {
      for (let j = i; j <= w.length; j++) {
        const r = feedDots(w, [i, j], unstuff);
        assert.deepEqual(r, { data, after, done }, `cut at ${i}, ${j}`);
      }
    }
  });
}

test('undot: a chunk with no stuffed period is handed on as a view, not copied', () => {
  const b = bytes('line one\r\nline two\r\n');
  const r = undot(b, { atLineStart: true });
  assert.equal(r.data.buffer, b.buffer);
});

test('dotStuff then undot gives the message back (RFC 5321 4.5.2), at every split point', () => {
  for (const message of ['', 'a', '.', '..x\r\n', 'a\r\n.\r\nb', '.a\r\n..b\r\n.', 'no end']) {
    const wire = dotStuff(bytes(message));
    const want = message === '' || message.endsWith('\r\n') ? message : message + '\r\n';
    for (const cuts of everyCut(wire.length)) {
      assert.deepEqual(feedDots(wire, cuts, 'any'), { data: want, after: '', done: true }, `${message} ${cuts}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Lines and bytes

test('LineSplitter: the same lines at every split point; CR LF and LF cut; the last line kept', () => {
  const wire = bytes('one\r\ntwo\nthree\r\r\nfour');
  for (const cuts of everyCut(wire.length)) {
    const s = new LineSplitter(100);
    const lines: string[] = [];
    let from = 0;
    for (const to of [...cuts, wire.length]) {
      lines.push(...s.push(wire.subarray(from, to)).map((l) => dec.decode(l)));
      from = to;
    }
    assert.deepEqual(lines, ['one', 'two', 'three\r'], `cut at ${cuts}`);
    assert.equal(dec.decode(s.end() ?? new Uint8Array(0)), 'four');
    assert.equal(s.end(), null);
  }
});

test('LineSplitter: an unfinished line longer than the bound is the error it is given', () => {
  const s = new LineSplitter(4, (max) => new LocatorError('protocol-error', -1, `over ${max}`));
  assert.deepEqual(s.push(bytes('abcd')), []);
  assert.throws(() => s.push(bytes('e')), /over 4/);
});

test('concat and concatBytes: no copy for one part, the parts in order otherwise', () => {
  const a = bytes('ab');
  assert.equal(concat(a, new Uint8Array(0)), a);
  assert.equal(concat(new Uint8Array(0), a), a);
  assert.equal(concatBytes([a]), a);
  assert.equal(dec.decode(concatBytes([a, CRLF, bytes('c')])), 'ab\r\nc');
  assert.equal(concatBytes([]).length, 0);
});

// ---------------------------------------------------------------------------------------------
// ReplyError

test('the FTP, SMTP and NNTP reply errors are ReplyErrors with the exact reply code, text, command and message', () => {
  const errors: ReplyError[] = [
    new FtpReplyError({ code: 550, lines: ['550 No such file'], text: 'No such file' }, 'RETR x'),
    new SmtpReplyError(
      { code: 554, lines: ['554-5.7.1 no', '554 5.7.1 never'], texts: ['5.7.1 no', '5.7.1 never'], enhanced: '5.7.1' },
      'DATA',
    ),
    new SmtpReplyError({ code: 421, lines: ['421 busy'], texts: ['busy'], enhanced: null }, null),
    new NntpReplyError({ code: 430, text: 'no such article' }, 'ARTICLE <a@b>'),
    new FtpReplyError({ code: 530, lines: ['530 Login incorrect.'], text: 'Login incorrect.' }, null, 'own message'),
  ];
  for (const e of errors) assert.ok(e instanceof ReplyError && e instanceof LocatorError, e.name);
  assert.deepEqual(
    errors.map((e) => ({
      name: e.name,
      code: e.code,
      offset: e.offset,
      replyCode: e.replyCode,
      replyText: e.replyText,
      command: e.command,
      message: e.message,
    })),
    [
      {
        name: 'FtpReplyError',
        code: 'ftp-reply',
        offset: -1,
        replyCode: 550,
        replyText: 'No such file',
        command: 'RETR x',
        message: 'the FTP server answered 550 "No such file" to "RETR x" (ftp-reply)',
      },
      {
        name: 'SmtpReplyError',
        code: 'smtp-reply',
        offset: -1,
        replyCode: 554,
        replyText: '5.7.1 no\n5.7.1 never',
        command: 'DATA',
        message:
          'the SMTP server answered 554 "5.7.1 no\\n5.7.1 never" to "DATA": a permanent failure (5yz): sending it again as it is will fail again (RFC 5321 4.2.1) (smtp-reply)',
      },
      {
        name: 'SmtpReplyError',
        code: 'smtp-reply',
        offset: -1,
        replyCode: 421,
        replyText: 'busy',
        command: null,
        message:
          'the SMTP server answered 421 "busy" on connecting: a transient failure (4yz): the message was not sent, and it may be retried later (RFC 5321 4.2.1) (smtp-reply)',
      },
      {
        name: 'NntpReplyError',
        code: 'nntp-reply',
        offset: -1,
        replyCode: 430,
        replyText: 'no such article',
        command: 'ARTICLE <a@b>',
        message: 'the NNTP server answered 430 "no such article" to "ARTICLE <a@b>" (nntp-reply)',
      },
      {
        name: 'FtpReplyError',
        code: 'ftp-reply',
        offset: -1,
        replyCode: 530,
        replyText: 'Login incorrect.',
        command: null,
        message: 'own message (ftp-reply)',
      },
    ],
  );
  const smtp = errors[1] as SmtpReplyError;
  assert.equal(smtp.enhancedCode, '5.7.1');
  assert.equal(smtp.transient, false);
  assert.equal((errors[2] as SmtpReplyError).transient, true);
  assert.equal((errors[2] as SmtpReplyError).enhancedCode, null);
});
