// The chunking invariant shared by the reply parsers of the clients: a parser of the
// "{ replies, rest }" kind (RFC 959 4.2, RFC 5321 4.2) fed the bytes whole and fed them in
// random chunks, each time with the rest of the call before put in front, gives the same
// replies, the same rest, or the same refusal.

import { LocatorError } from '../../src/core/errors.js';
import { check, chunksOf, concatAll, cuts, randomOf, sameBytes, show } from './lib.js';

export interface RestParser<R> {
  (input: Uint8Array): { replies: R[]; rest: Uint8Array };
}

/** The replies of a parser fed `chunks` one after the other, or the code of its refusal. */
export function feed<R>(parse: RestParser<R>, chunks: Uint8Array[]): { replies: R[]; rest: Uint8Array } | string {
  const replies: R[] = [];
  let rest: Uint8Array = new Uint8Array(0);
  try {
    for (const c of chunks) {
      const input = concatAll([rest, c]);
      const r = parse(input);
      check(sameBytes(r.rest, input.subarray(input.length - r.rest.length)), 'the rest is not the end of the input');
      replies.push(...r.replies);
      rest = r.rest;
    }
  } catch (e) {
    if (e instanceof LocatorError) return e.code;
    throw e;
  }
  return { replies, rest };
}

/** Checks that `parse` gives the same on `data` whole and in the chunks the bytes pick; returns the whole result. */
export function sameInChunks<R>(parse: RestParser<R>, data: Uint8Array): { replies: R[]; rest: Uint8Array } | string {
  const whole = feed(parse, [data]);
  const chunked = feed(parse, chunksOf(data, cuts(data.length, randomOf(data))));
  check(show(whole) === show(chunked), `chunked parse differs:\n${show(whole)}\n${show(chunked)}`);
  return whole;
}
