// The message composer, byte for byte: RFC 5322 header fields and dates, RFC 2047 encoded words,
// RFC 2045 quoted-printable, RFC 5321 4.5.2 dot-stuffing, and the CR/LF refusals (RFC 1738 6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LocatorError } from '../../../src/core/errors.js';
import {
  assertNoLineBreak,
  base64,
  composeMessage,
  dotStuff,
  encodeWords,
  formatDate,
  formatMailbox,
  headerField,
  parseMailbox,
  prepareBody,
  quotedPrintableLine,
} from '../../../src/clients/smtp/message.js';
import { eachRow } from '../../helpers.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

// line (UTF-8 text) | quoted-printable                        -- RFC 2045 6.7
const QP: Array<[string, string]> = [
  ['plain ascii', 'plain ascii'],
  ['a=b', 'a=3Db'], // rule 1: "=" itself
  ['über', '=C3=BCber'], // rule 1: octets over 126
  ['trailing space ', 'trailing space=20'], // rule 3
  ['trailing tab\t', 'trailing tab=09'], // rule 3
  ['.leading dot', '=2Eleading dot'], // safe: no encoded line starts with "."
  ['in.the.middle', 'in.the.middle'],
  ['x'.repeat(75), 'x'.repeat(75)], // fits
  ['x'.repeat(76), 'x'.repeat(75) + '=\r\nx'], // rule 5: soft line break
  ['x'.repeat(74) + 'é', 'x'.repeat(74) + '=\r\n=C3=A9'], // an "=XX" is never cut
  ['x'.repeat(75) + '.y', 'x'.repeat(75) + '=\r\n=2Ey'], // a "." after a soft break is encoded
];
eachRow('RFC 2045 6.7: quoted-printable', QP, ([line, want]) => {
  assert.equal(quotedPrintableLine(bytes(line)), want);
});

test('RFC 2045 6.7: every encoded line is at most 76 characters and decodes back', () => {
  const decode = (s: string) =>
    Buffer.from(
      s.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    );
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
      const line = bytes(s.replace(/[\r\n]/g, ''));
      const qp = quotedPrintableLine(line);
      for (const l of qp.split('\r\n')) {
        assert.ok(l.length <= 76, l);
        assert.ok(!l.startsWith('.'), l);
      }
      assert.deepEqual(decode(qp), Buffer.from(line));
    }),
    { seed: 2045, numRuns: 300 },
  );
});

// text | encoded                                                -- RFC 2047 2, 4.1, 5
const WORDS: Array<[string, string]> = [
  ['Plain subject', 'Plain subject'],
  ['Grüße', '=?UTF-8?B?R3LDvMOfZQ==?='],
  ['ü'.repeat(19), `=?UTF-8?B?${base64(bytes('ü'.repeat(18)))}?= =?UTF-8?B?${base64(bytes('ü'))}?=`], // 36 octets a word
  ['a€€€€€€€€€€€€', `=?UTF-8?B?${base64(bytes('a€€€€€€€€€€€'))}?= =?UTF-8?B?${base64(bytes('€'))}?=`], // 34 octets: the next 3 would not fit, and no character is cut
];
eachRow('RFC 2047: encoded words', WORDS, ([input, want]) => {
  assert.equal(encodeWords(input), want);
  for (const w of want.split(' ')) assert.ok(w.length <= 60, w);
});

test('RFC 2045 6.8: base64', () => {
  for (const s of ['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar']) {
    assert.equal(base64(bytes(s)), Buffer.from(s).toString('base64'), s);
  }
});

// date | Date field                                             -- RFC 5322 3.3
const DATES: Array<[string, string]> = [
  ['1994-12-20T08:30:00Z', 'Tue, 20 Dec 1994 08:30:00 +0000'], // RFC 1738's month
  ['2026-01-05T23:59:09Z', 'Mon, 5 Jan 2026 23:59:09 +0000'],
];
eachRow('RFC 5322 3.3: the Date field', DATES, ([iso, want]) => {
  assert.equal(formatDate(new Date(iso)), want);
});

