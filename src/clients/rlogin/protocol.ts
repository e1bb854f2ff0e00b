// The pure parts of rlogin (RFC 1282; the drafts' rlogin URL, draft 1994-03 "Telnet, rlogin,
// tn3270"): the handshake the client sends, the server's answer to it, the window-size message,
// and the "~." escape a terminal front end watches for. No networking here.

import { defineCode, LocatorError } from '../../core/errors.js';
import { INVALID_FIELD } from '../../schemes/codes.js';

/** RFC 1282: the server's answer to the handshake is not the one NUL octet (it sent an error message). */
export const RLOGIN_REFUSED = defineCode(
  'rlogin-refused',
  'error',
  'RFC 1282',
  'the rlogin server refused the connection',
  'protocol',
);

/** RFC 1282: no reserved local port (512-1023) could be bound: the process needs root or CAP_NET_BIND_SERVICE. */
export const RLOGIN_PORT = defineCode(
  'rlogin-reserved-port',
  'error',
  'RFC 1282',
  'rlogin must connect from a reserved port (512-1023), and none could be bound',
  'usage',
);

/** The lowest and highest reserved port an rlogin client may connect from (RFC 1282; BSD rresvport). */
export const RESERVED_PORTS = { first: 1023, last: 512 } as const;

/** The terminal speed sent in the handshake (RFC 1282 "terminal-type/speed"); the session has no real line speed. */
export const DEFAULT_SPEED = 38400;

/** The octet a server sends, urgent, to ask for the window size (RFC 1282 "Window Size"). */
export const WINDOW_REQUEST = 0x80;

const utf8 = new TextEncoder();

function field(name: string, value: string): Uint8Array {
  const b = utf8.encode(value);
  if (b.includes(0)) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `the rlogin ${name} holds a NUL octet, which would end its handshake field early (RFC 1282; RFC 1738 6)`,
    );
  }
  return b;
}

/**
 * The handshake (RFC 1282 "Connection Establishment"): NUL, the client user name, NUL, the
 * server user name, NUL, "terminal-type/speed", NUL. A name holding a NUL is an `invalid-field`
 * error (RFC 1738 6: an encoded delimiter must not reach the protocol).
 */
export function handshake(localUser: string, remoteUser: string, term: string, speed = DEFAULT_SPEED): Uint8Array {
  const parts = [field('local user name', localUser), field('remote user name', remoteUser)];
  parts.push(field('terminal type', `${term}/${speed}`));
  const out = new Uint8Array(1 + parts.reduce((n, p) => n + p.length + 1, 0));
  let i = 1; // out[0] is the leading NUL
  for (const p of parts) {
    out.set(p, i);
    i += p.length + 1; // and a NUL after each field
  }
  return out;
}

/**
 * The window-size message (RFC 1282 "Window Size"): two 0xFF octets, "ss", then rows, columns,
 * x pixels and y pixels, each a 16-bit number in network order. Values are clipped to 0-65535.
 */
export function windowSize(cols: number, rows: number, xpixels = 0, ypixels = 0): Uint8Array {
  const out = new Uint8Array(12);
  out.set([0xff, 0xff, 0x73, 0x73]);
  const v = new DataView(out.buffer);
  const clip = (n: number) => Math.max(0, Math.min(0xffff, Math.trunc(Number.isFinite(n) ? n : 0)));
  v.setUint16(4, clip(rows));
  v.setUint16(6, clip(cols));
  v.setUint16(8, clip(xpixels));
  v.setUint16(10, clip(ypixels));
  return out;
}

/** The largest error message from a server that refuses the handshake that is kept. */
export const REFUSAL_LIMIT = 1024;

/** What the first octets from the server say (RFC 1282): accepted (with data after the NUL), refused, or not known yet. */
export type ServerAnswer =
  { kind: 'accepted'; rest: Uint8Array } | { kind: 'refused'; message: string } | { kind: 'incomplete' };

