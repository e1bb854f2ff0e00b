// The scanner behind extract(): finds URLs in plain text (RFC 1738 appendix, "Recommendations
// for URLs in Context"; the "Wrappers for URIs in plain text" appendix of the 1993-10 and 1994-03
// drafts). One char-code pass that jumps from candidate to candidate with indexOf (":" for a
// scheme, "<" for a wrapper); no regular expression and no substring until a match is made.
//
// The scanner works on a buffer that a caller may extend (the streaming form): every decision is
// made from the text alone, and a candidate that runs into the end of the buffer is answered
// MORE; its scan state is saved and resumed where it stopped when more text has come (so a long
// candidate fed in small chunks is still read once). The whole-text form is the same scanner
// with one buffer marked final, so the two forms agree by construction.
//
//   buffer:  ....keep....|.............pending / unscanned..............|
//            ^ base       ^ pos - LOOKBACK     ^ pos                     ^ buf.length
//
// Offsets in the buffer are relative to `base`, the absolute offset (UTF-16 code units) of its
// first code unit in the whole input.

import { CHAR_CLASS, SCHEME, HEX, ALPHA } from '../core/charclass.js';
import { schemeTable } from '../schemes/registry.js';

/** How the URL was written (RFC 1738 appendix). */
export type MatchForm = 'prefixed' | 'bracketed' | 'bare';

/** One URL found in the text (../shared/docs/contract.md, `locator extract`). */
export interface Match {
  /** The URL: no wrapper, no `URL:` prefix, no white space (RFC 1738 appendix). */
  url: string;
  /** Offset of the first code unit of the match in the input (the "<" of a wrapper). */
  start: number;
  /** Offset just after the match (after the ">" of a wrapper). */
  end: number;
  /** 1-based line of `start`; LF, CR LF and a lone CR each end a line. */
  line: number;
  /** 1-based column of `start`, in UTF-16 code units from the start of its line. */
  column: number;
  form: MatchForm;
  /** Other readings: for each line break right after a hyphen, the URL without that hyphen. */
  alternatives: string[];
}

/** The longest scheme name the scanner looks back for before a ":". */
export const MAX_SCHEME_LENGTH = 64;
/** Code units kept before the scan position (scheme look-back, the quote prefix of a line). */
export const LOOKBACK = 256;
/** The longest run of lines between two parts of a URL split by a page break. */
const PAGE_BREAK_LINES = 16;
/** Alternatives are listed for every subset of at most this many hyphen breaks. */
const MAX_HYPHEN_SUBSETS = 4;

// Character tables, one entry per UTF-16 code unit.

// Inside a wrapper: 0 content, 1 horizontal white space, 2 CR, 3 LF, 4 "<", 5 ">", 6 a control
// character that is not white space (abandons the wrapper).
const W_CONTENT = 0, W_SPACE = 1, W_CR = 2, W_LF = 3, W_OPEN = 4, W_CLOSE = 5, W_CONTROL = 6;
const WRAP = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 0; c < 32; c++) t[c] = W_CONTROL;
  t[127] = W_CONTROL;
  for (const c of [9, 11, 12, 32, 0xa0, 0x1680, 0x202f, 0x205f, 0x3000, 0xfeff, 0x2028, 0x2029]) t[c] = W_SPACE;
  for (let c = 0x2000; c <= 0x200a; c++) t[c] = W_SPACE;
  t[13] = W_CR;
  t[10] = W_LF;
  t[60] = W_OPEN;
  t[62] = W_CLOSE;
  return t;
})();

// A bare URL (RFC 1738 2.2): 1 a character that may appear unencoded, 2 "%", 3 "#"; 0 ends it
// (white space, controls, the unsafe characters < > " { } | \ ^ ~ [ ] `, and non-ASCII).
const B_STOP = 0, B_OK = 1, B_PERCENT = 2, B_HASH = 3;
const BARE = /* @__PURE__ */ (() => {
  const t = new Uint8Array(65536);
  for (let c = 33; c < 127; c++) t[c] = B_OK;
  for (const ch of '<>"{}|\\^~[]`') t[ch.charCodeAt(0)] = B_STOP;
  t[37] = B_PERCENT;
  t[35] = B_HASH;
  return t;
})();

// Trailing punctuation left out of a bare URL: . , ; : ! ?
const TRAIL = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128);
  for (const ch of '.,;:!?') t[ch.charCodeAt(0)] = 1;
  return t;
})();

