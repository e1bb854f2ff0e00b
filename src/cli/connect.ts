// `locator connect [options] URL`: an interactive session (RFC 1738 3.8: a telnet URL
// "designates an interactive text-based service"; the drafts' rlogin and tn3270 the same) on
// this terminal. Generic over InteractiveSession (../clients/interactive.ts): the protocol is the
// session module's business, the terminal is this module's.
//
// On a terminal (standard input and output both terminals) the terminal goes into raw mode, so
// every key goes to the remote side, and is put back as it was on every way out: the end of the
// session, an error, SIGTERM, SIGHUP, SIGINT. The escape character (Ctrl-] by default, as in
// telnet(1)) opens a small prompt: quit, send brk, status. A window size change is passed on.
// Without a terminal, standard input is copied to the session and the session to standard
// output (for scripts); after the end of standard input the session is closed once the server
// has been silent for --idle milliseconds (or when it closes first).

import { constants as osConstants } from 'node:os';
import type { Writable } from 'node:stream';
import { tryParse } from '../schemes/registry.js';
import type { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import {
  connect,
  escapeScanner,
  faceOf,
  type InteractiveSession,
  type SessionOptions,
  type TranscriptLine,
} from '../clients/index.js';
import { EXIT, UsageError, exitFor, type Command, type Io } from './command.js';
import { ALLOW_PORT, REFUSE_PRIVATE, TIMEOUT, VERBOSE } from './options.js';
import { maskSecrets, secretsOf } from '../operations/redact.js';
import { safeText, transcriptLine } from './safe-text.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** What one line typed at the escape prompt asks for. */
export type PromptAction = 'resume' | 'quit' | 'break' | 'status' | 'help' | 'unknown';

/**
 * The escape prompt's commands (after telnet(1)'s): an empty line resumes the session; `quit`
 * (or `close`, `q`) ends it; `send brk` sends the protocol's break (telnet IAC BRK, RFC 854);
 * `status` shows the session's facts; `help` or `?` lists the commands.
 */
export function promptAction(line: string): PromptAction {
  const words = line.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'resume';
  const [w, arg] = words;
  if (words.length === 1 && ['quit', 'q', 'close', 'exit'].includes(w)) return 'quit';
  if (words.length === 1 && ['status', 'st'].includes(w)) return 'status';
  if (words.length === 1 && ['help', '?'].includes(w)) return 'help';
  if (words.length === 2 && w === 'send' && (arg === 'brk' || arg === 'break')) return 'break';
  if (words.length === 1 && ['continue', 'c'].includes(w)) return 'resume';
  return 'unknown';
}

export const PROMPT_HELP = [
  'quit          close the session and exit',
  'send brk      send a break (telnet: IAC BRK)',
  'status        show the session: host, options in effect, octets in and out',
  '(empty line)  go back to the session',
];

/**
 * --escape: `^X` for a control character (`^]` is 0x1d, `^?` DEL), one character for itself,
 * `none` for no escape character. Anything else is a usage error.
 */
export function escapeArg(v: string | undefined): number | null {
  if (v === undefined) return 0x1d;
  if (v === 'none') return null;
  if (v.length === 2 && v[0] === '^') {
    const c = v.toUpperCase().charCodeAt(1);
    if (c === 0x3f) return 0x7f;
    if (c >= 0x40 && c <= 0x5f) return c - 0x40;
  }
  if (v.length === 1 && v.charCodeAt(0) < 128) return v.charCodeAt(0);
  throw new UsageError(`--escape takes ^X, one ASCII character or "none", not ${JSON.stringify(v)}`);
}

/** How an escape character is shown: ^] for a control character, else itself. */
export function showEscape(c: number): string {
  return c < 32 ? `^${String.fromCharCode(c + 64)}` : c === 127 ? '^?' : String.fromCharCode(c);
}

function msArg(name: string, v: unknown, none: boolean): number | undefined {
  if (v === undefined) return undefined;
  if (none && v === 'none') return Infinity;
  const n = typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new UsageError(
      `--${name} takes a positive whole number of milliseconds${none ? ', or "none"' : ''}, not ${JSON.stringify(v)}`,
    );
  }
  return n;
}

