// Fuzz target: ARDP packets (the Prospero transport: "Octet 0" to "Octets 13 and above") and the
// reassembly of a reply. The bytes are datagrams separated by the octets 0x0A 0x0A. Invariants:
// only LocatorError is thrown; a packet is read only inside the datagram (the same result as a
// view inside larger bytes; its data a view at the header's end); the header's fields are in
// range; the reassembly of packets in any order, some twice, holds 1..through and gives the
// message that was split, and its missing() list is inside the total.

import { decodePacket, splitMessage, packetsOf, Reassembly, MAX_HEADER } from '../../src/clients/prospero/ardp.js';
import { LocatorError } from '../../src/core/errors.js';
import { check, randomOf, refusal, sameBytes, show } from './lib.js';

function datagrams(data: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (let i = 0; i + 1 < data.length; i++) {
    if (data[i] === 10 && data[i + 1] === 10) {
      out.push(data.subarray(from, i));
      from = i + 2;
      i++;
    }
  }
  out.push(data.subarray(from));
  return out;
}

const u16 = (n: number | null) => n === null || (Number.isInteger(n) && n >= 0 && n <= 0xffff);

export function fuzz(data: Uint8Array): void {
  const random = randomOf(data);
  const r = new Reassembly();
  for (const d of datagrams(data)) {
    const p = refusal(() => decodePacket(d));
    const wide = new Uint8Array(d.length + 8).fill(0xff);
    wide.set(d, 4);
    const pv = refusal(() => decodePacket(wide.subarray(4, 4 + d.length)));
    check(
      show(p instanceof LocatorError ? p.code : p) === show(pv instanceof LocatorError ? pv.code : pv),
      'a datagram read as a view differs',
    );
    if (p instanceof LocatorError) continue;
    check(p.headerLength >= 1 && p.headerLength <= Math.min(MAX_HEADER, d.length), `header length ${p.headerLength}`);
    check(sameBytes(p.data, d.subarray(p.headerLength)), 'the data is not what follows the header');
    check([p.cid, p.seq, p.total, p.receivedThrough, p.wait].every(u16), `a field out of range: ${show(p)}`);
    for (const s of p.receivedBeyond)
      check(Number.isInteger(s) && s > (p.receivedThrough ?? 0), `received-beyond ${s}`);
    const a = refusal(() => r.accept(p));
    if (a instanceof LocatorError) continue;
    check(r.total === null || r.through <= r.total, `through ${r.through} past total ${r.total}`);
    for (const m of r.missing()) check(m > r.through && (r.total === null || m <= r.total), `missing ${m}`);
    void r.message();
  }
  // A message split into small packets, delivered shuffled with duplicates, is put back together.
  const size = 1 + ((data[0] ?? 0) % 16);
  const parts = splitMessage(data, size);
  const packets = packetsOf(7, parts, 0);
  const order = packets.map((_p, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const again = new Reassembly();
  for (const i of [...order, ...order.slice(0, 3)]) again.accept(decodePacket(packets[i]));
  check(again.complete && again.missing().length === 0, 'a reassembled message is not complete');
  check(sameBytes(again.message(), data), 'the reassembled message differs');
}