const isSchemeChar = (c: number) => c < 128 && (CHAR_CLASS[c] & SCHEME) !== 0;
const isHex = (c: number) => c < 128 && (CHAR_CLASS[c] & HEX) !== 0;

/** The scan state of a candidate that answered MORE; offsets are absolute. */
interface Saved {
  /** The candidate: its ":" (bare) or "<" (wrapper). */
  at: number;
  /** Where its scan stopped. */
  i: number;
  hashSeen: boolean;
  wrap: {
    state: number; prefixed: boolean; pieces: number[]; outLen: number; seg: number; runStart: number;
    runHash: number; runLen: number; restStart: number; hyphenLast: boolean; hyphens: number[] | null; quote: number;
  } | null;
}

/** A candidate that needs text beyond the end of the buffer. */
const MORE = -2;
/** A candidate that is not a URL: scanning resumes after its first character. */
const FAIL = -1;

/** The next index of one character at or after a position, remembered between calls. */
class NextIndex {
  /** The last index found, or -1. */
  at = -1;
  /** Everything before this index has been searched (apart from `at`). */
  upto = 0;
  constructor(readonly ch: string) {}
  find(buf: string, from: number): number {
    if (this.at >= from) return this.at;
    const i = buf.indexOf(this.ch, from > this.upto ? from : this.upto);
    if (i < 0) {
      this.upto = buf.length;
      return -1;
    }
    this.at = i;
    this.upto = i + 1;
    return i;
  }
  shift(n: number): void {
    this.at -= n;
    this.upto = this.upto > n ? this.upto - n : 0;
  }
}

/** Options of the scanner (validated by the public functions). */
export interface ScanOptions {
  maxLength: number;
  bare: boolean;
}

/**
 * The resumable scanner (RFC 1738 appendix). `next()` returns the next match in the buffer, or
 * null when the buffer holds no more (all of it when `final`).
 */
export class Scanner {
  buf = '';
  /** Absolute offset of buf[0]. */
  base = 0;
  /** Where scanning resumes (a pending candidate starts here). */
  pos = 0;
  final = false;
  /** Absolute end of the last match; a scheme is never looked for before it. */
  lastEnd = 0;
  /** Inside a run of URL characters longer than maxLength: skip to its end. */
  skipRun = false;
  /** The saved state of the candidate that last answered MORE (absolute offsets), or null. */
  #saved: Saved | null = null;

  // Line counting, advanced lazily up to match starts and to the compaction point.
  #lcAbs = 0;
  #line = 1;
  #lineStart = 0;
  /** The code unit before buf[0] is a CR (so an LF at buf[0] ends no new line). */
  #crBeforeBuf = false;

  readonly #colon = new NextIndex(':');
  readonly #lt = new NextIndex('<');
  readonly #lf = new NextIndex('\n');
  readonly #cr = new NextIndex('\r');
  readonly #max: number;
  readonly #bare: boolean;

  constructor(options: ScanOptions) {
    this.#max = options.maxLength;
    this.#bare = options.bare;
  }

  /** Appends text, first dropping what no later match can need (the streaming form). */
  append(chunk: string): void {
    const keep = this.pos - LOOKBACK;
    if (keep > 0) {
      this.#advanceLines(this.base + keep);
      this.#crBeforeBuf = this.buf.charCodeAt(keep - 1) === 13;
      this.buf = this.buf.slice(keep) + chunk;
      this.base += keep;
      this.pos -= keep;
      this.#colon.shift(keep);
      this.#lt.shift(keep);
      this.#lf.shift(keep);
      this.#cr.shift(keep);
    } else {
      this.buf += chunk;
    }
  }

  /** The next match, or null when the buffer has no more (or a candidate needs more text). */
  next(): Match | null {
    const buf = this.buf;
    for (;;) {
      if (this.skipRun) {
        let i = this.pos;
        while (i < buf.length && BARE[buf.charCodeAt(i)] !== B_STOP) i++;
        this.pos = i;
        if (i === buf.length && !this.final) return null;
        this.skipRun = false;
      }
      const c = this.#bare ? this.#colon.find(buf, this.pos) : -1;
      const l = this.#lt.find(buf, this.pos);
      let r: Match | number;
      let at: number;
      if (l >= 0 && (c < 0 || l < c)) {
        at = l;
        r = this.#wrapper(l);
      } else if (c >= 0) {
        at = c;
        r = this.#bareUrl(c);
      } else {
        this.pos = buf.length;
        return null;
      }
      if (r === MORE) {
        this.pos = at;
        return null;
      }
      this.#saved = null;
      if (r === FAIL) {
        if (!this.skipRun) this.pos = at + 1;
        continue;
      }
      return r as Match;
    }
  }

