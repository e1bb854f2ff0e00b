// Every way send() (src/clients/smtp/client.ts) can fail, one row each, against a fake relay
// (in-process, 127.0.0.1 port 0): each is a LocatorError with its stable code, its offset and its
// spec section; what is refused before connecting opens no connection, and what fails after
// leaves no socket open and settles within the timeout. API misuse (a timeout that is not a
// positive number, a Date that is not one) is a TypeError or RangeError at the call, as README
// says, and a password callback's own error is passed on as it is: it is the caller's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { send, SmtpReplyError, type SendOptions } from '../../../src/clients/index.js';
import type { MailMessage } from '../../../src/clients/smtp/message.js';
import { LocatorError } from '../../../src/core/errors.js';
import { eachRow } from '../../helpers.js';
import { polite, relay, type Io } from './relay.js';

const URL = 'mailto:tester@example.test';
const MSG: MailMessage = { from: 'a@example.test', subject: 's', body: 'x\n' };

interface Row {
  /** What goes wrong. */
  what: string;
  url?: string;
  message?: Partial<MailMessage>;
  /** The options (the relay's address is added unless `smtp` is given). */
  options?: SendOptions;
  /** The relay's greeting (default 220) and its answer to each line (default: answering([])). */
  greeting?: string;
  script?: (line: string, io: Io) => void;
  /** The error: code, offset, section (and the failed reply's code for smtp-reply). */
  code: string;
  offset?: number;
  section: string | null;
  reply?: number;
  /** True when the failure comes before any connection. */
  before?: boolean;
}

/** polite() with `ext`, and `answers` (first word of the line -> the reply) first. */
function answering(ext: string[], answers: Record<string, string> = {}) {
  return (line: string, io: Io) => {
    if (!io.inData) {
      const verb = line.split(/[ :]/)[0].toUpperCase();
      if (answers[verb] !== undefined) {
        io.write(answers[verb]);
        if (verb === 'DATA' && answers[verb].startsWith('354')) io.inData = true;
        return;
      }
      if (verb === 'DATA') {
        io.inData = true;
        return io.write('354 go ahead\r\n');
      }
    }
    if (!polite(line, io, ext)) io.write('502 5.5.1 no\r\n');
  };
}

