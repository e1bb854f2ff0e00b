// send() against in-process fake SMTP servers (node:net on port 0), for what a real server will
// not do: a reply cut in the middle, a stall, a 400 greeting, a multi-line reply that never ends,
// garbage, octets after "220" to STARTTLS; and PIPELINING and HELO, which OpenSMTPD does not make
// happen. Each failure is a typed error within the timeout, with the socket closed. Then the
// smuggling rows: a CR LF in the URL or a value is refused before any byte is sent (RFC 1738 6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { send, SmtpReplyError } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';
import { eachRow } from '../../helpers.js';

interface Fake {
  port: number;
  /** Every line received, per connection, without CR LF. */
  lines: string[];
  /** Every chunk received, as text (to see what came in one write). */
  chunks: string[];
  connections: number;
  /** Resolves when the client's socket has closed at the server side. */
  closed: Promise<void>;
  close(): Promise<void>;
}

type Script = (s: net.Socket, line: string, f: Fake) => void;

/** A fake that writes `greeting` (raw) and answers each line with `script`. */
async function fake(greeting: string | null | ((s: net.Socket) => void), script: Script = standard()): Promise<Fake> {
  let onClosed: () => void = () => {};
  const f: Fake = {
    port: 0,
    lines: [],
    chunks: [],
    connections: 0,
    closed: new Promise((r) => (onClosed = r)),
    close: async () => {},
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    f.connections++;
    sockets.add(s);
    s.on('close', () => {
      sockets.delete(s);
      onClosed();
    });
    s.on('error', () => {});
    if (typeof greeting === 'function') greeting(s);
    else if (greeting !== null) s.write(greeting);
    let buf = '';
    s.on('data', (d) => {
      f.chunks.push(d.toString('latin1'));
      buf += d.toString('latin1');
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        f.lines.push(line);
        script(s, line, f);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  f.port = (server.address() as net.AddressInfo).port;
  f.close = () =>
    new Promise((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return f;
}

/** A well-behaved server: EHLO with `ext`, 250 to MAIL/RCPT, 354 to DATA, the message up to ".", 221. */
function standard(ext: string[] = [], overrides: Record<string, string> = {}): Script {
  let inData = false;
  return (s, line) => {
    if (inData) {
      if (line === '.') {
        inData = false;
        s.write(overrides['.'] ?? '250 2.0.0 abc123 Message accepted for delivery\r\n');
      }
      return;
    }
    const verb = line.split(/[ :]/)[0].toUpperCase();
    if (overrides[verb] !== undefined) {
      s.write(overrides[verb]);
      if (verb === 'DATA' && overrides[verb].startsWith('354')) inData = true;
      return;
    }
    if (verb === 'EHLO')
      s.write(
        ['250-fake.test', ...ext]
          .map((e) => `${e}\r\n`)
          .join('')
          .replace(/-([^-\r]*)\r\n$/, ' $1\r\n'),
      );
    else if (verb === 'HELO' || verb === 'MAIL' || verb === 'RCPT') s.write('250 Ok\r\n');
    else if (verb === 'DATA') {
      inData = true;
      s.write('354 go ahead\r\n');
    } else if (verb === 'QUIT') s.end('221 Bye\r\n');
    else s.write('502 5.5.1 not implemented\r\n');
  };
}

const MSG = { from: 'a@example.test', subject: 's', body: 'hello\n' };
const URL = 'mailto:tester@example.test';
const within = async (ms: number, p: Promise<unknown>, what: string) => {
  let t: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    p,
    new Promise((_, rej) => (t = setTimeout(() => rej(new Error(`${what}: not within ${ms} ms`)), ms))),
  ]);
  clearTimeout(t);
};

// what | greeting | script | code | more checks on the error       -- RFC 5321 4.2, 4.5.3.2
const FAULTS: Array<{
  what: string;
  section: string;
  greeting: string | null | ((s: net.Socket) => void);
  script?: Script;
  code: string;
  check?: (e: LocatorError) => void;
}> = [
  {
    what: 'a greeting cut in the middle of its line',
    section: 'RFC 5321 4.2',
    greeting: (s) => s.end('220 fake rea'),
    code: 'connection-closed',
  },
  { what: 'a server that never greets', section: 'RFC 5321 4.5.3.2.1', greeting: null, code: 'timeout' },
  {
    what: 'a stall after EHLO',
    section: 'RFC 5321 4.5.3.2',
    greeting: '220 fake\r\n',
    script: () => {},
    code: 'timeout',
  },
  {
    what: 'a 400 greeting',
    section: 'RFC 5321 4.2.1',
    greeting: '400 4.3.2 try later\r\n',
    code: 'smtp-reply',
    check: (e) => {
      assert.ok(e instanceof SmtpReplyError);
      assert.equal(e.replyCode, 400);
      assert.equal(e.transient, true);
      assert.equal(e.enhancedCode, '4.3.2');
      assert.equal(e.command, null);
      assert.match(e.message, /may be retried/);
    },
  },
  {
    what: 'a 554 greeting',
    section: 'RFC 5321 3.1',
    greeting: '554 no service here\r\n',
    code: 'smtp-reply',
    check: (e) => assert.equal((e as SmtpReplyError).transient, false),
  },
  {
    what: 'a multi-line reply that never ends',
    section: 'RFC 5321 4.5.3.1.5',
    greeting: '220 fake\r\n',
    script: (s, line) => {
      if (!line.startsWith('EHLO')) return;
      // A few lines a turn of the event loop (the client runs in this process too), until the
      // client closes or 8 MiB are out.
      let sent = 0;
      const flood = () => {
        if (s.destroyed || sent > 8 * 1024 * 1024) return;
        const chunk = ('250-' + 'x'.repeat(500) + '\r\n').repeat(16);
        sent += chunk.length;
        s.write(chunk);
        setImmediate(flood);
      };
      flood();
    },
    code: 'protocol-error',
  },
  {
    what: 'a multi-line reply that stops before its last line',
    section: 'RFC 5321 4.2.1',
    greeting: '220-fake\r\n220-still greeting\r\n',
    code: 'timeout',
  },
  {
    what: 'garbage instead of a greeting',
    section: 'RFC 5321 4.2',
    greeting: 'SSH-2.0-OpenSSH_9.2\r\n',
    code: 'protocol-error',
  },
  { what: 'a code out of range', section: 'RFC 5321 4.2.1', greeting: '999 what\r\n', code: 'protocol-error' },
  {
    what: 'garbage in reply to EHLO',
    section: 'RFC 5321 4.2',
    greeting: '220 fake\r\n',
    script: (s) => s.write('+OK POP3 ready\r\n'),
    code: 'protocol-error',
  },
  {
    what: 'octets after "220" to STARTTLS (a reply injected before the handshake)',
    section: 'RFC 3207 4.2',
    greeting: '220 fake\r\n',
    script: (s, line) => {
      if (line.startsWith('EHLO')) s.write('250-fake\r\n250 STARTTLS\r\n');
      else if (line === 'STARTTLS') s.write('220 go ahead\r\n250-fake\r\n250 AUTH PLAIN\r\n');
    },
    code: 'protocol-error',
  },
  {
    what: 'a server that says "220" to STARTTLS and then never does the handshake',
    section: 'RFC 3207 4',
    greeting: '220 fake\r\n',
    script: (s, line) => {
      if (line.startsWith('EHLO')) s.write('250-fake\r\n250 STARTTLS\r\n');
      else if (line === 'STARTTLS') s.write('220 go ahead\r\n');
    },
    code: 'timeout',
    check: (e) => assert.match(e.message, /TLS handshake/),
  },
  {
    what: 'a 452 to the end of DATA',
    section: 'RFC 5321 4.2.1',
    greeting: '220 fake\r\n',
    script: standard([], { '.': '452 4.3.1 insufficient system storage\r\n' }),
    code: 'smtp-reply',
    check: (e) => {
      assert.equal((e as SmtpReplyError).transient, true);
      assert.equal((e as SmtpReplyError).command, '.');
    },
  },
];

eachRow(
  'RFC 5321: faults',
  FAULTS,
  async ({ greeting, script, code, check }) => {
    const f = await fake(greeting, script ?? standard());
    try {
      const t0 = Date.now();
      await assert.rejects(send(URL, MSG, { smtp: `127.0.0.1:${f.port}`, timeout: 400 }), (e: unknown) => {
        assert.ok(e instanceof LocatorError, String(e));
        assert.equal(e.code, code, e.message);
        check?.(e);
        return true;
      });
      assert.ok(Date.now() - t0 < 3000, `within the timeout (${Date.now() - t0} ms)`);
      await within(1000, f.closed, 'the socket is closed');
    } finally {
      await f.close();
    }
  },
  { input: (r) => r.what },
);

test('RFC 5321 3.2: a server that refuses EHLO is greeted with HELO, and the message goes', async () => {
  const rest = standard();
  const f = await fake('220 old\r\n', (s, line, ff) =>
    line.startsWith('EHLO') ? s.write('500 what?\r\n') : rest(s, line, ff),
  );
  try {
    const r = await send(URL, MSG, { smtp: `127.0.0.1:${f.port}`, timeout: 2000 });
    assert.equal(r.reply.code, 250);
    assert.deepEqual(f.lines.slice(0, 4), [
      'EHLO [127.0.0.1]',
      'HELO [127.0.0.1]',
      'MAIL FROM:<a@example.test>', // no SIZE: HELO announces no extensions
      'RCPT TO:<tester@example.test>',
    ]);
  } finally {
    await f.close();
  }
});

test('RFC 2920 3.1: with PIPELINING offered, MAIL, RCPT and DATA go in one write', async () => {
  // The fake answers MAIL only once RCPT and DATA are in too: a client that waits would time out.
  let held = 0;
  let inData = false;
  const f = await fake('220 fake\r\n', (s, line) => {
    if (inData) {
      if (line === '.') {
        inData = false;
        s.write('250 2.0.0 Ok: queued as PIPE1\r\n');
      }
    } else if (line.startsWith('EHLO')) s.write('250-fake\r\n250-PIPELINING\r\n250 SIZE 1000\r\n');
    else if (/^(MAIL|RCPT)/.test(line)) held++;
    else if (line === 'DATA' && held === 2) {
      inData = true;
      s.write('250 2.1.0 Ok\r\n250 2.1.5 Ok\r\n354 go\r\n');
    } else if (line === 'QUIT') s.end('221 Bye\r\n');
  });
  try {
    const r = await send(URL, MSG, { smtp: `127.0.0.1:${f.port}`, timeout: 1000 });
    assert.equal(r.queueId, 'PIPE1');
    const batch = f.chunks.find((c) => c.startsWith('MAIL'));
    assert.equal(batch, `MAIL FROM:<a@example.test> SIZE=${r.size}\r\nRCPT TO:<tester@example.test>\r\nDATA\r\n`);
  } finally {
    await f.close();
  }
});

test('RFC 2920 3.1: a pipelined RCPT refused after DATA got 354: "." ends the empty message, the 550 is reported', async () => {
  const f = await fake(
    '220 fake\r\n',
    standard(['250 PIPELINING'], {
      RCPT: '550 5.1.1 no such user\r\n',
      DATA: '354 go\r\n',
      '.': '554 no valid recipients\r\n',
    }),
  );
  try {
    await assert.rejects(
      send(URL, MSG, { smtp: `127.0.0.1:${f.port}`, timeout: 1000 }),
      (e: unknown) =>
        e instanceof SmtpReplyError && e.replyCode === 550 && e.command === 'RCPT TO:<tester@example.test>',
    );
    await within(1000, f.closed, 'the socket is closed');
    assert.deepEqual(f.lines.slice(-2), ['.', 'QUIT']);
    assert.ok(!f.lines.includes('hello'), 'the body was not sent');
  } finally {
    await f.close();
  }
});

test('RFC 1870: a message larger than the SIZE the server announces is not sent (too-large)', async () => {
  const f = await fake('220 fake\r\n', standard(['250 SIZE 50']));
  try {
    await assert.rejects(
      send(URL, MSG, { smtp: `127.0.0.1:${f.port}`, timeout: 1000 }),
      (e: unknown) => e instanceof LocatorError && e.code === 'too-large',
    );
    assert.ok(!f.lines.some((l) => l.startsWith('MAIL')));
  } finally {
    await f.close();
  }
});

test('cancelled with an AbortSignal during a stall: aborted, socket closed', async () => {
  const f = await fake('220 fake\r\n', () => {});
  try {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    await assert.rejects(
      send(URL, MSG, { smtp: `127.0.0.1:${f.port}`, timeout: 10_000, signal: ac.signal }),
      (e: unknown) => e instanceof LocatorError && e.code === 'aborted',
    );
    await within(1000, f.closed, 'the socket is closed');
  } finally {
    await f.close();
  }
});

// Smuggling (RFC 1738 6): url | message | option | code. A listener stands at the relay and
// proves that nothing arrived: no connection, not one byte.
const SMUGGLE: Array<[string, { from: string; subject?: string }, string]> = [
  ['mailto:tester%0D%0ARCPT%20TO:%3Cvictim@example.org%3E@example.test', MSG, 'policy-refused'],
  ['mailto:tester@example.test%0AQUIT', MSG, 'policy-refused'],
  ['mailto:tester%00@example.test', MSG, 'policy-refused'],
  [URL, { from: 'a@example.test', subject: 'hi\r\nBcc: victim@example.org' }, 'smtp-line-break'],
  [URL, { from: 'a@example.test>\r\nRCPT TO:<victim@example.org' }, 'smtp-line-break'],
  [URL, { from: 'a@example.test\nX: y' }, 'smtp-line-break'],
];
eachRow('RFC 1738 6: refused with no byte sent', SMUGGLE, async ([url, message, code]) => {
  const f = await fake('220 fake\r\n');
  try {
    await assert.rejects(
      send(url, message, { smtp: `127.0.0.1:${f.port}`, timeout: 1000 }),
      (e: unknown) => e instanceof LocatorError && e.code === code,
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual([f.connections, f.chunks.length], [0, 0], 'nothing arrived at the listener');
  } finally {
    await f.close();
  }
});

test('RFC 1738 6: a CR LF in the relay, the user name or the EHLO name is refused before connecting', async () => {
  const f = await fake('220 fake\r\n');
  try {
    for (const options of [
      { smtp: `127.0.0.1:${f.port}\r\nX` },
      { smtp: `127.0.0.1:${f.port}`, user: 'u\r\nMAIL FROM:<x@y>', password: 'p', authWithoutTls: true },
      { smtp: `127.0.0.1:${f.port}`, clientName: 'x\r\nRSET' },
    ]) {
      await assert.rejects(
        send(URL, MSG, { ...options, timeout: 1000 }),
        (e: unknown) => e instanceof LocatorError && e.code === 'smtp-line-break',
      );
    }
    assert.equal(f.connections, 0);
  } finally {
    await f.close();
  }
});