// sender | display name | address | as the From field writes it      -- RFC 5322 3.4
const MAILBOXES: Array<[string, string | null, string, string]> = [
  ['user@example.test', null, 'user@example.test', 'user@example.test'],
  ['<user@example.test>', null, 'user@example.test', 'user@example.test'],
  [
    'Joe Q. Public <john.q.public@example.com>',
    'Joe Q. Public',
    'john.q.public@example.com',
    '"Joe Q. Public" <john.q.public@example.com>',
  ], // RFC 5322 A.1.2
  ['Mary Smith <mary@x.test>', 'Mary Smith', 'mary@x.test', 'Mary Smith <mary@x.test>'], // RFC 5322 A.1.1
  [
    '"Giant; \\"Big\\" Box" <sysservices@example.net>',
    'Giant; "Big" Box',
    'sysservices@example.net',
    '"Giant; \\"Big\\" Box" <sysservices@example.net>',
  ], // A.1.2
  ['Jérôme <j@example.test>', 'Jérôme', 'j@example.test', '=?UTF-8?B?SsOpcsO0bWU=?= <j@example.test>'],
  ['"a b"@example.test', null, '"a b"@example.test', '"a b"@example.test'],
  ['a%b@example.test', null, 'a%b@example.test', 'a%b@example.test'], // "%" is an atom character
];
eachRow('RFC 5322 3.4: senders', MAILBOXES, ([input, name, address, field]) => {
  const m = parseMailbox(input);
  assert.deepEqual(m, { name, address });
  assert.equal(formatMailbox(m), field);
});

// sender | what is wrong                                   -- RFC 5322 3.4, RFC 1738 6
const BAD_SENDERS: Array<[string, string]> = [
  ['no-at-sign', 'invalid-mailbox'],
  ['two@@example.test', 'invalid-mailbox'],
  ['a b@example.test', 'invalid-mailbox'],
  ['Name user@example.test>', 'invalid-mailbox'],
  ['<a@example.test', 'invalid-mailbox'],
  ['a@example.test\r\nBcc: victim@example.test', 'smtp-line-break'],
  ['Name\n <a@example.test>', 'smtp-line-break'],
  ['a@exa\0mple.test', 'smtp-line-break'],
];
eachRow('RFC 5322 3.4: not a sender', BAD_SENDERS, ([input, code]) => {
  assert.throws(
    () => parseMailbox(input),
    (e: unknown) => e instanceof LocatorError && e.code === code,
  );
});

test('RFC 1738 6: CR, LF and NUL are refused in any value, with kind policy', () => {
  for (const v of ['a\rb', 'a\nb', 'a\0b']) {
    assert.throws(
      () => assertNoLineBreak('the subject', v),
      (e: unknown) => e instanceof LocatorError && e.code === 'smtp-line-break' && e.kind === 'policy',
    );
  }
  assert.doesNotThrow(() => assertNoLineBreak('the subject', 'tab\tis fine'));
});

test('RFC 5322 2.2.3: a long header field is folded at spaces, within 76 characters', () => {
  const value = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
  const f = headerField('Subject', value);
  const lines = f.split('\r\n').slice(0, -1);
  assert.ok(lines.length > 1);
  for (const l of lines) assert.ok(l.length <= 76, l);
  assert.equal(f.replace(/\r\n /g, ' '), `Subject: ${value}\r\n`); // unfolding gives it back (3.2.2)
});

