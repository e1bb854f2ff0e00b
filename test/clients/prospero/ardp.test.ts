// ARDP framing, byte by byte ("The Prospero Protocol, version 5", appendix B, cited "ARDP" with
// the octets of the header). The byte rows are written by hand from the document's field table
// and checked against what the historic library writes (lib/ardp/ardp_headers.c: the client's
// 9-octet header; ardp_respond.c: the server's 3-, 7- and 12-octet headers; ardp_xmit.c: the
// acknowledgement), not produced by the code under test.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FLAG,
  OPTION,
  Reassembly,
  ackPacket,
  backoff,
  decodePacket,
  encodePacket,
  firstWait,
  packetsOf,
  retransmitTimes,
  splitMessage,
  type ArdpPacket,
} from '../../../src/clients/prospero/ardp.js';
import { LocatorError } from '../../../src/core/errors.js';

const bytes = (...a: Array<number | string>) =>
  Uint8Array.from(a.flatMap((x) => (typeof x === 'string' ? [...Buffer.from(x, 'latin1')] : [x])));

// --- writing (ARDP octets 0-12) ---

const WRITE: Array<[string, Uint8Array, number[]]> = [
  [
    'the client request, as ardp_headers.c writes it: octet 0 = version 0 | length 9; octets 1-2 cid; 3-4 packet 1; 5-6 total 1; 7-8 received through 0',
    encodePacket({ cid: 0x1234, seq: 1, total: 1, receivedThrough: 0 }, bytes('VERSION 5\n')),
    [0x09, 0x12, 0x34, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, ...Buffer.from('VERSION 5\n')],
  ],
  [
    'packet 2 of 3 after 258 reply packets: octets 3-4 = 2, 5-6 = 3, 7-8 = 0x0102 (network octet order)',
    encodePacket({ cid: 0xfffe, seq: 2, total: 3, receivedThrough: 258 }),
    [0x09, 0xff, 0xfe, 0x00, 0x02, 0x00, 0x03, 0x01, 0x02],
  ],
  [
    'an acknowledgement, as ardp_xmit.c writes it: packet 0 ("an unsequenced control packet"), total 0, received through 5',
    ackPacket(0x0102, 5),
    [0x09, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05],
  ],
  [
    'flags and an option need octets 9-12: wait 0, octet 11 = bit 7 (please acknowledge), octet 12 = option 1 (cancel)',
    encodePacket({ cid: 7, seq: 0, total: 0, receivedThrough: 0, flags: FLAG.ack, option: OPTION.refused }),
    [0x0d, 0x00, 0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x01],
  ],
  [
    "option 3's bit vector follows octet 12; the header length counts it",
    encodePacket({ cid: 1, seq: 0, total: 0, receivedThrough: 43, option: 3, optionData: Uint8Array.of(0x81) }),
    [0x0e, 0x00, 0x01, 0, 0, 0, 0, 0, 43, 0, 0, 0, 3, 0x81],
  ],
];
for (const [what, got, want] of WRITE) {
  test(`ARDP octets 0-12: ${what}`, () => assert.deepEqual([...got], want));
}

test('ARDP octet 0: a header is at most 63 octets; fields out of range and flag fields are refused', () => {
  assert.throws(
    () => encodePacket({ cid: 1, seq: 1, total: 1, receivedThrough: 0, option: 3, optionData: new Uint8Array(51) }),
    RangeError,
  );
  assert.throws(() => encodePacket({ cid: 0x10000, seq: 1, total: 1, receivedThrough: 0 }), RangeError);
  assert.throws(() => encodePacket({ cid: 1, seq: -1, total: 1, receivedThrough: 0 }), RangeError);
  assert.throws(() => encodePacket({ cid: 1, seq: 1, total: 1, receivedThrough: 0, flags: FLAG.priority }), RangeError);
});

// --- reading: a truncated header takes the defaults (ARDP "the header may be truncated at any point") ---

