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
//
// This file holds the candidate recognition (a scheme before ":", a wrapper from "<"); the
// character tables are in chars.ts, where a wrapped URL continues after a line break in
// lines.ts, and joining, hyphen readings and trailing punctuation in readings.ts.

import { CHAR_CLASS, ALPHA } from '../core/charclass.js';
import { schemeTable } from '../schemes/registry.js';
import {
  WRAP,
  W_CONTENT,
  W_SPACE,
  W_OPEN,
  W_CLOSE,
  W_CONTROL,
  BARE,
  TRAIL,
  B_STOP,
  B_OK,
  B_PERCENT,
  B_HASH,
  isSchemeChar,
  isHex,
  isDigit,
} from './chars.js';
import { LOOKBACK, MORE, FAIL, nextLine, quoteDepth } from './lines.js';
import { nameText, join, alternatives, trimTrailing } from './readings.js';

export { LOOKBACK };

/** How the URL was written (RFC 1738 appendix). */
export type MatchForm = 'prefixed' | 'bracketed' | 'bare';

/** One URL found in the text (test/data/docs/contract.md, `locator extract`). */
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
  /**
   * Only with the option `written`: the text as written, when `url` is not simply that text
   * less a wrapper (absent otherwise):
   * `run-on`, a bare URL stopped at a character that may not appear unencoded (RFC 1738 2.2)
   * while the text runs on with no white space: `text` is the whole run (to white space, less
   * trailing punctuation and closing brackets or quotes), the candidate a reader sees;
   * `white-space`, white space inside a wrapper was ignored (RFC 1738 appendix): `text` is the
   * URL's part of the wrapper as written, from its first character to its last.
   */
  written?: Written;
}

/** See Match.written. `start` and `end` are offsets in the input, like the match's. */
export interface Written {
  why: 'run-on' | 'white-space';
  text: string;
  start: number;
  end: number;
}

/** The longest scheme name the scanner looks back for before a ":". */
export const MAX_SCHEME_LENGTH = 64;
/** The scan state of a candidate that answered MORE; offsets are absolute. */
interface Saved {
  /** The candidate: its ":" (bare) or "<" (wrapper). */
  at: number;
  /** Where its scan stopped. */
  i: number;
  hashSeen: boolean;
  wrap: {
    state: number;
    prefixed: boolean;
    pieces: number[];
    outLen: number;
    seg: number;
    runStart: number;
    runHash: number;
    runLen: number;
    restStart: number;
    hyphenLast: boolean;
    hyphens: number[] | null;
    quote: number;
  } | null;
}

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
  /** Say where a match is not the text as written (Match.written). */
  written: boolean;
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
  readonly #written: boolean;

  constructor(options: ScanOptions) {
    this.#max = options.maxLength;
    this.#bare = options.bare;
    this.#written = options.written;
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
  #emit(
    url: string,
    s: number,
    e: number,
    form: MatchForm,
    alternatives: string[],
    written: [Written['why'], number, number] | null = null,
  ): Match {
    const start = this.base + s;
    this.#advanceLines(start);
    this.pos = e;
    this.lastEnd = this.base + e;
    const m: Match = {
      url,
      start,
      end: this.base + e,
      line: this.#line,
      column: start - this.#lineStart + 1,
      form,
      alternatives,
    };
    if (written !== null && this.#written) {
      const [why, ws, we] = written;
      m.written = { why, text: this.buf.slice(ws, we), start: this.base + ws, end: this.base + we };
    }
    return m;
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
      if (internet && buf.charCodeAt(i) === 91) {
        // An IPv6 literal host, "[" hex, ":" and "." "]" (RFC 2732 2, RFC 3986 3.2.2).
        const close = ipLiteralEnd(buf, c + 3, i);
        if (close === MORE && !this.final) return this.#saveBare(c, i, hashSeen);
        if (close >= 0) {
          i = close;
          continue;
        }
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
    // Stopped inside a word: the text runs on past the URL, and the reader sees all of it.
    let written: [Written['why'], number, number] | null = null;
    if (this.#written && i < buf.length && !endsRun(buf.charCodeAt(i)) && !delimits(buf.charCodeAt(i))) {
      let j = i + 1;
      while (j < buf.length && j <= limit && !endsRun(buf.charCodeAt(j))) j++;
      if (j === buf.length && !this.final) return this.#saveBare(c, i, hashSeen);
      const runEnd = trimClosers(buf, ts, i, j);
      if (j <= limit && runEnd > i) written = ['run-on', ts, runEnd];
    }
    return this.#emit(buf.slice(ts, e), ts, e, 'bare', [], written);
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
        // White space inside the URL was ignored (the appendix rule): the row may say so.
        const first = pieces[0];
        const last = pieces[pieces.length - 1];
        const spaced = last - first !== url.length;
        return this.#emit(
          url,
          l,
          i + 1,
          prefixed ? 'prefixed' : 'bracketed',
          alternatives(url, hyphens),
          spaced ? ['white-space', first, last] : null,
        );
      }
      if (w === W_OPEN || w === W_CONTROL) return FAIL;
      // A line break.
      if (hyphenLast) {
        (hyphens ??= []).push(outLen - 1);
        hyphenLast = false;
      }
      if (quote < 0) quote = quoteDepth(buf, this.base, l);
      const n = nextLine(buf, i, stop, quote);
      if (n === MORE) break; // the wrapper goes on past the buffer: saved below
      if (n === FAIL) return FAIL;
      i = n;
    }
    if (this.final || stop === limit) return FAIL;
    this.#saveWrap(l, i, {
      state,
      prefixed,
      pieces,
      outLen,
      seg,
      runStart,
      runHash,
      runLen,
      restStart,
      hyphenLast,
      hyphens,
      quote,
    });
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
    const name =
      pieces.length === 0 && runStart >= seg ? this.buf.slice(runStart, end) : nameText(this.buf, pieces, seg, end);
    return name.toLowerCase() === want;
  }

  /** Whether the name just read is a registered scheme (RFC 1738 4: the registry). */
  #registered(pieces: number[], seg: number, end: number, runStart: number, runLen: number, hash: number): boolean {
    if (end - runStart === runLen) return schemeTable().lookup(this.buf, runStart, end, hash) !== undefined;
    const name = nameText(this.buf, pieces, seg, end);
    return schemeTable().lookup(name, 0, name.length, hash) !== undefined;
  }
}