  /** Makes the match object and moves past it. `s` and `e` are buffer indices. */
  #emit(url: string, s: number, e: number, form: MatchForm, alternatives: string[]): Match {
    const start = this.base + s;
    this.#advanceLines(start);
    this.pos = e;
    this.lastEnd = this.base + e;
    return { url, start, end: this.base + e, line: this.#line, column: start - this.#lineStart + 1, form, alternatives };
  }

  /** Counts line ends before the absolute offset `abs` (LF, CR LF, lone CR: one each). */
  #advanceLines(abs: number): void {
    if (abs <= this.#lcAbs) return;
    const buf = this.buf;
    const end = abs - this.base;
    let i = this.#lcAbs - this.base;
    while (i < end) {
      const lf = this.#lf.find(buf, i);
      const cr = this.#cr.find(buf, i);
      const k = lf < 0 ? cr : cr < 0 ? lf : lf < cr ? lf : cr;
      if (k < 0 || k >= end) break;
      if (k === cr) this.#line++;
      else if (!(k > 0 ? buf.charCodeAt(k - 1) === 13 : this.#crBeforeBuf)) this.#line++;
      this.#lineStart = this.base + k + 1;
      i = k + 1;
    }
    this.#lcAbs = abs;
  }

  // ---- bare URLs -----------------------------------------------------------------------------

  /**
   * A bare URL at the ":" at index `c` (RFC 1738 2.1, 2.2; appendix): a registered scheme ends
   * there; the URL runs to white space or a character that may not appear unencoded, less
   * trailing sentence punctuation. Internet-syntax schemes (RFC 1738 3.1) need "//" and
   * something after it; opaque ones need something after the ":".
   */
  #bareUrl(c: number): Match | number {
    const buf = this.buf;
    let floor = this.lastEnd - this.base;
    if (floor < c - MAX_SCHEME_LENGTH) floor = c - MAX_SCHEME_LENGTH;
    if (floor < 0) floor = 0;
    let ts = c;
    let hash = 0;
    while (ts > floor && isSchemeChar(buf.charCodeAt(ts - 1))) ts--;
    if (ts === floor && ts === c - MAX_SCHEME_LENGTH && ts > 0 && isSchemeChar(buf.charCodeAt(ts - 1))) return FAIL;
    // Punctuation before the name ("--http:", "...ftp:") is not part of it.
    while (ts < c && (CHAR_CLASS[buf.charCodeAt(ts)] & ALPHA) === 0 && !isDigit(buf.charCodeAt(ts))) ts++;
    if (ts === c) return FAIL;
    for (let k = ts; k < c; k++) {
      let ch = buf.charCodeAt(k);
      if (ch >= 65 && ch <= 90) ch |= 32;
      hash = (Math.imul(hash, 31) + ch) >>> 0;
    }
    const spec = schemeTable().lookup(buf, ts, c, hash);
    if (spec === undefined) return FAIL;
    const internet = spec.syntax === 'internet';
    let i = c + 1;
    if (internet) {
      if (c + 2 >= buf.length) return this.final ? FAIL : MORE;
      if (buf.charCodeAt(c + 1) !== 47 || buf.charCodeAt(c + 2) !== 47) return FAIL;
      i = c + 3;
    }
    const limit = ts + this.#max;
    let hashSeen = false;
    const saved = this.#saved;
    if (saved !== null && saved.at === this.base + c) {
      i = saved.i - this.base;
      hashSeen = saved.hashSeen;
    }
    for (; i < buf.length && i <= limit; i++) {
      const f = BARE[buf.charCodeAt(i)];
      if (f === B_OK) continue;
      if (f === B_PERCENT) {
        if (i + 2 >= buf.length && !this.final) return this.#saveBare(c, i, hashSeen);
        if (isHex(buf.charCodeAt(i + 1)) && isHex(buf.charCodeAt(i + 2))) {
          i += 2;
          continue;
        }
        break;
      }
      if (f === B_HASH && !hashSeen) {
        hashSeen = true;
        continue;
      }
      break;
    }
    if (i > limit) {
      // Longer than maxLength: not a URL; skip the rest of this run of URL characters.
      this.pos = i;
      this.skipRun = true;
      return FAIL;
    }
    if (i === buf.length && !this.final) return this.#saveBare(c, i, hashSeen);
    const e = trimTrailing(buf, ts, i);
    if (e <= (internet ? c + 3 : c + 1)) return FAIL;
    return this.#emit(buf.slice(ts, e), ts, e, 'bare', []);
  }

  #saveBare(c: number, i: number, hashSeen: boolean): number {
    this.#saved = { at: this.base + c, i: this.base + i, hashSeen, wrap: null };
    return MORE;
  }

