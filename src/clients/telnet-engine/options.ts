// Telnet option negotiation without loops: the "Q method" of RFC 1143 ("The Q Method of
// Implementing TELNET Option Negotiation"), a pure state machine. For each option there are two
// sides, ours ("us": we WILL/WONT perform it) and the server's ("him": it WILL/WONT), each in one
// of NO, YES, WANTNO, WANTYES, with a one-bit queue (EMPTY, OPPOSITE) for a change asked while
// one is under way. A request that would not change the state is never answered, so two
// implementations can never answer each other forever (RFC 854: "don't send a request for a
// mode one is already in"; RFC 1143 shows where RFC 854's own rule still loops).
//
// On top of RFC 1143, a budget: each option gets at most MAX_ANSWERS answers to the server's
// requests; past it the option's requests are ignored. A server that floods requests (turning
// an option on and off, or asking for a refused one again and again) gets a bounded number of
// replies. DEVIATION: RFC 1143 answers every state-changing request; the budget is locator's.

import { DO, DONT, WILL, WONT, type Verb } from './protocol.js';

export type Side = 'us' | 'him';
type Q = 'NO' | 'YES' | 'WANTNO' | 'WANTYES';

interface OptionState {
  us: Q;
  usq: boolean; // true: OPPOSITE queued
  him: Q;
  himq: boolean;
  answers: number;
}

/** Sets one side's state and queue bit (RFC 1143 7). */
function put(s: OptionState, side: Side, q: Q, opposite: boolean): void {
  if (side === 'him') {
    s.him = q;
    s.himq = opposite;
  } else {
    s.us = q;
    s.usq = opposite;
  }
}

/** What one step of the negotiation does: the replies to send, and the options turned on or off. */
export interface Step {
  send: Array<{ verb: Verb; option: number }>;
  /** Options whose state changed: side, option, now on or off. */
  changed: Array<{ side: Side; option: number; enabled: boolean }>;
  /** A protocol oddity worth a transcript line (an answer that contradicts, an exhausted budget). */
  note?: string;
}

/** How many answers one option gets to the server's requests (see the DEVIATION above). */
export const MAX_ANSWERS = 32;

/**
 * The negotiation state of every option (RFC 1143 section 7). `acceptUs` lists the options we
 * agree to perform when asked (DO), `acceptHim` the ones we agree the server performs (WILL);
 * everything else is refused (RFC 854: WONT / DONT).
 */
export class Negotiator {
  readonly #options = new Map<number, OptionState>();
  readonly #acceptUs: ReadonlySet<number>;
  readonly #acceptHim: ReadonlySet<number>;
  readonly maxAnswers: number;
  /** Requests from the server left unanswered because an option's budget was spent. */
  ignored = 0;

  constructor(acceptUs: Iterable<number>, acceptHim: Iterable<number>, maxAnswers = MAX_ANSWERS) {
    this.#acceptUs = new Set(acceptUs);
    this.#acceptHim = new Set(acceptHim);
    this.maxAnswers = maxAnswers;
  }

