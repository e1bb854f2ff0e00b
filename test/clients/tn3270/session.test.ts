// tn3270 sessions (RFC 1576) against Hercules 3.13 on 127.0.0.1:3270 (test/servers/hercules.sh: a
// TN3270 console with no operating system, which draws its own logo screen), and against
// in-process fakes for the keys (what the client sends back) and the faults: a reset, a stall,
// garbage in the 3270 data stream, an endless subnegotiation, a server that is not TN3270.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type net from 'node:net';
import { connectSession } from '../../../src/clients/tn3270/session.js';
import { encodeChar } from '../../../src/clients/tn3270/ebcdic.js';
import { encodeAddress } from '../../../src/clients/tn3270/screen.js';
import { LocatorError } from '../../../src/core/errors.js';
import { parse, serversDir } from '../../helpers.js';
import { outputReader } from '../session-helpers.js';
import { queryReplyFields, usableArea } from './query-reply.js';
import { nestedWsf, onWire } from './hostile.js';

const code = (c: string) => (e: unknown) => e instanceof LocatorError && e.code === c;
const enc = (s: string) => new TextEncoder().encode(s);
const ebcdic = (s: string) => [...s].map((c) => encodeChar(c)!);
const hex = (s: string) => Buffer.from(s, 'latin1').toString('hex');

/** What a TN3270 server sends first (RFC 1576 4): the three options and TERMINAL-TYPE SEND. */
const NEGOTIATION = Buffer.from([
  255, 253, 24, 255, 250, 24, 1, 255, 240, 255, 253, 25, 255, 251, 25, 255, 253, 0, 255, 251, 0,
]);
/** A formatted screen: a protected label, an unprotected field of 8 with the cursor, the rest protected. */
const FORM = Buffer.from([
  0xf5,
  0xc2,
  0x11,
  ...encodeAddress(0),
  0x1d,
  0x60,
  ...ebcdic('LOGON'),
  0x1d,
  0x40,
  0x13,
  0x11,
  ...encodeAddress(15),
  0x1d,
  0x60,
  0xff,
  0xef,
]);

/**
 * A fake TN3270 server: negotiates (RFC 1576 4), sends `screen` once the client gave its
 * terminal type, and calls `after` for each record the client sends. `received[0]` is what the
 * first client sent (latin1).
 */
