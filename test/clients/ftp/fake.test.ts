// The ftp client against in-process fake servers: the login state machine (RFC 1738 3.2.1,
// RFC 959 5.4), EPSV refused -> PASV, replies split into single octets, and the faults a real
// server will not produce. Every test checks the typed error and that no socket is left open.
import { test, afterEach } from 'node:test';
import net from 'node:net';
import assert from 'node:assert/strict';
import { parse } from '../../helpers.js';
import { explain } from '../../../src/operations/build.js';
import { open } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';
import { FtpReplyError } from '../../../src/clients/ftp/client.js';
import type { OpenOptions, TranscriptLine } from '../../../src/clients/types.js';
import { FakeFtp, drain, standard, socketsSettle, tcpSockets, type Handler, type Overrides } from './fakes.js';

const FILES = {
  'hello.txt': 'Hello\r\n',
  'pub/a.bin': Buffer.from('binary\x00\xff', 'latin1'),
  'pub/sub/deep.txt': 'deep\n',
};
const BASE = tcpSockets();
let fake: FakeFtp | null = null;

/** A fake with the standard handler (overrides per verb), or a handler of the test's own. */
async function start(over: Overrides | Handler = {}, greeting?: string | null): Promise<FakeFtp> {
  fake = await FakeFtp.start({ greeting, handle: typeof over === 'function' ? over : standard(FILES, over) });
  return fake;
}

/** After each test: every socket of the fake closed by the client, none left in this process. */
afterEach(async () => {
  if (fake === null) return;
  const f = fake;
  fake = null;
  const closed = await f.allClosed();
  await f.stop(); // fails the test when the fake's handler threw
  assert.ok(closed, 'the client closed every connection');
  assert.equal(await socketsSettle(BASE), BASE, 'no TCP socket left open');
});

const quiet: OpenOptions = { gateway: false, timeout: 300 };

async function read(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  await drain(body, (c) => parts.push(c));
  return Buffer.concat(parts);
}

async function fetchText(url: string, options: OpenOptions = {}): Promise<string> {
  const r = await open(url, { ...quiet, ...options });
  return (await read(r.body)).toString('latin1');
}

async function failure(p: Promise<unknown>, code: string): Promise<LocatorError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LocatorError, `a LocatorError, not ${e}`);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

/** explain(url).steps with the PASS placeholder replaced by what the server saw. */
function expectedCommands(url: string, pass: string | null): string[] {
  return explain(parse(url)).steps.flatMap((s) =>
    s.startsWith('PASS ') ? (pass === null ? [] : [`PASS ${pass}`]) : [s],
  );
}

// --- login (RFC 1738 3.2.1, RFC 959 5.4) ---

test('user and password from the URL: USER, PASS, then the steps of explain()', async () => {
  const f = await start();
  const url = f.url('pub/sub/deep.txt', 'me:s%40cret@');
  const lines: TranscriptLine[] = [];
  assert.equal(await fetchText(url, { transcript: (l) => lines.push(l) }), 'deep\n');
  assert.deepEqual(f.commands, expectedCommands(url, 's@cret'));
  assert.ok(lines.some((l) => l.direction === 'send' && l.text === 'PASS ****'));
  assert.ok(
    lines.every((l) => !l.text.includes('s@cret')),
    'the password never shows in the transcript',
  );
});

test('230 after USER: logged in, no PASS sent', async () => {
  const f = await start({ USER: (_v, _a, s) => s.reply('230 No password needed.') });
  const url = f.url('hello.txt', 'me@');
  assert.equal(await fetchText(url), 'Hello\n');
  assert.deepEqual(f.commands, expectedCommands(url, null));
});

test('a user without a password: 331 -> options.password (a string)', async () => {
  const f = await start();
  await fetchText(f.url('hello.txt', 'me@'), { password: 'typed' });
  assert.deepEqual(f.commands.slice(0, 2), ['USER me', 'PASS typed']);
});

test('a user without a password: 331 -> the prompt is asked once', async () => {
  const f = await start();
  let asked = 0;
  await fetchText(f.url('hello.txt', 'me@'), {
    password: async () => {
      asked++;
      return 'prompted';
    },
  });
  assert.equal(asked, 1);
  assert.deepEqual(f.commands.slice(0, 2), ['USER me', 'PASS prompted']);
});

