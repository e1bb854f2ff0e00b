// A fake SMTP relay for hostile behaviour (in-process, 127.0.0.1 port 0), with STARTTLS on the
// test servers' certificate (test/servers/smtp.sh): used by hostile.test.ts and test/cli/send.test.ts.
import net from 'node:net';
import tls from 'node:tls';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { serversDir } from '../../helpers.js';

/** What a script can do with the connection it answers. */
export interface Io {
  /** Writes to the current socket (the TLS one after startTls). */
  write(text: string): void;
  /** Answers 220 and moves the session to TLS (RFC 3207), with the test servers' certificate. */
  startTls(): void;
  /** Stops reading: what the client sends next stays in the buffers. */
  stopReading(): void;
  /** Closes the connection from the relay's side. */
  end(): void;
  /** True while the session runs in DATA mode (set by the script). */
  inData: boolean;
}

export interface Relay {
  port: number;
  /** Every line received, without CR LF (DATA lines included). */
  lines: string[];
  /** Connections accepted so far. */
  connections: number;
  /** Resolves once every connection accepted is closed; rejects after `ms` if one is still open. */
  allClosed(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** A fake relay: greets with `greeting` (220 by default), then gives each line to `script`. */
export async function relay(
  script: (line: string, io: Io) => void,
  greeting = '220 fake.test ESMTP\r\n',
): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const r: Relay = {
    port: 0,
    lines: [],
    connections: 0,
    async allClosed(ms = 2000) {
      const deadline = Date.now() + ms;
      while (sockets.size > 0) {
        if (Date.now() > deadline) throw new Error(`${sockets.size} socket(s) still open on the fake relay`);
        await new Promise((res) => setTimeout(res, 10));
      }
    },
    close: async () => {},
  };
  const server = net.createServer((raw) => {
    r.connections++;
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
        secure.on('close', () => sockets.delete(secure));
        current = secure;
        secure.on('data', onData);
      },
      stopReading: () => {
        current.off('data', onData);
        current.pause();
        if (current !== raw) raw.pause();
      },
      end: () => void current.end(),
      inData: false,
    };
    raw.on('data', onData);
    raw.write(greeting);
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
export function polite(line: string, io: Io, ext: string[]): boolean {
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

/** The test servers' certificate authority (the fake relay's certificate itself). */
export const relayCa = () => readFileSync(join(serversDir(), 'smtp', 'ca.pem'));
/**
 * Fails the test unless the test servers made their certificate and key (test/servers/smtp.sh,
 * which `npm test` always runs): the STARTTLS tests are never skipped for want of them.
 */
export function assertRelayCert(): void {
  const key = join(serversDir(), 'smtp', 'key.pem');
  assert.ok(existsSync(key), `${key} is missing: test/servers/smtp.sh makes it when npm test starts the servers`);
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Where echoing(..., 'split over 535 lines') cuts the AUTH line it quotes. */
export const SPLIT_AT = 9;

/** Where echoing() quotes the credentials. */
export type Echo = 'in 535' | 'in 334 and 535' | 'as garbage' | 'split over 535 lines';

/**
 * A relay that offers AUTH `mech` only (and STARTTLS, which it starts when asked) and quotes back what the
 * client sends for AUTH: as sent, decoded, and the password base64-encoded after "user:". With
 * 'split over 535 lines', the last AUTH line and the password are each cut in two, the halves on
 * consecutive lines of a multi-line 535 (the second with the enhanced code, the third without):
 * SPLIT_AT characters of the line, then 7 characters of the password, on the first line.
 */
export function echoing(user: string, mech: 'PLAIN' | 'LOGIN', how: Echo) {
  let step = 0;
  return (line: string, io: Io) => {
    if (line.toUpperCase() === 'STARTTLS') return io.startTls();
    if (polite(line, io, ['STARTTLS', `AUTH ${mech}`])) return;
    const decoded = (t: string) => Buffer.from(t.replace(/^AUTH (PLAIN|LOGIN) ?/, ''), 'base64').toString('utf8');
    if (how === 'as garbage') {
      io.write(`oops ${line} ${decoded(line)} ${b64(`${user}:${decoded(line).split('\0').pop()}`)}\r\n`);
      return;
    }
    if (mech === 'LOGIN' && step < 2) {
      step++;
      io.write(how === 'in 334 and 535' ? `334 ${line}\r\n` : '334 VXNlcm5hbWU6\r\n');
      return;
    }
    if (mech === 'PLAIN' && how === 'in 334 and 535' && step === 0 && line.startsWith('AUTH')) {
      step++;
      io.write(`334 you said ${line.slice(11)}\r\n`);
      return;
    }
    const pw = decoded(line).split('\0').pop() ?? '';
    if (how === 'split over 535 lines') {
      const sent = line.replace(/^AUTH (PLAIN|LOGIN) ?/, '');
      io.write(
        `535-5.7.8 you sent ${sent.slice(0, SPLIT_AT)}\r\n535-5.7.8 ${sent.slice(SPLIT_AT)} which is ${pw.slice(0, 7)}\r\n`,
      );
      io.write(`535 ${pw.slice(7)}: refused\r\n`);
      return;
    }
    io.write(`535-5.7.8 you sent "${line}"\r\n535-which is ${JSON.stringify(decoded(line))}\r\n`);
    io.write(`535 5.7.8 or ${b64(`${user}:${pw}`)} and ${pw}: refused\r\n`);
  };
}