  // ---- wrappers ------------------------------------------------------------------------------

  /**
   * A wrapper at the "<" at index `l` (RFC 1738 appendix): `<URL:scheme:...>` (any scheme
   * name) or `<scheme:...>` (a registered scheme). White space inside is removed, line breaks
   * and the indentation of the next line included; a line break right after a hyphen keeps the
   * hyphen and lists the reading without it; a page break (footer, header and the blank lines
   * around them) between two parts is skipped; a mail quote prefix ("> ") repeated on the next
   * line is skipped. A paragraph break, a nested "<", a control character, or no ">" within
   * maxLength code units abandons the wrapper.
   */
  #wrapper(l: number): Match | number {
    const buf = this.buf;
    const len = buf.length;
    const limit = l + this.#max; // the ">" must come before this index
    const stop = limit < len ? limit : len;
    // 0: the first name (a scheme, or "URL"), 1: the scheme after "URL:", 2: the rest
    let state = 0;
    let prefixed = false;
    // The URL as pieces [from, to) of the buffer; outLen is their total length.
    let pieces: number[] = [];
    let outLen = 0;
    let seg = -1;
    let runStart = -1; // buffer index where the current name began
    let runHash = 0;
    let runLen = 0;
    let restStart = 0;
    let hyphenLast = false;
    let hyphens: number[] | null = null;
    let quote = -1; // quote depth of the wrapper's line, computed at the first line break
    let i = l + 1;
    const saved = this.#saved;
    if (saved !== null && saved.wrap !== null && saved.at === this.base + l) {
      // Resume where the scan stopped for want of text (offsets were saved absolute).
      const w = saved.wrap;
      const b = this.base;
      state = w.state;
      prefixed = w.prefixed;
      pieces = w.pieces.map((x) => x - b);
      outLen = w.outLen;
      seg = w.seg < 0 ? -1 : w.seg - b;
      runStart = w.runStart < 0 ? -1 : w.runStart - b;
      runHash = w.runHash;
      runLen = w.runLen;
      restStart = w.restStart;
      hyphenLast = w.hyphenLast;
      hyphens = w.hyphens;
      quote = w.quote;
      i = saved.i - b;
    }
    while (i < stop) {
      const ch = buf.charCodeAt(i);
      const w = WRAP[ch];
      if (w === W_CONTENT) {
        if (seg < 0) seg = i;
        if (state === 2) {
          hyphenLast = ch === 45;
          i++;
          continue;
        }
        if (ch === 58) {
          // the end of a name
          if (runLen === 0) return FAIL;
          if (state === 0) {
            if (runLen === 3 && this.#nameIs(pieces, seg, i, runStart, 'url')) {
              prefixed = true;
              state = 1;
              pieces.length = 0;
              outLen = 0;
              seg = -1;
              hyphens = null;
              runLen = 0;
              runHash = 0;
              i++;
              continue;
            }
            if (!this.#registered(pieces, seg, i, runStart, runLen, runHash)) return FAIL;
          }
          state = 2;
          outLen += i + 1 - seg;
          pieces.push(seg, i + 1);
          seg = -1;
          restStart = outLen;
          hyphenLast = false;
          i++;
          continue;
        }
        if (!isSchemeChar(ch)) return FAIL;
        if (runLen === 0) runStart = i;
        runLen++;
        runHash = (Math.imul(runHash, 31) + (ch >= 65 && ch <= 90 ? ch | 32 : ch)) >>> 0;
        hyphenLast = ch === 45;
        i++;
        continue;
      }
      if (seg >= 0) {
        pieces.push(seg, i);
        outLen += i - seg;
        seg = -1;
      }
      if (w === W_SPACE) {
        i++;
        continue;
      }
      if (w === W_CLOSE) {
        if (state !== 2 || outLen === restStart) return FAIL;
        const url = join(buf, pieces);
        return this.#emit(url, l, i + 1, prefixed ? 'prefixed' : 'bracketed', alternatives(url, hyphens));
      }
      if (w === W_OPEN || w === W_CONTROL) return FAIL;
      // A line break.
      if (hyphenLast) {
        (hyphens ??= []).push(outLen - 1);
        hyphenLast = false;
      }
      if (quote < 0) quote = this.#quoteDepth(l);
      const n = this.#nextLine(i, stop, quote);
      if (n === MORE) {
        if (this.final || stop === limit) return FAIL;
        this.#saveWrap(l, i, { state, prefixed, pieces, outLen, seg, runStart, runHash, runLen, restStart, hyphenLast, hyphens, quote });
        return MORE;
      }
      if (n === FAIL) return FAIL;
      i = n;
    }
    if (this.final || stop === limit) return FAIL;
    this.#saveWrap(l, i, { state, prefixed, pieces, outLen, seg, runStart, runHash, runLen, restStart, hyphenLast, hyphens, quote });
    return MORE;
  }

