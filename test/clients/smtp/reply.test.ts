// The pure SMTP reply parsers (RFC 5321 4.2, 4.2.1; RFC 1869 / 5321 4.1.1.1 EHLO keywords; RFC
// 3463 enhanced codes): table rows, then every split point of a stream of replies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LocatorError } from '../../../src/core/errors.js';
import {
  MAX_REPLY_OCTETS,
  enhancedCode,
  parseEhlo,
  parseReplies,
  queueId,
  type SmtpReply,
} from '../../../src/clients/smtp/reply.js';
import { eachRow } from '../../helpers.js';

const bytes = (s: string) => new TextEncoder().encode(s);

/** Feeds the pieces in order, carrying the rest, as the session does. */
function feed(pieces: Uint8Array[]): SmtpReply[] {
  const out: SmtpReply[] = [];
  let rest = new Uint8Array(0);
  for (const p of pieces) {
    const joined = new Uint8Array(rest.length + p.length);
    joined.set(rest);
    joined.set(p, rest.length);
    const r = parseReplies(joined);
    out.push(...r.replies);
    rest = new Uint8Array(r.rest);
  }
  assert.equal(rest.length, 0, 'nothing left over');
  return out;
}

// input | codes | texts (lines joined by |) | octets left | section
const ROWS: Array<[string, number[], string[], number, string]> = [
  ['220 mail.example.test ESMTP OpenSMTPD\r\n', [220], ['mail.example.test ESMTP OpenSMTPD'], 0, 'RFC 5321 4.2'],
  ['220 no line end yet', [], [], 19, 'RFC 5321 4.2'],
  ['250-a\r\n250-b\r\n250 c\r\n', [250], ['a|b|c'], 0, 'RFC 5321 4.2.1'],
  ['250-a\r\n250-b\r\n', [], [], 14, 'RFC 5321 4.2.1'], // multi-line not ended
  ['250 Ok\r\n354 go\r\n', [250, 354], ['Ok', 'go'], 0, 'RFC 2920 3.1'], // pipelined replies
  ['250\r\n', [250], [''], 0, 'RFC 5321 4.2'], // Reply-code [ SP textstring ]
  ['221 Bye\n', [221], ['Bye'], 0, 'RFC 5321 2.3.8'], // bare LF (DEVIATION)
  ['334 \r\n', [334], [''], 0, 'RFC 4954 4'], // an empty challenge
];
eachRow('RFC 5321 4.2: replies', ROWS, ([input, codes, texts, rest]) => {
  const r = parseReplies(bytes(input));
  assert.deepEqual(
    r.replies.map((x) => x.code),
    codes,
  );
  assert.deepEqual(
    r.replies.map((x) => x.texts.join('|')),
    texts,
  );
  assert.equal(r.rest.length, rest);
});

// input | what the message says                     -- RFC 5321 4.2, 4.2.1
const BAD: Array<[string, RegExp]> = [
  ['HTTP/1.1 400 Bad Request\r\n', /not a reply line/],
  ['25O letter O\r\n', /not a reply line/],
  ['150 first digit 1\r\n', /not a reply line/], // 4.2.1: 2 to 5
  ['260 second digit 6\r\n', /not a reply line/], // 4.2.1: second digit 0 to 5
  ['250x\r\n', /not a reply line/],
  ['\r\n', /not a reply line/],
  ['250-a\r\n251 b\r\n', /changed the reply code from 250 to 251/],
];
eachRow('RFC 5321 4.2: not a reply', BAD, ([input, message]) => {
  assert.throws(
    () => parseReplies(bytes(input)),
    (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error' && message.test(e.message),
  );
});

test('RFC 5321 4.5.3.1.5: a multi-line reply that never ends is refused past MAX_REPLY_OCTETS', () => {
  const line = '250-' + 'x'.repeat(500) + '\r\n';
  const endless = line.repeat(Math.ceil(MAX_REPLY_OCTETS / line.length) + 1);
  assert.throws(() => parseReplies(bytes(endless)), /longer than 65536 octets/);
  // and one that stays under it is only incomplete
  const r = parseReplies(bytes(line.repeat(10)));
  assert.equal(r.replies.length, 0);
  assert.equal(r.rest.length, line.length * 10);
});

test('RFC 5321 4.5.3.1.5: a line with no end is refused past MAX_REPLY_OCTETS', () => {
  assert.throws(() => parseReplies(bytes('220 ' + 'y'.repeat(MAX_REPLY_OCTETS))), /longer than/);
});

test('RFC 5321 4.2: a stream of replies split anywhere parses the same', () => {
  const stream = bytes(
    '220 greeting\r\n250-mail.example.test\r\n250-SIZE 100\r\n250 HELP\r\n250 2.1.0 Ok\r\n354 go\r\n',
  );
  const whole = parseReplies(stream).replies;
  assert.deepEqual(
    whole.map((r) => r.code),
    [220, 250, 250, 354],
  );
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 6 }), (cuts) => {
      const at = [0, ...cuts.sort((a, b) => a - b), stream.length];
      const pieces = at.slice(1).map((end, i) => stream.subarray(at[i], end));
      assert.deepEqual(feed(pieces), whole);
    }),
    { seed: 1738, numRuns: 200 },
  );
});

// text | code | enhanced                                  -- RFC 3463 2, RFC 2034 4
const ENHANCED: Array<[string, number, string | null]> = [
  ['2.1.5 Destination address valid', 250, '2.1.5'],
  ['4.3.0 try later', 451, '4.3.0'],
  ['5.7.8 Authentication failed', 535, '5.7.8'],
  ['2.0.0', 250, '2.0.0'],
  ['5.1.1 wrong class for 250', 250, null], // the class is the reply's first digit
  ['Ok', 250, null],
  ['2.1.5x', 250, null],
];
eachRow('RFC 3463 2: enhanced status codes', ENHANCED, ([text, code, want]) => {
  assert.equal(enhancedCode(text, code), want);
});

test('RFC 5321 4.1.1.1: the EHLO keywords of OpenSMTPD 6.8, as it sends them', () => {
  const [r] = parseReplies(
    bytes(
      '250-mail.example.test Hello [127.0.0.1] [127.0.0.1], pleased to meet you\r\n250-8BITMIME\r\n250-ENHANCEDSTATUSCODES\r\n250-SIZE 36700160\r\n250-DSN\r\n250-auth login PLAIN\r\n250 HELP\r\n',
    ),
  ).replies;
  assert.deepEqual(
    [...parseEhlo(r)],
    [
      ['8BITMIME', ''],
      ['ENHANCEDSTATUSCODES', ''],
      ['SIZE', '36700160'],
      ['DSN', ''],
      ['AUTH', 'login PLAIN'],
      ['HELP', ''],
    ],
  );
});

// final reply text | queue id                      -- a hint; no RFC defines it
const QUEUE: Array<[string, string | null]> = [
  ['250 2.0.0 79b0fbf6 Message accepted for delivery\r\n', '79b0fbf6'], // OpenSMTPD
  ['250 2.0.0 Ok: queued as 4Fj1xQ2abc\r\n', '4Fj1xQ2abc'], // Postfix
  ['250 OK id=1rZ9Xy-000123-AB\r\n', '1rZ9Xy-000123-AB'], // Exim
  ['250 2.0.0 Ok: passed on\r\n', null],
];
eachRow('RFC 5321 4.1.1.4: the queue id of the final reply', QUEUE, ([input, want]) => {
  assert.equal(queueId(parseReplies(bytes(input)).replies[0]), want);
});
