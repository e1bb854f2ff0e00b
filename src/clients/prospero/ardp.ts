// ARDP, the Asynchronous Reliable Delivery Protocol that carries Prospero messages over UDP
// ("The Prospero Protocol, version 5", B. C. Neuman and S. Augart, ISI; its appendix B, cited
// here as "ARDP"). Pure functions and one pure data structure: the header codec, a message cut
// into packets, the reassembly of a reply (packets out of order or twice), and the
// retransmission schedule (backoff, bounded total wait). The socket is in transport.ts.
//
// A header (ARDP, "Octet 0" to "Octets 13 and above"), all numbers in network octet order:
//   octet 0      version (high 2 bits, 0) and header length (low 6 bits, octet 0 included)
//   octets 1-2   connection id            (default 0)
//   octets 3-4   packet number            (default 1; 0: an unsequenced control packet)
//   octets 5-6   total packets            (0 or absent: not known, or the value given before)
//   octets 7-8   received through         (absent: the value given before)
//   octets 9-10  wait, seconds            (absent: the value given before; 0: the client's backoff)
//   octet 11     flags                    (bit 7: please acknowledge; bit 6: sequenced control)
//   octet 12     one option               (1 refused/cancel, 2 reset received-through, 3 bit map,
//                                          4/5 redirect, 6/7 forwarded, 253/254 queue status)
//   octets 13-   the flags' fields, low bit first, then the option's fields
// "the header may be truncated at any point, after which all remaining fields take on their
// default values".

import { LocatorError, defineCode } from '../../core/errors.js';

export const ARDP_MALFORMED = defineCode(
  'ardp-malformed',
  'error',
  'Prospero v5 B (ARDP)',
  'a datagram from the server breaks the ARDP header format',
  'protocol',
);

/** ARDP octet 0: "High order two bits are ARDP version number mod 4 (this is version 0)". */
export const ARDP_VERSION = 0;
/** ARDP octet 0: the header length is six bits. */
export const MAX_HEADER = 63;
/**
 * The most data octets put in one packet: 1250, the historic library's ARDP_PTXT_LEN (ardp.h:
 * "we only generate 1250 bytes because there are preV5 implementations out there with smaller
 * limits"); it receives up to 1405.
 */
export const MAX_DATA = 1250;
/** The historic library's ARDP_DEFAULT_TIMEOUT: 4 seconds before the first retry. */
export const FIRST_WAIT = 4000;
/** The longest wait between two retransmissions when there is no total limit (timeout Infinity). */
export const LONGEST_WAIT = 64_000;

/** ARDP octet 11, the flags (bit 0 is the low order bit). */
export const FLAG = {
  /** bit 0: additional address information follows (type, length, address). */
  address: 0x01,
  /** bit 1: a 2-octet priority follows. */
  priority: 0x02,
  /** bit 2: a 2-octet protocol id follows. */
  protocol: 0x04,
  /**
   * bit 3: unused in the document; the historic library (ardp_headers.c) puts the client's
   * 2-octet window size here. Read as such, never sent.
   */
  window: 0x08,
  /** bit 6: a sequenced control packet, not returned to the application. */
  control: 0x40,
  /** bit 7: please acknowledge this packet. */
  ack: 0x80,
} as const;

/** ARDP octet 12, the option. */
export const OPTION = {
  none: 0,
  /** client to server: cancel the request; server to client: connection refused. */
  refused: 1,
  /** reset the peer's received-through count to the value in octets 7-8. */
  resetReceived: 2,
  /** bit vectors of the packets received beyond received-through. */
  receivedBeyond: 3,
  /** send the unacknowledged packets and the rest of the message to a new address. */
  redirect: 4,
  redirectNotify: 5,
  forwarded: 6,
  forwardedNotify: 7,
  queueStatusRequest: 253,
  queueStatus: 254,
} as const;