const ROWS: Row[] = [
  // --- before any connection: the URL, the message, the options ---
  {
    what: 'a URL that does not parse',
    url: 'no scheme',
    code: 'missing-scheme',
    offset: 0,
    section: 'RFC 1738 2.1',
    before: true,
  },
  {
    what: 'a URL of another scheme',
    url: 'http://h.example/',
    code: 'mailto-not-retrievable',
    offset: 0,
    section: 'RFC 1738 3.5',
    before: true,
  },
  {
    what: 'an encoded CR LF in the address (the policy)',
    url: 'mailto:a%0D%0Ab@example.test',
    code: 'policy-refused',
    offset: 8,
    section: 'RFC 1738 6',
    before: true,
  },
  {
    what: 'a local-part of 65 octets',
    url: `mailto:${'a'.repeat(65)}@example.test`,
    code: 'smtp-too-long',
    offset: -1,
    section: 'RFC 5321 4.5.3.1',
    before: true,
  },
  {
    what: 'a sender that is no addr-spec',
    message: { from: 'nobody' },
    code: 'invalid-mailbox',
    offset: -1,
    section: 'RFC 5322 3.4',
    before: true,
  },
  {
    what: 'a sender with ">" and no "<"',
    message: { from: 'a@b.example>' },
    code: 'invalid-mailbox',
    offset: -1,
    section: 'RFC 5322 3.4',
    before: true,
  },
  {
    what: 'a sender with ESC',
    message: { from: 'A \x1b[31m <a@example.test>' },
    code: 'smtp-control-character',
    offset: -1,
    section: 'RFC 5322 3.2.5',
    before: true,
  },
  {
    what: 'a sender with LF',
    message: { from: 'a@example.test\nBcc: x@y.example' },
    code: 'smtp-line-break',
    offset: -1,
    section: 'RFC 1738 6',
    before: true,
  },
  {
    what: 'no relay',
    options: { smtp: '', env: {} },
    code: 'no-relay',
    offset: -1,
    section: 'RFC 1738 3.5',
    before: true,
  },
  {
    what: 'a relay that is not host:port',
    options: { smtp: '127.0.0.1:70000' },
    code: 'no-relay',
    offset: -1,
    section: 'RFC 1738 3.5',
    before: true,
  },
  {
    what: 'a relay with CR LF',
    options: { smtp: '127.0.0.1\r\nX' },
    code: 'smtp-line-break',
    offset: -1,
    section: 'RFC 1738 6',
    before: true,
  },
  {
    what: 'an EHLO name with CR LF',
    options: { clientName: 'x\r\nRSET' },
    code: 'smtp-line-break',
    offset: -1,
    section: 'RFC 1738 6',
    before: true,
  },
  {
    what: 'an EHLO name that makes a command line of 513 octets',
    options: { clientName: 'h'.repeat(506) },
    code: 'smtp-too-long',
    offset: -1,
    section: 'RFC 5321 4.5.3.1',
    before: true,
  },
  {
    what: 'a user name with CR LF',
    options: { user: 'u\r\nRSET', password: 'p' },
    code: 'smtp-line-break',
    offset: -1,
    section: 'RFC 1738 6',
    before: true,
  },
  {
    what: 'a Subject with BEL',
    message: { subject: 'hi\x07' },
    code: 'smtp-control-character',
    offset: -1,
    section: 'RFC 5322 3.2.5',
    before: true,
  },
  {
    what: 'a Message-ID that is not <left@right>',
    message: { messageId: 'no-brackets@x' },
    code: 'invalid-mailbox',
    offset: -1,
    section: 'RFC 5322 3.4',
    before: true,
  },
  {
    what: 'a Message-ID longer than a line',
    message: { messageId: `<${'m'.repeat(990)}@x>` },
    code: 'smtp-too-long',
    offset: -1,
    section: 'RFC 5321 4.5.3.1',
    before: true,
  },
  {
    what: 'a body neither ASCII nor UTF-8',
    message: { body: Uint8Array.from([0x68, 0xff, 0x0a]) },
    code: 'body-not-utf8',
    offset: -1,
    section: 'RFC 2045 6.7',
    before: true,
  },
  // --- the connection ---
  {
    what: 'a relay where nothing listens',
    options: { smtp: '127.0.0.1:1' },
    code: 'connect-failed',
    offset: -1,
    section: null,
    before: true,
  },
  // --- the exchange (RFC 5321 4.2.1: a reply the command does not allow) ---
  {
    what: 'a greeting of 554',
    greeting: '554 5.3.2 no service\r\n',
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 554,
  },
  {
    what: 'EHLO answered 421',
    script: answering([], { EHLO: '421 4.3.2 going down\r\n' }),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 421,
  },
  {
    what: 'EHLO refused, HELO answered 501',
    script: answering([], { EHLO: '500 what\r\n', HELO: '501 5.5.4 bad name\r\n' }),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 501,
  },
  {
    what: 'STARTTLS required, not offered',
    options: { starttls: 'required' },
    script: answering([]),
    code: 'starttls-unavailable',
    offset: -1,
    section: 'RFC 3207 4',
  },
  {
    what: 'STARTTLS required, answered 454',
    options: { starttls: 'required' },
    script: answering(['STARTTLS'], { STARTTLS: '454 4.7.0 TLS not available\r\n' }),
    code: 'starttls-unavailable',
    offset: -1,
    section: 'RFC 3207 4',
  },
  {
    what: 'credentials and no TLS',
    options: { user: 'u', password: 'p', starttls: 'never' },
    script: answering(['AUTH PLAIN']),
    code: 'auth-unavailable',
    offset: -1,
    section: 'RFC 4954 4',
  },
  {
    what: 'credentials and no mechanism the client has',
    options: { user: 'u', password: 'p', authWithoutTls: true },
    script: answering(['AUTH CRAM-MD5']),
    code: 'auth-unavailable',
    offset: -1,
    section: 'RFC 4954 4',
  },
  {
    what: 'AUTH PLAIN answered 535',
    options: { user: 'u', password: 'p', authWithoutTls: true },
    script: answering(['AUTH PLAIN'], { AUTH: '535 5.7.8 bad credentials\r\n' }),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 535,
  },
  {
    what: 'AUTH LOGIN answered 504',
    options: { user: 'u', password: 'p', authWithoutTls: true },
    script: answering(['AUTH LOGIN'], { AUTH: '504 5.5.4 no\r\n' }),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 504,
  },
  { what: 'a message larger than SIZE', script: answering(['SIZE 10']), code: 'too-large', offset: -1, section: null },
  {
    what: 'MAIL answered 550',
    script: answering([], { MAIL: '550 5.7.1 not you\r\n' }),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 550,
  },
  {
    what: 'RCPT answered 550',
    script: answering([], { RCPT: '550 5.1.1 no such user\r\n' }),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 550,
  },
  {
    what: 'DATA answered 554',
    script: answering([], { DATA: '554 5.5.1 no valid recipients\r\n' }),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 554,
  },
  {
    what: 'pipelined: MAIL answered 451',
    script: answering(['PIPELINING'], { MAIL: '451 4.3.0 try later\r\n' }),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 451,
  },
  {
    what: 'pipelined: DATA answered 503',
    script: answering(['PIPELINING'], { DATA: '503 5.5.1 bad sequence\r\n' }),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 503,
  },
  {
    what: 'the end of DATA answered 552',
    script: (line, io) =>
      io.inData && line === '.' ? ((io.inData = false), io.write('552 5.3.4 too big\r\n')) : answering([])(line, io),
    code: 'smtp-reply',
    offset: -1,
    section: 'RFC 5321 4.2.1',
    reply: 552,
  },
  // --- the connection fails in the middle ---
  {
    what: 'a line that is no reply',
    script: (line, io) => (line.startsWith('EHLO') ? io.write('hello there\r\n') : undefined),
    code: 'protocol-error',
    offset: -1,
    section: null,
  },
  {
    what: 'the relay stops answering after MAIL',
    script: (line, io) => (line.startsWith('MAIL') ? io.stopReading() : answering([])(line, io)),
    code: 'timeout',
    offset: -1,
    section: null,
  },
  {
    what: 'the relay closes the connection after RCPT',
    script: (line, io) => (line.startsWith('RCPT') ? io.end() : answering([])(line, io)),
    code: 'connection-closed',
    offset: -1,
    section: null,
  },
];

