// From the text a candidate covers to the URL and its readings: the pieces of a wrapped URL
// joined, the readings without a hyphen at a line break, and a bare URL's trailing punctuation
// left out (RFC 1738 appendix).

import { TRAIL } from './chars.js';

/** Alternatives are listed for every subset of at most this many hyphen breaks. */
const MAX_HYPHEN_SUBSETS = 4;

/** The text of the pieces plus [seg, end). */
export function nameText(buf: string, pieces: number[], seg: number, end: number): string {
  let s = '';
  for (let p = 0; p < pieces.length; p += 2) s += buf.slice(pieces[p], pieces[p + 1]);
  if (seg >= 0) s += buf.slice(seg, end);
  return s;
}

export function join(buf: string, pieces: number[]): string {
  if (pieces.length === 2) return buf.slice(pieces[0], pieces[1]);
  let s = '';
  for (let p = 0; p < pieces.length; p += 2) s += buf.slice(pieces[p], pieces[p + 1]);
  return s;
}

/**
 * The readings without some of the hyphens that stood before a line break (RFC 1738 appendix:
 * "the hyphen may or may not actually be part of the URL"): every subset, fewest removals
 * first, for up to MAX_HYPHEN_SUBSETS such hyphens; beyond that only the reading without all.
 */
export function alternatives(url: string, hyphens: number[] | null): string[] {
  if (hyphens === null) return [];
  const k = hyphens.length;
  const without = (mask: number) => {
    let s = '';
    let from = 0;
    for (let b = 0; b < k; b++) {
      if ((mask & (1 << b)) === 0) continue;
      s += url.slice(from, hyphens[b]);
      from = hyphens[b] + 1;
    }
    return s + url.slice(from);
  };
  if (k > MAX_HYPHEN_SUBSETS) return [without((1 << k) - 1)];
  const masks: number[] = [];
  for (let m = 1; m < 1 << k; m++) masks.push(m);
  masks.sort((a, b) => popcount(a) - popcount(b) || a - b);
  return masks.map(without);
}

function popcount(m: number): number {
  let n = 0;
  for (; m !== 0; m &= m - 1) n++;
  return n;
}

/**
 * The end of a bare URL [s, e) without trailing sentence punctuation (. , ; : ! ?), a closing
 * ")" that has no "(" in the URL, and a closing "'" with no opening one (RFC 1738 appendix:
 * "punctuation marks that might be mistaken for part of the URL").
 */
export function trimTrailing(buf: string, s: number, e: number): number {
  for (;;) {
    if (e <= s) return e;
    const c = buf.charCodeAt(e - 1);
    if (c < 128 && TRAIL[c] === 1) {
      e--;
      continue;
    }
    if (c === 41 || c === 39) {
      const open = c === 41 ? 40 : 39;
      let opens = 0;
      let closes = 0;
      for (let k = s; k < e; k++) {
        const x = buf.charCodeAt(k);
        if (x === open && c === 41) opens++;
        else if (x === c) closes++;
      }
      if (c === 39 ? closes % 2 === 1 : closes > opens) {
        e--;
        continue;
      }
    }
    return e;
  }
}
