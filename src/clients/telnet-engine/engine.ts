// The one Telnet engine (RFC 854, RFC 855, RFC 1143) of the telnet and tn3270 sessions: the
// command parser (./protocol.ts) and the Q-method negotiator (./options.ts) joined, each session
// giving the options it allows and what it does with data, subnegotiations and commands. Pure: no
// I/O; what to send goes to the `send` hook.

import type { LocatorError } from '../../core/errors.js';
import { Negotiator, type Side } from './options.js';
import { TelnetParser, commandName, negotiation, optionName } from './protocol.js';

/** What a session does with what the engine finds and decides. */
export interface TelnetHooks {
  /** Octets to send the server (a negotiation's answer), and their transcript text. */
  send(bytes: Uint8Array, shown: string): void;
  /** A transcript line about the negotiation. */
  note(direction: 'receive' | 'info', text: string): void;
  /** Data octets, IAC and (outside BINARY) the NVT's CR NUL undone. */
  data(bytes: Uint8Array): void;
  /** `IAC SB option ... IAC SE` (RFC 855), IAC IAC undone. */
  subnegotiation(option: number, data: Uint8Array): void;
  /** Any other `IAC command` (RFC 854: NOP, GA, BRK, ...; RFC 885 EOR). */
  command?(command: number): void;
  /** An option turned on or off on a side (RFC 1143). */
  changed?(side: Side, option: number, enabled: boolean): void;
}

export interface TelnetEngineOptions {
  /** Options we agree to perform when asked (DO): everything else is refused (WONT). */
  us: Iterable<number>;
  /** Options we agree the server performs (WILL): everything else is refused (DONT). */
  him: Iterable<number>;
  /** The longest subnegotiation kept (default the parser's MAX_SUBNEGOTIATION). */
  maxSubnegotiation?: number;
  /** When given, a longer subnegotiation fails with this error instead of being dropped. */
  subnegotiationTooLong?: (option: number) => LocatorError;
  /** Data is read as is from the start: no NVT CR NUL rule (TN3270's 3270 mode, RFC 1576). */
  binary?: boolean;
}

/** A session's Telnet: feed it what the server sends; the hooks get the rest. */
export class TelnetEngine {
  readonly parser: TelnetParser;
  readonly negotiator: Negotiator;
  readonly #hooks: TelnetHooks;

  constructor(options: TelnetEngineOptions, hooks: TelnetHooks) {
    this.parser = new TelnetParser(options.maxSubnegotiation, options.subnegotiationTooLong);
    this.parser.binary = options.binary === true;
    this.negotiator = new Negotiator(options.us, options.him);
    this.#hooks = hooks;
  }

  /** True when the side performs the option now (RFC 1143 state YES). */
  enabled(side: Side, option: number): boolean {
    return this.negotiator.enabled(side, option);
  }

  /**
   * Reads a chunk from the server (any split): data to the `data` hook in order with the
   * negotiation, which is answered at once (RFC 1143), so that BINARY applies to what follows.
   */
  receive(chunk: Uint8Array): void {
    const h = this.#hooks;
    this.parser.push(chunk, (ev) => {
      switch (ev.type) {
        case 'data':
          h.data(ev.data);
          break;
        case 'negotiate': {
          const step = this.negotiator.receive(ev.verb, ev.option);
          if (step.send.length > 0 || step.note === undefined) {
            h.note('receive', `${commandName(ev.verb)} ${optionName(ev.option)}`);
          }
          if (step.note !== undefined && this.negotiator.ignored <= 1) h.note('info', step.note);
          for (const s of step.send) {
            h.send(negotiation(s.verb, s.option), `${commandName(s.verb)} ${optionName(s.option)}`);
          }
          for (const c of step.changed) h.changed?.(c.side, c.option, c.enabled);
          break;
        }
        case 'subnegotiation':
          h.subnegotiation(ev.option, ev.data);
          break;
        case 'overflow':
          h.note(
            'info',
            `a subnegotiation of ${optionName(ev.option)} of ${ev.length} octets was dropped (more than ${this.parser.maxSubnegotiation})`,
          );
          break;
        case 'command':
          h.command?.(ev.command);
          break;
      }
    });
  }
}
