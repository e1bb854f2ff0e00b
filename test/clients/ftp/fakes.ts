// In-process fake FTP servers (node:net) for the faults a real server will not produce: a reply
// cut in the middle, a stall, garbage, a data connection that never opens, a transfer cut short.
// Every socket the fake accepts is tracked, so a test can check that the client closed its side.

import net from 'node:net';

export type Handler = (verb: string, arg: string, s: FakeSession) => void | Promise<void>;

export interface FakeOptions {
  /** Written on connect; null writes nothing. Default "220 fake ready\r\n". */
  greeting?: string | null;
  /** Answers each command; default: `standard({})`. */
  handle?: Handler;
}

/** One control connection as the fake sees it. */
export class FakeSession {
  readonly control: net.Socket;
  /** Every command line received, without CR LF. */
  readonly commands: string[] = [];
  readonly #fake: FakeFtp;
  /** The data connection of the last EPSV/PASV, once the client connects. */
  data: Promise<net.Socket> | null = null;

  constructor(fake: FakeFtp, control: net.Socket) {
    this.#fake = fake;
    this.control = control;
  }

  /** Writes raw text on the control connection. */
  write(text: string | Uint8Array): void {
    if (!this.control.destroyed) this.control.write(text);
  }

  /** Writes one reply line and CR LF. */
  reply(line: string): void {
    this.write(`${line}\r\n`);
  }

  /** Opens a passive listener for one data connection; returns its port. */
  async listen(): Promise<number> {
    const server = net.createServer();
    this.#fake.listeners.add(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.data = new Promise((resolve) => {
      server.once('connection', (socket) => {
        this.#fake.track(socket);
        server.close();
        resolve(socket);
      });
    });
    return (server.address() as net.AddressInfo).port;
  }
}

export class FakeFtp {
  readonly server: net.Server;
  readonly sessions: FakeSession[] = [];
  readonly sockets = new Set<net.Socket>();
  readonly listeners = new Set<net.Server>();
  /** What the handler threw, one per command; stop() fails when there is any. */
  readonly errors: Error[] = [];
  #open = 0;
  #onIdle: Array<() => void> = [];

  private constructor(server: net.Server) {
    this.server = server;
  }

