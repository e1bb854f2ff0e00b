// The 25-byte WAIS message header (the transport wrapper of the WAIS implementations, before each
// APDU in both directions). It is in neither Z39.50-1988 nor the WAIS protocol specification
// (Kahle et al., 1990, "protspec") nor RFC 1625; its layout is the one the freeWAIS captures in
// test/data/fixtures/wais show in every message (see docs/wais.md):
//
//   bytes 0-9   length of the APDU that follows, 10 ASCII decimal digits, zero padded
//   byte  10    message type: "z" (a Z39.50 APDU)
//   byte  11    header version: "2"
//   bytes 12-21 server name, padded with spaces ("wais")
//   byte  22    compression: " " (none)
//   byte  23    encoding: " " (none)
//   byte  24    checksum: "0" (not computed)
//
// Pure functions: no I/O.

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';

export const HEADER_LENGTH = 25;
/** The largest APDU length the 10 decimal digits can state. */
export const MAX_APDU_LENGTH = 9_999_999_999;

export interface WaisHeader {
  /** Bytes 0-9: the APDU length. */
  length: number;
  /** Byte 10: the message type ("z" for Z39.50). */
  messageType: string;
  /** Byte 11: the header version ("2"). */
  version: string;
  /** Bytes 12-21: the server name, trailing spaces removed. */
  serverName: string;
  /** Byte 22: compression (" " = none). */
  compression: string;
  /** Byte 23: encoding (" " = none). */
  encoding: string;
  /** Byte 24: checksum ("0"). */
  checksum: string;
}

/**
 * Writes the 25-byte WAIS header for an APDU of `length` bytes (the wrapper of every WAIS
 * message; RFC 1625 2 carries Z39.50 APDUs, this header frames them): message type "z",
 * version "2", the server name padded to 10 with spaces, no compression, no encoding, checksum "0".
 */
export function encodeHeader(length: number, serverName = 'wais'): Uint8Array {
  if (!Number.isSafeInteger(length) || length < 0 || length > MAX_APDU_LENGTH) {
    throw new RangeError(`a WAIS APDU length must be 0..${MAX_APDU_LENGTH}, not ${length}`);
  }
  if (serverName.length > 10 || !/^[\x20-\x7e]*$/.test(serverName)) {
    throw new RangeError('the WAIS header server name is at most 10 printable ASCII characters');
  }
  const s = String(length).padStart(10, '0') + 'z2' + serverName.padEnd(10, ' ') + '  0';
  const out = new Uint8Array(HEADER_LENGTH);
  for (let i = 0; i < HEADER_LENGTH; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * Reads a 25-byte WAIS header. A length field that is not 10 decimal digits, a message type
 * other than "z", or a compression or encoding this client cannot undo is a protocol-error.
 */
export function decodeHeader(bytes: Uint8Array): WaisHeader {
  if (bytes.length < HEADER_LENGTH) {
    throw new LocatorError(PROTOCOL_ERROR, -1, `a WAIS header is ${HEADER_LENGTH} bytes, not ${bytes.length}`);
  }
  let s = '';
  for (let i = 0; i < HEADER_LENGTH; i++) s += String.fromCharCode(bytes[i]);
  const digits = s.slice(0, 10);
  if (!/^[0-9]{10}$/.test(digits)) {
    throw new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `the WAIS header's length field is not 10 decimal digits: ${JSON.stringify(digits)}`,
    );
  }
  const h: WaisHeader = {
    length: Number(digits),
    messageType: s[10],
    version: s[11],
    serverName: s.slice(12, 22).replace(/ +$/, ''),
    compression: s[22],
    encoding: s[23],
    checksum: s[24],
  };
  if (h.messageType !== 'z') {
    throw new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `the WAIS header's message type is ${JSON.stringify(h.messageType)}, not "z"`,
    );
  }
  if (h.compression !== ' ' || h.encoding !== ' ') {
    throw new LocatorError(
      PROTOCOL_ERROR,
      -1,
      'the WAIS message is compressed or encoded (header bytes 22-23), which this client does not undo',
    );
  }
  return h;
}