async function fake3270(screen: Buffer, after?: (sock: net.Socket) => void) {
  const { createServer } = await import('node:net');
  const sockets = new Set<net.Socket>();
  const received: string[] = [];
  const server = createServer((sock) => {
    const index = received.length;
    received.push('');
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    sock.write(NEGOTIATION);
    let sent = false;
    let records = 0;
    sock.on('data', (d) => {
      received[index] += d.toString('latin1');
      if (!sent && received[index].includes('IBM-3278-2')) {
        sent = true;
        sock.write(screen);
      }
      const n = received[index].split('\xff\xef').length - 1;
      for (; records < n; records++) after?.(sock);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    async allClosed() {
      const t0 = Date.now();
      while (sockets.size > 0 && Date.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 10));
      assert.equal(sockets.size, 0, 'a socket is still open on the fake server');
    },
    close: () => {
      for (const x of sockets) x.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A fake that sends `bytes` as soon as a client connects. */
async function pushOnConnect(bytes: Buffer | string, then?: (sock: net.Socket) => void) {
  const { createServer } = await import('node:net');
  const sockets = new Set<net.Socket>();
  const server = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    sock.write(bytes);
    then?.(sock);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    open: () => sockets.size,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

// One Hercules session for all (each takes one of its sixteen 3270 devices for the rest of the run).
test('RFC 1576, Hercules, IBM-3278-4-E: negotiate, read the logo screen, press Enter, end cleanly', async () => {
  serversDir();
  const s = await connectSession(parse('tn3270://127.0.0.1:3270'), { transcript: true, timeout: 10000, model: 4 });
  try {
    const out = outputReader(s);
    await out.until(/Hercules Version/);
    const text = s.screenText();
    assert.match(text, /^ Hercules Version  : \S/);
    assert.match(text, /Device number     : 00[01][0-9A-F]/);
    assert.match(text, /The S\/370, ESA\/390 and z\/Architecture/);
    assert.match(out.text(), /^\x1b\[0m\x1b\[H\x1b\[2J/); // drawn as ANSI: clear, then the rows
    const sent = s.transcript.filter((l) => l.direction === 'send').map((l) => l.text);
    assert.deepEqual(sent.slice(0, 2), ['WILL TERMINAL-TYPE', 'SB TERMINAL-TYPE IS IBM-3278-4-E']);
    assert.ok(s.transcript.some((l) => /^3270 EW \(\d+ octets\)$/.test(l.text)));
    // Hercules writes its logo with Erase/Write: the default 24 x 80 of model 4 (43 x 80 is its alternate).
    assert.match(s.status()[1], /IBM-3278-4-E \(24x80, alternate 43x80\)/);
    s.write(enc('\r'));
    assert.ok(s.transcript.some((l) => l.direction === 'send' && l.text === '3270 AID Enter'));
    assert.equal(s.screen.locked, true, 'the keyboard waits for the host after Enter');
  } finally {
    s.close();
  }
  await s.closed; // resolves: a clean end
});

test('RFC 1576, GA23-0059: typed characters fill the field; Enter sends AID, cursor, SBA and the field; the keyboard locks', async () => {
  const f = await fake3270(FORM, (sock) => {
    sock.write(Buffer.from([0xf1, 0x02, 0xff, 0xef])); // W with keyboard restore
  });
  try {
    const s = await connectSession(parse(`tn3270://127.0.0.1:${f.port}`), { transcript: true });
    const out = outputReader(s);
    await out.until(/LOGON/);
    assert.equal(s.screen.cursor, 7);
    s.write(enc('ibmuser'));
    assert.match(s.screenText(), /^ LOGON ibmuser /);
    s.write(enc('\r'));
    assert.equal(s.screen.locked, true);
    s.write(enc('zz')); // ignored while locked
    assert.match(s.screenText(), /^ LOGON ibmuser /);
    await out.until(/X SYSTEM Enter/); // the status line shows the lock
    const deadline = Date.now() + 2000;
    while (!f.received[0].includes('\xff\xef') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const got = f.received[0];
    const rec = got.slice(got.indexOf('IBM-3278-2'));
    const body = rec.slice(rec.indexOf('\x7d'), rec.indexOf('\xff\xef'));
    assert.equal(
      hex(body),
      '7d' +
        Buffer.from(encodeAddress(14)).toString('hex') +
        '11' +
        Buffer.from(encodeAddress(7)).toString('hex') +
        Buffer.from(ebcdic('ibmuser')).toString('hex'),
    );
    const t0 = Date.now();
    while (s.screen.locked && Date.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 10));
    assert.equal(s.screen.locked, false); // the host's WCC restored it
    assert.ok(s.transcript.some((l) => l.text === '3270 AID Enter'));
    assert.ok(!s.transcript.some((l) => l.text.includes('ibmuser')));
    s.close();
    await s.closed;
    await f.allClosed();
  } finally {
    await f.close();
  }
});

for (const [key, aid] of [
  ['\x1bOR', 'f3'],
  ['\x1b[24~', '7c'],
  ['\x0c', '6d'],
] as const) {
  test(`GA23-0059: ${JSON.stringify(key)} sends the AID 0x${aid}`, async () => {
    const f = await fake3270(FORM);
    try {
      const s = await connectSession(parse(`tn3270://127.0.0.1:${f.port}`), {});
      const out = outputReader(s);
      await out.until(/LOGON/);
      s.write(enc(key));
      const deadline = Date.now() + 2000;
      while (!f.received[0].includes('\xff\xef') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const got = f.received[0];
      assert.equal(
        hex(
          got.slice(
            got.lastIndexOf('\xff\xef') - (aid === '6d' ? 1 : 3),
            got.lastIndexOf('\xff\xef') - (aid === '6d' ? 0 : 2),
          ),
        ),
        aid,
      );
      if (aid === '6d') assert.equal(s.screenText().trim(), ''); // Clear erased the screen
      s.close();
    } finally {
      await f.close();
    }
  });
}

/**
 * The 3270 records in what a client sent (RFC 1576: each ends with IAC EOR; RFC 854: IAC IAC is
 * a data 0xFF, option commands and subnegotiations are no data).
 */
function recordsOf(sent: string): Uint8Array[] {
  const b = Buffer.from(sent, 'latin1');
  const out: Uint8Array[] = [];
  let cur: number[] = [];
  for (let i = 0; i < b.length; i++) {
    if (b[i] !== 255) {
      cur.push(b[i]);
      continue;
    }
    const cmd = b[++i];
    if (cmd === 255) cur.push(255);
    else if (cmd === 239) {
      out.push(Uint8Array.from(cur));
      cur = [];
    } else if (cmd === 250) {
      while (i < b.length && !(b[i] === 255 && b[i + 1] === 240)) i++;
      i++;
    } else if (cmd >= 251 && cmd <= 254) i++;
  }
  return out;
}

test('RFC 1576, GA23-0059: the client answers Read Partition Query with its 24x80 Usable Area, on the wire', async () => {
  const QUERY = Buffer.from([0xf3, 0x00, 0x05, 0x01, 0xff, 0xff, 0x02, 0xff, 0xef]); // WSF RPQ, IAC doubled
  const f = await fake3270(QUERY);
  try {
    const s = await connectSession(parse(`tn3270://127.0.0.1:${f.port}`), { transcript: true });
    const deadline = Date.now() + 2000;
    while (recordsOf(f.received[0]).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const records = recordsOf(f.received[0]);
    assert.equal(records.length, 1, 'one inbound record: the Query Reply');
    const fields = queryReplyFields(records[0]);
    assert.deepEqual(
      fields.map((x) => x.qcode),
      [0x80, 0x81, 0x86, 0x87, 0xa6],
      'Summary, Usable Area, Color, Highlighting, Implicit Partition',
    );
    const u = usableArea(fields[1]);
    assert.deepEqual([u.width, u.height, u.bufsz], [80, 24, 1920], 'IBM-3278-2: 80 cells wide, 24 high');
    assert.deepEqual([s.screen.cols, s.screen.rows], [u.width, u.height]);
    s.close();
    await s.closed;
    await f.allClosed();
  } finally {
    await f.close();
  }
});

test('RFC 1576: sendBreak (ATTN) sends IAC BREAK', async () => {
  const f = await fake3270(FORM);
  try {
    const s = await connectSession(parse(`tn3270://127.0.0.1:${f.port}`), {});
    await outputReader(s).until(/LOGON/);
    s.sendBreak();
    const deadline = Date.now() + 2000;
    while (!f.received[0].endsWith('\xff\xf3') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.ok(f.received[0].endsWith('\xff\xf3'));
    s.close();
  } finally {
    await f.close();
  }
});

test('GA23-0059: garbage in the 3270 data stream is a protocol-error, never a crash: at once, or later in the session', async () => {
  const garbage = Buffer.from([0x99, 0x01, 0x02, 0xff, 0xef]);
  const f1 = await pushOnConnect(Buffer.concat([NEGOTIATION, garbage]));
  const f2 = await pushOnConnect(Buffer.concat([NEGOTIATION, FORM]), (sock) =>
    setTimeout(() => sock.write(Buffer.from([0xf1, 0x00, 0x11, 0x3f, 0x7f, 0xff, 0xef])), 100),
  );
  try {
    await assert.rejects(connectSession(parse(`tn3270://127.0.0.1:${f1.port}`), {}), code('protocol-error'));
    const s = await connectSession(parse(`tn3270://127.0.0.1:${f2.port}`), {});
    await assert.rejects(outputReader(s).end(), code('protocol-error'));
    await assert.rejects(
      s.closed,
      (e: unknown) => code('protocol-error')(e) && /outside the 1920-position buffer/.test((e as Error).message),
    );
    assert.match(s.screenText(), /LOGON/); // the screen keeps what was drawn
  } finally {
    await f1.close();
    await f2.close();
  }
});

test('RFC 855: an endless subnegotiation, in the negotiation or in the session, is a protocol-error at the bound', async () => {
  const endless = (sock: net.Socket) => {
    sock.write(Buffer.from([255, 250, 24]));
    const junk = Buffer.alloc(4096, 0x41);
    const timer = setInterval(() => (sock.destroyed ? clearInterval(timer) : sock.write(junk)), 5);
    sock.on('close', () => clearInterval(timer));
  };
  // In the negotiation: connectSession fails.
  const f1 = await pushOnConnect(Buffer.from([255, 253, 24]), endless);
  // In the session (after the screen): closed rejects.
  const f2 = await fake3270(FORM, endless);
  try {
    await assert.rejects(connectSession(parse(`tn3270://127.0.0.1:${f1.port}`), {}), code('protocol-error'));
    const s = await connectSession(parse(`tn3270://127.0.0.1:${f2.port}`), {});
    await outputReader(s).until(/LOGON/);
    s.write(enc('\r'));
    await assert.rejects(s.closed, (e: unknown) => code('protocol-error')(e) && /ran past 512 octets/.test(String(e)));
  } finally {
    await f1.close();
    await f2.close();
  }
});

test('MAX_SUBNEGOTIATION (RFC 855): a subnegotiation of 512 octets, its option octet counted, is read; of 513, a protocol-error that closes the session', async () => {
  // After Enter, the host sends IAC SB TERMINAL-TYPE, `n` octets and IAC SE, then a new screen.
  const again = Buffer.from([0xf5, 0xc2, 0x11, ...encodeAddress(0), 0x1d, 0x60, ...ebcdic('AGAIN'), 0xff, 0xef]);
  const sb = (n: number) =>
    Buffer.concat([Buffer.from([255, 250, 24]), Buffer.alloc(n, 0x41), Buffer.from([255, 240])]);
  const fakeWith = (n: number) => fake3270(FORM, (sock) => sock.write(Buffer.concat([sb(n), again])));
  const at = await fakeWith(511);
  try {
    const s = await connectSession(parse(`tn3270://127.0.0.1:${at.port}`), {});
    const out = outputReader(s);
    await out.until(/LOGON/);
    s.write(enc('\r'));
    await out.until(/AGAIN/);
    s.close();
    await s.closed;
    await at.allClosed();
  } finally {
    await at.close();
  }
  const past = await fakeWith(512);
  try {
    const s = await connectSession(parse(`tn3270://127.0.0.1:${past.port}`), {});
    const out = outputReader(s);
    await out.until(/LOGON/);
    s.write(enc('\r'));
    // bounded: a session that took the subnegotiation would stay open
    const end = await Promise.race([
      s.closed.then(
        () => 'closed without an error',
        (e: unknown) => e,
      ),
      new Promise((r) => setTimeout(() => r('still open after 5 s'), 5000).unref()),
    ]);
    assert.ok(code('protocol-error')(end), String(end));
    assert.equal(
      (end as LocatorError).detail,
      "the server's subnegotiation (IAC SB TERMINAL-TYPE) ran past 512 octets without IAC SE (RFC 855)",
    );
    assert.doesNotMatch(out.text(), /AGAIN/);
    await past.allClosed();
  } finally {
    await past.close();
  }
});

test('RFC 1576: a server that never negotiates (a stall, or not TN3270) is a timeout naming the 3270 mode', async () => {
  const f = await pushOnConnect('login: ');
  try {
    const t0 = Date.now();
    await assert.rejects(
      connectSession(parse(`tn3270://127.0.0.1:${f.port}`), { timeout: 300 }),
      (e: unknown) => code('timeout')(e) && /3270 mode/.test((e as Error).message),
    );
    assert.ok(Date.now() - t0 < 2000);
    const t1 = Date.now();
    while (f.open() > 0 && Date.now() - t1 < 2000) await new Promise((r) => setTimeout(r, 10));
    assert.equal(f.open(), 0); // the socket was released
  } finally {
    await f.close();
  }
});

test('a connection reset during the negotiation is connection-closed; during the session closed rejects', async () => {
  const f1 = await pushOnConnect(Buffer.from([255, 253, 24]), (sock) => setTimeout(() => sock.resetAndDestroy(), 30));
  const f2 = await pushOnConnect(Buffer.concat([NEGOTIATION, FORM]), (sock) =>
    setTimeout(() => sock.resetAndDestroy(), 100),
  );
  try {
    await assert.rejects(connectSession(parse(`tn3270://127.0.0.1:${f1.port}`), {}), code('connection-closed'));
    const s = await connectSession(parse(`tn3270://127.0.0.1:${f2.port}`), {});
    const out = outputReader(s);
    await assert.rejects(out.end(), code('connection-closed'));
    await assert.rejects(s.closed, code('connection-closed'));
  } finally {
    await f1.close();
    await f2.close();
  }
});

test('RFC 1576 "Transition back to NVT": WONT BINARY leaves the 3270 mode; text both ways (CR NUL)', async () => {
  const NVT = Buffer.concat([FORM, Buffer.from([255, 252, 0, 255, 254, 0]), Buffer.from('login: ', 'latin1')]);
  const f = await fake3270(NVT);
  try {
    const s = await connectSession(parse(`tn3270://127.0.0.1:${f.port}`), { transcript: true });
    const out = outputReader(s);
    await out.until(/login: $/);
    assert.match(out.text(), /\x1b\[2Jlogin: $/, 'the 3270 screen cleared, then the text as it is');
    s.write(enc('guest\r'));
    const deadline = Date.now() + 2000;
    while (!f.received[0].includes('guest') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.ok(f.received[0].endsWith('guest\r\0'), 'an NVT line: CR NUL (RFC 854)');
    assert.match(s.status()[1], /NVT mode/);
    assert.equal(s.transcript.filter((l) => l.direction === 'send' && /BINARY/.test(l.text)).length, 4);
    s.close();
    await s.closed;
    await f.allClosed();
  } finally {
    await f.close();
  }
});

test('GA23-0059: Write Structured Field nested 50,000 deep is a protocol-error naming the limit, before and after the 3270 mode is agreed', async () => {
  const hostile = onWire(nestedWsf(50_000, true));
  const deep = (e: unknown) =>
    code('protocol-error')(e) && /nests Write Structured Field 17 levels deep, past the limit of 16/.test(String(e));
  // In the negotiation: the server asks only DO TERMINAL-TYPE, then sends the record (RFC 1576
  // reads a record that ends in IAC EOR before BINARY and END-OF-RECORD are agreed).
  const f1 = await pushOnConnect(Buffer.concat([Buffer.from([255, 253, 24]), hostile]));
  // In the session: after the first screen.
  const f2 = await pushOnConnect(Buffer.concat([NEGOTIATION, FORM]), (sock) =>
    setTimeout(() => sock.write(hostile), 100),
  );
  try {
    await assert.rejects(connectSession(parse(`tn3270://127.0.0.1:${f1.port}`), {}), deep);
    const s = await connectSession(parse(`tn3270://127.0.0.1:${f2.port}`), {});
    await assert.rejects(s.closed, deep);
    assert.match(s.screenText(), /LOGON/); // the screen keeps what was drawn
  } finally {
    await f1.close();
    await f2.close();
  }
});

test('an error that is no LocatorError while the host data is applied reaches the caller as a protocol-error, before and after the 3270 mode', async () => {
  // Fault injection: onScreen throws a RangeError (what an exhausted stack throws) on each screen.
  const onScreen = () => {
    throw new RangeError('Maximum call stack size exceeded');
  };
  const wrapped = (e: unknown) =>
    code('protocol-error')(e) &&
    /could not go on \(Maximum call stack size exceeded\)/.test(String(e)) &&
    (e as Error).cause instanceof RangeError;
  const f1 = await pushOnConnect(Buffer.concat([NEGOTIATION, FORM]));
  const f2 = await pushOnConnect(NEGOTIATION, (sock) => setTimeout(() => sock.write(FORM), 100));
  try {
    await assert.rejects(connectSession(parse(`tn3270://127.0.0.1:${f1.port}`), { onScreen }), wrapped);
    const s = await connectSession(parse(`tn3270://127.0.0.1:${f2.port}`), { onScreen });
    await assert.rejects(s.closed, wrapped);
  } finally {
    await f1.close();
    await f2.close();
  }
});
