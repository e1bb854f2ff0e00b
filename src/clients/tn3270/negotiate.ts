// The Telnet of TN3270 (RFC 1576 "TN3270 Current Practices"; RFC 854 Telnet, RFC 855 options,
// RFC 856 BINARY, RFC 885 END-OF-RECORD, RFC 1091 TERMINAL-TYPE): just enough Telnet for the
// 3270 mode. The client agrees to TERMINAL-TYPE (answering SEND with its IBM terminal type),
// BINARY and END-OF-RECORD in both directions and refuses every other option (TN3270E, RFC 2355,
// included: locator speaks plain TN3270). Data octets are gathered into records that end at IAC
// EOR, with IAC IAC read as one 0xFF. A subnegotiation and a record are bounded: a server that
// never ends one is a protocol error, not a growing buffer. Pure: bytes in, bytes out.
//
// This is a minimal engine of its own (the telnet session's engine is separate); the two can be
// joined later.

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';

export const IAC = 255;
export const DONT = 254;
export const DO = 253;
export const WONT = 252;
export const WILL = 251;
export const SB = 250;
export const SE = 240;
export const EOR = 239;
export const BRK = 243;
export const IP = 244;

/** The option codes (RFC 856 BINARY, RFC 1091 TERMINAL-TYPE, RFC 885 END-OF-RECORD, RFC 2355 TN3270E). */
export const OPT = { BINARY: 0, TTYPE: 24, EOR: 25, TN3270E: 40 } as const;
const AGREED = new Set<number>([OPT.BINARY, OPT.TTYPE, OPT.EOR]);
const TTYPE_IS = 0;
const TTYPE_SEND = 1;

/** The longest subnegotiation accepted (RFC 1091 terminal types are at most 40 characters). */
export const MAX_SUBNEGOTIATION = 512;
/** The longest 3270 record accepted (a 27x132 screen with every order is far below this). */
export const MAX_RECORD = 256 * 1024;

const NAMES: Record<number, string> = { 0: 'BINARY', 24: 'TERMINAL-TYPE', 25: 'END-OF-RECORD', 40: 'TN3270E' };
const VERBS: Record<number, string> = { [DO]: 'DO', [DONT]: 'DONT', [WILL]: 'WILL', [WONT]: 'WONT' };
const optName = (o: number) => NAMES[o] ?? String(o);

/** What one `feed` produced: octets to send back, whole 3270 records, and transcript lines. */
export interface FeedResult {
  replies: Uint8Array[];
  records: Uint8Array[];
  notes: { direction: 'send' | 'receive'; text: string }[];
}

/**
 * The Telnet state of a TN3270 client (RFC 1576 "3270 Regime"). Feed it what the server sends;
 * send what it returns in `replies`; show each record of `records`. `ready` is true once BINARY
 * and END-OF-RECORD are on in both directions and TERMINAL-TYPE was agreed.
 */
export class Tn3270Telnet {
  /** Options on at this end (the client WILL) and at the server's end (the server WILL). */
  readonly local = new Set<number>();
  readonly remote = new Set<number>();
  #state: 'data' | 'iac' | 'verb' | 'sb' | 'sb-iac' = 'data';
  #verb = 0;
  #sub: number[] = [];
  #record: number[] = [];
  #out: FeedResult = { replies: [], records: [], notes: [] };

  constructor(
    readonly terminalType = 'IBM-3278-2',
    readonly limits = { subnegotiation: MAX_SUBNEGOTIATION, record: MAX_RECORD },
  ) {}

  /** True once the 3270 mode is in effect (RFC 1576: BINARY and EOR both ways, TERMINAL-TYPE agreed). */
  get ready(): boolean {
    return (
      this.local.has(OPT.TTYPE) &&
      this.local.has(OPT.BINARY) &&
      this.remote.has(OPT.BINARY) &&
      this.local.has(OPT.EOR) &&
      this.remote.has(OPT.EOR)
    );
  }

  /** Octets of a record from the client (RFC 1576, RFC 885): 0xFF doubled, IAC EOR at the end. */
  static record(data: Uint8Array): Uint8Array {
    const out: number[] = [];
    for (const b of data) {
      out.push(b);
      if (b === IAC) out.push(IAC);
    }
    out.push(IAC, EOR);
    return Uint8Array.from(out);
  }