eachRow(
  'send(): every failure is typed',
  ROWS,
  async (row) => {
    const r = await relay(row.script ?? answering([]), row.greeting);
    try {
      const options: SendOptions = { timeout: 1000, smtp: `127.0.0.1:${r.port}`, env: {}, ...row.options };
      const t0 = Date.now();
      const e = await send(row.url ?? URL, { ...MSG, ...row.message }, options).then(
        () => assert.fail('send() resolved'),
        (err: unknown) => err,
      );
      assert.ok(e instanceof LocatorError, `not a LocatorError: ${String(e)}`);
      assert.deepEqual([e.code, e.offset, e.section], [row.code, row.offset ?? -1, row.section], e.message);
      if (row.reply !== undefined) {
        assert.ok(e instanceof SmtpReplyError, e.message);
        assert.equal(e.replyCode, row.reply);
      }
      assert.ok(Date.now() - t0 < 3000, `settled in ${Date.now() - t0} ms`);
      if (row.before) assert.equal(r.connections, 0, 'no connection');
      else assert.equal(r.connections, 1);
      await r.allClosed();
    } finally {
      await r.close();
    }
  },
  { input: (row) => row.what },
);

test("send(): API misuse is a TypeError or RangeError at the call, before any connection; a password callback's error is its own", async () => {
  const r = await relay(answering([]));
  try {
    const options: SendOptions = { smtp: `127.0.0.1:${r.port}`, env: {} };
    await assert.rejects(send(42 as unknown as string, MSG, options), { name: 'TypeError' });
    await assert.rejects(send(URL, MSG, { ...options, timeout: 0 }), { name: 'RangeError' });
    for (const [bad, says] of [
      [undefined, 'must be an object'],
      [null, 'not null'],
      [{}, 'from must be a string, not undefined'],
      [{ from: 7 }, 'from must be a string, not number'],
      [{ ...MSG, subject: 1 }, 'subject must be a string'],
      [{ ...MSG, body: [1, 2] }, 'body must be a string or a Uint8Array'],
      [{ ...MSG, messageId: {} }, 'messageId must be a string'],
    ] as const) {
      await assert.rejects(send(URL, bad as unknown as typeof MSG, options), (e: unknown) => {
        assert.ok(e instanceof TypeError, `${JSON.stringify(bad)}: ${String(e)}`);
        assert.match(e.message, new RegExp(says.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        return true;
      });
    }
    await assert.rejects(send(URL, MSG, { ...options, timeout: '5' as unknown as number }), { name: 'TypeError' });
    await assert.rejects(send(URL, { ...MSG, date: new Date(Number.NaN) }, options), {
      name: 'RangeError',
      message: 'the message date is not a valid Date',
    });
    const own = new Error('no terminal to ask on');
    await assert.rejects(
      send(URL, MSG, {
        ...options,
        user: 'u',
        password: async () => {
          throw own;
        },
      }),
      (e: unknown) => e === own,
    );
    assert.equal(r.connections, 0);
  } finally {
    await r.close();
  }
});