test('a user without a password and no way to ask: needs-input, then QUIT', async () => {
  const f = await start();
  const e = await failure(open(f.url('hello.txt', 'me@'), quiet), 'needs-input');
  assert.match(e.message, /password of "me"/);
  assert.ok(await f.allClosed());
  assert.deepEqual(f.commands, ['USER me', 'QUIT']);
});

test('a user that needs no password is never asked for one', async () => {
  const f = await start({ USER: (_v, _a, s) => s.reply('230 Welcome.') });
  await fetchText(f.url('hello.txt', 'me@'), { password: () => assert.fail('asked') });
});

test('332 after USER or PASS: an account is needed, a typed ftp-reply', async () => {
  let f = await start({ USER: (_v, _a, s) => s.reply('332 Need account for login.') });
  let e = (await failure(open(f.url('hello.txt'), quiet), 'ftp-reply')) as FtpReplyError;
  assert.equal(e.replyCode, 332);
  assert.match(e.message, /account/);
  assert.ok(await f.allClosed());
  await f.stop();
  f = await start({ PASS: (_v, _a, s) => s.reply('332 Need account for login.') });
  e = (await failure(open(f.url('hello.txt'), quiet), 'ftp-reply')) as FtpReplyError;
  assert.equal(e.replyCode, 332);
});

test('530 after PASS: ftp-reply with the code and text', async () => {
  const f = await start({ PASS: (_v, _a, s) => s.reply('530 Login incorrect.') });
  const e = (await failure(open(f.url('hello.txt', 'me:bad@'), quiet), 'ftp-reply')) as FtpReplyError;
  assert.equal(e.replyCode, 530);
  assert.equal(e.replyText, 'Login incorrect.');
  assert.equal(e.command, 'PASS ****');
  assert.ok(!e.message.includes('bad'));
});

test('anonymous: the e-mail address from options.email, LOCATOR_EMAIL, EMAIL, else "anonymous@"', async () => {
  const f = await start();
  await fetchText(f.url('hello.txt'), { email: 'me@example.test', env: { LOCATOR_EMAIL: 'no@x' } });
  await fetchText(f.url('hello.txt'), { env: { LOCATOR_EMAIL: 'locator@example.test', EMAIL: 'no@x' } });
  await fetchText(f.url('hello.txt'), { env: { EMAIL: 'email@example.test' } });
  await fetchText(f.url('hello.txt'), { env: {} });
  await fetchText(f.url('hello.txt', 'anonymous@'), {
    env: { EMAIL: 'named@example.test' },
    password: () => assert.fail('asked'),
  });
  await fetchText(f.url('hello.txt'), { email: 'prompt@not.asked', password: () => assert.fail('asked') });
  assert.deepEqual(
    f.sessions.map((s) => s.commands.slice(0, 2)),
    [
      ['USER anonymous', 'PASS me@example.test'],
      ['USER anonymous', 'PASS locator@example.test'],
      ['USER anonymous', 'PASS email@example.test'],
      ['USER anonymous', 'PASS anonymous@'],
      ['USER anonymous', 'PASS named@example.test'],
      ['USER anonymous', 'PASS prompt@not.asked'],
    ],
  );
});

test('120 then 220 at the greeting (RFC 959 5.4)', async () => {
  const f = await start({}, '120 Ready in 1 minute.\r\n220-Now\r\n220 ready.\r\n');
  assert.equal(await fetchText(f.url('hello.txt')), 'Hello\n');
});

// --- the path: CWD per segment, TYPE, RETR / NLST (RFC 1738 3.2.2) ---

test('an empty segment is sent as "CWD " with an empty argument (RFC 1738 3.2.2)', async () => {
  // Every CWD but into the name is answered 250 (open() tries the name as a directory after RETR fails).
  const f = await start({ CWD: (_v, a, s) => s.reply(a === 'a.bin' ? '550 Not a directory.' : '250 OK.') });
  const url = f.url('/pub/a.bin');
  await failure(open(url, quiet), 'ftp-reply'); // the fake's RETR looks in "/", as its CWD answers 250 to anything
  assert.deepEqual(
    f.commands.filter((c) => c.startsWith('CWD')),
    ['CWD ', 'CWD pub'],
  );
  assert.deepEqual(f.commands.slice(0, 5), expectedCommands(url, 'anonymous@').slice(0, 5));
});

test('NLST for ;type=d and for a URL ending in "/"', async () => {
  const f = await start();
  assert.equal(await fetchText(f.url('pub;type=d')), 'a.bin\nsub\n');
  assert.equal(await fetchText(f.url('pub/')), 'a.bin\nsub\n');
  assert.deepEqual(
    f.sessions.map((s) => s.commands.slice(2)),
    [
      ['EPSV', 'NLST pub', 'QUIT'],
      ['CWD pub', 'EPSV', 'NLST', 'QUIT'],
    ],
  );
});

