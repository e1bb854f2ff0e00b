// Telnet sessions through connect() (src/clients/connect.ts, src/clients/telnet/session.ts):
// against the real inetutils-telnetd that npm test starts (test/servers/telnet.sh: 127.0.0.1:2323,
// /bin/login, account tester / secret), and against in-process fakes for the faults telnetd
// will not produce.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, open } from '../../../src/clients/index.js';
import type { InteractiveSession } from '../../../src/clients/interactive.js';
import { MAX_UNSENT } from '../../../src/clients/telnet/session.js';
import { MAX_ANSWERS } from '../../../src/clients/telnet-engine/options.js';
import type { TranscriptLine } from '../../../src/clients/types.js';
import { kindOf } from '../../../src/core/errors.js';
import { rejects, serversDir } from '../../helpers.js';
import { fakeTelnet, until } from './fakes.js';

serversDir(); // the real server must be there (npm test starts it)
const REAL = 'telnet://tester@127.0.0.1:2323/';

/** Reads a session's output in the background into `text` (latin1). */
function collect(s: InteractiveSession) {
  const got = { text: '', ended: false, error: null as unknown };
  const done = (async () => {
    try {
      for await (const chunk of s.output as unknown as AsyncIterable<Uint8Array>) {
        got.text += Buffer.from(chunk).toString('latin1');
      }
    } catch (e) {
      got.error = e;
    }
    got.ended = true;
  })();
  return { got, done, wait: (re: RegExp, ms = 15000) => until(() => re.test(got.text), ms, String(re)) };
}

const type = (s: InteractiveSession, text: string) => s.write(Buffer.from(text, 'latin1'));

test('telnetd: login prompt, log in, run a command, resize (NAWS seen by stty size), exit (RFC 1738 3.8, RFC 854)', async () => {
  const lines: TranscriptLine[] = [];
  const s = await connect(REAL, {
    term: 'xterm',
    cols: 80,
    rows: 24,
    timeout: 10_000,
    transcript: (l) => lines.push(l),
  });
  const out = collect(s);
  await out.wait(/login: $/);
  type(s, 'tester\r');
  await out.wait(/Password: ?$/);
  type(s, 'secret\r');
  await out.wait(/\$ $/);
  type(s, 'stty size; echo MARK$((40+2))\r');
  await out.wait(/24 80\r\nMARK42/);
  s.resize(100, 30);
  type(s, 'stty size\r');
  await out.wait(/30 100/);
  type(s, 'exit\r');
  await s.closed;
  await out.done;
  assert.equal(out.got.error, null);
  const shown = lines.map((l) => `${l.direction} ${l.text}`);
  // telnetd asks first; locator agrees to what it implements and refuses the rest (RFC 854, 1143)
  for (const want of [
    'receive DO TERMINAL-TYPE',
    'send WILL TERMINAL-TYPE',
    'send SB TERMINAL-TYPE IS xterm',
    'send WILL NAWS',
    'send SB NAWS 80 24',
    'send SB NAWS 100 30',
    'send DO ECHO',
    'send DO SUPPRESS-GO-AHEAD',
    'send WILL NEW-ENVIRON',
    'send WONT LINEMODE',
    'send DONT AUTHENTICATION',
    'send DONT ENCRYPT',
  ]) {
    assert.ok(shown.includes(want), `${want} in\n${shown.join('\n')}`);
  }
  assert.ok(
    shown.some((l) => /^send SB NEW-ENVIRON IS .*USER<1>tester/.test(l)),
    shown.join('\n'),
  );
  assert.deepEqual(s.transcript, lines);
  const status = s.status().join('\n');
  assert.match(status, /closed/);
  assert.match(status, /the server performs: ECHO, SUPPRESS-GO-AHEAD/);
});

test('telnetd: close() from this side ends the session; closed resolves; no socket left', async () => {
  const s = await connect(REAL, { timeout: 10_000 });
  const out = collect(s);
  await out.wait(/login: $/);
  s.close();
  s.close(); // idempotent
  await s.closed;
  await out.done;
  assert.equal(out.got.ended, true);
});