  #reply(bytes: number[], text: string): void {
    this.#out.replies.push(Uint8Array.from(bytes));
    this.#out.notes.push({ direction: 'send', text });
  }

  /** RFC 854/855: agree to the three options of RFC 1576, refuse others; answer only a change of state (RFC 1143). */
  #option(verb: number, opt: number): void {
    this.#out.notes.push({ direction: 'receive', text: `${VERBS[verb]} ${optName(opt)}` });
    if (verb === DO) {
      if (AGREED.has(opt)) {
        if (!this.local.has(opt)) {
          this.local.add(opt);
          this.#reply([IAC, WILL, opt], `WILL ${optName(opt)}`);
        }
      } else this.#reply([IAC, WONT, opt], `WONT ${optName(opt)}`);
    } else if (verb === DONT) {
      if (this.local.delete(opt)) this.#reply([IAC, WONT, opt], `WONT ${optName(opt)}`);
    } else if (verb === WILL) {
      if (opt === OPT.BINARY || opt === OPT.EOR) {
        if (!this.remote.has(opt)) {
          this.remote.add(opt);
          this.#reply([IAC, DO, opt], `DO ${optName(opt)}`);
        }
      } else this.#reply([IAC, DONT, opt], `DONT ${optName(opt)}`);
    } else if (this.remote.delete(opt)) {
      this.#reply([IAC, DONT, opt], `DONT ${optName(opt)}`);
    }
  }

  /** RFC 1091: SEND is answered with IS and the terminal type; any other subnegotiation is ignored. */
  #subnegotiation(): void {
    const [opt, cmd] = this.#sub;
    this.#out.notes.push({ direction: 'receive', text: `SB ${optName(opt)} ${cmd === TTYPE_SEND ? 'SEND' : cmd}` });
    if (opt === OPT.TTYPE && cmd === TTYPE_SEND && this.local.has(OPT.TTYPE)) {
      const name = [...this.terminalType].map((c) => c.charCodeAt(0) & 0x7f);
      this.#reply([IAC, SB, OPT.TTYPE, TTYPE_IS, ...name, IAC, SE], `SB TERMINAL-TYPE IS ${this.terminalType}`);
    }
  }

  #data(b: number): void {
    if (this.#record.length >= this.limits.record) {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the server sent more than ${this.limits.record} octets without ending the record (IAC EOR, RFC 885): is it a TN3270 server (RFC 1576)?`,
      );
    }
    this.#record.push(b);
  }

  /** Reads what the server sent (any split); fails with protocol-error on an unbounded subnegotiation or record. */
  feed(data: Uint8Array): FeedResult {
    this.#out = { replies: [], records: [], notes: [] };
    for (const b of data) {
      switch (this.#state) {
        case 'data':
          if (b === IAC) this.#state = 'iac';
          else this.#data(b);
          break;
        case 'iac':
          this.#state = 'data';
          if (b === IAC) this.#data(IAC);
          else if (b === EOR) {
            this.#out.records.push(Uint8Array.from(this.#record));
            this.#record = [];
          } else if (b === DO || b === DONT || b === WILL || b === WONT) {
            this.#verb = b;
            this.#state = 'verb';
          } else if (b === SB) {
            this.#sub = [];
            this.#state = 'sb';
          }
          // NOP, GA, AYT, ... and a stray SE: nothing to do in the 3270 mode.
          break;
        case 'verb':
          this.#state = 'data';
          this.#option(this.#verb, b);
          break;
        case 'sb':
          if (b === IAC) this.#state = 'sb-iac';
          else this.#subByte(b);
          break;
        case 'sb-iac':
          if (b === SE) {
            this.#state = 'data';
            this.#subnegotiation();
          } else {
            this.#state = 'sb';
            this.#subByte(b); // IAC IAC is one 0xFF; IAC and anything else is kept as that octet
          }
          break;
      }
    }
    return this.#out;
  }

  #subByte(b: number): void {
    if (this.#sub.length >= this.limits.subnegotiation) {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the server's subnegotiation (IAC SB ${optName(this.#sub[0])}) ran past ${this.limits.subnegotiation} octets without IAC SE (RFC 855)`,
      );
    }
    this.#sub.push(b);
  }
}
