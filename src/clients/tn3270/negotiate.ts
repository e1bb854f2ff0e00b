// The Telnet of TN3270 (RFC 1576 "TN3270 Current Practices"; RFC 854 Telnet, RFC 855 options,
// RFC 856 BINARY, RFC 885 END-OF-RECORD, RFC 1091 TERMINAL-TYPE; RFC 2355 TN3270E) on the one
// Telnet engine (../telnet-engine/engine.ts): the client agrees to TERMINAL-TYPE (answering SEND with its
// IBM terminal type), BINARY and END-OF-RECORD in both directions, and, when asked to, TN3270E
// (the device type, then the functions RESPONSES and BIND-IMAGE; a rejected device type falls
// back to TN3270 with WONT TN3270E); every other option is refused. Data octets are gathered into
// records that end at IAC EOR, with IAC IAC read as one 0xFF; under TN3270E each record starts
// with its 5-octet header. When the server leaves the 3270 mode (RFC 1576 "Transition back to
// NVT": WONT BINARY or END-OF-RECORD; RFC 2355: WONT TN3270E without TN3270 beneath) data is NVT
// text until it comes back. A subnegotiation and a record are bounded: a server that never ends
// one is a protocol error, not a growing buffer. Pure: bytes in, bytes out.

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';
import { concatBytes } from '../framing/bytes.js';
import { TelnetEngine } from '../telnet-engine/engine.js';
import {
  EOR,
  IAC,
  OPT as TELNET_OPT,
  TTYPE_SEND,
  TelnetEncoder,
  commandName,
  negotiation,
  optionName,
  subnegotiation,
  terminalTypeIs,
} from '../telnet-engine/protocol.js';

export { BRK, DO, DONT, EOR, IAC, IP, SB, SE, WILL, WONT } from '../telnet-engine/protocol.js';

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

/** RFC 2355 8.1: the TN3270E subnegotiation's operation codes. */
export const E = {
  ASSOCIATE: 0,
  CONNECT: 1,
  DEVICE_TYPE: 2,
  FUNCTIONS: 3,
  IS: 4,
  REASON: 5,
  REJECT: 6,
  REQUEST: 7,
  SEND: 8,
} as const;
/** RFC 2355 8.2: the reason codes of a REJECT. */
const REASONS = [
  'CONN-PARTNER',
  'DEVICE-IN-USE',
  'INV-ASSOCIATE',
  'INV-NAME',
  'INV-DEVICE-TYPE',
  'TYPE-NAME-ERROR',
  'UNKNOWN-ERROR',
  'UNSUPPORTED-REQ',
];
/** RFC 2355 8.3: the function codes. */
export const FUNCTION = { BIND_IMAGE: 0, DATA_STREAM_CTL: 1, RESPONSES: 2, SCS_CTL_CODES: 3, SYSREQ: 4 } as const;
const FUNCTION_NAMES = ['BIND-IMAGE', 'DATA-STREAM-CTL', 'RESPONSES', 'SCS-CTL-CODES', 'SYSREQ'];
/** The functions locator's client supports (RFC 2355 8.3): responses to the host, and the BIND image (read and noted). */
export const SUPPORTED_FUNCTIONS: readonly number[] = [FUNCTION.BIND_IMAGE, FUNCTION.RESPONSES];
/** RFC 2355 8.1.1: the data types of the TN3270E header. */
export const DATA_TYPE = {
  DATA_3270: 0x00,
  SCS_DATA: 0x01,
  RESPONSE: 0x02,
  BIND_IMAGE: 0x03,
  UNBIND: 0x04,
  NVT_DATA: 0x05,
  REQUEST: 0x06,
  SSCP_LU_DATA: 0x07,
  PRINT_EOJ: 0x08,
} as const;
const DATA_TYPE_NAMES = [
  '3270-DATA',
  'SCS-DATA',
  'RESPONSE',
  'BIND-IMAGE',
  'UNBIND',
  'NVT-DATA',
  'REQUEST',
  'SSCP-LU-DATA',
  'PRINT-EOJ',
];
/** RFC 2355 8.1.3: the response flag of a message from the host; of a RESPONSE, 0 positive and 1 negative. */
export const RESPONSE_FLAG = { NO: 0x00, ERROR: 0x01, ALWAYS: 0x02, POSITIVE: 0x00, NEGATIVE: 0x01 } as const;