function writeOut(out: Writable, chunk: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = out.write(chunk, (e) => (e ? reject(e) : undefined));
    if (ok) resolve();
    else out.once('drain', resolve);
  });
}

interface Tty {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  setRawMode?: (raw: boolean) => void;
}

/** What the keyboard part of a session needs to know of the command. */
interface KeyboardContext {
  /** Standard input and output are a terminal (raw mode): keys, the escape prompt, local echo. */
  terminal: boolean;
  /** The escape character that opens the prompt, or null for none. */
  escape: number | null;
  /** "~." at the start of a line ends the session (the face's tildeEscapes, on a terminal). */
  tilde: boolean;
  io: Io;
  say: (text: string) => void;
}

/**
 * Keys (or standard input) to the session: on a terminal, the escape character opens a prompt
 * (quit, send brk, status, help: promptAction), what is typed is echoed locally when the server
 * does not echo, and rlogin's "~." is read where the face asks; without a terminal, the bytes as
 * they come. `byUser()`: the session was closed from the prompt.
 */
function keyboard(
  s: InteractiveSession,
  ctx: KeyboardContext,
): { onKeys: (chunk: Buffer) => void; byUser: () => boolean } {
  const { terminal, escape, io, say } = ctx;
  const stdout = io.stdout as unknown as Tty & Writable;
  let byUser = false;
  let prompting = false;
  let line = '';
  const localEcho = (bytes: Uint8Array) => {
    if (s.remoteEcho !== false) return;
    const text = Buffer.from(bytes)
      .toString('latin1')
      .replace(/\r\n?|\n/g, '\r\n');
    stdout.write(text.replace(/\x7f/g, '\b \b'));
  };
  const onPromptLine = () => {
    const action = promptAction(line);
    line = '';
    prompting = false;
    switch (action) {
      case 'quit':
        byUser = true;
        s.close();
        return;
      case 'break':
        s.sendBreak();
        break;
      case 'status':
        say(s.status().join('\n') + '\n');
        break;
      case 'help':
        say(PROMPT_HELP.join('\n') + '\n');
        break;
      case 'unknown':
        say(`unknown command (try help)\n`);
        break;
      case 'resume':
        break;
    }
  };
  // rlogin's own escape (rlogin(1), after RFC 1282), where the scheme's face takes it: "~." at
  // the start of a line ends the session, on a terminal only (a script's input is sent as it is).
  const tilde = ctx.tilde ? escapeScanner() : null;
  const send = (bytes: Uint8Array) => {
    if (tilde === null) return s.write(bytes);
    const r = tilde(bytes);
    if (r.send.length > 0) s.write(r.send);
    if (r.action === 'disconnect') s.close();
  };
  const onKeys = (chunk: Buffer) => {
    if (!terminal) {
      s.write(chunk);
      return;
    }
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (prompting) {
        if (b === 13 || b === 10) {
          io.stderr.write('\r\n');
          onPromptLine();
        } else if (b === 3) {
          io.stderr.write('\r\n');
          prompting = false;
          line = '';
        } else if (b === 0x7f || b === 8) {
          if (line.length > 0) {
            line = line.slice(0, -1);
            io.stderr.write('\b \b');
          }
        } else if (b >= 32 && b < 127) {
          line += String.fromCharCode(b);
          io.stderr.write(String.fromCharCode(b));
        }
        from = i + 1;
      } else if (escape !== null && b === escape) {
        if (i > from) {
          send(chunk.subarray(from, i));
          localEcho(chunk.subarray(from, i));
        }
        prompting = true;
        line = '';
        io.stderr.write('\r\nlocator> ');
        from = i + 1;
      }
    }
    if (!prompting && from < chunk.length) {
      send(chunk.subarray(from));
      localEcho(chunk.subarray(from));
    }
  };
  return { onKeys, byUser: () => byUser };
}

