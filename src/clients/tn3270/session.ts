// tn3270 sessions (RFC 1576 "TN3270 Current Practices", RFC 2355 TN3270E; the tn3270 URL of the
// 1993-10 and 1994-03 drafts, with the telnet syntax of RFC 1738 3.8): connect, negotiate
// TN3270E or TERMINAL-TYPE IBM-3278-M-E, BINARY and END-OF-RECORD (negotiate.ts), then read each
// record as a 3270 data stream (datastream.ts) into the display buffer of the model (screen.ts:
// 24x80, and the alternate 32x80, 43x80 or 27x132) and draw it, as ANSI text, on `output`. What
// the user types (keys.ts) is typed into the unprotected fields, and Enter, Clear, PA1-PA3 and
// PF1-PF24 send their AID with the modified fields (Read Modified). When the host leaves the 3270
// mode the session goes on in NVT mode (text both ways) until it comes back.

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { redactUrl } from '../../operations/redact.js';
import type { Connection } from '../connection.js';
import type { InteractiveSession, SessionOptions } from '../interactive.js';
import { CONNECTION_CLOSED, PROTOCOL_ERROR, TIMEOUT } from '../types.js';
import { concatBytes } from '../framing/bytes.js';
import { connectUrl, deadline, SessionCore, transcriptOf } from '../session-core.js';
import { applyRecord } from './datastream.js';
import { keyReader } from './keys.js';
import { BRK, FUNCTION, IAC, RESPONSE_FLAG, Tn3270Telnet, type FeedResult } from './negotiate.js';
import { MODELS, OPERATOR_ERROR, Screen } from './screen.js';

export { Screen } from './screen.js';
export { applyRecord } from './datastream.js';
export { Tn3270Telnet } from './negotiate.js';

/** The Telnet port, which tn3270 URLs share (RFC 1738 3.8; the drafts give tn3270 no port of its own). */
export const TN3270_PORT = 23;

/** The terminal type of a model (RFC 1576 "Terminal Type", RFC 2355 device types): IBM-3278-2 is the 24x80 model 2; -E adds the extended attributes. */
export function terminalType(model: number, extended: boolean): string {
  return `IBM-3278-${model}${extended ? '-E' : ''}`;
}

/**
 * The largest model whose alternate screen fits a local terminal of `rows` x `cols` with the
 * status line below (model 2 when the size is unknown): 5 (27x132), 4 (43x80), 3 (32x80), 2.
 */
export function modelFor(rows: number | undefined, cols: number | undefined): 2 | 3 | 4 | 5 {
  if (rows === undefined || cols === undefined) return 2;
  for (const m of [5, 4, 3] as const) if (rows > MODELS[m].rows && cols >= MODELS[m].cols) return m;
  return 2;
}

/** Terminal types (TERM) that draw no colours: colours are left out of the screen on them. */
const MONOCHROME = /^(dumb|vt52|vt100|vt102|vt220|vt320|ansi-m|.*-mono|.*-m)$/;

/** The options of connectSession beyond SessionOptions. */
export interface Tn3270SessionOptions extends SessionOptions {
  /** Called with the screen after each record and key (for tests and the gateway). */
  onScreen?: (screen: Screen) => void;
  /** The 3278 model, 2-5 (its alternate screen size); by default the largest that fits `rows` x `cols`, else 2. */
  model?: 2 | 3 | 4 | 5;
  /** Ask for the extended attributes (colour, highlighting: the -E terminal types); default true. */
  extended?: boolean;
  /** Agree to TN3270E when the server offers it (RFC 2355); default true. */
  tn3270e?: boolean;
  /** Draw colours; default: unless `term` names a monochrome terminal. */
  colors?: boolean;
}

/** An InteractiveSession with its 3270 screen. */
export interface Tn3270Session extends InteractiveSession {
  /** The display buffer as the host last wrote it and the user changed it. */
  readonly screen: Screen;
  /** The screen as plain text: its rows of its columns (24 x 80, or the alternate size after EWA). */
  screenText(): string;
}