test('meta: the size of a 150 reply for TYPE I, none for TYPE A; text/plain for text and listings', async () => {
  const f = await start();
  const bin = await open(f.url('pub/a.bin'), quiet);
  assert.equal(bin.meta.size, 8);
  assert.equal(bin.meta.contentType, null);
  assert.equal((await read(bin.body)).toString('latin1'), 'binary\x00\xff');
  const txt = await open(f.url('hello.txt'), quiet);
  assert.equal(txt.meta.size, null);
  assert.equal(txt.meta.contentType, 'text/plain');
  await read(txt.body);
});

test('a URL whose decoded path holds CR LF is refused before any connection (RFC 1738 6)', async () => {
  const f = await start();
  // The policy refuses it (encoded-delimiter) before the client's own line-break check, which
  // stays as a second line of defence (and catches a prompted password: the next test).
  await failure(open(f.url('a%0D%0ADELE%20x/b'), quiet), 'policy-refused');
  await failure(open(f.url('b', 'u:p%0A@'), quiet), 'policy-refused');
  assert.equal(f.sessions.length, 0);
});

test('a password option holding a line break is refused before PASS', async () => {
  const f = await start();
  await failure(open(f.url('hello.txt', 'me@'), { ...quiet, password: 'x\r\nDELE y' }), 'ftp-line-break');
  assert.deepEqual(f.commands, ['USER me']);
});

// --- passive mode (RFC 2428, RFC 959) ---

test('EPSV refused with 5yz: PASV, and the transfer goes on', async () => {
  const f = await start({ EPSV: (_v, _a, s) => s.reply('500 EPSV not understood.') });
  const lines: TranscriptLine[] = [];
  assert.equal(await fetchText(f.url('hello.txt'), { transcript: (l) => lines.push(l) }), 'Hello\n');
  assert.deepEqual(f.commands.slice(3), ['EPSV', 'PASV', 'RETR hello.txt', 'QUIT']);
  assert.ok(lines.some((l) => l.direction === 'send' && l.text === 'PASV'));
});

test('PASV: the address of the reply is not used, only the port (DEVIATION, RFC 2577)', async () => {
  const f = await start({
    EPSV: (_v, _a, s) => s.reply('502 No.'),
    PASV: async (_v, _a, s) => {
      const p = await s.listen();
      s.reply(`227 Entering Passive Mode (10,99,99,99,${p >> 8},${p & 255}).`);
    },
  });
  assert.equal(await fetchText(f.url('hello.txt')), 'Hello\n');
});

test('EPSV refused with 4yz is an error (no fallback)', async () => {
  const f = await start({ EPSV: (_v, _a, s) => s.reply('425 Cannot open passive connection.') });
  const e = (await failure(open(f.url('hello.txt'), quiet), 'ftp-reply')) as FtpReplyError;
  assert.equal(e.replyCode, 425);
});

test('a malformed 229 reply is a protocol error', async () => {
  const f = await start({ EPSV: (_v, _a, s) => s.reply('229 Entering Extended Passive Mode (port 99)') });
  await failure(open(f.url('hello.txt'), quiet), 'protocol-error');
});

test('replies written one octet at a time, multi-line ones included', async () => {
  const inner = standard(FILES);
  const split = (c: net.Socket, t: string | Uint8Array) => {
    for (const b of typeof t === 'string' ? Buffer.from(t, 'latin1') : t) c.write(Buffer.from([b]));
  };
  const slow: Handler = async (verb, arg, s) => {
    s.write = (t) => split(s.control, t);
    if (verb === 'USER') {
      s.write('331-Multi\r\n 331 is not the end\r\n331 Password.\r\n');
      return;
    }
    await inner(verb, arg, s);
  };
  const f = await start(slow, null);
  f.server.on('connection', (c) => split(c, '220-Hello\r\n220-\r\n220 ready\r\n'));
  assert.equal(await fetchText(f.url('pub/sub/deep.txt')), 'deep\n');
});

// --- faults ---

test('fault: a reply cut in the middle (the server closes mid-line) -> connection-closed', async () => {
  const f = await start({
    USER: (_v, _a, s) => {
      s.write('331 Pass');
      s.control.end();
    },
  });
  const e = await failure(open(f.url('hello.txt'), quiet), 'connection-closed');
  assert.match(e.message, /USER anonymous/);
});