/**
 * The session's output to standard output, each piece written before the next is read; after
 * each, `written()` (the idle timer after the end of standard input). Resolves to the failure
 * that closed the session, or null when it ended well.
 */
async function toOutput(s: InteractiveSession, out: Writable, written: () => void): Promise<LocatorError | null> {
  try {
    const reader = s.output.getReader();
    for (;;) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch {
        break; // the reason is in `closed`
      }
      if (r.done) break;
      await writeOut(out, r.value);
      written();
    }
    await s.closed;
    return null;
  } catch (e) {
    if (!(e instanceof LocatorError)) throw e;
    return e;
  }
}

/** RFC 1738 3.8: the user name and password are advisory; they are shown, never sent on their own. */
function announce(url: Url, where: string, showSecrets: boolean, say: (text: string) => void): void {
  say(`Trying ${where} (${url.scheme})...\n`);
  if (url.user) say(`User name in the URL: ${JSON.stringify(url.user)} (advisory: type it when asked)\n`);
  if (url.password !== null) {
    const shown = showSecrets ? JSON.stringify(url.password) : '****';
    say(`Password in the URL: ${shown} (advisory: type it when asked; locator never sends it)\n`);
  }
}

/**
 * After the end of standard input (not a terminal): the session is closed once the server has
 * been quiet for `idle` ms. `inputEnded()` at the end of input, `written()` after each piece of
 * output, `stop()` on the way out.
 */
function closeWhenQuiet(
  s: InteractiveSession,
  idle: number,
): { inputEnded: () => void; written: () => void; stop: () => void } {
  let idleTimer: ReturnType<typeof setTimeout> | null = null;
  let ended = false;
  const written = () => {
    if (!ended) return;
    if (idleTimer !== null) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => s.close(), idle);
  };
  return {
    inputEnded: () => {
      ended = true;
      written();
    },
    written,
    stop: () => {
      if (idleTimer !== null) clearTimeout(idleTimer);
    },
  };
}

