// Fuzz target: the FTP control-connection parsers (RFC 959 4.2; RFC 2428 3) and the TYPE A
// converter of listings and text (RFC 959 3.1.1.1). Invariants: only LocatorError is thrown;
// replies are the same in any chunking; every reply has a code 100-599 and its first line starts
// with it; the PASV, EPSV and size readings of each reply's text are in range; the NVT-to-local
// conversion is the same in any chunking and is exactly "CR LF becomes LF".

import { parseReplies, parseEpsv, parsePasv, announcedSize } from '../../src/clients/ftp/parser.js';
import { NvtToLocal, nvtToLocal } from '../../src/clients/ftp/ascii.js';
import { check, chunksOf, concatAll, cuts, randomOf, sameBytes } from './lib.js';
import { sameInChunks } from './stream.js';

function crlfToLf(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) if (!(data[i] === 13 && data[i + 1] === 10)) out.push(data[i]);
  return Uint8Array.from(out);
}

export function fuzz(data: Uint8Array): void {
  const r = sameInChunks(parseReplies, data);
  if (typeof r !== 'string') {
    for (const reply of r.replies) {
      check(reply.code >= 100 && reply.code <= 599, `reply code ${reply.code}`);
      check(reply.lines.length > 0 && reply.lines[0].startsWith(String(reply.code)), 'the first line holds the code');
      const pasv = parsePasv(reply.text);
      if (pasv !== null) {
        check(pasv.port >= 1 && pasv.port <= 65535, `PASV port ${pasv.port}`);
        check(/^(\d{1,3}\.){3}\d{1,3}$/.test(pasv.address), `PASV address ${pasv.address}`);
      }
      const epsv = parseEpsv(reply.text);
      if (epsv !== null) check(Number.isInteger(epsv) && epsv >= 1 && epsv <= 65535, `EPSV port ${epsv}`);
      const size = announcedSize(reply.text);
      if (size !== null) check(Number.isSafeInteger(size) && size >= 0, `announced size ${size}`);
    }
  }
  const whole = nvtToLocal(data);
  check(sameBytes(whole, crlfToLf(data)), 'TYPE A conversion is not CR LF to LF');
  const c = new NvtToLocal();
  const parts = chunksOf(data, cuts(data.length, randomOf(data)));
  const out = concatAll([...parts.map((p) => c.push(p)), c.end()]);
  check(sameBytes(out, whole), 'chunked TYPE A conversion differs');
}
