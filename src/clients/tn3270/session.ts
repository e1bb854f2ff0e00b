// tn3270 sessions (RFC 1576 "TN3270 Current Practices"; the tn3270 URL of the 1993-10 and
// 1994-03 drafts, with the telnet syntax of RFC 1738 3.8): connect, negotiate TERMINAL-TYPE
// IBM-3278-2, BINARY and END-OF-RECORD (negotiate.ts), then read each record as a 3270 data
// stream (datastream.ts) into a 24x80 display buffer (screen.ts) and draw it, as ANSI text, on
// `output`. What the user types (keys.ts) is typed into the unprotected fields, and Enter,
// Clear and PF1-PF12 send their AID with the modified fields (Read Modified). TN3270E (RFC 2355)
// is refused: the server falls back to plain TN3270.

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { redactUrl } from '../../redact.js';
import type { Connection } from '../connection.js';
import type { InteractiveSession, SessionOptions } from '../interactive.js';
import { CONNECTION_CLOSED, TIMEOUT } from '../types.js';
import { connectUrl, deadline, SessionCore, transcriptOf } from '../session-core.js';
import { applyRecord } from './datastream.js';
import { keyReader } from './keys.js';
import { BRK, IAC, Tn3270Telnet, type FeedResult } from './negotiate.js';
import { Screen } from './screen.js';

export { Screen } from './screen.js';
export { applyRecord } from './datastream.js';
export { Tn3270Telnet } from './negotiate.js';

/** The Telnet port, which tn3270 URLs share (RFC 1738 3.8; the drafts give tn3270 no port of its own). */
export const TN3270_PORT = 23;

/** The terminal type sent (RFC 1576 "Terminal Type": IBM-3278-2 is the 24x80 model 2). */
export const TERMINAL_TYPE = 'IBM-3278-2';

/** The options of connectSession beyond SessionOptions. */
export interface Tn3270SessionOptions extends SessionOptions {
  /** Called with the screen after each record and key (for tests and the gateway). */
  onScreen?: (screen: Screen) => void;
}

/** An InteractiveSession with its 3270 screen. */
export interface Tn3270Session extends InteractiveSession {
  /** The display buffer as the host last wrote it and the user changed it. */
  readonly screen: Screen;
  /** The screen as plain text: 24 lines of 80 characters. */
  screenText(): string;
}

const encoder = new TextEncoder();

/** Sends what a feed produced and records its transcript lines. */
function answer(conn: Connection, r: FeedResult, send: (b: Uint8Array) => void): void {
  for (const n of r.notes) conn.note(n.direction, n.text);
  for (const b of r.replies) send(b);
}

/**
 * Opens a tn3270 session (RFC 1576; draft 1994-03 tn3270 URL) to the URL's host and port (23 by
 * default). Resolves once the 3270 mode is in effect (BINARY and END-OF-RECORD both ways,
 * TERMINAL-TYPE sent); each screen the host writes is then drawn on `output` (clear, rows, a
 * status line, the cursor). The URL's user and password are advisory (RFC 1738 3.8): nothing is
 * sent for them. Fails with `timeout` (no 3270 mode within `options.timeout`: not a TN3270
 * server), `connection-closed`, `connect-failed`, `aborted`, `policy-refused`; once running, a
 * record that is no 3270 data stream, or a subnegotiation or record without end, ends the session
 * with `protocol-error` (closed rejects with it).
 */
