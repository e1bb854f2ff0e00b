// extract() and the streaming extractor over the scanner of scan.ts (RFC 1738 appendix).

import { Scanner, type Match, type MatchForm, type Written } from './scan.js';
import { expectString } from '../core/percent.js';

export type { Match, MatchForm, Written };

/** The default longest match, in UTF-16 code units: 64 KiB. */
export const DEFAULT_MAX_LENGTH = 65536;

export interface ExtractOptions {
  /**
   * The longest match in UTF-16 code units, wrapper included (default 65536). A wrapper with no
   * ">" within this many code units is abandoned and scanning resumes after its "<"; a run of
   * URL characters longer than this is no bare URL. The streaming form keeps at most about
   * twice this much text (plus the last chunk) in memory.
   */
  maxLength?: number;
  /** Find bare URLs as well as wrapped ones (default true). */
  bare?: boolean;
  /**
   * Say where a match is not the text as written (default false): `Match.written` on a bare URL
   * the text runs on past (a character that may not appear unencoded, RFC 1738 2.2, inside a
   * word) and on a wrapped URL whose white space was ignored (RFC 1738 appendix). A link checker
   * reports the text as written; the match itself is the same either way.
   */
  written?: boolean;
}

function scanner(options: ExtractOptions | undefined): Scanner {
  const maxLength = options?.maxLength ?? DEFAULT_MAX_LENGTH;
  const bare = options?.bare ?? true;
  if (!Number.isSafeInteger(maxLength) || maxLength < 8) {
    throw new RangeError(`extract: maxLength must be an integer of at least 8, not ${String(maxLength)}`);
  }
  if (typeof bare !== 'boolean') {
    throw new TypeError(`extract: bare must be a boolean, not ${typeof bare}`);
  }
  const written = options?.written ?? false;
  if (typeof written !== 'boolean') {
    throw new TypeError(`extract: written must be a boolean, not ${typeof written}`);
  }
  return new Scanner({ maxLength, bare, written });
}

/**
 * The URLs in a text, in order (RFC 1738 appendix): `<URL:...>` (form `prefixed`, any scheme),
 * `<scheme:...>` (form `bracketed`, a registered scheme) and bare `scheme:...` (a registered
 * scheme). Inside a wrapper white space is removed, line breaks and indentation included; a
 * line break right after a hyphen keeps the hyphen and lists the reading without it in
 * `alternatives`. A bare URL ends at white space or at a character that may not appear
 * unencoded (RFC 1738 2.2), less trailing sentence punctuation.
 *
 * The result is lazy and can be iterated more than once; each iteration scans afresh. Options
 * are checked at once: API misuse, a RangeError (maxLength) or TypeError (bare) for bad ones.
 */
export function extract(text: string, options?: ExtractOptions): Iterable<Match> {
  expectString(text, 'extract: the text'); // API misuse is a TypeError
  scanner(options); // check the options now, not at the first next()
  return {
    *[Symbol.iterator](): Generator<Match> {
      const s = scanner(options);
      s.buf = text;
      s.final = true;
      for (let m = s.next(); m !== null; m = s.next()) yield m;
    },
  };
}

/** The streaming form: push text in chunks, receive the matches completed so far. */
export interface Extractor {
  /**
   * Adds the next chunk of text and returns the matches it completes. Offsets, lines and
   * columns continue across chunks; a match that spans chunks comes back with the chunk that
   * completes it (a bare URL at the end of a chunk: with the next chunk, which may extend it).
   */
  push(chunk: string): Match[];
  /** Marks the end of the text and returns the remaining matches. */
  end(): Match[];
}

/**
 * A streaming extractor (RFC 1738 appendix): the same matches as extract() over the
 * concatenated chunks, however the text is cut, with memory bounded by maxLength (it keeps the
 * text from the start of an undecided candidate, and 256 code units before the scan position).
 */
export function createExtractor(options?: ExtractOptions): Extractor {
  const s = scanner(options);
  let ended = false;
  const drain = (): Match[] => {
    const out: Match[] = [];
    for (let m = s.next(); m !== null; m = s.next()) out.push(m);
    return out;
  };
  return {
    push(chunk: string): Match[] {
      if (ended) throw new TypeError('the extractor has ended: push and end are not accepted after end');
      expectString(chunk, 'push: the chunk'); // API misuse is a TypeError
      if (chunk === '') return [];
      s.append(chunk);
      return drain();
    },
    end(): Match[] {
      if (ended) throw new TypeError('the extractor has ended: push and end are not accepted after end');
      ended = true;
      s.final = true;
      return drain();
    },
  };
}