async function run(args: string[], values: Record<string, unknown>, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('connect takes exactly one URL');
  const url = tryParse(args[0]);
  if (url instanceof LocatorError) {
    io.stderr.write(safeText(`locator connect: not a URL: ${url.message}\n`));
    return EXIT.invalid;
  }
  const showSecrets = values['show-secrets'] === true;
  const escape = escapeArg(values.escape as string | undefined);
  const timeout = msArg('timeout', values.timeout, true);
  const idle = msArg('idle', values.idle, false) ?? 2000;
  const allow = ([] as unknown[]).concat(values['allow-port'] ?? []).map((p) => {
    const n = Number(p);
    if (!Number.isInteger(n) || n < 0)
      throw new UsageError(`--allow-port takes a whole number, not ${JSON.stringify(p)}`);
    return n;
  });
  const stdin = io.stdin as unknown as Tty & NodeJS.ReadableStream;
  const stdout = io.stdout as unknown as Tty & Writable;
  const terminal = stdin.isTTY === true && stdout.isTTY === true && typeof stdin.setRawMode === 'function';
  const known = showSecrets ? [] : secretsOf(url);
  let raw = false;
  // In raw mode the terminal does not turn LF into CR LF: each message line ends with both.
  const say = (text: string, secret = false) => {
    const t = safeText(secret ? maskSecrets(text, known) : text);
    io.stderr.write(raw ? t.replace(/\n/g, '\r\n') : t);
  };

  const where = `${url.host ?? ''}:${url.portDigits ?? url.port ?? ''}`;
  announce(url, where, showSecrets, say);

  const ac = new AbortController();
  let signalled: NodeJS.Signals | null = null;
  let session: InteractiveSession | null = null;
  const onSignal = (sig: NodeJS.Signals) => {
    signalled ??= sig;
    if (session !== null) session.close();
    else ac.abort();
  };
  for (const sig of SIGNALS) process.on(sig, onSignal);
  const restore = () => {
    if (raw) {
      raw = false;
      stdin.setRawMode!(false);
    }
  };
  try {
    const options: SessionOptions = {
      signal: ac.signal,
      timeout,
      term: io.env.TERM || undefined,
      cols: terminal ? stdout.columns : undefined,
      rows: terminal ? stdout.rows : undefined,
      policy: {
        allowPorts: allow,
        refusePrivateAddresses: values['refuse-private'] === true,
      },
      transcript: values.verbose === true ? (l: TranscriptLine) => say(transcriptLine(l.direction, l.text)) : undefined,
    };
    try {
      session = await connect(url, options);
    } catch (e) {
      if (!(e instanceof LocatorError)) throw e;
      if (signalled !== null) return 128 + (osConstants.signals[signalled] ?? 2);
      say(`locator connect: ${e.message}\n`, true);
      return exitFor(e);
    }
    const s = session;
    say(`Connected to ${where}.\n`);
    if (terminal) {
      if (escape !== null) say(`Escape character is '${showEscape(escape)}'.\n`);
      stdin.setRawMode!(true);
      raw = true;
    }

    const keys = keyboard(s, { terminal, escape, tilde: terminal && faceOf(url).tildeEscapes === true, io, say });
    const onKeys = keys.onKeys;
    stdin.on('data', onKeys);
    const quiet = closeWhenQuiet(s, idle);
    const onEnd = quiet.inputEnded;
    if (!terminal) stdin.on('end', onEnd);
    stdin.resume();
    const onResize = () => {
      if (stdout.columns !== undefined && stdout.rows !== undefined) s.resize(stdout.columns, stdout.rows);
    };
    if (terminal) stdout.on('resize', onResize);

    let failure: LocatorError | null = null;
    try {
      failure = await toOutput(s, io.stdout, quiet.written);
    } finally {
      s.close();
      quiet.stop();
      stdin.off('data', onKeys);
      stdin.off('end', onEnd);
      stdout.off('resize', onResize);
      restore();
      stdin.pause();
    }
    if (signalled !== null) {
      say(`\nlocator connect: ${signalled}: the session was closed\n`);
      return 128 + (osConstants.signals[signalled] ?? 2);
    }
    if (failure !== null) {
      say(`\nlocator connect: ${failure.message}\n`, true);
      return exitFor(failure);
    }
    if (terminal) say(keys.byUser() ? '\nConnection closed.\n' : '\nConnection closed by foreign host.\n');
    return EXIT.ok;
  } finally {
    restore();
    for (const sig of SIGNALS) process.off(sig, onSignal);
  }
}

export const connectCommand: Command = {
  name: 'connect',
  redactStdout: false,
  rawStderr: true,
  synopsis: ['connect [options] URL'],
  about: [
    'Opens the interactive session of a telnet, rlogin or tn3270 URL on this terminal, in raw mode; the escape character gives a prompt (quit, send brk, status, help; an empty line goes back). Without a terminal, standard input and output are copied. The user name and password in the URL are shown before connecting, as advice; the password is never sent (RFC 1738 3.8; docs/connect.md).',
  ],
  exits: [
    [0, 'the session ended'],
    [1, 'the URL is not valid or is refused by the security policy'],
    [3, 'no connection, or the session failed'],
    [130, 'interrupted (SIGINT; 128 plus the number of another signal)'],
  ],
  example: ['telnet://localhost/', 'a telnet session with this machine'],
  options: {
    escape: {
      type: 'string',
      value: 'C',
      default: '^]',
      description: 'The escape character: ^X, one ASCII character, or "none".',
    },
    idle: {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '2000',
      description:
        'Without a terminal: after the end of standard input, close the session once the server has been silent this long.',
    },
    timeout: {
      ...TIMEOUT,
      description: 'The time allowed to connect: a positive whole number, or "none" for no limit.',
    },
    verbose: { ...VERBOSE, description: 'Print the option negotiation on standard error.' },
    'allow-port': ALLOW_PORT,
    'refuse-private': REFUSE_PRIVATE,
  },
  run,
};