type Want = Partial<Omit<ArdpPacket, 'data'>> & { data?: string };
const READ: Array<[string, Uint8Array, Want]> = [
  [
    'octet 0 only: cid 0, packet 1, and total 1 ("If the packet number was also not specified, then it defaults to 1")',
    bytes(0x01, 'hi'),
    { headerLength: 1, cid: 0, seq: 1, total: 1, receivedThrough: null, wait: null, flags: 0, option: 0, data: 'hi' },
  ],
  [
    'a one-packet reply as ardp_respond.c sends it: 3 octets, the connection id (octets 1-2)',
    bytes(0x03, 0xbe, 0xef, 'NONE-FOUND\n'),
    { headerLength: 3, cid: 0xbeef, seq: 1, total: 1, receivedThrough: null, data: 'NONE-FOUND\n' },
  ],
  [
    'octets 3-4 without 5-6: the total keeps the value given before (null here)',
    bytes(0x05, 0, 1, 0, 2, 'x'),
    { seq: 2, total: null, data: 'x' },
  ],
  [
    'a packet of a longer reply (ardp_respond.c, 7 octets): packet 2 of 3',
    bytes(0x07, 0, 1, 0, 2, 0, 3, 'x'),
    { seq: 2, total: 3, receivedThrough: null },
  ],
  [
    'octets 5-6 = 0: "A specified value of 0 means use the default"',
    bytes(0x07, 0, 1, 0, 2, 0, 0),
    { seq: 2, total: null },
  ],
  ['octets 7-8: received through 0x0104', bytes(0x09, 0, 1, 0, 1, 0, 1, 0x01, 0x04), { receivedThrough: 260 }],
  ['octets 9-10: wait 300 seconds', bytes(0x0b, 0, 1, 0, 1, 0, 1, 0, 0, 0x01, 0x2c), { wait: 300 }],
  [
    'the 12-octet header of ardp_respond.c asking for an acknowledgement: octet 11 bit 7',
    bytes(0x0c, 0, 9, 0, 3, 0, 3, 0, 1, 0, 0, 0x80, 'end'),
    { headerLength: 12, seq: 3, total: 3, receivedThrough: 1, wait: 0, flags: FLAG.ack, option: 0, data: 'end' },
  ],
  [
    'octet 11 bit 6: a sequenced control packet',
    bytes(0x0c, 0, 9, 0, 2, 0, 3, 0, 1, 0, 0, 0x40),
    { flags: FLAG.control },
  ],
  [
    'option 3, the example of the document: received through 43; bit 0 of the first octet is packet 45, bit 7 packet 52, bit 0 of the second octet packet 53',
    bytes(0x0f, 0, 1, 0, 0, 0, 0, 0, 43, 0, 0, 0, 3, 0x81, 0x01),
    { option: 3, receivedBeyond: [45, 52, 53] },
  ],
  [
    'option 4 (redirect): 4 octets of IP address, 2 of UDP port, network order',
    bytes(0x13, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 10, 0, 0, 5, 0x05, 0xf5),
    { option: 4, address: { address: '10.0.0.5', port: 1525 } },
  ],
  [
    "the flags' fields come first, low bit first (priority, then protocol id), then the option's",
    bytes(0x17, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x06, 5, 0xff, 0xfe, 0, 1, 127, 0, 0, 1, 0, 191),
    { flags: 6, option: 5, address: { address: '127.0.0.1', port: 191 } },
  ],
  [
    'flag bit 0: additional address information, type and length octets first',
    bytes(0x17, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 4, 9, 2, 0xaa, 0xbb, 1, 2, 0, 7, 0x01, 0x00),
    { flags: 1, option: 4, address: { address: '1.2.0.7', port: 256 } },
  ],
  [
    'option 254: the queue position (bit 0, 2 octets) and the expected time (bit 1, 4 octets)',
    bytes(0x14, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 254, 3, 0, 9, 0, 0, 0, 60),
    { option: 254 },
  ],
];
for (const [what, input, want] of READ) {
  test(`ARDP header: ${what}`, () => {
    const p = decodePacket(input);
    const { data, ...fields } = want;
    for (const [k, v] of Object.entries(fields)) assert.deepEqual(p[k as keyof ArdpPacket], v, k);
    if (data !== undefined) assert.equal(Buffer.from(p.data).toString('latin1'), data);
  });
}

const MALFORMED: Array<[string, Uint8Array, RegExp]> = [
  ['an empty datagram', new Uint8Array(0), /empty datagram/],
  ['octet 0: version 1 (high order bits 01)', bytes(0x43, 0, 1), /ARDP version 1/],
  ['octet 0: version 3', bytes(0xc1), /ARDP version 3/],
  ['octet 0: header length 0', bytes(0x00, 'x'), /header length is 0/],
  ['octet 0: a header longer than the datagram', bytes(0x09, 0, 1, 0, 1), /only 5 octets/],
  ['a header ending inside octets 1-2', bytes(0x02, 0), /inside a two-octet field/],
  ['a header ending inside octets 9-10', bytes(0x0a, 0, 1, 0, 1, 0, 1, 0, 0, 0), /inside a two-octet field/],
  ['option 4 without its 6 octets', bytes(0x0f, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 10, 0), /address of option 4/],
  ['flag bit 1 without the priority', bytes(0x0e, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 2, 0, 0), /priority/],
  [
    'flag bit 0 with a length past the header',
    bytes(0x0f, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 9, 5),
    /additional address/,
  ],
  ['packet 4 of a message of 3 (octets 3-6)', bytes(0x07, 0, 1, 0, 4, 0, 3), /packet 4 of a message of 3/],
];
for (const [what, input, message] of MALFORMED) {
  test(`ARDP header: ${what} is ardp-malformed`, () => {
    assert.throws(
      () => decodePacket(input),
      (e: unknown) => e instanceof LocatorError && e.code === 'ardp-malformed' && message.test(e.message),
    );
  });
}

