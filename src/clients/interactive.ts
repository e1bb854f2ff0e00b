// What connect() takes and gives for the interactive schemes (RFC 1738 3.8 telnet; the drafts'
// rlogin and tn3270): a session, not an object to read. Each protocol module
// (src/clients/<protocol>/session.ts) exports `connectSession(url, options)`; connect() picks the
// module by scheme, and the CLI (`locator connect`) or the gateway puts a terminal on either side.
// No networking code here: types, and the errors of interactive URLs (open() names connect()).

import type { Url } from '../core/url.js';
import { LocatorError, defineCode } from '../core/errors.js';
import type { Policy } from '../operations/policy.js';
import type { TranscriptLine } from './types.js';

export interface SessionOptions {
  /** Ends the session; `closed` then rejects with `aborted`. */
  signal?: AbortSignal;
  /** Milliseconds allowed to connect (and, where a protocol has one, to finish its handshake); default 30000. */
  timeout?: number;
  /** The security policy consulted before the connection (src/operations/policy.ts). */
  policy?: Policy;
  /** The local terminal type, as in `TERM` (telnet TERMINAL-TYPE, rlogin's terminal/speed). */
  term?: string;
  /** The local window size in character cells. */
  cols?: number;
  rows?: number;
  /** rlogin: the local user name sent in the handshake (default: the process's user). */
  localUser?: string;
  /** Record the negotiation in `transcript` (and/or pass each line to a callback). */
  transcript?: boolean | ((line: TranscriptLine) => void);
}

/**
 * One open session. Bytes flow as the user's terminal would see and send them: `output` carries
 * what to show (telnet: the NVT data with the commands taken out; tn3270: the drawn screen as
 * terminal text), `write` takes what the user typed (keys, already in the local terminal's
 * encoding).
 */
export interface InteractiveSession {
  /** What to show to the user, in order. Ends when the session ends. */
  readonly output: ReadableStream<Uint8Array>;
  /** Sends what the user typed (the protocol module escapes and translates it). */
  write(data: Uint8Array): void;
  /** The local window changed size (telnet NAWS, rlogin window-size message, tn3270 redraw). */
  resize(cols: number, rows: number): void;
  /** Sends the protocol's break/interrupt (telnet IAC BRK, rlogin: none, tn3270: ATTN). */
  sendBreak(): void;
  /** One line per fact for the escape prompt's `status`: host, options in effect, bytes in/out. */
  status(): string[];
  /** Ends the session from this side (closes the connection). Idempotent. */
  close(): void;
  /** Settles when the session ends: resolves when the peer or close() ended it, rejects with a LocatorError on failure. */
  readonly closed: Promise<void>;
  /** The negotiation so far, when asked for. */
  readonly transcript: TranscriptLine[];
  /**
   * False while the remote side does not echo what is typed (telnet: the server has not agreed
   * to ECHO, RFC 857), so the local side should; true or absent: the remote side echoes.
   */
  readonly remoteEcho?: boolean;
}

/** What a protocol module of an interactive scheme exports. */
export interface SessionModule {
  connectSession(url: Url, options: SessionOptions): Promise<InteractiveSession>;
}

export const NO_SESSION = defineCode(
  'no-session',
  'error',
  'RFC 1738 3.8',
  'the URL designates no interactive service that connect() can open (use open() for data objects)',
  'usage',
);

export const INTERACTIVE_ONLY = defineCode(
  'interactive-only',
  'error',
  'RFC 1738 3.8',
  'the URL designates an interactive service, not a data object: open it with connect() (locator connect)',
  'usage',
);

/** The error open() gives for a URL of an interactive scheme (RFC 1738 3.8). */
export function interactiveOnly(u: Url): LocatorError {
  return new LocatorError(
    INTERACTIVE_ONLY,
    0,
    `a ${u.scheme} URL designates an interactive service, not a data object (RFC 1738 3.8): open it with connect() (\`locator connect URL\`), not open() or fetch`,
  );
}
