// Fuzz target: Telnet (RFC 854, 855, 856, 1143, 1572). The first byte sets BINARY and the
// options agreed. Invariants: the parser gives the same events in any chunking (adjacent data
// merged) and holds at most MAX_SUBNEGOTIATION octets; user data encoded and parsed back is the
// data with each lone LF made CR LF (NVT) or unchanged (BINARY); the RFC 1143 negotiator never
// answers an option more than its budget allows, and two negotiators fed each other's answers
// fall silent (no loop); a NEW-ENVIRON SEND request is answered by one well-formed subnegotiation.

import {
  TelnetParser,
  TelnetEncoder,
  MAX_SUBNEGOTIATION,
  parseEnvironSend,
  environIs,
  OPT,
  type TelnetEvent,
  type Verb,
  DO,
  DONT,
  WILL,
  WONT,
} from '../../src/clients/telnet-engine/protocol.js';
import { Negotiator, type Side } from '../../src/clients/telnet-engine/options.js';
import { check, chunksOf, concatAll, cuts, randomOf, sameBytes, show } from './lib.js';

function events(binary: boolean, chunks: Uint8Array[], max = 64): TelnetEvent[] {
  const p = new TelnetParser(max);
  p.binary = binary;
  const out: TelnetEvent[] = [];
  for (const c of chunks) {
    for (const e of p.push(c)) {
      const last = out[out.length - 1];
      if (e.type === 'data' && last?.type === 'data')
        out[out.length - 1] = { type: 'data', data: concatAll([last.data, e.data]) };
      else out.push(e);
    }
    check(p.held <= max, `the parser holds ${p.held} octets of a subnegotiation`);
  }
  return out;
}

function nvt(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) {
    if (data[i] === 10 && (i === 0 || data[i - 1] !== 13)) out.push(13);
    out.push(data[i]);
  }
  return Uint8Array.from(out);
}

const VERBS: Verb[] = [DO, DONT, WILL, WONT];

export function fuzz(bytes: Uint8Array): void {
  const flags = bytes[0] ?? 0;
  const binary = (flags & 1) !== 0;
  const data = bytes.subarray(1);
  const whole = events(binary, [data]);
  const chunked = events(binary, chunksOf(data, cuts(data.length, randomOf(bytes))));
  check(show(whole) === show(chunked), 'telnet events in chunks differ');

  const enc = new TelnetEncoder();
  enc.binary = binary;
  const back = events(binary, [enc.encode(data)]);
  const sent = concatAll(back.map((e) => (e.type === 'data' ? e.data : new Uint8Array(0))));
  check(
    back.every((e) => e.type === 'data'),
    'encoded user data holds a command',
  );
  check(sameBytes(sent, binary ? data : nvt(data)), 'user data does not survive encoding');

  // The negotiator: requests taken from the data, two bytes each (verb, option).
  const accept = [0, 1, 3, 24, 31, 39].filter((_o, i) => flags & (2 << i));
  const n = new Negotiator(accept, accept, 4);
  const answers = new Map<number, number>();
  for (let i = 0; i + 1 < data.length; i += 2) {
    const step = n.receive(VERBS[data[i] & 3], data[i + 1] % 8);
    for (const s of step.send) answers.set(s.option, (answers.get(s.option) ?? 0) + 1);
  }
  for (const [o, k] of answers) check(k <= 4, `option ${o} answered ${k} times past its budget of 4`);

  const a = new Negotiator(accept, accept);
  const b = new Negotiator([0, 1, 3], [24, 31]);
  const queue: Array<{ to: Negotiator; verb: Verb; option: number }> = [];
  const post = (to: Negotiator, send: Array<{ verb: Verb; option: number }>) => {
    for (const s of send) queue.push({ to, verb: s.verb, option: s.option });
  };
  for (let i = 0; i + 1 < data.length && i < 64; i += 2) {
    const side: Side = data[i] & 1 ? 'us' : 'him';
    const from = data[i] & 2 ? a : b;
    post(from === a ? b : a, from.request(side, data[i + 1] % 8, (data[i] & 4) !== 0).send);
  }
  let steps = 0;
  while (queue.length > 0) {
    const m = queue.shift()!;
    post(m.to === a ? b : a, m.to.receive(m.verb, m.option).send);
    check(++steps < 10_000, 'two negotiators answer each other without end (RFC 1143)');
  }

  const req = parseEnvironSend(data);
  const is = environIs(req, { USER: 'guest', DISPLAY: 'x:0' });
  const ev = events(false, [is], MAX_SUBNEGOTIATION * 64);
  check(
    ev.length === 1 && ev[0].type === 'subnegotiation' && ev[0].option === OPT.NEW_ENVIRON,
    `NEW-ENVIRON IS is not one subnegotiation: ${show(ev)}`,
  );
}
