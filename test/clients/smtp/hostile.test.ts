// send() against hostile fake relays (in-process, 127.0.0.1 port 0): a relay that takes DATA and
// then stops reading (plain and after STARTTLS), and one that echoes the client's AUTH lines and
// password in its replies. Every failure is typed and settles within a bounded time; no form of
// the password (plain, the AUTH PLAIN token, AUTH LOGIN's base64 lines) is in any error message
// or transcript line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { send, SmtpReplyError } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';
import { base64 } from '../../../src/clients/smtp/message.js';
import { SPLIT_AT, echoing, assertRelayCert, polite, relay, relayCa } from './relay.js';

const URL = 'mailto:tester@example.test';

/** Settles `p` or says it did not within `ms` (the test fails instead of hanging). */
async function settle(p: Promise<unknown>, ms: number): Promise<{ value?: unknown; error?: unknown; ms: number }> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    p.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    new Promise<{ error: unknown }>((res) => {
      timer = setTimeout(() => res({ error: new Error(`not settled within ${ms} ms`) }), ms);
    }),
  ]);
  clearTimeout(timer);
  return { ...outcome, ms: Date.now() - started };
}

// RFC 5321 4.5.3.2.5: the client's DATA block timeout; here the call's `timeout` bounds a write
// that makes no progress, as it bounds silence on a read.
for (const overTls of [false, true]) {
  test(`RFC 5321 4.5.3.2.5: a relay that stops reading mid-DATA${overTls ? ' (after STARTTLS)' : ''}: timeout, settled in bounded time`, async () => {
    if (overTls) assertRelayCert();
    const r = await relay((line, io) => {
      if (line.toUpperCase() === 'STARTTLS') return io.startTls();
      if (line === 'DATA') {
        io.inData = true;
        io.write('354 go ahead\r\n');
        io.stopReading();
        return;
      }
      if (!polite(line, io, overTls ? ['STARTTLS'] : [])) io.write('502 5.5.1 no\r\n');
    });
    try {
      const body = Buffer.alloc(16 * 1024 * 1024, 'x'.repeat(79) + '\n');
      const out = await settle(
        send(
          URL,
          { from: 'a@example.test', subject: 'big', body },
          { smtp: `127.0.0.1:${r.port}`, timeout: 1500, ca: relayCa(), starttls: overTls ? 'required' : 'never' },
        ),
        12_000,
      );
      assert.ok(out.error instanceof LocatorError, `send() settled with ${String(out.error ?? out.value)}`);
      assert.equal(out.error.code, 'timeout');
      assert.match(out.error.message, /took no more of the data sent for 1500 ms: it reads too slowly or not at all/);
      assert.ok(out.ms < 10_000, `${out.ms} ms`);
    } finally {
      await r.close();
    }
  });
}

const USER = 'tester';
/** A password with a '"' (JSON-escaped in messages that quote a reply) and a non-ASCII letter. */
const PASSWORD = 'pa"ss-wörd-9137';
const b64 = (s: string) => base64(new TextEncoder().encode(s));
/** Every form of PASSWORD that must not be shown. */
const FORMS = [
  PASSWORD,
  JSON.stringify(PASSWORD).slice(1, -1),
  b64(PASSWORD),
  b64(`\0${USER}\0${PASSWORD}`),
  // The password base64-encoded inside other text, at an offset that is not a multiple of 3.
  b64(`${USER}:${PASSWORD}`).slice(12, 24),
];

// mechanism | where the server echoes                      -- RFC 4954 4, RFC 4616 2
const ECHOES: Array<['PLAIN' | 'LOGIN', 'in 535' | 'in 334 and 535' | 'as garbage', string]> = [
  ['PLAIN', 'in 535', 'smtp-reply'],
  ['PLAIN', 'in 334 and 535', 'smtp-reply'],
  ['LOGIN', 'in 535', 'smtp-reply'],
  ['LOGIN', 'in 334 and 535', 'smtp-reply'],
  ['PLAIN', 'as garbage', 'protocol-error'],
];
/** send() to the relay on `port` with AUTH `mech` (no TLS), its outcome and its transcript lines. */
async function authTo(port: number, mech: 'PLAIN' | 'LOGIN') {
  const transcript: string[] = [];
  const out = await settle(
    send(
      URL,
      { from: 'a@example.test', body: 'x\n' },
      {
        smtp: `127.0.0.1:${port}`,
        timeout: 5000,
        starttls: 'never',
        authWithoutTls: true,
        authMechanism: mech,
        user: USER,
        password: PASSWORD,
        transcript: (l) => transcript.push(l.text),
      },
    ),
    10_000,
  );
  return { out, transcript };
}

for (const [mech, how, code] of ECHOES) {
  test(`RFC 4954 4: AUTH ${mech}, a server that echoes the credentials ${how}: no form of the password in the error or the transcript`, async () => {
    const r = await relay(echoing(USER, mech, how));
    try {
      const { out, transcript } = await authTo(r.port, mech);
      const e = out.error;
      assert.ok(e instanceof LocatorError, String(e));
      assert.equal(e.code, code);
      // The server did receive the secret and did echo it (else the test shows nothing).
      assert.ok(r.lines.some((l) => l.includes(b64(PASSWORD)) || l.includes(b64(`\0${USER}\0${PASSWORD}`))));
      const shown = [e.message, e instanceof SmtpReplyError ? e.replyText : '', ...transcript].join('\n');
      assert.match(shown, /\*\*\*\*/);
      for (const f of FORMS) assert.ok(!shown.includes(f), `${JSON.stringify(f)} shown in:\n${shown}`);
    } finally {
      await r.close();
    }
  });
}

