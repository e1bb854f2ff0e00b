// Fault injection at the one place each client's exchange ends: an error of another kind than
// LocatorError raised inside the exchange (here a transcript callback that throws a TypeError on
// the server's first line, standing in for an engine limit or a bug a hostile server's bytes reach)
// leaves the client as a protocol-error that keeps it as its cause, never untyped (gopher, nntp, ftp,
// rlogin, wais, smtp).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, probe, send } from '../../src/clients/index.js';
import { connectSession } from '../../src/clients/rlogin/session.js';
import { LocatorError } from '../../src/core/errors.js';
import type { Redirect, TranscriptLine } from '../../src/clients/types.js';
import type { ProbeResult } from '../../src/clients/probe/types.js';
import type { Socket } from 'node:net';
import { parse, rejects } from '../helpers.js';
import { fakeServer } from './gopher/fakes.js';
import { nntpFake } from './nntp/fakes.js';
import { FakeFtp, standard } from './ftp/fakes.js';

const BUG = new TypeError('a bug in the exchange');

/** A transcript callback that throws BUG at the first line of `direction` that `pick` accepts. */
function throwing(direction: 'send' | 'receive', pick: (text: string) => boolean = () => true) {
  return (line: TranscriptLine): void => {
    if (line.direction === direction && pick(line.text)) throw BUG;
  };
}

/** The rejection is the typed wrapper of BUG: protocol-error, the place named, BUG as cause. */
function typedBug(e: LocatorError, where: string): void {
  assert.ok(e instanceof LocatorError, String(e));
  assert.equal(e.code, 'protocol-error');
  assert.equal(e.detail, `${where} failed unexpectedly (a bug in the exchange)`);
  assert.equal(e.cause, BUG);
}

/** A probe's verdict on BUG: broken, protocol-error (before, probe() rejected with the TypeError). */
function probedBug(r: ProbeResult | Redirect, where: string): void {
  assert.ok('status' in r);
  assert.equal(r.status, 'broken');
  assert.equal(r.code, 'protocol-error');
  assert.match(r.reason, new RegExp(`^${where} failed unexpectedly \\(a bug in the exchange\\)`));
}

test('gopher: an untyped error inside the exchange is a protocol-error with it as cause', async () => {
  const f = await fakeServer((s, got) => {
    if (!got.includes('\r\n')) return false;
    s.end('hello\r\n.\r\n');
    return true;
  });
  try {
    const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0x`, { transcript: throwing('send') }));
    typedBug(e, 'the Gopher exchange');
  } finally {
    await f.close();
  }
});

const NEWS = (port: number) => ({
  gateway: false as const,
  timeout: 2000,
  env: { NNTPSERVER: `127.0.0.1:${port}` },
  netrc: false as const,
});
const ARTICLE = (c: string, s: Socket) => {
  if (!c.startsWith('ARTICLE') && !c.startsWith('STAT') && !c.startsWith('HEAD')) return false;
  s.write('220 1 <a@b> article\r\nSubject: x\r\n\r\nbody\r\n.\r\n');
  return true;
};
const AFTER_HELLO = (t: string) => t !== 'CAPABILITIES' && !t.startsWith('MODE');

test('nntp open: an untyped error at the greeting is a protocol-error with it as cause', async () => {
  const f = await nntpFake('200 ready\r\n', ARTICLE);
  try {
    const e = await rejects(open('news:a@b', { ...NEWS(f.port), transcript: throwing('receive') }));
    typedBug(e, 'the NNTP greeting');
  } finally {
    await f.close();
  }
});

test('nntp open: an untyped error after the greeting is a protocol-error with it as cause', async () => {
  const f = await nntpFake('200 ready\r\n', ARTICLE);
  try {
    const e = await rejects(open('news:a@b', { ...NEWS(f.port), transcript: throwing('send', AFTER_HELLO) }));
    typedBug(e, 'the NNTP exchange');
  } finally {
    await f.close();
  }
});

test('nntp probe: an untyped error after the greeting is a broken protocol-error', async () => {
  const f = await nntpFake('200 ready\r\n', ARTICLE);
  try {
    probedBug(
      await probe('news:a@b', { ...NEWS(f.port), transcript: throwing('send', AFTER_HELLO) }),
      'the NNTP probe',
    );
  } finally {
    await f.close();
  }
});

test('ftp open: an untyped error inside the exchange is a protocol-error with it as cause', async () => {
  const f = await FakeFtp.start({ handle: standard({ 'a.txt': 'a\r\n' }) });
  try {
    typedBug(await rejects(open(f.url('a.txt'), { transcript: throwing('receive') })), 'the FTP exchange');
  } finally {
    await f.stop();
  }
});

test('ftp probe: an untyped error inside the exchange is a broken protocol-error', async () => {
  const f = await FakeFtp.start({ handle: standard({ 'a.txt': 'a\r\n' }) });
  try {
    probedBug(await probe(f.url('a.txt'), { transcript: throwing('receive') }), 'the FTP probe');
  } finally {
    await f.stop();
  }
});

test('rlogin: an untyped error inside the handshake is a protocol-error with it as cause', async () => {
  const f = await fakeServer((s) => {
    s.write('\0hello');
    return true;
  });
  try {
    const e = await rejects(
      connectSession(parse(`rlogin://u@127.0.0.1:${f.port}`), { localUser: 'me', transcript: throwing('receive') }),
    );
    typedBug(e, 'the rlogin handshake');
  } finally {
    await f.close();
  }
});

// The suite's real OpenSMTPD (test/servers/smtp.sh) on 127.0.0.1:2525: the throwing callback is the fault.
const SMTP = '127.0.0.1:2525';

test('smtp send: an untyped error inside the exchange is a protocol-error with it as cause', async () => {
  const message = { from: 'a@example.test', subject: 's', body: 'hello\n' };
  const e = await rejects(
    send('mailto:tester@example.test', message, { smtp: SMTP, timeout: 5000, transcript: throwing('receive') }),
  );
  typedBug(e, 'the SMTP exchange');
});

test('smtp probe: an untyped error inside the exchange is a broken protocol-error', async () => {
  probedBug(
    await probe('mailto:tester@%5B127.0.0.1%5D', {
      smtpProbe: true,
      smtpServer: SMTP,
      timeout: 5000,
      transcript: throwing('send', (t) => t.startsWith('MAIL')),
    }),
    'the SMTP probe',
  );
});
