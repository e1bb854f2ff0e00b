// The Telnet protocol's byte level, as pure functions and small state machines (no I/O): the
// command parser that takes the IAC sequences out of the data stream (RFC 854), the escaper for
// what is sent (IAC doubling, the NVT's CR NUL / CR LF rule), and the encoders of the
// subnegotiations locator answers (TERMINAL-TYPE RFC 1091, NAWS RFC 1073, NEW-ENVIRON RFC 1572).
// The option negotiation itself is in ./options.ts, and ./engine.ts joins the two for a session.

import { LocatorError } from '../../core/errors.js';
import { CR, LF, NUL } from '../framing/bytes.js';

/** RFC 854 "TELNET COMMAND STRUCTURE": the command codes. */
export const IAC = 255;
export const DONT = 254;
export const DO = 253;
export const WONT = 252;
export const WILL = 251;
export const SB = 250;
export const GA = 249;
export const EL = 248;
export const EC = 247;
export const AYT = 246;
export const AO = 245;
export const IP = 244;
export const BRK = 243;
export const DM = 242;
export const NOP = 241;
export const SE = 240;
/** RFC 885: END-OF-RECORD's command, the end of a record (TN3270's, RFC 1576). */
export const EOR = 239;

/** The options locator knows by name (RFC 855 and the option RFCs; the IANA registry's numbers). */
export const OPT = {
  BINARY: 0, // RFC 856
  ECHO: 1, // RFC 857
  SGA: 3, // RFC 858, SUPPRESS-GO-AHEAD
  STATUS: 5, // RFC 859
  TIMING_MARK: 6, // RFC 860
  TTYPE: 24, // RFC 1091, TERMINAL-TYPE
  EOR: 25, // RFC 885
  NAWS: 31, // RFC 1073
  TSPEED: 32, // RFC 1079
  LFLOW: 33, // RFC 1372
  LINEMODE: 34, // RFC 1184
  XDISPLOC: 35, // RFC 1096
  OLD_ENVIRON: 36, // RFC 1408
  AUTHENTICATION: 37, // RFC 2941
  ENCRYPT: 38, // RFC 2946
  NEW_ENVIRON: 39, // RFC 1572
  TN3270E: 40, // RFC 2355
} as const;

const OPTION_NAMES: Record<number, string> = {
  0: 'BINARY',
  1: 'ECHO',
  3: 'SUPPRESS-GO-AHEAD',
  5: 'STATUS',
  6: 'TIMING-MARK',
  24: 'TERMINAL-TYPE',
  25: 'END-OF-RECORD',
  31: 'NAWS',
  32: 'TERMINAL-SPEED',
  33: 'TOGGLE-FLOW-CONTROL',
  34: 'LINEMODE',
  35: 'X-DISPLAY-LOCATION',
  36: 'ENVIRON',
  37: 'AUTHENTICATION',
  38: 'ENCRYPT',
  39: 'NEW-ENVIRON',
  40: 'TN3270E',
};

const COMMAND_NAMES: Record<number, string> = {
  [DONT]: 'DONT',
  [DO]: 'DO',
  [WONT]: 'WONT',
  [WILL]: 'WILL',
  [SB]: 'SB',
  [GA]: 'GA',
  [EL]: 'EL',
  [EC]: 'EC',
  [AYT]: 'AYT',
  [AO]: 'AO',
  [IP]: 'IP',
  [BRK]: 'BRK',
  [DM]: 'DM',
  [NOP]: 'NOP',
  [SE]: 'SE',
  [EOR]: 'EOR',
};

/** An option's name for a transcript (RFC 855 and the option RFCs), or its number. */
export function optionName(option: number): string {
  return OPTION_NAMES[option] ?? String(option);
}

/** A command's name for a transcript (RFC 854), or its number. */
export function commandName(command: number): string {
  return COMMAND_NAMES[command] ?? String(command);
}

export type Verb = typeof DO | typeof DONT | typeof WILL | typeof WONT;