/** One ARDP packet as read: every field with its default applied (ARDP "Octet 0" ff.). */
export interface ArdpPacket {
  headerLength: number;
  /** Octets 1-2 (default 0). */
  cid: number;
  /** Octets 3-4 (default 1); 0 is an unsequenced control packet. */
  seq: number;
  /** Octets 5-6: null when not given or given as 0 (keep the value known before). */
  total: number | null;
  /** Octets 7-8: null when not given. */
  receivedThrough: number | null;
  /** Octets 9-10, seconds: null when not given. */
  wait: number | null;
  /** Octet 11 (default 0). */
  flags: number;
  /** Octet 12 (default 0). */
  option: number;
  /** Options 4 to 7: the IPv4 address and UDP port of the option's fields. */
  address: { address: string; port: number } | null;
  /** Option 3: the packet numbers beyond receivedThrough that the sender has received. */
  receivedBeyond: number[];
  /** The data after the header. */
  data: Uint8Array;
}

/** The fields a packet is made of; absent ones are left out of the header where the format allows. */
export interface ArdpFields {
  cid: number;
  seq: number;
  total: number;
  receivedThrough: number;
  wait?: number;
  flags?: number;
  option?: number;
  /** The option's fields (options 3 to 7, 253, 254), after the flags' fields. */
  optionData?: Uint8Array;
}

function malformed(message: string): never {
  throw new LocatorError(ARDP_MALFORMED, -1, message);
}

const u16 = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];

function put16(b: Uint8Array, i: number, v: number, name: string): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new RangeError(`${name} must be 0 to 65535, not ${v}`);
  b[i] = v >> 8;
  b[i + 1] = v & 0xff;
}

/**
 * Writes one packet (ARDP "Octet 0" to "Octets 13 and above"): a 9-octet header (through
 * received-through, as the historic client sends) unless a wait, flags or an option are given,
 * then 13 octets and the option's fields. Flags with fields of their own are refused (this
 * client sends none). Throws a RangeError for a field out of range or a header over 63 octets.
 */
export function encodePacket(f: ArdpFields, data: Uint8Array = new Uint8Array(0)): Uint8Array {
  const flags = f.flags ?? 0;
  const option = f.option ?? 0;
  const extra = f.optionData ?? new Uint8Array(0);
  if ((flags & (FLAG.address | FLAG.priority | FLAG.protocol | FLAG.window)) !== 0)
    throw new RangeError('encodePacket writes no flag fields (address, priority, protocol id, window)');
  const long = f.wait !== undefined || flags !== 0 || option !== 0 || extra.length > 0;
  const hlen = long ? 13 + extra.length : 9;
  if (hlen > MAX_HEADER) throw new RangeError(`an ARDP header is at most ${MAX_HEADER} octets, not ${hlen}`);
  const out = new Uint8Array(hlen + data.length);
  out[0] = (ARDP_VERSION << 6) | hlen;
  put16(out, 1, f.cid, 'the connection id');
  put16(out, 3, f.seq, 'the packet number');
  put16(out, 5, f.total, 'the total');
  put16(out, 7, f.receivedThrough, 'received through');
  if (long) {
    put16(out, 9, f.wait ?? 0, 'the wait');
    if (!Number.isInteger(option) || option < 0 || option > 255) throw new RangeError(`the option is one octet`);
    out[11] = flags;
    out[12] = option;
    out.set(extra, 13);
  }
  out.set(data, hlen);
  return out;
}

/**
 * Reads one datagram (ARDP "Octet 0" ff.): applies the defaults of a truncated header, reads the
 * flags' and the option's fields. Throws ardp-malformed for an empty datagram, another ARDP
 * version, a header length of 0 or past the datagram, a header cut inside a field, or flag or
 * option fields that do not fit in the header.
 */