/** One 3270 record for the screen; under TN3270E with the host's response flag and sequence number. */
export interface Record3270 {
  data: Uint8Array;
  /** RFC 2355 8.1.3: what response the host asked for (RESPONSE_FLAG), and its SEQ-NUMBER; null under TN3270. */
  response: { flag: number; seq: number } | null;
}

/** What one `feed` produced: octets to send back, whole 3270 records, NVT text, and transcript lines. */
export interface FeedResult {
  replies: Uint8Array[];
  records: Uint8Array[];
  /** The records again, with their TN3270E response request (records[i] is these[i].data). */
  these: Record3270[];
  /** The records and the NVT text in the order they came (the screen, then NVT mode, or back). */
  flow: (Record3270 | Uint8Array)[];
  /** Data outside the 3270 mode (RFC 1576 NVT mode, RFC 2355 NVT-DATA): text for the terminal. */
  text: Uint8Array[];
  notes: { direction: 'send' | 'receive' | 'info'; text: string }[];
}

const ascii = (text: string) => [...text].map((c) => (c.charCodeAt(0) < 128 ? c.charCodeAt(0) : 63));
const latin1 = (b: Uint8Array) => String.fromCharCode(...b);
const empty = (): FeedResult => ({ replies: [], records: [], these: [], text: [], flow: [], notes: [] });

/**
 * The Telnet state of a TN3270 client (RFC 1576 "3270 Regime"). Feed it what the server sends;
 * send what it returns in `replies`; show each record of `records`. `ready` is true once BINARY
 * and END-OF-RECORD are on in both directions and TERMINAL-TYPE was agreed.
 */
export class Tn3270Telnet {
  readonly #engine: TelnetEngine;
  #record: Uint8Array[] = [];
  #recordLength = 0;
  #out: FeedResult = empty();
  /** The TN3270E functions agreed (RFC 2355 7.2), or null while none are. */
  #functions: number[] | null = null;
  /** The device name the server gave (RFC 2355 DEVICE-TYPE IS ... CONNECT name). */
  deviceName = '';
  /** True once the 3270 mode was in effect: data outside it is NVT text from then on. */
  #was3270 = false;
  #seq = 0;