test('connect(): the password of the URL is never sent; the user name is offered as USER (RFC 1738 3.8, RFC 1572)', async () => {
  const fake = await fakeTelnet((sock) => {
    sock.write(Buffer.from([255, 253, 39])); // DO NEW-ENVIRON
    sock.once('data', () => sock.write(Buffer.from([255, 250, 39, 1, 255, 240, ...Buffer.from('login: ')])));
  });
  try {
    const s = await connect(`telnet://tester:s3cr%65t@127.0.0.1:${fake.port}/`, { timeout: 5000 });
    const out = collect(s);
    await out.wait(/login: /);
    type(s, 'tester\r');
    await until(() => fake.received[0].includes('tester\r\0'), 5000, 'the typed name');
    s.close();
    const got = fake.received[0].toString('latin1');
    assert.ok(!got.includes('s3cret') && !got.includes('s3cr%65t'), JSON.stringify(got));
    assert.ok(got.includes('\xff\xfb\x27'), 'WILL NEW-ENVIRON');
    assert.ok(got.includes('\xff\xfa\x27\x00\x00USER\x01tester\xff\xf0'), JSON.stringify(got));
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('connect(): BINARY both ways (RFC 856), IAC BRK, NAWS only once agreed and again on resize (RFC 1073)', async () => {
  const fake = await fakeTelnet((sock) => {
    sock.write(Buffer.from([255, 251, 0, 255, 253, 0])); // WILL BINARY, DO BINARY
    sock.write(Buffer.from([97, 13, 0, 98])); // "a" CR NUL "b": kept as it is in BINARY
  });
  try {
    const s = await connect(`telnet://127.0.0.1:${fake.port}/`, { timeout: 5000, cols: 80, rows: 24 });
    const out = collect(s);
    await out.wait(/b$/);
    assert.equal(out.got.text, 'a\r\0b');
    s.resize(90, 40); // NAWS not agreed yet: nothing is sent
    await until(() => fake.received[0].length >= 6, 5000, 'the answers');
    type(s, 'x\r');
    s.sendBreak();
    await until(() => fake.received[0].toString('latin1').endsWith('\xff\xf3'), 5000, 'IAC BRK');
    const got = fake.received[0].toString('latin1');
    assert.equal(got, '\xff\xfd\x00\xff\xfb\x00x\r\xff\xf3', 'DO BINARY, WILL BINARY, "x" CR with no NUL, IAC BRK');
    s.close();
  } finally {
    await fake.close();
  }
  const naws = await fakeTelnet((sock) => sock.write(Buffer.from([255, 253, 31])));
  try {
    const s = await connect(`telnet://127.0.0.1:${naws.port}/`, { timeout: 5000, cols: 80, rows: 24 });
    collect(s);
    await until(() => naws.received[0]?.length === 12, 5000, 'WILL NAWS and the size');
    s.resize(300, 255);
    await until(() => naws.received[0].length === 12 + 10, 5000, 'the new size');
    assert.deepEqual(
      [...naws.received[0]],
      [255, 251, 31, 255, 250, 31, 0, 80, 0, 24, 255, 240, 255, 250, 31, 1, 44, 0, 255, 255, 255, 240],
    );
    s.close();
  } finally {
    await naws.close();
  }
});

test('fault: a flood of option requests gets a bounded number of answers, and the data after it arrives (RFC 1143)', async () => {
  const fake = await fakeTelnet((sock) => {
    const parts: number[] = [];
    for (let i = 0; i < 20_000; i++) parts.push(255, i % 2 ? 251 : 252, 1, 255, 253, 99); // WILL/WONT ECHO, DO 99
    sock.write(Buffer.from(parts));
    sock.write('after the flood');
  });
  try {
    const s = await connect(`telnet://127.0.0.1:${fake.port}/`, { timeout: 5000, transcript: true });
    const out = collect(s);
    await out.wait(/after the flood$/);
    await new Promise((r) => setTimeout(r, 100));
    const answers = fake.received[0].length / 3;
    assert.ok(answers <= 2 * MAX_ANSWERS, `${answers} answers`);
    assert.ok(answers >= MAX_ANSWERS, `${answers} answers: the first requests are answered`);
    assert.ok(s.transcript.length <= 2001, `${s.transcript.length} transcript lines`);
    s.close();
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('MAX_TRANSCRIPT: a session of 2,000 transcript lines keeps them all; of 2,001, the first 2,000 and one line saying the rest was left out', async () => {
  // The lines: "connect ...", one "NOP" for each IAC NOP (RFC 854) the server sends, "session ended ...".
  const run = async (nops: number) => {
    const fake = await fakeTelnet((sock) => {
      sock.write(Buffer.concat([Buffer.alloc(2 * nops, Buffer.from([255, 241])), Buffer.from('END')]));
    });
    try {
      const seen: string[] = [];
      const s = await connect(`telnet://127.0.0.1:${fake.port}/`, {
        timeout: 5000,
        transcript: (l) => seen.push(l.text),
      });
      await collect(s).wait(/END$/);
      s.close();
      await s.closed;
      await fake.allClosed();
      assert.deepEqual(
        s.transcript.map((l) => l.text),
        seen,
      );
      return seen;
    } finally {
      await fake.close();
    }
  };
  const at = await run(1998);
  assert.equal(at.length, 2000);
  assert.match(at[0], /^connect 127\.0\.0\.1:\d+$/);
  assert.match(at[1999], /^session ended: /);
  const past = await run(1999);
  assert.equal(past.length, 2001);
  assert.equal(past[1999], 'NOP');
  assert.equal(past[2000], '(more than 2000 lines: the rest is left out)');
});

test('fault: a subnegotiation that never ends is dropped past the limit (the parser holds at most 4096 octets), the session lives on', async () => {
  const fake = await fakeTelnet((sock) => {
    sock.write(Buffer.from([255, 250, 24]));
    const block = Buffer.alloc(1 << 20, 65);
    for (let i = 0; i < 8; i++) sock.write(block); // 8 MiB of one subnegotiation
    sock.write(Buffer.from([255, 240, ...Buffer.from('still here')]));
  });
  try {
    const s = await connect(`telnet://127.0.0.1:${fake.port}/`, { timeout: 5000, transcript: true });
    const out = collect(s);
    await out.wait(/still here$/, 30_000);
    assert.ok(
      s.transcript.some((l) => /subnegotiation of TERMINAL-TYPE of 8388608 octets was dropped/.test(l.text)),
      s.transcript.map((l) => l.text).join('\n'),
    );
    s.close();
  } finally {
    await fake.close();
  }
});

test('fault: a connection reset fails the session with connection-closed (kind network: exit 3)', async () => {
  const fake = await fakeTelnet((sock) => {
    sock.write('hello\r\n');
    setTimeout(() => sock.resetAndDestroy(), 100);
  });
  try {
    const s = await connect(`telnet://127.0.0.1:${fake.port}/`, { timeout: 5000 });
    const out = collect(s);
    const e = await rejects(s.closed);
    assert.equal(e.code, 'connection-closed');
    assert.equal(kindOf(e.code), 'network');
    await out.done;
    assert.equal(out.got.text, 'hello\r\n');
    assert.ok(out.got.error !== null, 'the output stream errors too');
  } finally {
    await fake.close();
  }
});

test('fault: a server that stalls (sends nothing) keeps the session open with no read timeout; abort ends it', async () => {
  const fake = await fakeTelnet(() => {});
  try {
    const ac = new AbortController();
    const s = await connect(`telnet://127.0.0.1:${fake.port}/`, { timeout: 200, signal: ac.signal });
    const out = collect(s);
    await new Promise((r) => setTimeout(r, 500)); // longer than the connect timeout: still open
    assert.equal(out.got.ended, false);
    ac.abort();
    const e = await rejects(s.closed);
    assert.equal(e.code, 'aborted');
    await out.done;
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('fault: a server that stops reading fails the session once MAX_UNSENT octets wait (no unbounded buffer)', async () => {
  const fake = await fakeTelnet((sock) => sock.pause());
  try {
    const s = await connect(`telnet://127.0.0.1:${fake.port}/`, { timeout: 5000 });
    collect(s);
    const block = Buffer.alloc(64 * 1024, 97);
    for (let i = 0; i < (32 * MAX_UNSENT) / block.length; i++) s.write(block);
    const e = await rejects(s.closed);
    assert.equal(e.code, 'protocol-error');
    assert.match(e.message, /stopped reading/);
  } finally {
    await fake.close();
  }
});

test('connect(): the policy is consulted before any connection (RFC 1738 6)', async () => {
  const fake = await fakeTelnet(() => {});
  try {
    const e = await rejects(
      connect(`telnet://127.0.0.1:${fake.port}/`, { policy: { refusePrivateAddresses: true }, timeout: 5000 }),
    );
    assert.equal(e.code, 'policy-refused');
    assert.equal(fake.connections, 0);
  } finally {
    await fake.close();
  }
});

test('connect(): a closed port fails with connect-failed; a scheme with no session with no-session', async () => {
  const fake = await fakeTelnet(() => {});
  const port = fake.port;
  await fake.close();
  assert.equal((await rejects(connect(`telnet://127.0.0.1:${port}/`, { timeout: 5000 }))).code, 'connect-failed');
  const e = await rejects(connect('http://127.0.0.1:8080/'));
  assert.equal(e.code, 'no-session');
  assert.match(e.message, /open\(\)/);
});

test('open() of a telnet URL fails with interactive-only, naming connect (RFC 1738 3.8)', async () => {
  const e = await rejects(open(REAL, { gateway: false }));
  assert.equal(e.code, 'interactive-only');
  assert.equal(kindOf(e.code), 'usage');
  assert.match(e.message, /connect\(\)/);
  assert.match(e.message, /locator connect/);
});