  static async start(options: FakeOptions = {}): Promise<FakeFtp> {
    const server = net.createServer();
    const fake = new FakeFtp(server);
    const handle = options.handle ?? standard({});
    const greeting = options.greeting === undefined ? '220 fake ready\r\n' : options.greeting;
    server.on('connection', (socket) => {
      fake.track(socket);
      const s = new FakeSession(fake, socket);
      fake.sessions.push(s);
      if (greeting !== null) socket.write(greeting);
      let buf = '';
      let chain = Promise.resolve();
      socket.on('data', (d) => {
        buf += d.toString('latin1');
        for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 2);
          s.commands.push(line);
          const sp = line.indexOf(' ');
          const verb = (sp < 0 ? line : line.slice(0, sp)).toUpperCase();
          const arg = sp < 0 ? '' : line.slice(sp + 1);
          // A handler that throws is a broken test, not a fault of the client: it is kept, the
          // next commands are still answered, and stop() fails with it.
          chain = chain
            .then(() => handle(verb, arg, s))
            .catch((e: unknown) => {
              fake.errors.push(new Error(`the fake's handler of ${JSON.stringify(line)} threw: ${e}`, { cause: e }));
            });
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** An ftp URL of this fake: `ftp://<login@>127.0.0.1:<port>/<path>`. */
  url(path = '', login = ''): string {
    return `ftp://${login}127.0.0.1:${this.port}/${path}`;
  }

  track(socket: net.Socket): void {
    this.sockets.add(socket);
    this.#open++;
    // A reset by the client is a fault some tests cause on purpose; what the client saw is
    // asserted on the client's side, and allClosed() checks that the socket went away.
    socket.on('error', () => {});
    socket.once('close', () => {
      this.#open--;
      if (this.#open === 0) for (const f of this.#onIdle.splice(0)) f();
    });
  }

  /** Sockets accepted and not yet closed. */
  get openSockets(): number {
    return this.#open;
  }

  /**
   * Resolves true once every accepted socket is closed (the client closed its side, which
   * closes ours), false after `ms` if some are still open. The fake itself never closes a
   * socket unless the test's handler does.
   */
  allClosed(ms = 2000): Promise<boolean> {
    if (this.#open === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      this.#onIdle.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  /**
   * Closes the listeners and any socket left; then fails, so that the test using the fake fails,
   * when its handler threw (errors).
   */
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    for (const l of this.listeners) l.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.errors.length === 1) throw this.errors[0];
    if (this.errors.length > 1)
      throw new AggregateError(this.errors, `the fake's handler threw ${this.errors.length} times`);
  }

  /** The commands of the first session. */
  get commands(): string[] {
    return this.sessions[0]?.commands ?? [];
  }
}

/** Files and per-verb overrides for the standard handler. */
export type Overrides = Partial<Record<string, Handler>>;

/**
 * A small, correct FTP server over `files` (name -> content, names relative to "/"; a name
 * ending in "/" is a directory): USER 331, PASS 230, CWD, TYPE, EPSV, PASV, RETR, NLST, QUIT.
 * `overrides` replace the answer to a verb.
 */
export function standard(files: Record<string, string | Uint8Array>, overrides: Overrides = {}): Handler {
  const cwds = new WeakMap<FakeSession, string>();
  return async (verb, arg, s) => {
    const own = overrides[verb];
    if (own) return own(verb, arg, s);
    const cwd = cwds.get(s) ?? '/';
    switch (verb) {
      case 'USER':
        return s.reply('331 Password please.');
      case 'PASS':
        return s.reply('230 Logged in.');
      case 'CWD': {
        const dir = arg.startsWith('/') ? `${arg.replace(/\/$/, '')}/` : `${cwd}${arg}/`;
        if (arg !== '' && Object.keys(files).some((f) => `/${f}`.startsWith(dir))) {
          cwds.set(s, dir);
          return s.reply('250 OK.');
        }
        return s.reply('550 No such directory.');
      }
      case 'TYPE':
        return s.reply('200 Type set.');
      case 'EPSV':
        return s.reply(`229 Entering Extended Passive Mode (|||${await s.listen()}|)`);
      case 'PASV': {
        const p = await s.listen();
        return s.reply(`227 Entering Passive Mode (127,0,0,1,${p >> 8},${p & 255}).`);
      }
      case 'RETR': {
        const body = files[`${cwd}${arg}`.slice(1)];
        if (body === undefined || s.data === null) return s.reply('550 No such file.');
        const data = await s.data;
        s.reply(`150 Opening BINARY mode data connection for ${arg} (${body.length} bytes).`);
        data.end(body);
        await new Promise((resolve) => data.once('close', resolve));
        return s.reply('226 Transfer complete.');
      }
      case 'NLST': {
        if (s.data === null) return s.reply('425 Use EPSV first.');
        const data = await s.data;
        const dir = arg === '' ? cwd : `${cwd}${arg}/`;
        const names = Object.keys(files)
          .filter((f) => `/${f}`.startsWith(dir))
          .map((f) => `/${f}`.slice(dir.length).split('/')[0]);
        s.reply('150 Here comes the listing.');
        data.end([...new Set(names)].map((n) => `${n}\r\n`).join(''));
        await new Promise((resolve) => data.once('close', resolve));
        return s.reply('226 Directory send OK.');
      }
      case 'QUIT':
        s.reply('221 Goodbye.');
        s.control.end();
        return;
      default:
        return s.reply('502 Not implemented.');
    }
  };
}

/** The number of TCP sockets this process holds (both ends of in-process connections). */
export function tcpSockets(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
}

/** Waits until this process holds at most `n` TCP sockets; resolves to the count then. */
export async function socketsSettle(n: number, ms = 2000): Promise<number> {
  const end = Date.now() + ms;
  for (;;) {
    const now = tcpSockets();
    if (now <= n || Date.now() > end) return now;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Reads a body to its end, passing each chunk to `each` (the DOM typing has no async iterator). */
export async function drain(body: ReadableStream<Uint8Array>, each: (chunk: Uint8Array) => void): Promise<void> {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    each(value);
  }
}