/** True for what ends a run of text: white space, a line break, a control character. */
function endsRun(c: number): boolean {
  const w = WRAP[c];
  return w !== W_CONTENT && w !== W_OPEN && w !== W_CLOSE;
}

/**
 * The characters that delimit a URL in free text (RFC 1738 2.2: "<" and ">" around URLs, the quote
 * mark '"' in some systems; the backquote of Markdown code): a bare URL that stops at one ends
 * there, it does not run on (`"ftp://h/x","next"` in JSON is the URL ftp://h/x).
 */
function delimits(c: number): boolean {
  return c === 34 || c === 60 || c === 62 || c === 96;
}

/** Closing brackets a run of text may end with, and their openers; quotes close themselves. */
const CLOSERS = ')]}>"\'`';
const OPENERS = '([{<"\'`';

/**
 * The end of the run [start, to) less trailing sentence punctuation and closing brackets or
 * quotes without their opener in the run ("see [ftp://h/]." runs on by nothing; "a[1]" keeps
 * its "]"), but never before `from`.
 */
function trimClosers(buf: string, start: number, from: number, to: number): number {
  let e = to;
  while (e > from) {
    const c = buf.charCodeAt(e - 1);
    if (c < 128 && TRAIL[c] === 1) {
      e--;
      continue;
    }
    const k = CLOSERS.indexOf(buf[e - 1]);
    if (k < 0) break;
    let opens = 0;
    let closes = 0;
    for (let x = start; x < e; x++) {
      if (buf[x] === CLOSERS[k]) closes++;
      else if (buf[x] === OPENERS[k]) opens++;
    }
    // A quote is its own opener: an odd count has lost its partner.
    if (OPENERS[k] === CLOSERS[k] ? closes % 2 === 1 : closes > opens) e--;
    else break;
  }
  return e;
}

/**
 * An IPv6 literal "[...]" at index `i` of a bare URL whose authority starts at `auth`: the
 * index of its "]", FAIL when there is none (or "[" is not where a host starts: right after
 * "//" or a user's "@"), MORE when the buffer ends inside it (RFC 2732 2; RFC 3986 3.2.2).
 */
function ipLiteralEnd(buf: string, auth: number, i: number): number {
  if (i !== auth && buf.charCodeAt(i - 1) !== 64) return FAIL;
  for (let k = auth; k < i; k++) {
    const c = buf.charCodeAt(k);
    if (c === 47 || c === 63 || c === 35) return FAIL; // "/", "?", "#": the authority has ended
  }
  let j = i + 1;
  for (; j < buf.length && j - i <= 64; j++) {
    const c = buf.charCodeAt(j);
    if (c === 93) return j - i > 2 ? j : FAIL;
    if (!(isHex(c) || c === 58 || c === 46)) return FAIL;
  }
  return j === buf.length ? MORE : FAIL;
}