test('the fake itself: a handler that throws makes stop() fail, so the test using the fake fails', async () => {
  const f = await FakeFtp.start({
    handle: standard(FILES, {
      CWD: () => {
        throw new Error('a broken handler');
      },
    }),
  });
  await failure(open(f.url('pub/a.bin'), quiet), 'timeout'); // CWD is never answered
  assert.ok(await f.allClosed());
  await assert.rejects(f.stop(), /handler of "CWD pub" threw: Error: a broken handler/);
});

test('fault: a greeting cut in the middle -> connection-closed', async () => {
  const f = await FakeFtp.start({ greeting: null, handle: () => {} });
  fake = f;
  f.server.on('connection', (c) => c.end('220 Wel'));
  await failure(open(f.url('hello.txt'), quiet), 'connection-closed');
});

test('fault: a stall (no reply) -> timeout after 300 ms', async () => {
  const f = await start({ CWD: () => {} });
  const t0 = Date.now();
  await failure(open(f.url('pub/a.bin'), quiet), 'timeout');
  assert.ok(Date.now() - t0 < 3000);
});

test('fault: a multi-line reply that stops half-way -> timeout', async () => {
  const f = await start({ USER: (_v, _a, s) => s.write('331-Please\r\n give the') });
  await failure(open(f.url('hello.txt'), quiet), 'timeout');
});

test('fault: no greeting at all -> timeout', async () => {
  await start({}, null);
  await failure(open(fake!.url('hello.txt'), quiet), 'timeout');
});

test('fault: garbage instead of a reply -> protocol-error', async () => {
  await start({}, 'SSH-2.0-OpenSSH_9.2\r\n');
  await failure(open(fake!.url('hello.txt'), quiet), 'protocol-error');
});

test('fault: garbage after a command -> protocol-error', async () => {
  const f = await start({ TYPE: (_v, _a, s) => s.reply('OK then') });
  await failure(open(f.url('hello.txt'), quiet), 'protocol-error');
});

test('fault: 421 at the greeting -> ftp-reply 421', async () => {
  await start({}, '421 Too many users, try later.\r\n');
  const e = (await failure(open(fake!.url('hello.txt'), quiet), 'ftp-reply')) as FtpReplyError;
  assert.equal(e.replyCode, 421);
  assert.equal(e.replyText, 'Too many users, try later.');
  assert.equal(e.command, null);
});

test('fault: the data connection never opens (EPSV names a port where nothing listens) -> connect-failed', async () => {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const f = await start({ EPSV: (_v, _a, s) => s.reply(`229 Entering Extended Passive Mode (|||${closedPort}|)`) });
  await failure(open(f.url('hello.txt'), quiet), 'connect-failed');
});

test('fault: the data connection opens but no octet comes (150, then silence) -> the body times out', async () => {
  const f = await start({
    RETR: async (_v, _a, s) => {
      await s.data;
      s.reply('150 Opening BINARY mode data connection.');
    },
  });
  const r = await open(f.url('hello.txt'), quiet);
  await failure(read(r.body), 'timeout');
});

test('fault: RETR never answered -> timeout', async () => {
  const f = await start({ RETR: () => {} });
  await failure(open(f.url('hello.txt'), quiet), 'timeout');
});

test('fault: the transfer ended early with 426: an error even though octets arrived', async () => {
  const f = await start({
    RETR: async (_v, _a, s) => {
      const data = await s.data!;
      s.reply('150 Opening BINARY mode data connection (1000 bytes).');
      data.end('only part');
      await new Promise((resolve) => data.once('close', resolve));
      s.reply('426 Connection closed; transfer aborted.');
    },
  });
  const r = await open(f.url('pub/a.bin'), quiet);
  const got: Uint8Array[] = [];
  const e = (await failure(
    drain(r.body, (c) => got.push(c)),
    'ftp-reply',
  )) as FtpReplyError;
  assert.equal(Buffer.concat(got).toString(), 'only part');
  assert.equal(e.replyCode, 426);
  assert.match(e.message, /after 9 octets/);
});

test('fault: 451 after the data: an error', async () => {
  const f = await start({
    RETR: async (_v, _a, s) => {
      const data = await s.data!;
      s.reply('150 Opening.');
      data.end('x');
      s.reply('451 Local error in processing.');
    },
  });
  const r = await open(f.url('pub/a.bin'), quiet);
  const e = (await failure(read(r.body), 'ftp-reply')) as FtpReplyError;
  assert.equal(e.replyCode, 451);
});