export function decodePacket(b: Uint8Array): ArdpPacket {
  if (b.length === 0) malformed('an empty datagram has no ARDP header (ARDP octet 0)');
  const version = b[0] >> 6;
  const hlen = b[0] & 0x3f;
  if (version !== ARDP_VERSION)
    malformed(`the datagram is ARDP version ${version} (octet 0, high order two bits); this client speaks version 0`);
  if (hlen === 0) malformed('the ARDP header length is 0: it includes octet 0, so it is at least 1 (ARDP octet 0)');
  if (hlen > b.length)
    malformed(`the ARDP header length is ${hlen} (octet 0) but the datagram has only ${b.length} octets`);
  if (hlen < 11 && hlen % 2 === 0)
    malformed(`an ARDP header of ${hlen} octets ends inside a two-octet field (ARDP octets 1 to 10)`);
  const p: ArdpPacket = {
    headerLength: hlen,
    cid: hlen >= 3 ? u16(b, 1) : 0,
    seq: hlen >= 5 ? u16(b, 3) : 1,
    total: null,
    receivedThrough: hlen >= 9 ? u16(b, 7) : null,
    wait: hlen >= 11 ? u16(b, 9) : null,
    flags: hlen >= 12 ? b[11] : 0,
    option: hlen >= 13 ? b[12] : 0,
    address: null,
    receivedBeyond: [],
    data: b.subarray(hlen),
  };
  // Octets 5-6: "Defaults to 0 if not known, or retains current value ... If the packet number
  // was also not specified, then it defaults to 1. A specified value of 0 means use the default."
  if (hlen < 5) p.total = 1;
  else if (hlen >= 7 && u16(b, 5) !== 0) p.total = u16(b, 5);
  let at = 13;
  const need = (n: number, what: string) => {
    if (at + n > hlen)
      malformed(`the ARDP header (${hlen} octets) ends inside ${what}, which needs ${n} octets from octet ${at}`);
  };
  if (p.flags & FLAG.address) {
    need(2, 'the additional address information (flag bit 0)');
    const len = b[at + 1];
    need(2 + len, 'the additional address information (flag bit 0)');
    at += 2 + len;
  }
  if (p.flags & FLAG.priority) {
    need(2, 'the priority (flag bit 1)');
    at += 2;
  }
  if (p.flags & FLAG.protocol) {
    need(2, 'the protocol id (flag bit 2)');
    at += 2;
  }
  if (p.flags & FLAG.window) {
    need(2, 'the window size (flag bit 3)');
    at += 2;
  }
  switch (p.option) {
    case OPTION.receivedBeyond: {
      const base = p.receivedThrough ?? 0;
      for (let i = at; i < hlen; i++) {
        for (let bit = 0; bit < 8; bit++) if (b[i] & (1 << bit)) p.receivedBeyond.push(base + 2 + (i - at) * 8 + bit);
      }
      break;
    }
    case OPTION.redirect:
    case OPTION.redirectNotify:
    case OPTION.forwarded:
    case OPTION.forwardedNotify:
      need(6, `the address of option ${p.option}`);
      p.address = { address: `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`, port: u16(b, at + 4) };
      break;
    case OPTION.queueStatusRequest:
      need(1, 'the flags of option 253');
      break;
    case OPTION.queueStatus: {
      need(1, 'the flags of option 254');
      const q = b[at];
      need(1 + (q & 1 ? 2 : 0) + (q & 2 ? 4 : 0), 'the fields of option 254');
      break;
    }
  }
  if (p.seq > 0 && p.total !== null && p.seq > p.total)
    malformed(`packet ${p.seq} of a message of ${p.total} packets (ARDP octets 3-6)`);
  return p;
}

/**
 * Cuts a message into the data parts of its packets (ARDP octets 3-6): at most `size` octets
 * each (MAX_DATA); an empty message is one empty part.
 */
export function splitMessage(message: Uint8Array, size = MAX_DATA): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < message.length; i += size) parts.push(message.subarray(i, i + size));
  if (parts.length === 0) parts.push(message);
  if (parts.length > 0xffff) throw new RangeError('a message of more than 65535 packets');
  return parts;
}

/**
 * The packets of a message (ARDP octets 1-8): numbered from 1, each with the connection id, the
 * total, and the received-through count given (0 before any reply packet has arrived).
 */
export function packetsOf(cid: number, parts: Uint8Array[], receivedThrough: number): Uint8Array[] {
  return parts.map((d, i) => encodePacket({ cid, seq: i + 1, total: parts.length, receivedThrough }, d));
}

