// The octets the line-based protocols share (RFC 854 NVT, RFC 959 4.2, RFC 5321 2.3.8, RFC 3977
// 3.1, RFC 1436), and the one byte concatenation. Pure: no I/O.

/** Carriage return, line feed, NUL, TAB and the period of dot-stuffing (US-ASCII). */
export const CR = 13;
export const LF = 10;
export const NUL = 0;
export const TAB = 9;
export const DOT = 46;
export const SPACE = 32;
export const HYPHEN = 45;
/** The line end of every one of these protocols on the wire (RFC 5321 2.3.8, RFC 959 4.1). */
export const CRLF: Uint8Array = Uint8Array.of(CR, LF);
/** The same line end as text, for what is composed as a string first. */
export const CRLF_TEXT = '\r\n';

const EMPTY = new Uint8Array(0);

/** The parts as one array: the part itself when there is one (no copy), else a new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 0) return EMPTY;
  if (parts.length === 1) return parts[0];
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `a` then `b`, without copying when either is empty (a parser's rest before the next chunk). */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  return concatBytes([a, b]);
}

/** The end of the line [start, lf) without a CR before the LF (RFC 5321 2.3.8: CR LF ends a line). */
export function lineEnd(bytes: Uint8Array, start: number, lf: number): number {
  return lf > start && bytes[lf - 1] === CR ? lf - 1 : lf;
}
