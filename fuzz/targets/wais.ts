// Fuzz target: the WAIS message header and APDUs (RFC 1625; protspec 5; Z39.50-1988). The first
// byte picks header-then-APDU or the APDU alone. Invariants: only LocatorError is thrown; the
// decoders read nothing outside the APDU (the same result when it is a view inside larger bytes,
// and every byte array they return lies inside it); every number read is a safe integer;
// a decoded APDU encoded again decodes to the same record (when the encoder can write it).

import { decodeHeader, HEADER_LENGTH } from '../../src/clients/wais/header.js';
import {
  pduTypeOf,
  decodeInitRequest,
  decodeInitResponse,
  decodeSearchRequest,
  decodeSearchResponse,
  encodeInitRequest,
  encodeInitResponse,
  encodeSearchRequest,
  encodeSearchResponse,
  readRetrieval,
  PDU_INIT_REQUEST,
  PDU_INIT_RESPONSE,
  PDU_SEARCH_REQUEST,
  PDU_SEARCH_RESPONSE,
} from '../../src/clients/wais/apdu.js';
import { LocatorError } from '../../src/core/errors.js';
import { check, refusal, show } from './lib.js';

type Decoded =
  | ReturnType<typeof decodeInitRequest>
  | ReturnType<typeof decodeInitResponse>
  | ReturnType<typeof decodeSearchRequest>
  | ReturnType<typeof decodeSearchResponse>;

function decode(apdu: Uint8Array): Decoded | string {
  const r = refusal((): Decoded | null => {
    switch (pduTypeOf(apdu)) {
      case PDU_INIT_REQUEST:
        return decodeInitRequest(apdu);
      case PDU_INIT_RESPONSE:
        return decodeInitResponse(apdu);
      case PDU_SEARCH_REQUEST:
        return decodeSearchRequest(apdu);
      case PDU_SEARCH_RESPONSE:
        return decodeSearchResponse(apdu);
      default:
        return null;
    }
  });
  return r instanceof LocatorError ? r.code : r === null ? 'other' : r;
}

function encode(d: Decoded): Uint8Array | null {
  try {
    switch (d.pdu) {
      case 'init-request':
        return encodeInitRequest(d);
      case 'init-response':
        return encodeInitResponse(d);
      case 'search-request':
        return encodeSearchRequest(d);
      case 'search-response':
        return encodeSearchResponse(d);
    }
  } catch (e) {
    if (e instanceof RangeError) return null; // a value this encoder does not write (an integer too wide)
    throw e;
  }
}

/** Every byte array and number inside `v`: arrays within [lo, hi) of `buffer`, numbers safe integers. */
function inside(v: unknown, buffer: ArrayBufferLike, lo: number, hi: number, path = '$'): void {
  if (v instanceof Uint8Array) {
    if (v.buffer === buffer)
      check(v.byteOffset >= lo && v.byteOffset + v.length <= hi, `${path} lies outside the APDU`);
    return;
  }
  if (typeof v === 'number') check(Number.isSafeInteger(v), `${path} is ${v}`);
  if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) inside(x, buffer, lo, hi, `${path}.${k}`);
}

export function fuzz(bytes: Uint8Array): void {
  const data = bytes.subarray(1);
  if (((bytes[0] ?? 0) & 1) === 0) {
    apduHolds(data);
    return;
  }
  // Messages one after the other, each a header and its APDU (RFC 1625 2), as on the wire.
  let at = 0;
  while (at < data.length) {
    const h = refusal(() => decodeHeader(data.subarray(at)));
    if (h instanceof LocatorError) return;
    check(Number.isSafeInteger(h.length) && h.length >= 0, `header length ${h.length}`);
    apduHolds(data.subarray(at + HEADER_LENGTH, at + HEADER_LENGTH + h.length));
    at += HEADER_LENGTH + h.length;
  }
}

function apduHolds(apdu: Uint8Array): void {
  const d = decode(apdu);
  const wide = new Uint8Array(apdu.length + 32).fill(0x80);
  wide.set(apdu, 16);
  const view = wide.subarray(16, 16 + apdu.length);
  const dv = decode(view);
  check(show(d) === show(dv), `an APDU read as a view gives another result:\n${show(d)}\n${show(dv)}`);
  if (typeof dv === 'string') return;
  inside(dv, wide.buffer, 16, 16 + apdu.length);
  if (dv.pdu === 'search-request' && dv.query?.kind === 'retrieval') void readRetrieval(dv.query);
  const again = encode(dv);
  if (again === null) return;
  const d2 = decode(again);
  // An InitResponse's user information is written from chunkCode and chunkIdLength alone.
  if (dv.pdu === 'init-response' && typeof d2 !== 'string' && d2.pdu === 'init-response')
    d2.userInformation = dv.userInformation;
  check(show(d2) === show(dv), `an APDU decoded, encoded and decoded differs:\n${show(dv)}\n${show(d2)}`);
}
