// The Telnet of TN3270 (RFC 1576 "TN3270 Current Practices"; RFC 854 Telnet, RFC 855 options,
// RFC 856 BINARY, RFC 885 END-OF-RECORD, RFC 1091 TERMINAL-TYPE) on the one Telnet engine
// (../telnet/engine.ts): the client agrees to TERMINAL-TYPE (answering SEND with its IBM terminal
// type), BINARY and END-OF-RECORD in both directions and refuses every other option (TN3270E,
// RFC 2355, included: locator speaks plain TN3270). Data octets are gathered into records that
// end at IAC EOR, with IAC IAC read as one 0xFF. A subnegotiation and a record are bounded: a
// server that never ends one is a protocol error, not a growing buffer. Pure: bytes in, bytes out.

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';
import { concatBytes } from '../framing/bytes.js';
import { TelnetEngine } from '../telnet/engine.js';
import {
  EOR,
  IAC,
  OPT as TELNET_OPT,
  TTYPE_SEND,
  TelnetEncoder,
  optionName,
  terminalTypeIs,
} from '../telnet/protocol.js';

export { BRK, DO, DONT, EOR, IAC, IP, SB, SE, WILL, WONT } from '../telnet/protocol.js';

/** The option codes (RFC 856 BINARY, RFC 1091 TERMINAL-TYPE, RFC 885 END-OF-RECORD, RFC 2355 TN3270E). */
export const OPT = {
  BINARY: TELNET_OPT.BINARY,
  TTYPE: TELNET_OPT.TTYPE,
  EOR: TELNET_OPT.EOR,
  TN3270E: TELNET_OPT.TN3270E,
} as const;

/** The longest subnegotiation accepted, its option octet included (RFC 1091 terminal types are at most 40 characters). */
export const MAX_SUBNEGOTIATION = 512;
/** The longest 3270 record accepted (a 27x132 screen with every order is far below this). */
export const MAX_RECORD = 256 * 1024;

/** What one `feed` produced: octets to send back, whole 3270 records, and transcript lines. */
export interface FeedResult {
  replies: Uint8Array[];
  records: Uint8Array[];
  notes: { direction: 'send' | 'receive' | 'info'; text: string }[];
}

/**
 * The Telnet state of a TN3270 client (RFC 1576 "3270 Regime"). Feed it what the server sends;
 * send what it returns in `replies`; show each record of `records`. `ready` is true once BINARY
 * and END-OF-RECORD are on in both directions and TERMINAL-TYPE was agreed.
 */
export class Tn3270Telnet {
  readonly #engine: TelnetEngine;
  #record: Uint8Array[] = [];
  #recordLength = 0;
  #out: FeedResult = { replies: [], records: [], notes: [] };

  constructor(
    readonly terminalType = 'IBM-3278-2',
    readonly limits = { subnegotiation: MAX_SUBNEGOTIATION, record: MAX_RECORD },
  ) {
    this.#engine = new TelnetEngine(
      {
        us: [OPT.BINARY, OPT.TTYPE, OPT.EOR],
        him: [OPT.BINARY, OPT.EOR],
        binary: true, // RFC 1576: the 3270 data stream is binary; no NVT rule applies to it
        maxSubnegotiation: limits.subnegotiation - 1, // the option octet counts toward the limit
        subnegotiationTooLong: (option) =>
          new LocatorError(
            PROTOCOL_ERROR,
            -1,
            `the server's subnegotiation (IAC SB ${optionName(option)}) ran past ${limits.subnegotiation} octets without IAC SE (RFC 855)`,
          ),
      },
      {
        send: (bytes, text) => {
          this.#out.replies.push(bytes);
          this.#out.notes.push({ direction: 'send', text });
        },
        note: (direction, text) => this.#out.notes.push({ direction, text }),
        data: (bytes) => this.#data(bytes),
        subnegotiation: (option, data) => this.#subnegotiation(option, data),
        command: (command) => {
          if (command !== EOR) return; // NOP, GA, AYT, ... and a stray SE: nothing to do in the 3270 mode
          this.#out.records.push(concatBytes(this.#record));
          this.#record = [];
          this.#recordLength = 0;
        },
      },
    );
  }

  /** True once the 3270 mode is in effect (RFC 1576: BINARY and EOR both ways, TERMINAL-TYPE agreed). */
  get ready(): boolean {
    const e = this.#engine;
    return (
      e.enabled('us', OPT.TTYPE) &&
      e.enabled('us', OPT.BINARY) &&
      e.enabled('him', OPT.BINARY) &&
      e.enabled('us', OPT.EOR) &&
      e.enabled('him', OPT.EOR)
    );
  }

  /** Octets of a record from the client (RFC 1576, RFC 885): 0xFF doubled, IAC EOR at the end. */
  static record(data: Uint8Array): Uint8Array {
    const binary = new TelnetEncoder();
    binary.binary = true;
    return concatBytes([binary.encode(data), Uint8Array.of(IAC, EOR)]);
  }

  /** RFC 1091: SEND is answered with IS and the terminal type; any other subnegotiation is ignored. */
  #subnegotiation(option: number, data: Uint8Array): void {
    const cmd = data[0];
    this.#out.notes.push({
      direction: 'receive',
      text: `SB ${optionName(option)} ${cmd === TTYPE_SEND ? 'SEND' : cmd}`,
    });
    if (option === OPT.TTYPE && cmd === TTYPE_SEND && this.#engine.enabled('us', OPT.TTYPE)) {
      this.#out.replies.push(terminalTypeIs(this.terminalType));
      this.#out.notes.push({ direction: 'send', text: `SB TERMINAL-TYPE IS ${this.terminalType}` });
    }
  }

  #data(bytes: Uint8Array): void {
    if (this.#recordLength + bytes.length > this.limits.record) {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the server sent more than ${this.limits.record} octets without ending the record (IAC EOR, RFC 885): is it a TN3270 server (RFC 1576)?`,
      );
    }
    this.#record.push(bytes);
    this.#recordLength += bytes.length;
  }

  /** Reads what the server sent (any split); fails with protocol-error on an unbounded subnegotiation or record. */
  feed(data: Uint8Array): FeedResult {
    this.#out = { replies: [], records: [], notes: [] };
    this.#engine.receive(data);
    return this.#out;
  }
}