  /** Saves a wrapper's scan state with absolute offsets (the buffer may be compacted). */
  #saveWrap(l: number, i: number, w: NonNullable<Saved['wrap']>): void {
    const b = this.base;
    w.pieces = w.pieces.map((x) => x + b);
    if (w.seg >= 0) w.seg += b;
    if (w.runStart >= 0) w.runStart += b;
    this.#saved = { at: b + l, i: b + i, hashSeen: false, wrap: w };
  }

  /** Whether the name just read (pieces + [seg, end)) is `want`, ignoring case. */
  #nameIs(pieces: number[], seg: number, end: number, runStart: number, want: string): boolean {
    const name = pieces.length === 0 && runStart >= seg ? this.buf.slice(runStart, end) : nameText(this.buf, pieces, seg, end);
    return name.toLowerCase() === want;
  }

  /** Whether the name just read is a registered scheme (RFC 1738 4: the registry). */
  #registered(pieces: number[], seg: number, end: number, runStart: number, runLen: number, hash: number): boolean {
    if (end - runStart === runLen) return schemeTable().lookup(this.buf, runStart, end, hash) !== undefined;
    const name = nameText(this.buf, pieces, seg, end);
    return schemeTable().lookup(name, 0, name.length, hash) !== undefined;
  }

  /**
   * From the line break at `i`, the index where the URL continues on a following line: after
   * the break, the indentation, and the quote prefix; across a page break. FAIL for a blank line
   * that is not part of a page break (a paragraph break ends no URL), MORE at the buffer end.
   */
  #nextLine(i: number, stop: number, quote: number): number {
    const buf = this.buf;
    const k = this.#skipBreak(i, stop);
    if (k < 0) return k;
    let j = skipIndent(buf, k, stop, quote);
    if (j >= stop) return MORE;
    const w = WRAP[buf.charCodeAt(j)];
    if (w !== W_CR && w !== W_LF) return j;
    if (quote > 0) return FAIL;
    return this.#pageBreak(k, stop);
  }

  /** The index after the line break at `i` (CR LF is one break); MORE if it may continue. */
  #skipBreak(i: number, stop: number): number {
    if (this.buf.charCodeAt(i) === 13) {
      if (i + 1 >= stop) return MORE;
      if (this.buf.charCodeAt(i + 1) === 10) return i + 2;
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
  #pageBreak(k: number, stop: number): number {
    const buf = this.buf;
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
      const next = this.#skipBreak(e, stop);
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
  #quoteDepth(l: number): number {
    const buf = this.buf;
    const lim = l - LOOKBACK > 0 ? l - LOOKBACK : 0;
    let j = l;
    while (j > lim) {
      const c = buf.charCodeAt(j - 1);
      if (c === 10 || c === 13) break;
      j--;
    }
    if (j === lim && !(j === 0 && this.base === 0)) {
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
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Skips the indentation and up to `quote` quote marks (">") at the start of a line. */
function skipIndent(buf: string, j: number, stop: number, quote: number): number {
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

/** The text of the pieces plus [seg, end). */
function nameText(buf: string, pieces: number[], seg: number, end: number): string {
  let s = '';
  for (let p = 0; p < pieces.length; p += 2) s += buf.slice(pieces[p], pieces[p + 1]);
  if (seg >= 0) s += buf.slice(seg, end);
  return s;
}

function join(buf: string, pieces: number[]): string {
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
function alternatives(url: string, hyphens: number[] | null): string[] {
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
function trimTrailing(buf: string, s: number, e: number): number {
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