const encoder = new TextEncoder();

/** The status line's text while an operator error inhibits input (beside the error's indicator). */
const INHIBITED = 'keyboard locked: Reset (Ctrl-R) unlocks';

/**
 * `e` as a LocatorError: an error of any other kind (a bug, or an engine limit a hostile stream
 * reached) becomes a `protocol-error` that keeps it as its cause, so none reaches the caller untyped.
 */
function typed(e: unknown, where: string): LocatorError {
  if (e instanceof LocatorError) return e;
  const what = e instanceof Error ? e.message : String(e);
  return new LocatorError(PROTOCOL_ERROR, -1, `${where}: the 3270 session could not go on (${what})`, { cause: e });
}

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
 * with `protocol-error` (closed rejects with it). Whatever else fails while the host's data is
 * applied is a `protocol-error` too (the original as its cause): connectSession and `closed`
 * reject only with LocatorErrors.
 */
export async function connectSession(url: Url, options: Tn3270SessionOptions = {}): Promise<Tn3270Session> {
  const { lines, record } = transcriptOf(options);
  const where = redactUrl(url);
  const model = options.model ?? modelFor(options.rows, options.cols);
  const type = terminalType(model, options.extended !== false);
  const screen = new Screen(24, 80, MODELS[model].rows, MODELS[model].cols);
  screen.colors = options.colors ?? !MONOCHROME.test(options.term ?? '');
  const telnet = new Tn3270Telnet(type, undefined, options.tn3270e !== false);
  const conn = await connectUrl(url, TN3270_PORT, options, record);
  let out = 0;
  const raw = (b: Uint8Array) => {
    out += b.length;
    conn.send(b); // a write the host takes none of for the timeout ends the session (timeout)
  };
  let records = 0;
  let status = '';
  /** NVT mode (RFC 1576 "Transition back to NVT"; RFC 2355 NVT-DATA): text both ways. */
  let nvt = false;
  const draw = () => encoder.encode(screen.ansi(status));
  /**
   * Applies the host's records and NVT text in their order, answering the records that ask for a
   * response (RFC 2355 10.4); returns what to show (the screen after the last record, NVT text as
   * it is, after a clear when the 3270 screen was up), or null. A record that is no 3270 data
   * stream ends the session (protocol-error), unless the host asked for a response: then it gets
   * a negative one.
   */
  const apply = (r: FeedResult, send: (b: Uint8Array) => void): Uint8Array | null => {
    const shown: Uint8Array[] = [];
    let screenChanged = false;
    const flush = () => {
      if (!screenChanged) return;
      screenChanged = false;
      options.onScreen?.(screen);
      shown.push(draw());
    };
    for (const item of r.flow) {
      if (item instanceof Uint8Array) {
        flush();
        if (!nvt) {
          conn.note('info', 'NVT mode (RFC 1576 "Transition back to NVT")');
          shown.push(encoder.encode('\x1b[0m\x1b[H\x1b[2J'));
        }
        nvt = true;
        shown.push(item);
        continue;
      }
      const { data, response } = item;
      records++;
      nvt = false;
      status = '';
      screenChanged = true;
      let done;
      try {
        done = applyRecord(screen, data);
      } catch (caught) {
        const e = typed(caught, where);
        if (response === null || response.flag === RESPONSE_FLAG.NO) throw e;
        conn.note('info', e.message);
        send(telnet.response(response.seq, false));
        conn.note('send', `TN3270E RESPONSE ${response.seq} negative (COMMAND-REJECT)`);
        continue;
      }
      conn.note('receive', `3270 ${done.command} (${data.length} octets)`);
      for (const n of done.notes) conn.note('info', n);
      if (done.reply !== null) {
        conn.note('send', `3270 inbound record (${done.reply.length} octets)`);
        send(telnet.send3270(done.reply));
      }
      if (response !== null && response.flag === RESPONSE_FLAG.ALWAYS) {
        send(telnet.response(response.seq, true));
        conn.note('send', `TN3270E RESPONSE ${response.seq} positive (DEVICE-END)`);
      }
    }
    flush();
    return shown.length === 0 ? null : concatBytes(shown);
  };
  const timer = deadline(conn, options, 'the TN3270 negotiation (RFC 1576)');
  const first: Uint8Array[] = [];
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
      const shown = apply(r, raw);
      if (shown !== null) first.push(shown);
    }
  } catch (caught) {
    const e = typed(caught, where);
    const err =
      e.code === TIMEOUT
        ? new LocatorError(
            TIMEOUT,
            -1,
            `${where} did not agree to the 3270 mode (TERMINAL-TYPE, BINARY, END-OF-RECORD) in time: is it a TN3270 server (RFC 1576)?`,
            { cause: e },
          )
        : e;
    conn.close(err);
    throw err;
  } finally {
    timer.clear();
  }
  const functions = () =>
    telnet.functions.map((f) =>
      f === FUNCTION.RESPONSES ? 'RESPONSES' : f === FUNCTION.BIND_IMAGE ? 'BIND-IMAGE' : f,
    );
  const mode = () =>
    telnet.e
      ? `TN3270E (RFC 2355), device ${telnet.deviceName || '(unnamed)'}, functions ${functions().join(' ') || '(none)'}`
      : 'BINARY, END-OF-RECORD, TERMINAL-TYPE';
  conn.note('info', `3270 mode: ${type}, ${mode()}`);

  const core: SessionCore = new SessionCore(conn, (chunk) => {
    try {
      const r = telnet.feed(chunk);
      answer(conn, r, (b) => core.send(b));
      return apply(r, (b) => core.send(b));
    } catch (e) {
      throw typed(e, where);
    }
  });
  core.bytesOut = out;
  core.start(first.length > 0 ? concatBytes(first) : null);
  const keys = keyReader();

  return {
    screen,
    screenText: () => screen.screenText(),
    output: core.output,
    closed: core.closed,
    transcript: lines,
    write(data) {
      if (nvt || !telnet.ready) {
        core.send(telnet.sendText(data)); // NVT mode: the keys as they are, CR as CR NUL (RFC 854)
        return;
      }
      let redraw = false;
      for (const k of keys(data)) {
        redraw = true;
        if (screen.operatorError !== null && k.kind !== 'reset') {
          // Input inhibited (the 3278): only Reset is taken until the error is cleared.
          status = INHIBITED;
          continue;
        }
        switch (k.kind) {
          case 'char':
            if (!screen.type(k.ch) && screen.operatorError !== null) status = INHIBITED;
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
          case 'home':
            screen.cursor = screen.nextInput(screen.size - 1);
            break;
          case 'backspace':
            screen.backspace();
            break;
          case 'delete':
            screen.deleteChar();
            break;
          case 'insert':
            screen.insert = !screen.insert;
            break;
          case 'eraseEof':
            if (!screen.eraseEof()) status = 'Erase EOF: the cursor is not in an input field';
            break;
          case 'reset':
            screen.reset();
            status = '';
            break;
          case 'aid':
            if (screen.locked) {
              status = `keyboard locked: ${k.name} not sent`;
              break;
            }
            core.send(telnet.send3270(screen.readModified(k.aid)), `3270 AID ${k.name}`);
            if (k.name === 'Clear') screen.clear();
            screen.locked = true;
            screen.insert = false;
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
        `terminal ${type} (${screen.rows}x${screen.cols}, alternate ${screen.alternateRows}x${screen.alternateCols}); ${mode()}${nvt ? '; NVT mode' : ''}`,
        `keyboard ${screen.operatorError !== null ? `locked (operator error: ${OPERATOR_ERROR[screen.operatorError]}; Reset unlocks)` : screen.locked ? 'locked (waiting for the host)' : 'ready'}; cursor row ${Math.floor(screen.cursor / screen.cols) + 1} column ${(screen.cursor % screen.cols) + 1}; ${records} records`,
        `${core.bytesIn} octets in, ${core.bytesOut} octets out`,
      ];
    },
    close() {
      core.close();
    },
  };
}