  /**
   * `terminalType` is sent for TERMINAL-TYPE and requested as the TN3270E device type;
   * `tn3270e` agrees to TN3270E when the server asks (RFC 2355), else it is refused.
   */
  constructor(
    readonly terminalType = 'IBM-3278-2',
    readonly limits = { subnegotiation: MAX_SUBNEGOTIATION, record: MAX_RECORD },
    readonly tn3270e = false,
  ) {
    this.#engine = new TelnetEngine(
      {
        us: tn3270e ? [OPT.BINARY, OPT.TTYPE, OPT.EOR, OPT.TN3270E] : [OPT.BINARY, OPT.TTYPE, OPT.EOR],
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
          const record = concatBytes(this.#record);
          this.#record = [];
          this.#recordLength = 0;
          if (this.#was3270 && !this.ready) {
            if (record.length > 0) this.#text(record);
          } else this.#message(record);
        },
        changed: (side, option, enabled) => {
          if (option === OPT.TN3270E && !enabled) this.#functions = null;
          this.#mode();
        },
      },
    );
  }

  /** Follows the mode: the 3270 mode reads data as binary records, NVT mode as NVT text (RFC 1576). */
  #mode(): void {
    const ready = this.ready;
    if (ready) this.#was3270 = true;
    this.#engine.parser.binary = ready || !this.#was3270;
  }

  /** True while TN3270E is in effect (RFC 2355: the device type and the functions agreed). */
  get e(): boolean {
    return this.#functions !== null && this.#engine.enabled('us', OPT.TN3270E);
  }

  /** The TN3270E functions in effect (RFC 2355 7.2), empty under TN3270. */
  get functions(): readonly number[] {
    return this.e ? this.#functions! : [];
  }

  /** True once the 3270 mode is in effect (RFC 1576: BINARY and EOR both ways, TERMINAL-TYPE agreed; RFC 2355: TN3270E's functions agreed). */
  get ready(): boolean {
    const e = this.#engine;
    if (this.e) return true;
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

  /** An inbound 3270 record as sent: under TN3270E with its header (RFC 2355 8.1: 3270-DATA, no response asked, a sequence number). */
  send3270(data: Uint8Array): Uint8Array {
    if (!this.e) return Tn3270Telnet.record(data);
    const seq = this.#seq;
    this.#seq = (this.#seq + 1) & 0x7fff;
    return Tn3270Telnet.record(concatBytes([Uint8Array.of(DATA_TYPE.DATA_3270, 0, 0, seq >> 8, seq & 0xff), data]));
  }

  /**
   * The answer to a host message that asked for one (RFC 2355 10.4): a RESPONSE with the
   * message's SEQ-NUMBER, positive (0x00 DEVICE-END) or negative with its reason (0x00
   * COMMAND-REJECT, 0x01 INTERVENTION-REQUIRED, 0x02 OPERATION-CHECK, 0x03 COMPONENT-DISCONNECTED).
   */
  response(seq: number, positive: boolean, reason = 0x00): Uint8Array {
    const flag = positive ? RESPONSE_FLAG.POSITIVE : RESPONSE_FLAG.NEGATIVE;
    return Tn3270Telnet.record(Uint8Array.of(DATA_TYPE.RESPONSE, 0, flag, (seq >> 8) & 0xff, seq & 0xff, reason));
  }

  /** NVT text as sent in NVT mode (RFC 854: IAC doubled, CR as CR NUL) or, under TN3270E, as NVT-DATA (RFC 2355 8.1.1). */
  sendText(data: Uint8Array): Uint8Array {
    if (this.e) return Tn3270Telnet.record(concatBytes([Uint8Array.of(DATA_TYPE.NVT_DATA, 0, 0, 0, 0), data]));
    return new TelnetEncoder().encode(data);
  }

  #text(data: Uint8Array): void {
    this.#out.text.push(data);
    this.#out.flow.push(data);
  }

  #record3270(r: Record3270): void {
    this.#out.these.push(r);
    this.#out.flow.push(r);
  }

  /** One record from the server: the 3270 data of TN3270 or of a TN3270E message by its header (RFC 2355 8.1). */
  #message(record: Uint8Array): void {
    if (!this.e) {
      this.#out.records.push(record);
      this.#record3270({ data: record, response: null });
      return;
    }
    if (record.length < 5) {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the server sent a TN3270E record of ${record.length} octets, shorter than its header (RFC 2355 8.1)`,
      );
    }
    const [type, , flag, s1, s2] = record;
    const data = record.subarray(5);
    const seq = (s1 << 8) | s2;
    switch (type) {
      case DATA_TYPE.DATA_3270:
      case DATA_TYPE.SSCP_LU_DATA:
        this.#out.records.push(data);
        this.#record3270({ data, response: { flag, seq } });
        break;
      case DATA_TYPE.NVT_DATA:
        this.#text(data);
        break;
      default:
        this.#out.notes.push({
          direction: 'receive',
          text: `TN3270E ${DATA_TYPE_NAMES[type] ?? `data type 0x${type.toString(16)}`} (${data.length} octets): ${type === DATA_TYPE.BIND_IMAGE || type === DATA_TYPE.UNBIND ? 'noted' : 'ignored'}`,
        });
    }
  }

  #sendSb(parameters: number[], shown: string): void {
    this.#out.replies.push(subnegotiation(OPT.TN3270E, parameters));
    this.#out.notes.push({ direction: 'send', text: `SB TN3270E ${shown}` });
  }

  /** RFC 2355 7: the device type, then the functions, from the client's side. */
  #tn3270e(data: Uint8Array): void {
    const names = (list: Uint8Array | number[]) =>
      [...list].map((f) => FUNCTION_NAMES[f] ?? String(f)).join(' ') || '(none)';
    const [op, verb] = data;
    if (op === E.SEND && verb === E.DEVICE_TYPE) {
      this.#out.notes.push({ direction: 'receive', text: 'SB TN3270E SEND DEVICE-TYPE' });
      this.#sendSb([E.DEVICE_TYPE, E.REQUEST, ...ascii(this.terminalType)], `DEVICE-TYPE REQUEST ${this.terminalType}`);
    } else if (op === E.DEVICE_TYPE && verb === E.IS) {
      const rest = data.subarray(2);
      const c = rest.indexOf(E.CONNECT);
      const type = latin1(c < 0 ? rest : rest.subarray(0, c));
      this.deviceName = c < 0 ? '' : latin1(rest.subarray(c + 1));
      this.#out.notes.push({
        direction: 'receive',
        text: `SB TN3270E DEVICE-TYPE IS ${type}${c < 0 ? '' : ` CONNECT ${this.deviceName}`}`,
      });
      this.#sendSb(
        [E.FUNCTIONS, E.REQUEST, ...SUPPORTED_FUNCTIONS],
        `FUNCTIONS REQUEST ${names([...SUPPORTED_FUNCTIONS])}`,
      );
    } else if (op === E.DEVICE_TYPE && verb === E.REJECT) {
      const reason = data[2] === E.REASON ? data[3] : -1;
      this.#out.notes.push({
        direction: 'receive',
        text: `SB TN3270E DEVICE-TYPE REJECT ${REASONS[reason] ?? reason}: falling back to TN3270 (RFC 1576)`,
      });
      this.#refuse();
    } else if (op === E.FUNCTIONS && (verb === E.IS || verb === E.REQUEST)) {
      const asked = [...data.subarray(2)];
      this.#out.notes.push({
        direction: 'receive',
        text: `SB TN3270E FUNCTIONS ${verb === E.IS ? 'IS' : 'REQUEST'} ${names(asked)}`,
      });
      const ok = asked.filter((f) => SUPPORTED_FUNCTIONS.includes(f));
      if (verb === E.IS || ok.length === asked.length) {
        // IS is the server's last word (RFC 2355 7.2): what it names beyond ours is not used.
        if (verb === E.REQUEST) this.#sendSb([E.FUNCTIONS, E.IS, ...asked], `FUNCTIONS IS ${names(asked)}`);
        this.#functions = ok;
        this.#mode();
        this.#out.notes.push({ direction: 'info', text: `TN3270E: ${this.terminalType}, functions ${names(ok)}` });
      } else {
        this.#sendSb([E.FUNCTIONS, E.REQUEST, ...ok], `FUNCTIONS REQUEST ${names(ok)}`);
      }
    } else {
      this.#out.notes.push({ direction: 'receive', text: `SB TN3270E ${[...data.subarray(0, 8)].join(' ')}: ignored` });
    }
  }

  /** WONT TN3270E (RFC 2355 7.1: the client may refuse and go on with TN3270). */
  #refuse(): void {
    const step = this.#engine.negotiator.request('us', OPT.TN3270E, false);
    for (const s of step.send) {
      this.#out.replies.push(negotiation(s.verb, s.option));
      this.#out.notes.push({ direction: 'send', text: `${commandName(s.verb)} ${optionName(s.option)}` });
    }
    this.#functions = null;
  }

  /** RFC 1091: SEND is answered with IS and the terminal type; RFC 2355 for TN3270E; any other subnegotiation is ignored. */
  #subnegotiation(option: number, data: Uint8Array): void {
    if (option === OPT.TN3270E) {
      if (this.#engine.enabled('us', OPT.TN3270E)) this.#tn3270e(data);
      return;
    }
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
    if (this.#was3270 && !this.ready) {
      this.#text(bytes); // NVT mode (RFC 1576 "Transition back to NVT")
      return;
    }
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
    this.#out = empty();
    this.#engine.receive(data);
    return this.#out;
  }
}