test('ARDP: every header of 0 to 13 octets either reads or is ardp-malformed (never another error)', () => {
  for (let len = 0; len <= 14; len++) {
    for (let first = 0; first < 256; first++) {
      const b = new Uint8Array(len).fill(0xff);
      if (len > 0) b[0] = first;
      try {
        decodePacket(b);
      } catch (e) {
        assert.ok(e instanceof LocatorError && e.code === 'ardp-malformed', String(e));
      }
    }
  }
});

// --- a message in packets (ARDP octets 3-6) ---

test('ARDP octets 3-6: a message is cut into packets of at most 1250 data octets, numbered from 1', () => {
  const parts = splitMessage(new Uint8Array(2600));
  assert.deepEqual(
    parts.map((p) => p.length),
    [1250, 1250, 100],
  );
  assert.deepEqual(
    splitMessage(new Uint8Array(0)).map((p) => p.length),
    [0],
  );
  const packets = packetsOf(0x0a0b, parts, 0).map((p) => [...p.subarray(0, 9)]);
  assert.deepEqual(packets, [
    [9, 0x0a, 0x0b, 0, 1, 0, 3, 0, 0],
    [9, 0x0a, 0x0b, 0, 2, 0, 3, 0, 0],
    [9, 0x0a, 0x0b, 0, 3, 0, 3, 0, 0],
  ]);
});

const pkt = (seq: number, total: number | null, data: string, flags = 0): ArdpPacket => ({
  headerLength: 7,
  cid: 1,
  seq,
  total,
  receivedThrough: null,
  wait: null,
  flags,
  option: 0,
  address: null,
  receivedBeyond: [],
  data: Buffer.from(data, 'latin1'),
});

test('ARDP octets 3-8: packets out of order and twice are put in order once; received-through counts the run from 1', () => {
  const r = new Reassembly();
  assert.equal(r.accept(pkt(3, 4, 'c')), 'data');
  assert.equal(r.through, 0);
  assert.deepEqual(r.missing(), [1, 2, 4]);
  assert.equal(r.accept(pkt(1, null, 'a')), 'data');
  assert.equal(r.through, 1);
  assert.equal(r.accept(pkt(1, null, 'a')), 'duplicate');
  assert.equal(r.accept(pkt(2, 4, 'b')), 'data');
  assert.equal(r.through, 3);
  assert.equal(r.complete, false);
  assert.equal(r.accept(pkt(0, null, '')), 'unsequenced');
  assert.equal(r.accept(pkt(4, null, 'd')), 'data');
  assert.equal(r.complete, true);
  assert.equal(Buffer.from(r.message()).toString(), 'abcd');
  assert.equal(r.octets, 4);
});

test('ARDP octet 11 bit 6: a sequenced control packet counts in the sequence but is not in the message', () => {
  const r = new Reassembly();
  r.accept(pkt(1, 3, 'a'));
  assert.equal(r.accept(pkt(2, 3, 'ignored', FLAG.control)), 'control');
  r.accept(pkt(3, 3, 'c'));
  assert.equal(Buffer.from(r.message()).toString(), 'ac');
});

test('ARDP octets 3-6: a total contradicted by the packets is ardp-malformed', () => {
  const r = new Reassembly();
  r.accept(pkt(5, null, 'e'));
  assert.throws(() => r.accept(pkt(1, 3, 'a')), /packets past that have arrived/);
  const s = new Reassembly();
  s.accept(pkt(1, 2, 'a'));
  assert.throws(() => s.accept(pkt(3, null, 'c')), /packet 3 of a reply of 2 packets/);
});

// --- retransmission: backoff and a bounded total wait ---

test('retransmission: 4 s first (ARDP_DEFAULT_TIMEOUT), doubled (ARDP_BACKOFF), all before the total limit', () => {
  assert.equal(firstWait(30_000), 3750);
  assert.equal(firstWait(60_000), 4000);
  assert.equal(firstWait(400), 50);
  assert.equal(backoff(4000), 8000);
  assert.equal(backoff(50_000), 64_000);
  assert.deepEqual(retransmitTimes(400), [50, 150, 350]);
  assert.deepEqual(retransmitTimes(60_000), [4000, 12_000, 28_000]);
  assert.deepEqual(retransmitTimes(30_000), [3750, 11_250, 26_250]);
  // ARDP octets 9-10: a server-requested wait of 10 s delays each retry to at least 10 s
  assert.deepEqual(retransmitTimes(30_000, 10_000), [10_000, 20_000]);
  // no total limit: the waits stop growing at 64 s
  const inf = retransmitTimes(Infinity, 0, 8);
  assert.deepEqual(
    inf.map((t, i) => t - (inf[i - 1] ?? 0)),
    [4000, 8000, 16_000, 32_000, 64_000, 64_000, 64_000, 64_000],
  );
});