  #state(option: number): OptionState {
    let s = this.#options.get(option);
    if (s === undefined) {
      s = { us: 'NO', usq: false, him: 'NO', himq: false, answers: 0 };
      this.#options.set(option, s);
    }
    return s;
  }

  /** True when the side performs the option now (state YES). */
  enabled(side: Side, option: number): boolean {
    const s = this.#options.get(option);
    return s !== undefined && (side === 'us' ? s.us : s.him) === 'YES';
  }

  /** The options now on, per side, in numeric order. */
  inEffect(): { us: number[]; him: number[] } {
    const us: number[] = [];
    const him: number[] = [];
    for (const [o, s] of [...this.#options].sort((a, b) => a[0] - b[0])) {
      if (s.us === 'YES') us.push(o);
      if (s.him === 'YES') him.push(o);
    }
    return { us, him };
  }

  /**
   * RFC 1143 7: the server sent `verb option`. WILL/WONT concern its side ("him"), DO/DONT ours.
   * Returns the replies (none when the request changes nothing) and the state changes.
   */
  receive(verb: Verb, option: number): Step {
    const s = this.#state(option);
    const step: Step = { send: [], changed: [] };
    const positive = verb === WILL || verb === DO;
    const side: Side = verb === WILL || verb === WONT ? 'him' : 'us';
    const accept = side === 'him' ? this.#acceptHim.has(option) : this.#acceptUs.has(option);
    const yes: Verb = side === 'him' ? DO : WILL; // our answer that agrees
    const no: Verb = side === 'him' ? DONT : WONT; // our answer that refuses
    const get = (): [Q, boolean] => (side === 'him' ? [s.him, s.himq] : [s.us, s.usq]);
    const set = (q: Q, opposite: boolean) => {
      const before = side === 'him' ? s.him : s.us;
      put(s, side, q, opposite);
      if ((before === 'YES') !== (q === 'YES')) step.changed.push({ side, option, enabled: q === 'YES' });
    };
    const answer = (v: Verb): boolean => {
      if (s.answers >= this.maxAnswers) {
        this.ignored++;
        step.note = `the server keeps negotiating option ${option}: ${this.maxAnswers} answers given, the rest ignored`;
        return false;
      }
      s.answers++;
      step.send.push({ verb: v, option });
      return true;
    };
    const [q, opposite] = get();
    if (positive) {
      switch (q) {
        case 'NO':
          if (accept) {
            if (answer(yes)) set('YES', false);
          } else answer(no);
          break;
        case 'YES':
          break; // already on: no answer (this is what ends loops)
        case 'WANTNO':
          // The other side answered our "turn it off" with "on": RFC 1143 calls this an error.
          step.note = `option ${option}: ${side === 'him' ? 'DONT' : 'WONT'} answered by ${side === 'him' ? 'WILL' : 'DO'}`;
          set(opposite ? 'YES' : 'NO', false);
          break;
        case 'WANTYES':
          if (opposite) {
            set('WANTNO', false);
            step.send.push({ verb: no, option });
          } else set('YES', false);
          break;
      }
    } else {
      switch (q) {
        case 'NO':
          break; // already off
        case 'YES':
          set('NO', false);
          answer(no); // the acknowledgement RFC 1143 requires (within the budget; the state is off either way)
          break;
        case 'WANTNO':
          if (opposite) {
            set('WANTYES', false);
            step.send.push({ verb: yes, option });
          } else set('NO', false);
          break;
        case 'WANTYES':
          set('NO', false);
          break;
      }
    }
    return step;
  }

  /**
   * RFC 1143 7: we want `side` to turn `option` on or off. Sends the request only when the state
   * allows (a request already under way is queued or dropped, never repeated).
   */
  request(side: Side, option: number, enable: boolean): Step {
    const s = this.#state(option);
    const step: Step = { send: [], changed: [] };
    const q = side === 'him' ? s.him : s.us;
    const opposite = side === 'him' ? s.himq : s.usq;
    const set = (nq: Q, nopp: boolean) => put(s, side, nq, nopp);
    const verb: Verb = side === 'him' ? (enable ? DO : DONT) : enable ? WILL : WONT;
    if (enable) {
      if (q === 'NO') {
        set('WANTYES', false);
        step.send.push({ verb, option });
      } else if (q === 'WANTNO' && !opposite) set('WANTNO', true);
      else if (q === 'WANTYES' && opposite) set('WANTYES', false);
    } else {
      if (q === 'YES') {
        set('WANTNO', false);
        step.send.push({ verb, option });
        step.changed.push({ side, option, enabled: false });
      } else if (q === 'WANTNO' && opposite) set('WANTNO', false);
      else if (q === 'WANTYES' && !opposite) set('WANTYES', true);
    }
    return step;
  }
}