// RFC 5321 4.2: a multi-line reply may cut a quoted secret anywhere; masking each line alone
// leaves both halves readable. The last AUTH line (the PLAIN token, or LOGIN's base64 password)
// and the password are each cut over two lines of a 535.
for (const mech of ['PLAIN', 'LOGIN'] as const) {
  test(`RFC 4954 4, RFC 5321 4.2: AUTH ${mech}, a server that cuts the echoed credentials over 535 continuation lines: no half of them in the error, its replyText or the transcript`, async () => {
    const r = await relay(echoing(USER, mech, 'split over 535 lines'));
    try {
      const { out, transcript } = await authTo(r.port, mech);
      const e = out.error;
      assert.ok(e instanceof SmtpReplyError, String(e));
      assert.equal(e.replyCode, 535);
      const sent = mech === 'PLAIN' ? b64(`\0${USER}\0${PASSWORD}`) : b64(PASSWORD);
      assert.ok(
        r.lines.some((l) => l.endsWith(sent)),
        'the relay got the AUTH line it cuts',
      );
      const halves = [sent.slice(0, SPLIT_AT), sent.slice(SPLIT_AT), PASSWORD.slice(0, 7), PASSWORD.slice(7)];
      const received = transcript.filter((l) => l.startsWith('535'));
      assert.equal(received.length, 3, transcript.join('\n'));
      for (const [what, text] of [
        ['message', e.message],
        ['replyText', e.replyText],
        ['transcript', transcript.join('\n')],
      ]) {
        for (const h of halves.flatMap((x) => [x, JSON.stringify(x).slice(1, -1)])) {
          assert.ok(!text.includes(h), `${JSON.stringify(h)} shown in the ${what}:\n${text}`);
        }
      }
      // Masked in place: each line keeps its code, and its enhanced code where it had one.
      assert.deepEqual(received, ['535-5.7.8 you sent ****', '535-5.7.8 **** which is ****', '535 ****: refused']);
    } finally {
      await r.close();
    }
  });
}

// what | the call | code                                          -- RFC 5321 4.5.3.1, RFC 5322 3.2.5
const BEFORE_CONNECTING: Array<{
  section: string;
  what: string;
  url: string;
  msg: object;
  opts: object;
  code: string;
}> = [
  {
    section: 'RFC 5321 4.5.3.1.3',
    what: 'a 543-octet RCPT line',
    url: `mailto:${'r'.repeat(500)}@example.test`,
    msg: {},
    opts: {},
    code: 'smtp-too-long',
  },
  {
    section: 'RFC 5321 4.5.3.1.1',
    what: 'a 65-octet local-part of the sender',
    url: URL,
    msg: { from: `${'s'.repeat(65)}@example.test` },
    opts: {},
    code: 'smtp-too-long',
  },
  {
    section: 'RFC 5321 4.5.3.1.4',
    what: 'an EHLO line of 513 octets',
    url: URL,
    msg: {},
    opts: { clientName: 'h'.repeat(506) },
    code: 'smtp-too-long',
  },
  {
    section: 'RFC 5322 3.2.5',
    what: 'ESC in the Subject',
    url: URL,
    msg: { subject: 'a\u001b[2J' },
    opts: {},
    code: 'smtp-control-character',
  },
  {
    section: 'RFC 5322 3.2.5',
    what: 'BEL in the sender name',
    url: URL,
    msg: { from: 'Bell\u0007 <b@example.test>' },
    opts: {},
    code: 'smtp-control-character',
  },
];
for (const row of BEFORE_CONNECTING) {
  test(`${row.section}: ${row.what} is refused (${row.code}) before connecting`, async () => {
    const r = await relay(() => {});
    let connected = false;
    try {
      await assert.rejects(
        send(
          row.url,
          { from: 'a@example.test', body: 'x\n', ...row.msg },
          { smtp: `127.0.0.1:${r.port}`, timeout: 2000, ...row.opts },
        ),
        (e: unknown) => e instanceof LocatorError && e.code === row.code,
      );
      connected = r.lines.length > 0;
    } finally {
      await r.close();
    }
    assert.equal(connected, false);
  });
}

test('RFC 4954 4: a relay that accepts AUTH and quotes the password in its final 250: the result hides it', async () => {
  const r = await relay((line, io) => {
    if (io.inData) {
      if (line === '.') {
        io.inData = false;
        io.write(`250 2.0.0 queued for ${PASSWORD} (${b64(PASSWORD)})\r\n`);
      }
      return;
    }
    if (line.startsWith('AUTH PLAIN')) io.write('235 2.7.0 ok\r\n');
    else if (line === 'DATA') {
      io.inData = true;
      io.write('354 go\r\n');
    } else if (!polite(line, io, ['AUTH PLAIN'])) io.write('502 5.5.1 no\r\n');
  });
  try {
    const transcript: string[] = [];
    const res = await send(
      URL,
      { from: 'a@example.test', body: 'x\n' },
      {
        smtp: `127.0.0.1:${r.port}`,
        timeout: 5000,
        starttls: 'never',
        authWithoutTls: true,
        user: USER,
        password: PASSWORD,
        transcript: (l) => transcript.push(l.text),
      },
    );
    assert.equal(res.reply.code, 250);
    assert.equal(res.reply.text, '2.0.0 queued for **** (****)');
    for (const f of FORMS) assert.ok(!transcript.join('\n').includes(f));
  } finally {
    await r.close();
  }
});
