// In-process NNTP fakes (node:net on 127.0.0.1, port 0) for what INN will not do: cut replies,
// stalls, refusals, garbage, endless blocks, an authentication demand. And a recording proxy in
// front of the real INN, which proves which commands the server received.

import net from 'node:net';
import { fakeLifecycle } from '../fake-lifecycle.js';

export interface NntpFake {
  port: number;
  connections: number;
  /** The command lines received, per connection, in order (CR LF cut). */
  commands: string[][];
  /** Resolves once every accepted socket is closed; rejects after `ms` if one is still open. */
  allClosed(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fake that writes `greeting` (raw; null: nothing) and hands each command line to `answer`,
 * which writes what it likes (or nothing: a stall). Unless `answer` returns true (handled),
 * CAPABILITIES is answered as a reader server with OVER, and QUIT with 205 and the end.
 */
export async function nntpFake(
  greeting: string | null,
  answer: (command: string, socket: net.Socket) => boolean | void,
): Promise<NntpFake> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const index = fake.connections++;
    const commands: string[] = [];
    fake.commands[index] = commands;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (greeting !== null) socket.write(Buffer.from(greeting, 'latin1'));
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
      for (let nl = text.indexOf('\r\n'); nl >= 0; nl = text.indexOf('\r\n')) {
        const line = text.slice(0, nl);
        text = text.slice(nl + 2);
        commands.push(line);
        if (socket.destroyed) return;
        if (answer(line, socket) === true) continue;
        if (line === 'CAPABILITIES') socket.write('101 caps\r\nVERSION 2\r\nREADER\r\nOVER\r\n.\r\n');
        else if (line === 'QUIT') socket.end('205 bye\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: NntpFake = {
    port: (server.address() as net.AddressInfo).port,
    connections: 0,
    commands: [],
    ...fakeLifecycle(server, sockets),
  };
  return fake;
}

/** The article a server made by authServer() answers with once authenticated. */
export const AUTH_ARTICLE = '220 1 <a@b.example> article\r\nSubject: x\r\n\r\nbody\r\n.\r\n';

/** How authServer() quotes the password back: not at all, or in one reply of its. */
export type PasswordEcho = 'no' | 'in 481' | 'in 480 after 281' | 'as garbage' | 'in 223 to STAT' | 'in 423 to STAT';

/**
 * A fake that answers 480 to GROUP and ARTICLE (RFC 4643 2.3) until AUTHINFO USER then PASS, and
 * accepts any password: what a client sends when asked for credentials is in `commands`. With
 * `echo`, it quotes the password it got (as sent and base64): refusing it with 481, or accepting
 * it and then answering ARTICLE with 480, or answering PASS with a line that is no status line.
 */
export function authServer(echo: PasswordEcho = 'no'): Promise<NntpFake> {
  let user = false;
  let authed = false;
  let password = '';
  const quoted = () => `${password} (${Buffer.from(password, 'latin1').toString('base64')})`;
  return nntpFake('200 fake ready\r\n', (c, s) => {
    if (c.startsWith('GROUP ')) s.write(authed ? '211 1 1 1 g.x\r\n' : '480 authentication required\r\n');
    else if (c.startsWith('ARTICLE')) {
      if (authed && echo === 'in 480 after 281') s.write(`480 ${quoted()} may not read articles\r\n`);
      else s.write(authed ? AUTH_ARTICLE : '480 authentication required\r\n');
    } else if (c.startsWith('STAT ') && authed && echo === 'in 223 to STAT') s.write(`223 1 <a@b> ${quoted()}\r\n`);
    else if (c.startsWith('STAT ') && authed && echo === 'in 423 to STAT') s.write(`423 no article ${quoted()}\r\n`);
    else if (c.startsWith('AUTHINFO USER ')) {
      user = true;
      s.write('381 password please\r\n');
    } else if (c.startsWith('AUTHINFO PASS ')) {
      password = c.slice('AUTHINFO PASS '.length);
      if (echo === 'in 481') s.write(`481 bad password ${quoted()}\r\n`);
      else if (echo === 'as garbage') s.write(`bad password ${quoted()}\r\n`);
      else {
        authed = user;
        s.write('281 welcome\r\n');
      }
    } else return;
    return true;
  });
}

export interface Recorder {
  port: number;
  /** What clients sent through the proxy, per connection (latin1). */
  sent: string[];
  /** Octets the server sent to the client so far, per connection. */
  forwarded: number[];
  /** Sockets still open (client and upstream sides). */
  open(): number;
  /** The command lines of connection `i`. */
  commands(i?: number): string[];
  close(): Promise<void>;
}

/** A proxy on 127.0.0.1 (port 0) to host:port that records what each client sends. */
export async function recordingProxy(host: string, port: number): Promise<Recorder> {
  const sockets = new Set<net.Socket>();
  const sent: string[] = [];
  const forwarded: number[] = [];
  const server = net.createServer((client) => {
    const i = sent.length;
    sent.push('');
    forwarded.push(0);
    const upstream = net.connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (d) => {
      sent[i] += d.toString('latin1');
    });
    upstream.on('data', (d) => {
      forwarded[i] += d.length;
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    sent,
    forwarded,
    open: () => sockets.size,
    commands(i = sent.length - 1) {
      return sent[i].split('\r\n').slice(0, -1);
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * True when `commands` are what explain's `steps` say: each step is one command line, with
 * "<...>" standing for a number (or "low-high" range), and a step with a "[...]" tail sent only
 * in the case it names (it may be absent).
 */
export function matchesSteps(commands: string[], steps: string[]): boolean {
  const pattern = steps
    .map((step) => {
      const optional = / \[[^\]]*\]$/.test(step);
      const command = step.replace(/ \[[^\]]*\]$/, '');
      const re = command
        .split(/(<low>|<high>|<n>)/)
        .map((p) => (/^<(low|high|n)>$/.test(p) ? '[0-9]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return optional ? `(?:${re}\\n)?` : `${re}\\n`;
    })
    .join('');
  return new RegExp(`^${pattern}$`).test(commands.map((c) => c + '\n').join(''));
}