// body | encoding | octets                                   -- RFC 5322 2.1, 2.3; RFC 2045 6.7
const BODIES: Array<[string | Uint8Array, string, string]> = [
  ['', '7bit', ''],
  ['one line', '7bit', 'one line\r\n'],
  ['lf\nends\n', '7bit', 'lf\r\nends\r\n'],
  ['crlf\r\nends\r\n', '7bit', 'crlf\r\nends\r\n'],
  ['lone\rcr', '7bit', 'lone\r\ncr\r\n'],
  ['.\n..\n', '7bit', '.\r\n..\r\n'], // dots are dot-stuffing's business
  ['x'.repeat(999), 'quoted-printable', 'x'.repeat(75) + '=\r\n'], // RFC 5322 2.1.1: over 998 octets (start only)
  ['naïve\n', 'quoted-printable', 'na=C3=AFve\r\n'],
  [Uint8Array.of(0x61, 0x00, 0x62), 'quoted-printable', 'a=00b\r\n'],
];
eachRow('RFC 2045: bodies', BODIES, ([body, encoding, octets]) => {
  const p = prepareBody(body);
  assert.equal(p.encoding, encoding);
  assert.ok(text(p.octets).startsWith(octets), text(p.octets).slice(0, 100));
  if (encoding === '7bit' || octets.length > 0) assert.ok(p.octets.length === 0 || text(p.octets).endsWith('\r\n'));
});

test('RFC 2045 6.7: octets that are neither ASCII nor UTF-8 are refused (body-not-utf8)', () => {
  assert.throws(
    () => prepareBody(Uint8Array.of(0x66, 0xe9, 0x0a)), // Latin-1 "fé"
    (e: unknown) => e instanceof LocatorError && e.code === 'body-not-utf8' && e.kind === 'usage',
  );
});

test('RFC 5322 3.6: a message, byte for byte (ASCII body)', () => {
  const m = composeMessage({
    to: 'tester@example.test',
    from: { name: 'Sender', address: 'sender@example.test' },
    subject: 'Hello',
    body: 'line 1\n.line 2\n',
    date: new Date('2026-11-23T21:40:00Z'),
    messageId: '<id1@example.test>',
  });
  assert.equal(
    text(m),
    'Date: Mon, 23 Nov 2026 21:40:00 +0000\r\n' +
      'From: Sender <sender@example.test>\r\n' +
      'To: tester@example.test\r\n' +
      'Subject: Hello\r\n' +
      'Message-ID: <id1@example.test>\r\n' +
      '\r\n' +
      'line 1\r\n.line 2\r\n',
  );
});

test('RFC 2045 4-6, RFC 2047: a message, byte for byte (UTF-8 body and subject)', () => {
  const m = composeMessage({
    to: 'tester@example.test',
    from: { name: null, address: 'sender@example.test' },
    subject: 'Grüße',
    body: 'Grüße\n',
    date: new Date('2026-11-23T21:40:00Z'),
    messageId: '<id2@example.test>',
  });
  assert.equal(
    text(m),
    'Date: Mon, 23 Nov 2026 21:40:00 +0000\r\n' +
      'From: sender@example.test\r\n' +
      'To: tester@example.test\r\n' +
      'Subject: =?UTF-8?B?R3LDvMOfZQ==?=\r\n' +
      'Message-ID: <id2@example.test>\r\n' +
      'MIME-Version: 1.0\r\n' +
      'Content-Type: text/plain; charset=UTF-8\r\n' +
      'Content-Transfer-Encoding: quoted-printable\r\n' +
      '\r\n' +
      'Gr=C3=BC=C3=9Fe\r\n',
  );
});

test('RFC 2047 2, RFC 5322 2.2.3: a long UTF-8 subject is folded into words, lines within 76, and decodes back', () => {
  const subject = 'Größenänderung der Überschrift: ' + 'äöü '.repeat(20);
  const m = text(
    composeMessage({
      to: 't@example.test',
      from: { name: null, address: 'a@example.test' },
      subject,
      body: 'x',
      date: new Date(0),
      messageId: '<a@b>',
    }),
  );
  const head = m.slice(0, m.indexOf('\r\n\r\n') + 2);
  assert.ok(!head.slice(0, -2).includes('\r\n\r\n'), 'no empty line inside the header');
  const field = /Subject:((?: .*\r\n)(?: .*\r\n)*)/.exec(head)![1];
  const lines = ('Subject:' + field).split('\r\n').slice(0, -1);
  assert.ok(lines.length > 2, 'folded');
  for (const l of lines) assert.ok(l.length <= 76, l);
  const decoded = Buffer.concat(
    [...field.matchAll(/=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=/g)].map((x) => Buffer.from(x[1], 'base64')),
  ).toString('utf8');
  assert.equal(decoded, subject);
});

