// Where a URL wrapped in "<" ... ">" continues after a line break (RFC 1738 appendix: "white
// space ... should be ignored"): the next line's indentation and mail quote prefix, and a page
// break of a paginated text. Each function answers an index, or MORE / FAIL as the scanner's
// candidates do.

import { WRAP, W_SPACE, W_CR, W_LF, isDigit } from './chars.js';

/** Code units kept before the scan position (scheme look-back, the quote prefix of a line). */
export const LOOKBACK = 256;
/** The longest run of lines between two parts of a URL split by a page break. */
const PAGE_BREAK_LINES = 16;

/** A candidate that needs text beyond the end of the buffer. */
export const MORE = -2;
/** A candidate that is not a URL: scanning resumes after its first character. */
export const FAIL = -1;

/**
 * From the line break at `i` of `buf`, the index where the URL continues on a following line: after
 * the break, the indentation, and the quote prefix; across a page break. FAIL for a blank line
 * that is not part of a page break (a paragraph break ends no URL), MORE at the buffer end.
 */
export function nextLine(buf: string, i: number, stop: number, quote: number): number {
  const k = skipBreak(buf, i, stop);
  if (k < 0) return k;
  let j = skipIndent(buf, k, stop, quote);
  if (j >= stop) return MORE;
  const w = WRAP[buf.charCodeAt(j)];
  if (w !== W_CR && w !== W_LF) return j;
  if (quote > 0) return FAIL;
  return pageBreak(buf, k, stop);
}

/** The index after the line break at `i` of `buf` (CR LF is one break); MORE if it may continue. */
export function skipBreak(buf: string, i: number, stop: number): number {
  if (buf.charCodeAt(i) === 13) {
    if (i + 1 >= stop) return MORE;
    if (buf.charCodeAt(i + 1) === 10) return i + 2;
  }
  return i + 1;
}

/**
 * DEVIATION: the appendix ignores only white space between the parts of a URL; a page footer
 * and header are skipped as well, because the 1993-10 draft's own references break a URL
 * across a page (and any paginated RFC may). Only this narrow shape is taken for one.
 *
 * A page break of a paginated text (an RFC or Internet-Draft) between two parts of a URL: from
 * the blank line at `k`, blank lines, a footer that ends with the page number ("[Page 21]",
 * "20"), blank lines or form feeds, a header, blank lines, then the line where the URL
 * continues. Returns the index of its first character, FAIL, or MORE.
 */
export function pageBreak(buf: string, k: number, stop: number): number {
  // 0: blank lines before the footer, 1: after the footer, 2: after the header (needs blank)
  let phase = 0;
  let blanksAfterHeader = 0;
  for (let n = 0; n < PAGE_BREAK_LINES; n++) {
    const first = skipIndent(buf, k, stop, 0);
    if (first >= stop) return MORE;
    const c = buf.charCodeAt(first);
    const blank = c === 13 || c === 10;
    if (!blank && phase === 2) return blanksAfterHeader > 0 ? first : FAIL;
    let e = first;
    while (e < stop && buf.charCodeAt(e) !== 13 && buf.charCodeAt(e) !== 10) e++;
    if (e >= stop) return MORE;
    if (!blank) {
      if (phase === 0) {
        if (!isFooter(buf, first, e)) return FAIL;
        phase = 1;
      } else phase = 2;
    } else if (phase === 2) blanksAfterHeader++;
    const next = skipBreak(buf, e, stop);
    if (next < 0) return next;
    k = next;
  }
  return FAIL;
}

/**
 * DEVIATION: besides white space, the quote marks a mail reader puts before each line of a
 * quoted message are skipped, as deep as on the wrapper's first line (the appendix names mail
 * and news as the places URLs are written; RFC 1738 does not speak of quoting).
 *
 * The number of ">" in the mail quote prefix of the line where the "<" at `l` stands ("> > "
 * before the text); 0 when there is none or the line start is more than LOOKBACK back.
 */
export function quoteDepth(buf: string, base: number, l: number): number {
  const lim = l - LOOKBACK > 0 ? l - LOOKBACK : 0;
  let j = l;
  while (j > lim) {
    const c = buf.charCodeAt(j - 1);
    if (c === 10 || c === 13) break;
    j--;
  }
  if (j === lim && !(j === 0 && base === 0)) {
    const c = j > 0 ? buf.charCodeAt(j - 1) : 0;
    if (c !== 10 && c !== 13) return 0;
  }
  let d = 0;
  for (; j < l; j++) {
    const c = buf.charCodeAt(j);
    if (c === 62) d++;
    else if (c !== 32 && c !== 9) break;
  }
  return d;
}

/** Skips the indentation and up to `quote` quote marks (">") at the start of a line. */
export function skipIndent(buf: string, j: number, stop: number, quote: number): number {
  let q = 0;
  while (j < stop) {
    const c = buf.charCodeAt(j);
    if (WRAP[c] === W_SPACE) j++;
    else if (c === 62 && q < quote) {
      q++;
      j++;
    } else break;
  }
  return j;
}

/** A page footer [first, e): the line ends with a page number ("... 20", "... [Page 21]"). */
function isFooter(buf: string, first: number, e: number): boolean {
  while (e > first && WRAP[buf.charCodeAt(e - 1)] === W_SPACE) e--;
  if (e > first && buf.charCodeAt(e - 1) === 93) e--; // "]"
  let d = e;
  while (d > first && isDigit(buf.charCodeAt(d - 1))) d--;
  if (d === e || e - d > 4 || d === first) return false;
  return WRAP[buf.charCodeAt(d - 1)] === W_SPACE;
}