test('550 on RETR: ftp-reply 550, QUIT sent, both connections closed', async () => {
  const f = await start();
  const e = (await failure(open(f.url('missing.txt'), quiet), 'ftp-reply')) as FtpReplyError;
  assert.equal(e.replyCode, 550);
  assert.equal(e.replyText, 'No such file.');
  assert.ok(await f.allClosed());
  assert.deepEqual(f.commands.slice(-2), ['RETR missing.txt', 'QUIT']);
});

test('550 on CWD: ftp-reply 550', async () => {
  const f = await start();
  const e = (await failure(open(f.url('nodir/x.txt'), quiet), 'ftp-reply')) as FtpReplyError;
  assert.equal(e.replyCode, 550);
  assert.equal(e.command, 'CWD nodir');
});

// --- the body: cancel, abort, maxBytes ---

function endless(): Overrides {
  return {
    RETR: async (_v, _a, s) => {
      const data = await s.data!;
      s.reply('150 Opening BINARY mode data connection.');
      const block = Buffer.alloc(64 * 1024, 7);
      const pump = () => {
        while (!data.destroyed && data.write(block));
      };
      data.on('drain', pump);
      pump();
    },
  };
}

test('the consumer cancels the body: both connections closed', async () => {
  const f = await start(endless());
  const r = await open(f.url('pub/a.bin'), { ...quiet, timeout: 5000 });
  const reader = r.body.getReader();
  await reader.read();
  await reader.cancel();
  assert.ok(await f.allClosed());
});

test('an AbortSignal during the transfer: aborted, both connections closed', async () => {
  const f = await start(endless());
  const ac = new AbortController();
  const r = await open(f.url('pub/a.bin'), { ...quiet, timeout: 5000, signal: ac.signal });
  const reader = r.body.getReader();
  await reader.read();
  ac.abort();
  await failure(reader.read(), 'aborted');
});

test('an AbortSignal already aborted: nothing is connected', async () => {
  const f = await start();
  const ac = new AbortController();
  ac.abort();
  await failure(open(f.url('hello.txt'), { ...quiet, signal: ac.signal }), 'aborted');
  assert.equal(f.sessions.length, 0);
});

test('maxBytes: too-large, both connections closed', async () => {
  const f = await start(endless());
  const r = await open(f.url('pub/a.bin'), { ...quiet, timeout: 5000, maxBytes: 100_000 });
  await failure(read(r.body), 'too-large');
});

test('back-pressure: a body not read does not pull the whole object into memory', async () => {
  const f = await start(endless());
  const r = await open(f.url('pub/a.bin'), { ...quiet, timeout: 5000 });
  const reader = r.body.getReader();
  await reader.read();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const sent = f.sessions[0].data === null ? 0 : (await f.sessions[0].data).bytesWritten;
  assert.ok(sent < 16 * 1024 * 1024, `the server could write only up to the socket buffers (${sent} octets)`);
  await reader.cancel();
});

// --- TYPE A line ends (RFC 959 3.1.1.1) ---

/** RETR that sends `pieces` one by one on the data connection, each flushed before the next. */
function paced(pieces: string[]): Overrides {
  return {
    RETR: async (_v, _a, s) => {
      const data = await s.data!;
      s.reply('150 Opening ASCII mode data connection.');
      for (const p of pieces) {
        await new Promise<void>((resolve) => data.write(Buffer.from(p, 'latin1'), () => resolve()));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      data.end();
      await new Promise((resolve) => data.once('close', resolve));
      s.reply('226 Transfer complete.');
    },
  };
}

test('TYPE A: a CR LF cut between two packets is one LF; a lone CR and a CR at the very end stay', async () => {
  const f = await start(paced(['one\r', '\ntwo\r', 'x\r\n\r', '\n', 'end\r']));
  assert.equal(await fetchText(f.url('notes.txt')), 'one\ntwo\rx\n\nend\r');
  assert.ok(await f.allClosed());
});

test('TYPE A with ftpLineEnds "wire": the NVT octets as sent; TYPE I: always as sent', async () => {
  const f = await start(paced(['one\r', '\ntwo\r\n']));
  assert.equal(await fetchText(f.url('notes.txt'), { ftpLineEnds: 'wire' }), 'one\r\ntwo\r\n');
  assert.equal(await fetchText(f.url('notes.txt;type=i')), 'one\r\ntwo\r\n');
});