/** What the parser finds in the stream from the server. */
export type TelnetEvent =
  | { type: 'data'; data: Uint8Array }
  | { type: 'negotiate'; verb: Verb; option: number }
  | { type: 'subnegotiation'; option: number; data: Uint8Array }
  /** A subnegotiation longer than the parser keeps: it is dropped (reported once, when it ends or is cut). */
  | { type: 'overflow'; option: number; length: number }
  | { type: 'command'; command: number };

/** The longest subnegotiation kept (RFC 854 sets no limit; the ones locator reads are short). */
export const MAX_SUBNEGOTIATION = 4096;

const enum State {
  Data,
  Iac,
  Verb,
  Sb,
  SbOption,
  SbIac,
  Cr,
}

/**
 * The receiving side of RFC 854: splits the server's bytes into data and commands, across chunk
 * boundaries. `IAC IAC` is one data octet 255; `IAC DO/DONT/WILL/WONT <option>` a negotiation;
 * `IAC SB <option> ... IAC SE` a subnegotiation (whose own `IAC IAC` is one 255), kept up to
 * MAX_SUBNEGOTIATION octets and then dropped; any other `IAC <command>` a command. In NVT mode
 * (not BINARY, RFC 854 "THE NVT PRINTER AND KEYBOARD") CR NUL is CR alone and CR LF stays a line
 * end, so that the local terminal sees both.
 */
export class TelnetParser {
  #state: State = State.Data;
  #verb: Verb = DO;
  #sbOption = 0;
  #sb: number[] = [];
  #sbLength = 0;
  #afterCr: State.Data | State.Cr = State.Data;
  /** True while the server sends BINARY (RFC 856): CR NUL is kept as it is. */
  binary = false;
  readonly maxSubnegotiation: number;
  readonly #tooLong: ((option: number) => LocatorError) | undefined;

  /**
   * `tooLong`, when given, makes a subnegotiation past `maxSubnegotiation` octets a failure (the
   * error it returns, thrown at once) instead of one dropped.
   */
  constructor(maxSubnegotiation = MAX_SUBNEGOTIATION, tooLong?: (option: number) => LocatorError) {
    this.maxSubnegotiation = maxSubnegotiation;
    this.#tooLong = tooLong;
  }