test('RFC 1738 6: CR LF in the subject or the recipient is refused by the composer', () => {
  const base = {
    to: 'tester@example.test',
    from: { name: null, address: 'a@example.test' },
    body: 'x',
    date: new Date(0),
    messageId: '<a@b>',
  };
  for (const bad of [
    { ...base, subject: 'hi\r\nBcc: victim@example.test' },
    { ...base, to: 'tester@example.test\r\nRCPT TO:<x@y>' },
    { ...base, messageId: '<a@b>\r\nX: y' },
  ]) {
    assert.throws(
      () => composeMessage(bad),
      (e: unknown) => e instanceof LocatorError && e.code === 'smtp-line-break',
    );
  }
  assert.throws(() => composeMessage({ ...base, messageId: 'no-brackets@b' }), /RFC 5322 3.6.4/);
});

// message | as DATA sends it                                   -- RFC 5321 4.5.2
const STUFF: Array<[string, string]> = [
  ['a\r\n', 'a\r\n.\r\n'],
  ['.\r\n', '..\r\n.\r\n'], // a line of one "." is not the end
  ['.a\r\n..b\r\nc.\r\n', '..a\r\n...b\r\nc.\r\n.\r\n'],
  ['no end', 'no end\r\n.\r\n'], // CR LF added before the "."
  ['', '.\r\n'],
];
eachRow('RFC 5321 4.5.2: dot-stuffing', STUFF, ([input, want]) => {
  assert.equal(text(dotStuff(bytes(input))), want);
});

/** The header lines of a composed message (CR LF cut), up to the empty line. */
function headerLines(m: Uint8Array): string[] {
  const t = text(m);
  return t.slice(0, t.indexOf('\r\n\r\n')).split('\r\n');
}

/** The Subject as a reader decodes it: unfolded (RFC 5322 2.2.3), encoded words decoded (RFC 2047 6). */
function readSubject(lines: string[]): string {
  const i = lines.findIndex((l) => l.startsWith('Subject:'));
  let v = lines[i].slice('Subject: '.length);
  for (let j = i + 1; j < lines.length && /^[ \t]/.test(lines[j]); j++) v += lines[j];
  return v
    .replace(/\?=[ \t]+=\?/g, '?==?')
    .replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/g, (_, b: string) => `\u0000${b}\u0000`)
    .replace(/\u0000([^\u0000]*)\u0000/g, (_, b: string) => b)
    .split('?==?')
    .join('')
    .replace(/\u0000/g, '');
}

const compose = (subject: string, fromName: string | null = null) =>
  composeMessage({
    to: 'tester@example.test',
    from: { name: fromName, address: 'sender@example.test' },
    subject,
    body: 'x\n',
    date: new Date('2026-11-23T21:40:00Z'),
    messageId: '<id1@example.test>',
  });

