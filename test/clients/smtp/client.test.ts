// send() against real servers (test/servers/smtp.sh): OpenSMTPD on 127.0.0.1:2525 delivering to
// the Maildir of `tester`, and aiosmtpd on 2526 (STARTTLS, AUTH PLAIN/LOGIN, a self-signed
// certificate) passing each message on to OpenSMTPD. Each test reads the delivered file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { send, open, SmtpReplyError } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';
import { serversDir } from '../../helpers.js';
import { explain } from '../../../src/operations/build.js';

const PLAIN = '127.0.0.1:2525';
const SUBMIT = '127.0.0.1:2526';
const ca = () => readFileSync(join(serversDir(), 'smtp', 'ca.pem'));
const maildir = () => join(readFileSync(join(serversDir(), 'smtp', 'maildir'), 'utf8').trim(), 'new');
const mark = () => `run-${randomBytes(6).toString('hex')}`;

/** The delivered file whose Message-ID is `id` (bounded poll: OpenSMTPD takes 40-130 ms). */
async function delivered(id: string): Promise<string> {
  const dir = maildir();
  for (let i = 0; i < 100; i++) {
    for (const f of readdirSync(dir)) {
      const t = readFileSync(join(dir, f), 'latin1');
      if (t.includes(`Message-ID: ${id}`)) return t;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no message with Message-ID ${id} arrived in ${dir} within 5 s`);
}

/** The header block and the body of a delivered file (Maildir files end lines with LF). */
function split(file: string): { head: string; body: string } {
  const at = file.indexOf('\n\n');
  return { head: file.slice(0, at + 1), body: file.slice(at + 2) };
}

test('RFC 1738 3.5, RFC 5321: a message is delivered by OpenSMTPD; headers, body and "." lines arrive byte for byte', async () => {
  const m = mark();
  const body = `first line\n.\n..two dots\n.leading\nlast ${m}\n`;
  const r = await send(
    'mailto:tester@example.test',
    { from: 'Sender <sender@example.test>', subject: `plain ${m}`, body, messageId: `<${m}@example.test>` },
    { smtp: PLAIN, transcript: true, timeout: 10_000 },
  );
  assert.equal(r.reply.code, 250);
  assert.equal(r.reply.enhanced, '2.0.0');
  assert.match(r.queueId ?? '', /^[0-9a-f]{8,16}$/);
  assert.equal(r.tls, false);
  assert.equal(r.auth, null);
  const file = await delivered(`<${m}@example.test>`);
  const { head, body: got } = split(file);
  assert.equal(got, body, 'the body, dot-stuffing undone by the server, as sent');
  assert.match(head, /^Return-Path: <sender@example.test>\n/);
  assert.match(head, /\nFrom: Sender <sender@example.test>\nTo: tester@example.test\nSubject: plain run-[0-9a-f]+\n/);
  assert.match(head, /\nDate: [A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d \+0000\n/);
  assert.ok(!/MIME-Version/.test(head), 'no MIME fields for an ASCII body');
  // the commands sent, in order (no PIPELINING: OpenSMTPD does not offer it); 5 header lines, an
  // empty line and 5 body lines
  const sent = r.transcript.filter((l) => l.direction === 'send').map((l) => l.text);
  assert.deepEqual(sent, [
    'EHLO [127.0.0.1]',
    `MAIL FROM:<sender@example.test> SIZE=${r.size}`,
    'RCPT TO:<tester@example.test>',
    'DATA',
    `<the message: ${r.size} octets in 11 lines, dot-stuffed>`,
    '.',
    'QUIT',
  ]);
  // explain() gives the same dialogue: its unconditional steps are the commands sent, with the
  // host name, the sender and the message left to the user (no STARTTLS or AUTH here)
  const steps = explain('mailto:tester@example.test').steps.filter((x) => !x.startsWith('[if'));
  const verb = (line: string) => line.replace(/^<the message.*/, '<message>').replace(/[ :].*$/, '');
  assert.deepEqual(steps.map(verb), sent.map(verb));
  assert.equal(steps[2], sent[2]);
});

test('RFC 2045, RFC 2047: a UTF-8 subject, name and body arrive as encoded words and quoted-printable', async () => {
  const m = mark();
  const r = await send(
    'mailto:tester@localhost',
    {
      from: 'Jérôme <j@example.test>',
      subject: `Grüße ${m}`,
      body: 'Grüße aus Zürich\n',
      messageId: `<${m}@example.test>`,
    },
    { smtp: PLAIN, timeout: 10_000 },
  );
  assert.equal(r.reply.code, 250);
  const { head, body } = split(await delivered(`<${m}@example.test>`));
  assert.match(head, /\nFrom: =\?UTF-8\?B\?SsOpcsO0bWU=\?= <j@example.test>\n/);
  assert.match(head, /\nSubject: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=\n/);
  assert.match(
    head,
    /\nMIME-Version: 1.0\nContent-Type: text\/plain; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n/,
  );
  assert.equal(body, 'Gr=C3=BC=C3=9Fe aus Z=C3=BCrich\n');
  const subject = /\nSubject: =\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=\n/.exec(head)![1];
  assert.equal(Buffer.from(subject, 'base64').toString('utf8'), `Grüße ${m}`);
});

test('RFC 5321 4.2.1: a recipient the server refuses is an SmtpReplyError 550, permanent, QUIT sent', async () => {
  const lines: string[] = [];
  await assert.rejects(
    send(
      'mailto:someone@example.org',
      { from: 'a@example.test', body: 'x' },
      { smtp: PLAIN, timeout: 10_000, transcript: (l) => lines.push(l.text) },
    ),
    (e: unknown) =>
      e instanceof SmtpReplyError &&
      e.code === 'smtp-reply' &&
      e.replyCode === 550 &&
      !e.transient &&
      e.command === 'RCPT TO:<someone@example.org>' &&
      /permanent/.test(e.message),
  );
  assert.equal(lines.at(-1), 'QUIT');
  assert.ok(!lines.includes('DATA'), 'no DATA after a refused RCPT');
});

test('RFC 3207, RFC 4954: STARTTLS (certificate checked), EHLO again, AUTH PLAIN, delivered; the password never shown', async () => {
  const m = mark();
  const r = await send(
    'mailto:tester@example.test',
    { from: 'sender@example.test', subject: `tls ${m}`, body: `over TLS ${m}\n`, messageId: `<${m}@example.test>` },
    {
      smtp: SUBMIT,
      ca: ca(),
      user: 'tester',
      password: 'secret',
      starttls: 'required',
      transcript: true,
      timeout: 10_000,
    },
  );
  assert.equal(r.tls, true);
  assert.equal(r.auth, 'PLAIN');
  assert.equal(r.reply.code, 250);
  const { body } = split(await delivered(`<${m}@example.test>`));
  assert.equal(body, `over TLS ${m}\n`);
  const sent = r.transcript.filter((l) => l.direction === 'send').map((l) => l.text);
  assert.deepEqual(sent.slice(0, 4), ['EHLO [127.0.0.1]', 'STARTTLS', 'EHLO [127.0.0.1]', 'AUTH PLAIN ****']);
  const all = JSON.stringify(r.transcript);
  for (const secret of ['secret', Buffer.from('\0tester\0secret').toString('base64')]) {
    assert.ok(!all.includes(secret), `the transcript hides ${secret}`);
  }
});

test('RFC 4954: AUTH LOGIN when asked for: the user and the password in two 334 rounds, the password hidden', async () => {
  const m = mark();
  const r = await send(
    'mailto:tester@example.test',
    { from: 'sender@example.test', body: `login ${m}\n`, messageId: `<${m}@example.test>` },
    {
      smtp: SUBMIT,
      ca: ca(),
      user: 'tester',
      password: 'secret',
      authMechanism: 'LOGIN',
      transcript: true,
      timeout: 10_000,
    },
  );
  assert.equal(r.auth, 'LOGIN');
  assert.equal(split(await delivered(`<${m}@example.test>`)).body, `login ${m}\n`);
  const sent = r.transcript.filter((l) => l.direction === 'send').map((l) => l.text);
  assert.deepEqual(sent.slice(3, 6), ['AUTH LOGIN', Buffer.from('tester').toString('base64'), '****']);
  assert.ok(!JSON.stringify(r.transcript).includes(Buffer.from('secret').toString('base64')));
});

test('RFC 4954: a wrong password is an SmtpReplyError 535 to "AUTH PLAIN ****"', async () => {
  await assert.rejects(
    send(
      'mailto:tester@example.test',
      { from: 'sender@example.test', body: 'x' },
      { smtp: SUBMIT, ca: ca(), user: 'tester', password: 'wrong', timeout: 10_000 },
    ),
    (e: unknown) =>
      e instanceof SmtpReplyError && e.replyCode === 535 && e.command === 'AUTH PLAIN ****' && !/wrong/.test(e.message),
  );
});

test('RFC 3207 4.1: a certificate not signed by the given authorities fails the handshake (starttls-unavailable)', async () => {
  await assert.rejects(
    send('mailto:tester@example.test', { from: 'sender@example.test', body: 'x' }, { smtp: SUBMIT, timeout: 10_000 }),
    (e: unknown) => e instanceof LocatorError && e.code === 'starttls-unavailable' && /certificate/i.test(e.message),
  );
});

test('RFC 3207 4: --starttls required against a server that does not offer it: nothing is sent', async () => {
  const lines: string[] = [];
  await assert.rejects(
    send(
      'mailto:tester@example.test',
      { from: 'sender@example.test', body: 'x' },
      { smtp: PLAIN, starttls: 'required', timeout: 10_000, transcript: (l) => lines.push(l.text) },
    ),
    (e: unknown) => e instanceof LocatorError && e.code === 'starttls-unavailable',
  );
  assert.ok(!lines.some((l) => l.startsWith('MAIL')), lines.join('\n'));
});

test('RFC 4954 4: credentials and no TLS: the password is not sent (auth-unavailable)', async () => {
  const lines: string[] = [];
  await assert.rejects(
    send(
      'mailto:tester@example.test',
      { from: 'sender@example.test', body: 'x' },
      { smtp: PLAIN, user: 'tester', password: 'secret', timeout: 10_000, transcript: (l) => lines.push(l.text) },
    ),
    (e: unknown) => e instanceof LocatorError && e.code === 'auth-unavailable',
  );
  assert.ok(!lines.some((l) => l.startsWith('AUTH')), lines.join('\n'));
});

test('RFC 1738 3.5: open("mailto:...") has no object to read: mailto-not-retrievable, naming send()', async () => {
  await assert.rejects(
    open('mailto:tester@example.test', { gateway: false }),
    (e: unknown) =>
      e instanceof LocatorError &&
      e.code === 'mailto-not-retrievable' &&
      e.kind === 'usage' &&
      /send\(/.test(e.message),
  );
});

test('RFC 1738 3.5: no relay configured is a usage error naming the option and SMTP_RELAY', async () => {
  await assert.rejects(
    send('mailto:tester@example.test', { from: 'a@example.test' }, { env: {} }),
    (e: unknown) => e instanceof LocatorError && e.code === 'no-relay' && /SMTP_RELAY/.test(e.message),
  );
  const m = mark();
  const r = await send(
    'mailto:tester@example.test',
    { from: 'a@example.test', body: m, messageId: `<${m}@example.test>` },
    { env: { SMTP_RELAY: PLAIN }, timeout: 10_000 },
  );
  assert.equal(r.relay, PLAIN);
});