  /**
   * The events in `chunk`, in order; what is cut at its end is kept for the next chunk. With
   * `emit`, each event is handed to it as soon as it is found (and none is returned), so that a
   * negotiation it answers (BINARY) already applies to the rest of the chunk.
   */
  push(chunk: Uint8Array, emit?: (event: TelnetEvent) => void): TelnetEvent[] {
    const events: TelnetEvent[] = [];
    const give = emit ?? ((e: TelnetEvent) => void events.push(e));
    let out = new Uint8Array(chunk.length);
    let n = 0;
    const flush = () => {
      if (n > 0) {
        give({ type: 'data', data: out.subarray(0, n) });
        out = out.subarray(n);
        n = 0;
      }
    };
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      switch (this.#state) {
        case State.Data:
        case State.Cr:
          if (b === IAC) {
            this.#afterCr = this.#state;
            this.#state = State.Iac;
          } else if (this.#state === State.Cr && b === NUL && !this.binary) {
            this.#state = State.Data; // CR NUL: the CR was already given
          } else {
            out[n++] = b;
            this.#state = b === CR && !this.binary ? State.Cr : State.Data;
          }
          break;
        case State.Iac:
          if (b === IAC) {
            out[n++] = IAC;
            this.#state = State.Data;
          } else if (b === DO || b === DONT || b === WILL || b === WONT) {
            this.#verb = b;
            this.#state = State.Verb;
          } else if (b === SB) {
            this.#state = State.SbOption;
          } else {
            flush();
            give({ type: 'command', command: b });
            this.#state = this.#afterCr;
          }
          break;
        case State.Verb:
          flush();
          give({ type: 'negotiate', verb: this.#verb, option: b });
          this.#state = this.#afterCr;
          break;
        case State.SbOption:
          this.#sbOption = b;
          this.#sb = [];
          this.#sbLength = 0;
          this.#state = State.Sb;
          break;
        case State.Sb:
          if (b === IAC) this.#state = State.SbIac;
          else this.#sbByte(b);
          break;
        case State.SbIac:
          if (b === SE) {
            flush();
            if (this.#sbLength > this.maxSubnegotiation) {
              give({ type: 'overflow', option: this.#sbOption, length: this.#sbLength });
            } else {
              give({ type: 'subnegotiation', option: this.#sbOption, data: Uint8Array.from(this.#sb) });
            }
            this.#sb = [];
            this.#state = State.Data;
          } else {
            // IAC IAC is a 255 of the parameters; IAC and anything else is malformed (RFC 855
            // allows only IAC SE to end it): the octet is kept, as most clients do.
            this.#sbByte(b);
            this.#state = State.Sb;
          }
          break;
      }
    }
    flush();
    return events;
  }

  #sbByte(b: number): void {
    this.#sbLength++;
    if (this.#sbLength > this.maxSubnegotiation && this.#tooLong !== undefined) throw this.#tooLong(this.#sbOption);
    if (this.#sbLength <= this.maxSubnegotiation) this.#sb.push(b);
    else if (this.#sb.length > 0) this.#sb = []; // dropped: memory stays bounded
  }

  /** How many octets of an unfinished subnegotiation are held (at most maxSubnegotiation). */
  get held(): number {
    return this.#sb.length;
  }
}

/**
 * The sending side of RFC 854: user data made safe for the wire. Every IAC is doubled. In NVT
 * mode (not BINARY, RFC 856) a line end is CR LF and a lone CR is CR NUL ("the sequence CR NUL
 * must be used where a carriage return alone is actually desired"): a typed Return (CR) is sent
 * as CR NUL, as telnet(1) does, LF alone (from a script) as CR LF, and CR LF stays CR LF. A CR at
 * the end of one chunk and an LF at the start of the next are one line end, not two.
 */
export class TelnetEncoder {
  #pendingCr = false;
  binary = false;

  encode(data: Uint8Array): Uint8Array {
    const out = new Uint8Array(data.length * 2);
    let n = 0;
    for (let i = 0; i < data.length; i++) {
      const b = data[i];
      const afterCr = this.#pendingCr;
      this.#pendingCr = false;
      if (b === IAC) {
        out[n++] = IAC;
        out[n++] = IAC;
      } else if (this.binary) {
        out[n++] = b;
      } else if (b === CR) {
        out[n++] = CR;
        if (i + 1 < data.length && data[i + 1] === LF) {
          out[n++] = LF;
          i++;
        } else {
          out[n++] = NUL;
          if (i + 1 === data.length) this.#pendingCr = true;
        }
      } else if (b === LF) {
        if (afterCr && i === 0) continue; // the LF of a CR LF split across writes: already sent as CR NUL
        out[n++] = CR;
        out[n++] = LF;
      } else {
        out[n++] = b;
      }
    }
    return out.subarray(0, n);
  }
}

/** `IAC <verb> <option>` (RFC 854). */
export function negotiation(verb: Verb, option: number): Uint8Array {
  return Uint8Array.of(IAC, verb, option);
}

/** `IAC <command>` (RFC 854), e.g. BRK, IP, AYT. */
export function command(code: number): Uint8Array {
  return Uint8Array.of(IAC, code);
}

/** `IAC SB <option> <parameters, IAC doubled> IAC SE` (RFC 855). */
export function subnegotiation(option: number, parameters: ArrayLike<number>): Uint8Array {
  const out: number[] = [IAC, SB, option];
  for (let i = 0; i < parameters.length; i++) {
    out.push(parameters[i]);
    if (parameters[i] === IAC) out.push(IAC);
  }
  out.push(IAC, SE);
  return Uint8Array.from(out);
}

function ascii(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out.push(c < 128 ? c : 63); // "?": the option RFCs speak of NVT ASCII strings
  }
  return out;
}

/** RFC 1091 TERMINAL-TYPE: SEND is 1, IS is 0. */
export const TTYPE_IS = 0;
export const TTYPE_SEND = 1;

/** RFC 1091: the answer to `SB TERMINAL-TYPE SEND`: `IAC SB TERMINAL-TYPE IS <type> IAC SE`. */
export function terminalTypeIs(type: string): Uint8Array {
  return subnegotiation(OPT.TTYPE, [TTYPE_IS, ...ascii(type)]);
}

/**
 * RFC 1073 NAWS: `IAC SB NAWS <width 16 bits> <height 16 bits> IAC SE`, each value sent high
 * octet first, an octet 255 doubled ("if any of these values is 255, it must be doubled").
 * Values outside 0-65535 are clamped.
 */
export function windowSize(cols: number, rows: number): Uint8Array {
  const c = Math.max(0, Math.min(65535, Math.trunc(cols)));
  const r = Math.max(0, Math.min(65535, Math.trunc(rows)));
  return subnegotiation(OPT.NAWS, [c >> 8, c & 255, r >> 8, r & 255]);
}

/** RFC 1572 NEW-ENVIRON codes. */
export const ENV = { IS: 0, SEND: 1, INFO: 2, VAR: 0, VALUE: 1, ESC: 2, USERVAR: 3 } as const;

/** What `SB NEW-ENVIRON SEND ...` asks for: the named variables, or everything (`all`). */
export interface EnvironRequest {
  all: boolean;
  vars: Array<{ type: 'VAR' | 'USERVAR'; name: string }>;
}

/**
 * RFC 1572: reads a `SEND` request's body (after the SEND octet): `[VAR|USERVAR name]*`, names
 * with ESC-quoted octets. An empty list, or a bare VAR or USERVAR, means every variable.
 */
export function parseEnvironSend(body: Uint8Array): EnvironRequest {
  const req: EnvironRequest = { all: body.length === 0, vars: [] };
  let i = 0;
  while (i < body.length) {
    const t = body[i++];
    if (t !== ENV.VAR && t !== ENV.USERVAR) continue; // not allowed here: skipped
    let name = '';
    while (i < body.length && body[i] !== ENV.VAR && body[i] !== ENV.USERVAR) {
      if (body[i] === ENV.ESC && i + 1 < body.length) i++;
      name += String.fromCharCode(body[i++]);
    }
    if (name === '') req.all = true;
    else req.vars.push({ type: t === ENV.VAR ? 'VAR' : 'USERVAR', name });
  }
  return req;
}

function envEscape(text: string): number[] {
  const out: number[] = [];
  for (const b of ascii(text)) {
    if (b === ENV.VAR || b === ENV.VALUE || b === ENV.ESC || b === ENV.USERVAR) out.push(ENV.ESC);
    out.push(b);
  }
  return out;
}

/**
 * RFC 1572: the answer `IAC SB NEW-ENVIRON IS [VAR name VALUE value]* IAC SE` with the well-known
 * variables in `vars` that the request asks for (all of them for a request of everything). A
 * requested variable locator does not have is sent as `VAR name` with no VALUE ("undefined").
 */
export function environIs(request: EnvironRequest, vars: Record<string, string>): Uint8Array {
  const body: number[] = [ENV.IS];
  const names = request.all ? Object.keys(vars) : [];
  for (const v of request.vars) {
    if (v.type === 'VAR') {
      if (!names.includes(v.name)) names.push(v.name);
    } else if (!request.all) {
      body.push(ENV.USERVAR, ...envEscape(v.name)); // no user variables are offered
    }
  }
  for (const name of names) {
    body.push(ENV.VAR, ...envEscape(name));
    const value = vars[name];
    if (value !== undefined) body.push(ENV.VALUE, ...envEscape(value));
  }
  return subnegotiation(OPT.NEW_ENVIRON, body);
}

/** A subnegotiation's bytes for a transcript: printable ASCII as is, the rest as <n>. */
export function describeBytes(data: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < data.length; i++) {
    const b = data[i];
    s += b >= 32 && b < 127 ? String.fromCharCode(b) : `<${b}>`;
  }
  return s;
}