// section | subject | what the header lines must be                -- RFC 5322 2.1.1, 2.2.3, 3.2.2
const FOLDS: Array<{ section: string; input: string }> = [
  { section: 'RFC 5322 2.1.1', input: 'x'.repeat(2009) }, // one word of 2,009 octets
  { section: 'RFC 5322 2.1.1', input: `see ${'y'.repeat(300)} and ${'z'.repeat(70)}` },
  { section: 'RFC 5322 3.2.2', input: `a${' '.repeat(200)}b` }, // a run of blanks longer than a line
  { section: 'RFC 5322 3.2.2', input: `word ${'w '.repeat(60)}${' '.repeat(150)}` }, // blanks at the end
  { section: 'RFC 5322 3.2.2', input: ' '.repeat(120) },
  { section: 'RFC 2047 5', input: 'looks =?UTF-8?B?eA==?= encoded' }, // not left for a decoder to read
  { section: 'RFC 2047 2', input: 'Grüße '.repeat(80) },
];
eachRow('Subject folded within 78 octets, no blank line, the text kept', FOLDS, ({ input }) => {
  const lines = headerLines(compose(input));
  for (const l of lines) {
    assert.ok(Buffer.byteLength(l) <= 78, `${Buffer.byteLength(l)} octets: ${JSON.stringify(l.slice(0, 90))}`);
    assert.ok(/[^ \t]/.test(l), `a line of white space only: ${JSON.stringify(l)}`);
  }
  const subject = lines.slice(lines.findIndex((l) => l.startsWith('Subject:')));
  const got = readSubject(subject).replace(/^ /, '');
  if (/=\?UTF-8\?B\?/.test(subject.join(''))) {
    // Encoded words: decode them and compare the text exactly.
    const decoded = subject
      .join('')
      .slice('Subject: '.length)
      .match(/=\?UTF-8\?B\?[A-Za-z0-9+/=]*\?=/g)!
      .map((w) => Buffer.from(w.slice(10, -2), 'base64'));
    assert.equal(Buffer.concat(decoded).toString('utf8'), input);
  } else assert.equal(got, input);
});

// section | field | value | the offset named                    -- RFC 5322 3.2.5 (VCHAR, WSP)
const CONTROLS: Array<{ section: string; input: string; field: 'Subject' | 'sender'; at: number }> = [
  { section: 'RFC 5322 3.2.5', input: 'hi\u001b[31m red', field: 'Subject', at: 2 },
  { section: 'RFC 5322 3.2.5', input: 'ring\u0007', field: 'Subject', at: 4 },
  { section: 'RFC 5322 3.2.5', input: 'del\u007f', field: 'Subject', at: 3 },
  { section: 'RFC 5322 3.2.5', input: 'c1 \u009b', field: 'Subject', at: 3 },
  { section: 'RFC 5322 3.4', input: 'Bad\u001bName', field: 'sender', at: 3 },
];
eachRow('a control character in a header field is refused, naming the field and the offset', CONTROLS, (row) => {
  assert.throws(
    () => (row.field === 'Subject' ? compose(row.input) : compose('s', row.input)),
    (e: unknown) =>
      e instanceof LocatorError &&
      e.code === 'smtp-control-character' &&
      e.message.includes(`the ${row.field} holds`) &&
      e.message.includes(`at character ${row.at}`),
  );
});

test('RFC 5322 3.2.5: TAB is white space and is kept; a sender text with ESC is refused by parseMailbox', () => {
  assert.match(headerLines(compose('a\tb')).join('\n'), /^Subject: a\tb$/m);
  assert.throws(() => parseMailbox('Eve\u001b]0;x\u0007 <e@example.test>'), { code: 'smtp-control-character' });
});

// section | address | code                                         -- RFC 5321 4.5.3.1
const LIMITS: Array<{ section: string; input: string; code: string | null }> = [
  { section: 'RFC 5321 4.5.3.1.1', input: `${'l'.repeat(64)}@example.test`, code: null },
  { section: 'RFC 5321 4.5.3.1.1', input: `${'l'.repeat(65)}@example.test`, code: 'smtp-too-long' },
  {
    section: 'RFC 5321 4.5.3.1.2',
    input: `a@${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.${'g'.repeat(74)}`,
    code: 'smtp-too-long',
  }, // 257 octets
  {
    section: 'RFC 5321 4.5.3.1.3',
    input: `${'l'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(62)}`,
    code: 'smtp-too-long',
  }, // path 257
  {
    section: 'RFC 5321 4.5.3.1.3',
    input: `${'l'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(61)}`,
    code: null,
  }, // path 256
];
eachRow('address sizes', LIMITS, ({ input, code }) => {
  if (code === null) assert.doesNotThrow(() => parseMailbox(input));
  else
    assert.throws(
      () => parseMailbox(input),
      (e: unknown) => e instanceof LocatorError && e.code === code && /octets/.test(e.message),
    );
});
