// `locator fetch [options] URL`: retrieves the object of a URL to standard output or to a file.
// With -o FILE, FILE is checked before any connection. A regular file (or none yet) gets the
// bytes through a temporary file in the same folder, renamed to FILE only when the transfer is
// complete (a failed transfer leaves nothing under the final name; an existing file keeps its
// mode). Anything else - a FIFO, a device - is written in place, never replaced. A symbolic
// link is followed: the rules apply to what it points to, and the link stays.

import type { FileHandle } from 'node:fs/promises';
import { constants, fstatSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import type { Writable } from 'node:stream';
import { entryOf, tryParse } from '../schemes/registry.js';
import { LocatorError } from '../core/errors.js';
import {
  ABORTED,
  open,
  copyBody,
  faceOf,
  ReplyError,
  retrievableSchemes,
  type OpenOptions,
  type Resource,
  type TranscriptLine,
} from '../clients/index.js';
import type { Url } from '../core/url.js';
import { EXIT, UsageError, exitFor, type Command, type Io } from './command.js';
import {
  ALLOW_PORT,
  EMAIL,
  JSON_OUTPUT,
  MAX_BYTES,
  NETRC_HOST,
  NNTP_SERVER,
  REFUSE_PRIVATE,
  TIMEOUT,
  VERBOSE,
  timeoutArg,
} from './options.js';
import { Progress } from './progress.js';
import { readSecret } from './prompt.js';
import { maskSecrets, redactText, secretForms, secretsOf } from '../operations/redact.js';
import { safeText, transcriptLine } from './safe-text.js';
import { netrcHostsArg } from './netrc-hosts.js';
import { nodeModule } from './node-modules.js';

/**
 * node:fs/promises, loaded by -o FILE only: imported with this module, it and what it loads
 * (readline, the watchers: 9 of Node's modules) were compiled by every fetch to standard output.
 */
const fsp = (): typeof import('node:fs/promises') => nodeModule<typeof import('node:fs/promises')>('node:fs/promises');

/** A positive whole number (--limit), or a usage error. */
function positive(name: string, v: unknown): number | undefined {
  const n = int(name, v);
  if (n === 0) throw new UsageError(`--${name} takes a positive whole number, not 0`);
  return n;
}

function int(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} takes a whole number, not ${JSON.stringify(v)}`);
  return n;
}

/**
 * Writes all of `chunk` to standard output and resolves once the stream is done with it (its
 * callback): only then may the chunk's memory be reused for the next read (recycleChunk).
 */
function writeOut(out: Writable, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(chunk, (e) => (e ? reject(e) : resolve()));
  });
}

/**
 * The secrets of one fetch: the URL's password, --password or --password-stdin, what was typed at
 * the prompt. `hide` writes them as "****" in the transcript; `mask` hides every known form of
 * each (as sent, decoded, JSON-escaped) in an error message, unless --show-secrets.
 */
class Secrets {
  private readonly list: string[] = [];
  constructor(
    private readonly url: Url,
    private readonly show: boolean,
  ) {
    if (!show && url.password) this.list.push(url.password, url.rawPassword ?? '');
  }
  /** A secret learnt on the way (an option, standard input, the prompt): hidden from now on. */
  add(secret: string): string {
    this.list.push(secret);
    return secret;
  }
  /** `t` with each secret replaced by "****". */
  readonly hide = (t: string): string => this.list.reduce((s, x) => (x ? s.split(x).join('****') : s), t);
  /** An error message that may quote a server's reply, which may echo a secret in any form. */
  mask(message: string): string {
    const known = this.show ? [] : [...secretsOf(this.url), ...this.list.flatMap(secretForms)];
    return maskSecrets(message, known);
  }
}

/**
 * The password and the search words (RFC 1738 3.2, 3.4): from --password, --password-stdin (read
 * now) or --search; else asked at the terminal when the client needs them, if standard input and
 * standard error are terminals.
 */
async function prompts(
  url: Url,
  values: Record<string, unknown>,
  io: Io,
  secrets: Secrets,
): Promise<Pick<OpenOptions, 'password' | 'search'>> {
  const terminal = (io.stdin as { isTTY?: boolean }).isTTY === true && io.stderrIsTTY;
  let password: OpenOptions['password'];
  if (typeof values.password === 'string') {
    password = secrets.add(values.password);
  } else if (values['password-stdin'] === true) {
    let text = '';
    for await (const chunk of io.stdin) text += chunk.toString();
    password = secrets.add(text.replace(/\r?\n$/, ''));
  } else if (terminal) {
    password = async () =>
      secrets.add(
        await readSecret(
          `Password for ${url.user ?? (values.user as string | undefined) ?? ''}@${url.host ?? ''}: `,
          io,
        ),
      );
  }
  let search: OpenOptions['search'] = values.search as string | undefined;
  if (search === undefined && terminal) {
    search = async () => readSecret('Search for: ', io, true);
  }
  return { password, search };
}

/** What open() is given: the command's options, its policy, the transcript (--verbose, secrets hidden). */
function openOptions(
  url: Url,
  values: Record<string, unknown>,
  io: Io,
  secrets: Secrets,
  asked: Pick<OpenOptions, 'password' | 'search'>,
): OpenOptions {
  const allow = ([] as unknown[]).concat(values['allow-port'] ?? []).map((p) => int('allow-port', p)!);
  return {
    timeout: timeoutArg(values.timeout),
    ftpLineEnds: values['ftp-wire-line-ends'] === true ? 'wire' : 'local',
    maxBytes: int('max-bytes', values['max-bytes']),
    email: values.email as string | undefined,
    password: asked.password,
    search: asked.search,
    env: io.env,
    newsServer: values['nntp-server'] as string | undefined,
    user: values.user as string | undefined,
    netrcHosts: netrcHostsArg(values['netrc-host']),
    limit: positive('limit', values.limit),
    gateway: values['no-gateway'] === true ? false : undefined,
    // A Prospero URL comes to URLs of other schemes (RFC 1738 3.11: an `indirect` scheme), which
    // this command's policy does not follow (maxCrossSchemeRedirects 0): it prints them
    // (text/uri-list) instead.
    followRedirects: values['no-follow'] === true || entryOf(url)?.indirect === true ? false : undefined,
    policy: {
      allowPorts: allow,
      refusePrivateAddresses: values['refuse-private'] === true,
      maxRedirects: 5,
      maxCrossSchemeRedirects: 0,
    },
    transcript:
      values.verbose === true
        ? (l: TranscriptLine) => io.stderr.write(safeText(transcriptLine(l.direction, secrets.hide(l.text))))
        : undefined,
  };
}

/**
 * Interrupted (Ctrl-C, or terminated): the first signal aborts the transfer, and the temporary
 * file is removed on the way out. A second signal (or one while FILE is still being opened,
 * which for a FIFO waits for a reader) does not wait: the temporary file is removed at once and
 * the command exits with 128 + the signal number. Returns what stops listening.
 */
function onSignals(ac: AbortController, pending: PendingTemp, sink: () => Sink | null): () => void {
  let signalled = false;
  const onSignal = (sig: NodeJS.Signals) => {
    const opened = sink();
    if (signalled || opened === null) {
      opened?.abandonSync();
      pending.abandonSync();
      process.exit(128 + (osConstants.signals[sig] ?? 2));
    }
    signalled = true;
    ac.abort();
  };
  for (const sig of SIGNALS) process.on(sig, onSignal);
  return () => {
    for (const sig of SIGNALS) process.off(sig, onSignal);
  };
}

/**
 * Writes what open() gave to the output: a menu (a Gopher menu, RFC 1436 appendix) as text, one
 * item with its URL per line, when asked (--menu, or --json for NDJSON items) or when the output
 * is a terminal; anything else as its bytes, with a progress line on a terminal.
 */
async function writeObject(
  res: Resource,
  url: Url,
  values: Record<string, unknown>,
  io: Io,
  sink: Sink,
  secrets: Secrets,
): Promise<void> {
  // What the server said beside a partial answer (a WAIS diagnostic), as waissearch shows it.
  for (const d of res.meta.diagnostics ?? [])
    io.stderr.write(safeText(`locator fetch: the server reports ${d.code}: ${d.text || '(no message)'}\n`));
  const items = res.meta.kind === 'menu' ? faceOf(url).items : undefined;
  const stdoutTTY = (io.stdout as { isTTY?: boolean }).isTTY === true;
  if (
    items !== undefined &&
    values.raw !== true &&
    (values.menu === true || values.json === true || (stdoutTTY && values.output === undefined))
  ) {
    const text = values['show-secrets'] === true ? secrets.hide : (t: string) => redactText(secrets.hide(t));
    for await (const item of items(res.body)) {
      await sink.write(Buffer.from(text(values.json === true ? JSON.stringify(item.json) : item.text) + '\n'));
    }
  } else {
    const progress = io.stderrIsTTY && values.quiet !== true ? new Progress(io.stderr, res.meta.size) : null;
    const bytes = await copyBody(res.body, sink, (n) => progress?.update(n));
    progress?.finish(bytes);
  }
}

async function run(args: string[], values: Record<string, unknown>, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('fetch takes exactly one URL');
  const url = tryParse(args[0]);
  if (url instanceof LocatorError) {
    io.stderr.write(safeText(`locator fetch: not a URL: ${url.message}\n`));
    return EXIT.invalid;
  }
  const secrets = new Secrets(url, values['show-secrets'] === true);
  const options = openOptions(url, values, io, secrets, await prompts(url, values, io, secrets));
  const ac = new AbortController();
  options.signal = ac.signal;
  let sink: Sink | null = null;
  const pending = new PendingTemp();
  const stopListening = onSignals(ac, pending, () => sink);

  // The output: checked and opened before any connection, so a FILE that cannot be written
  // (a directory, a missing folder, a read-only file) fails with no byte sent.
  try {
    sink = await openSink(values.output as string | undefined, io, pending);
  } catch (e) {
    stopListening();
    await pending.abandon();
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    const why = (e as { why?: string }).why;
    io.stderr.write(
      safeText(`locator fetch: cannot write ${JSON.stringify(values.output)}: ${code}${why ? ` (${why})` : ''}\n`),
    );
    return EXIT.invalid;
  }
  try {
    await writeObject(await open(url, options), url, values, io, sink, secrets);
    // A body read to the end of a connection (HTTP with no length) may just end when the signal
    // closes it: the transfer was cut, not complete, and FILE must not appear.
    if (ac.signal.aborted) throw new LocatorError(ABORTED, -1, 'the transfer was interrupted');
    await sink.commit();
    return EXIT.ok;
  } catch (e) {
    await sink.abort();
    if (!(e instanceof LocatorError)) {
      const code = (e as NodeJS.ErrnoException).code;
      if (typeof code !== 'string') throw e;
      io.stderr.write(safeText(`locator fetch: cannot write the output: ${code}\n`));
      return EXIT.invalid;
    }
    const extra = e instanceof ReplyError ? ` [reply ${e.replyCode}]` : '';
    io.stderr.write(safeText(`locator fetch: ${secrets.mask(e.message)}${extra}\n`));
    return exitFor(e);
  } finally {
    stopListening();
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

interface Sink {
  write(chunk: Uint8Array): Promise<void>;
  /**
   * The same, at once (a blocking write, done with the chunk on return), where the output is a
   * regular file or a character device such as /dev/null: a write there does not wait for a
   * reader. Absent for pipes, terminals and sockets, which take `write`.
   */
  writeSync?: (chunk: Uint8Array) => void;
  /** The transfer is complete: FILE appears under its name. */
  commit(): Promise<void>;
  /** The transfer failed: nothing is left under FILE, nor the temporary file. */
  abort(): Promise<void>;
  /** The same at once, from a signal handler: the temporary file is removed synchronously. */
  abandonSync(): void;
}

/** The temporary file while it is being made (so that a signal then can remove it too). */
class PendingTemp {
  path: string | null = null;
  abandonSync(): void {
    if (this.path !== null) {
      try {
        unlinkSync(this.path);
      } catch {
        // already gone
      }
    }
    this.path = null;
  }
  async abandon(): Promise<void> {
    if (this.path !== null)
      await fsp()
        .unlink(this.path)
        .catch(() => {});
    this.path = null;
  }
}

function outputError(code: string, why: string): Error {
  return Object.assign(new Error(why), { code, why });
}

/** lstat, or null when nothing is there. */
async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await fsp().lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Where -o FILE really writes: a symbolic link is followed (each hop relative to its folder,
 * at most 40 as the kernel allows), so the rules apply to its target and the link itself stays.
 */
async function followLinks(target: string): Promise<{ path: string; st: Stats | null }> {
  let path = resolvePath(target);
  let st = await lstatOrNull(path);
  for (let hops = 0; st?.isSymbolicLink(); hops++) {
    if (hops === 40) throw outputError('ELOOP', 'too many symbolic links');
    path = resolvePath(dirname(path), await fsp().readlink(path));
    st = await lstatOrNull(path);
  }
  return { path, st };
}

/** Writes all of `chunk` to `fd`, blocking (a regular file or a character device). */
function writeAllSync(fd: number, chunk: Uint8Array): void {
  for (let off = 0; off < chunk.length;) off += writeSync(fd, chunk, off, chunk.length - off);
}

/**
 * The descriptor of standard output when writes to it never wait for a reader (a regular file,
 * or a character device that is not a terminal, such as /dev/null), else null.
 */
function syncStdout(out: Writable): number | null {
  const fd = (out as { fd?: unknown; isTTY?: boolean }).fd;
  if (typeof fd !== 'number' || (out as { isTTY?: boolean }).isTTY === true) return null;
  try {
    const st = fstatSync(fd);
    return st.isFile() || st.isCharacterDevice() ? fd : null;
  } catch {
    return null;
  }
}

async function openSink(target: string | undefined, io: Io, pending: PendingTemp): Promise<Sink> {
  if (target === undefined) {
    const fd = syncStdout(io.stdout);
    return {
      write: (c) => writeOut(io.stdout, c),
      writeSync: fd === null ? undefined : (c) => writeAllSync(fd, c),
      commit: async () => {},
      abort: async () => {},
      abandonSync: () => {},
    };
  }
  const { path, st } = await followLinks(target);
  if (st !== null && st.isDirectory()) throw outputError('EISDIR', 'it is a directory');
  if (st !== null && st.isSocket()) throw outputError('ENXIO', 'it is a socket');
  if (st !== null && !st.isFile()) return inPlace(path);
  const dir = dirname(path);
  const d = await fsp().stat(dir);
  if (!d.isDirectory()) throw outputError('ENOTDIR', `${dir} is not a directory`);
  await fsp().access(dir, constants.W_OK);
  if (st !== null) await fsp().access(path, constants.W_OK); // a read-only file stays as it is
  // node:crypto is loaded only here, for -o: a fetch to standard output does without it.
  const { randomBytes } = await import('node:crypto');
  const temp = join(dir, `.${basename(path)}.${randomBytes(4).toString('hex')}.part`);
  const file = await fsp().open(temp, 'wx', 0o644);
  pending.path = temp;
  if (st !== null) {
    // The file that is replaced keeps its mode (not the umask's), and its owner when allowed.
    await fsp().chmod(temp, st.mode & 0o7777);
    await fsp()
      .chown(temp, st.uid, st.gid)
      .catch(() => {});
  }
  let closed = false;
  return {
    write: async (c) => {
      await file.write(c);
    },
    writeSync: (c) => writeAllSync(file.fd, c),
    commit: async () => {
      await file.sync();
      await file.close();
      closed = true;
      await fsp().rename(temp, path);
      pending.path = null;
    },
    abort: async () => {
      if (!closed) await file.close().catch(() => {});
      closed = true;
      await pending.abandon();
    },
    abandonSync: () => pending.abandonSync(),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * FILE is a FIFO or a device: written in place (opened for writing, never created, truncated or
 * replaced). A failed transfer cannot take back what was written there. A FIFO with no reader
 * is waited for, as a shell redirection does, but without blocking a thread: it is opened
 * non-blocking and tried again (a signal ends the wait), and a full pipe is waited out.
 */
async function inPlace(path: string): Promise<Sink> {
  let file: FileHandle;
  for (;;) {
    try {
      file = await fsp().open(path, constants.O_WRONLY | constants.O_NONBLOCK);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENXIO') throw e; // ENXIO: a FIFO with no reader yet
      await pause(50);
    }
  }
  let closed = false;
  const close = async () => {
    if (!closed) await file.close().catch(() => {});
    closed = true;
  };
  return {
    write: async (c) => {
      let off = 0;
      while (off < c.length) {
        try {
          off += (await file.write(c, off, c.length - off)).bytesWritten;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
          await pause(10); // the reader has not caught up
        }
      }
    },
    commit: close,
    abort: close,
    abandonSync: () => {},
  };
}

export const fetchCommand: Command = {
  name: 'fetch',
  redactStdout: false,
  rawStderr: true,
  synopsis: ['fetch [options] URL'],
  about: [
    `Retrieves the object of a URL (${/* @__PURE__ */ retrievableSchemes().join(', ')}; and a scheme of a --scheme module) and writes its bytes, unaltered, to standard output or to -o FILE. The protocol steps are those locator explain shows (docs/clients.md).`,
  ],
  exits: [
    [0, 'the object was written'],
    [
      1,
      'the URL is not valid or is refused by the security policy, or -o FILE cannot be written (checked before connecting)',
    ],
    [
      2,
      'usage error: an unknown or malformed option, a bad option value, input the URL needs and no way to ask for it (a search string, a password)',
    ],
    [
      3,
      "network or protocol failure: no connection, a timeout, the server's error reply, an object over --max-bytes, a transfer cut short",
    ],
    [130, 'interrupted (Ctrl-C)'],
  ],
  example: ['-o menu.txt gopher://gopher.floodgap.com/1/', 'the Floodgap Gopher menu, written to menu.txt'],
  options: {
    output: {
      type: 'string',
      value: 'FILE',
      short: 'o',
      description:
        'Write to FILE, checked before connecting. A regular file (or a new one) gets the data through a temporary file in the same folder, renamed to FILE only when the transfer is complete; an existing file keeps its mode. A FIFO or a device is written in place; a symbolic link is followed (its target gets these rules, the link stays). A directory is refused.',
    },
    verbose: VERBOSE,
    quiet: { type: 'boolean', short: 'q', description: 'No progress bar.' },
    timeout: TIMEOUT,
    'max-bytes': { ...MAX_BYTES, default: 'no limit' },
    'no-follow': {
      type: 'boolean',
      description:
        'Follow no redirect: an HTTP 3xx is written as it is, a Gopher URL: link is an error. A prospero URL is not followed to its access method: its access URLs are written, one a line (text/uri-list, RFC 2483); a Prospero directory is written as its listing either way.',
    },
    'no-gateway': { type: 'boolean', description: 'Ignore <scheme>_proxy gateways from the environment.' },
    'allow-port': {
      ...ALLOW_PORT,
      description: `${ALLOW_PORT.description} Off port 70, also a port a Gopher+ form's data block may go to (never one of another protocol).`,
    },
    'refuse-private': REFUSE_PRIVATE,
    'ftp-wire-line-ends': {
      type: 'boolean',
      group: 'FTP',
      description:
        'Write FTP TYPE A text as it crossed the wire (CR LF); by default it is written with local line ends (LF, RFC 959 3.1.1.1).',
    },
    email: { ...EMAIL, group: 'FTP' },
    search: {
      type: 'string',
      value: 'S',
      group: 'Gopher',
      description:
        'The search string for a Gopher search item (type 7) whose URL holds none; without it, it is asked for on the terminal (none: exit 2).',
    },
    menu: {
      type: 'boolean',
      group: 'Gopher',
      description:
        'Show a Gopher menu (type 1 or 7) as text, one item and its URL per line (the default when standard output is a terminal).',
    },
    json: { ...JSON_OUTPUT, group: 'Gopher', description: 'Show a Gopher menu as NDJSON, one item per line.' },
    raw: { type: 'boolean', group: 'Gopher', description: 'Write a Gopher menu as the server sent it.' },
    'nntp-server': { ...NNTP_SERVER, group: 'News' },
    limit: {
      type: 'string',
      value: 'N',
      group: 'News',
      description: 'A news group listing shows only its last N articles.',
    },
    user: {
      type: 'string',
      value: 'NAME',
      group: 'Passwords',
      description:
        "The NNTP user name, sent (AUTHINFO USER) only when the server asks for authentication. Without it, the netrc entry of the host ($HOME/.netrc): only the URL's own host's machine entry (for news:, the news server's), never the default entry, and none after a redirect to another host.",
    },
    password: {
      type: 'string',
      value: 'PW',
      group: 'Passwords',
      description:
        'The password for --user (visible to other local users: prefer --password-stdin, or ~/.netrc). --user and --password go to the host of the URL only, never to another host a redirect leads to.',
    },
    'password-stdin': {
      type: 'boolean',
      group: 'Passwords',
      description: 'Read the FTP or NNTP password from standard input.',
    },
    'netrc-host': { ...NETRC_HOST, group: 'Passwords' },
  },
  run: (args, values, io) => run(args, values, io),
};