/**
 * Reads the server's answer to the handshake (RFC 1282: "the server returns a zero byte to
 * indicate that it has received these strings"). A server that refuses writes a message instead
 * (BSD rlogind: an octet 1, the text, a line end); it is complete at its line end, at the end of
 * the stream (`ended`), or past REFUSAL_LIMIT octets.
 */
export function readAnswer(buf: Uint8Array, ended: boolean): ServerAnswer {
  if (buf.length === 0) return ended ? { kind: 'refused', message: '' } : { kind: 'incomplete' };
  if (buf[0] === 0) return { kind: 'accepted', rest: buf.subarray(1) };
  const nl = buf.indexOf(0x0a);
  if (nl < 0 && !ended && buf.length <= REFUSAL_LIMIT) return { kind: 'incomplete' };
  const end = nl < 0 ? Math.min(buf.length, REFUSAL_LIMIT) : nl;
  const start = buf[0] === 1 ? 1 : 0;
  const message = new TextDecoder('utf-8', { fatal: false })
    .decode(buf.subarray(start, end))
    .replace(/[\x00-\x1f\x7f]/g, ' ')
    .trim();
  return { kind: 'refused', message };
}

/** What escapeScanner found in one chunk of typed input. */
export interface EscapeResult {
  /** The octets to send to the server (the escape itself taken out). */
  send: Uint8Array;
  /** "disconnect" when the user typed "~." at the start of a line: end the session; null otherwise. */
  action: 'disconnect' | null;
}

/**
 * The escape of BSD rlogin (RFC 1282 does not define one; rlogin(1) does): a "~" typed at the
 * start of a line (the first octet of the session, or after CR, LF, or ^C/^D/^U/^Z) is held
 * back; a "." next ends the session, a second "~" sends one "~", anything else sends the "~"
 * and itself. Feed it every chunk the user types, in order; it keeps the state between chunks.
 */
export function escapeScanner(escape = 0x7e): (typed: Uint8Array) => EscapeResult {
  let lineStart = true;
  let held = false;
  return (typed) => {
    const out: number[] = [];
    for (let i = 0; i < typed.length; i++) {
      const c = typed[i];
      if (held) {
        held = false;
        if (c === 0x2e) return { send: Uint8Array.from(out), action: 'disconnect' };
        if (c !== escape) out.push(escape);
        out.push(c);
        lineStart = false;
        continue;
      }
      if (lineStart && c === escape) {
        held = true;
        continue;
      }
      out.push(c);
      lineStart = c === 0x0d || c === 0x0a || c === 0x03 || c === 0x04 || c === 0x15 || c === 0x1a;
    }
    return { send: Uint8Array.from(out), action: null };
  };
}

/** A prompt the server reads itself, before the session starts: "Password: " (rlogind with PAM). */
const PROMPT = /pass(word|wd|code)[^\n]*: ?$/i;

/**
 * When to send the window size unasked (the DEVIATION of session.ts: the server's urgent 0x80
 * cannot be seen). rlogind asks once the login is done and the session starts; while it reads a
 * password itself, the 12 octets would be taken as part of the password. So the message waits
 * for output from the server (the login is done when it shows something), and, when that output
 * ends in a password prompt, for the user's line end and the next output after it. `server(data)`
 * returns true when the message is due now; from then on `open` is true and every resize is sent
 * at once. `typed(data)` is told what the user sends.
 */
export function windowGate(): { server(data: Uint8Array): boolean; typed(data: Uint8Array): void; open: boolean } {
  let state: 'waiting' | 'prompt' | 'open' = 'waiting';
  let tail = '';
  const gate = {
    open: false,
    server(data: Uint8Array): boolean {
      if (state !== 'waiting' || data.length === 0) return false;
      tail = (tail + String.fromCharCode(...data.subarray(-200))).slice(-200);
      if (PROMPT.test(tail)) {
        state = 'prompt';
        return false;
      }
      state = 'open';
      gate.open = true;
      return true;
    },
    typed(data: Uint8Array): void {
      if (state === 'prompt' && (data.includes(0x0d) || data.includes(0x0a))) {
        state = 'waiting';
        tail = '';
      }
    },
  };
  return gate;
}
