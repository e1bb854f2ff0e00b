// EBCDIC code page 037 (IBM CECP USA/Canada), the character set of the 3270 data stream that an
// IBM-3278-2 terminal shows (RFC 1576: the data stream is the 3270's own, in EBCDIC; IBM GA23-0059
// "3270 Data Stream Programmer's Reference"). Pure: two tables and two functions.

/**
 * The characters of the octets 0x40-0xFF (the displayable range of code page 037; 0xFF, EO, shows
 * as a space). The octets below 0x40 are orders and controls, shown by `displayChar`.
 */
const HIGH =
  ' \u00a0âäàáãåçñ¢.<(+|&éêëèíîïìß!$*);¬' +
  '-/ÂÄÀÁÃÅÇÑ¦,%_>?øÉÊËÈÍÎÏÌ`:#@\'="' +
  'Øabcdefghi«»ðýþ±°jklmnopqrªºæ¸Æ¤' +
  'µ~stuvwxyz¡¿ÐÝÞ®^£¥·©§¶¼½¾[]¯¨´×' +
  '{ABCDEFGHI\u00adôöòóõ}JKLMNOPQR¹ûüùúÿ' +
  '\\÷STUVWXYZ²ÔÖÒÓÕ0123456789³ÛÜÙÚ ';

/** The octets of the characters of HIGH (the first octet wins; the space is 0x40). */
const ENCODE: ReadonlyMap<string, number> = new Map([...HIGH].map((c, i): [string, number] => [c, 0x40 + i]).reverse());

/**
 * The character an octet of a 3270 buffer shows (code page 037, GA23-0059 "Character Sets"):
 * NUL and the other controls below 0x40 as a space, DUP (0x1C) as "*", FM (0x1E) as ";" (as
 * 3270 displays show them).
 */
export function displayChar(octet: number): string {
  if (octet >= 0x40) return HIGH[octet - 0x40];
  if (octet === 0x1c) return '*';
  if (octet === 0x1e) return ';';
  return ' ';
}

/** The code page 037 octet of a character, or null when the code page has none (GA23-0059). */
export function encodeChar(ch: string): number | null {
  return ENCODE.get(ch) ?? null;
}

/** Octets to text (code page 037), each octet as `displayChar` shows it. */
export function decodeEbcdic(octets: Uint8Array): string {
  let s = '';
  for (const o of octets) s += displayChar(o);
  return s;
}