/**
 * An acknowledgement: an unsequenced control packet (packet number 0, ARDP octets 3-4) carrying
 * received-through, the 9-octet form the historic client sends (ardp_xmit.c).
 */
export function ackPacket(cid: number, receivedThrough: number): Uint8Array {
  return encodePacket({ cid, seq: 0, total: 0, receivedThrough });
}

/** What accept() did with a packet. */
export type Accepted = 'data' | 'control' | 'duplicate' | 'unsequenced';

/**
 * The packets of one reply as they arrive (ARDP octets 3-8): in any order, some twice. Keeps the
 * total once told ("retains current value"), the count received through (packets 1..n all
 * here), and drops sequenced control packets from the message (flag bit 6).
 */
export class Reassembly {
  readonly #parts = new Map<number, Uint8Array | null>();
  /** The total number of packets, once a packet has said it. */
  total: number | null = null;
  /** Every packet up to this one has arrived. */
  through = 0;
  /** Data octets held. */
  octets = 0;

  /** Takes one packet of the reply; throws ardp-malformed when it contradicts the total. */
  accept(p: ArdpPacket): Accepted {
    if (p.total !== null) {
      if (p.total < this.through || [...this.#parts.keys()].some((s) => s > p.total!))
        malformed(`a packet says the reply has ${p.total} packets, but packets past that have arrived`);
      this.total = p.total;
    }
    if (p.seq === 0) return 'unsequenced';
    if (this.total !== null && p.seq > this.total)
      malformed(`packet ${p.seq} of a reply of ${this.total} packets (ARDP octets 3-6)`);
    if (this.#parts.has(p.seq)) return 'duplicate';
    const control = (p.flags & FLAG.control) !== 0;
    this.#parts.set(p.seq, control ? null : p.data);
    if (!control) this.octets += p.data.length;
    while (this.#parts.has(this.through + 1)) this.through++;
    return control ? 'control' : 'data';
  }

  /** True when every packet of the total has arrived. */
  get complete(): boolean {
    return this.total !== null && this.through >= this.total;
  }

  /** The packet numbers not yet here, up to the total (or the highest seen). */
  missing(): number[] {
    const top = this.total ?? Math.max(0, ...this.#parts.keys());
    const out: number[] = [];
    for (let s = this.through + 1; s <= top; s++) if (!this.#parts.has(s)) out.push(s);
    return out;
  }

  /** The data of the packets in order (sequenced control packets left out). */
  message(): Uint8Array {
    const out = new Uint8Array(this.octets);
    let at = 0;
    for (let s = 1; s <= this.through; s++) {
      const d = this.#parts.get(s);
      if (d) {
        out.set(d, at);
        at += d.length;
      }
    }
    return out.subarray(0, at);
  }
}

/**
 * The first wait before a retransmission: the historic 4 seconds (ARDP_DEFAULT_TIMEOUT), or an
 * eighth of a shorter total limit, so that a short limit still leaves room for retries.
 */
export function firstWait(timeout: number): number {
  return Math.max(1, Math.min(FIRST_WAIT, timeout / 8));
}

/** The next wait: doubled (ARDP_BACKOFF(x) = 2 * x), at most LONGEST_WAIT. */
export function backoff(wait: number): number {
  return Math.min(wait * 2, LONGEST_WAIT);
}

/**
 * When to send again, in milliseconds after the last progress, for a total limit `timeout`: the
 * first wait, doubled each time, every time before the limit; the limit itself ends the exchange
 * (a timeout). With a server-requested wait (ARDP octets 9-10, seconds), no retry comes earlier
 * than it. For timeout Infinity, the first `count` times.
 */
export function retransmitTimes(timeout: number, serverWait = 0, count = 16): number[] {
  const out: number[] = [];
  let wait = firstWait(Number.isFinite(timeout) ? timeout : FIRST_WAIT * 8);
  let t = 0;
  while (out.length < count) {
    t += Math.max(wait, serverWait);
    if (t >= timeout) break;
    out.push(t);
    wait = backoff(wait);
  }
  return out;
}