export async function connectSession(url: Url, options: Tn3270SessionOptions = {}): Promise<Tn3270Session> {
  const { lines, record } = transcriptOf(options);
  const where = redactUrl(url.href);
  const screen = new Screen(24, 80);
  const telnet = new Tn3270Telnet(TERMINAL_TYPE);
  const conn = await connectUrl(url, TN3270_PORT, options, record);
  let out = 0;
  const raw = (b: Uint8Array) => {
    out += b.length;
    conn.send(b); // a write the host takes none of for the timeout ends the session (timeout)
  };
  let records = 0;
  let status = '';
  const draw = () => encoder.encode(screen.ansi(status));
  /** Applies the host's records; true when the screen changed. */
  const apply = (rs: Uint8Array[], send: (b: Uint8Array) => void): boolean => {
    for (const r of rs) {
      records++;
      const done = applyRecord(screen, r);
      conn.note('receive', `3270 ${done.command} (${r.length} octets)`);
      for (const n of done.notes) conn.note('info', n);
      if (done.reply !== null) {
        conn.note('send', `3270 inbound record (${done.reply.length} octets)`);
        send(Tn3270Telnet.record(done.reply));
      }
    }
    if (rs.length === 0) return false;
    status = '';
    options.onScreen?.(screen);
    return true;
  };
  const timer = deadline(conn, options, 'the TN3270 negotiation (RFC 1576)');
  let changed = false;
  try {
    while (!telnet.ready) {
      const chunk = await conn.read();
      if (chunk === null) {
        throw new LocatorError(
          CONNECTION_CLOSED,
          -1,
          `${where} closed the connection before the 3270 mode was agreed (RFC 1576)`,
        );
      }
      const r = telnet.feed(chunk);
      answer(conn, r, raw);
      changed = apply(r.records, raw) || changed;
    }
  } catch (e) {
    const err =
      e instanceof LocatorError && e.code === TIMEOUT
        ? new LocatorError(
            TIMEOUT,
            -1,
            `${where} did not agree to the 3270 mode (TERMINAL-TYPE, BINARY, END-OF-RECORD) in time: is it a TN3270 server (RFC 1576)?`,
            { cause: e },
          )
        : e;
    conn.close(err instanceof LocatorError ? err : undefined);
    throw err;
  } finally {
    timer.clear();
  }
  conn.note('info', `3270 mode: ${TERMINAL_TYPE}, BINARY, END-OF-RECORD`);

  const core: SessionCore = new SessionCore(conn, (chunk) => {
    const r = telnet.feed(chunk);
    answer(conn, r, (b) => core.send(b));
    if (!telnet.ready) {
      throw new LocatorError(
        CONNECTION_CLOSED,
        -1,
        `${where} left the 3270 mode (RFC 1576 "Transition back to NVT"): not supported, the session ends`,
      );
    }
    return apply(r.records, (b) => core.send(b)) ? draw() : null;
  });
  core.bytesOut = out;
  core.start(changed ? draw() : null);
  const keys = keyReader();

  return {
    screen,
    screenText: () => screen.screenText(),
    output: core.output,
    closed: core.closed,
    transcript: lines,
    write(data) {
      let redraw = false;
      for (const k of keys(data)) {
        redraw = true;
        switch (k.kind) {
          case 'char':
            screen.type(k.ch);
            break;
          case 'tab':
            screen.cursor = screen.nextInput(screen.cursor);
            break;
          case 'backtab':
            screen.cursor = screen.previousInput(screen.cursor);
            break;
          case 'up':
            screen.move(-1, 0);
            break;
          case 'down':
            screen.move(1, 0);
            break;
          case 'left':
            screen.move(0, -1);
            break;
          case 'right':
            screen.move(0, 1);
            break;
          case 'backspace':
            screen.backspace();
            break;
          case 'aid':
            if (screen.locked) {
              status = `keyboard locked: ${k.name} not sent`;
              break;
            }
            core.send(Tn3270Telnet.record(screen.readModified(k.aid)), `3270 AID ${k.name}`);
            if (k.name === 'Clear') screen.clear();
            screen.locked = true;
            status = k.name;
            break;
        }
      }
      if (redraw) {
        options.onScreen?.(screen);
        core.show(draw());
      }
    },
    resize() {
      core.show(draw()); // the 3270 screen keeps its 24x80; it is drawn again
    },
    sendBreak() {
      // RFC 1576 "Special Keys": the ATTN key is sent as the Telnet BREAK command.
      core.send(Uint8Array.of(IAC, BRK), 'IAC BREAK (ATTN)');
    },
    status() {
      return [
        `tn3270 ${where} (RFC 1576)`,
        `terminal ${TERMINAL_TYPE} (${screen.rows}x${screen.cols}); options BINARY, END-OF-RECORD, TERMINAL-TYPE`,
        `keyboard ${screen.locked ? 'locked (waiting for the host)' : 'ready'}; cursor row ${Math.floor(screen.cursor / screen.cols) + 1} column ${(screen.cursor % screen.cols) + 1}; ${records} records`,
        `${core.bytesIn} octets in, ${core.bytesOut} octets out`,
      ];
    },
    close() {
      core.close();
    },
  };
}
