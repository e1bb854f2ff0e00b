// Fuzz target: extract() and the streaming extractor (RFC 1738 appendix). The text is cut at
// random points (chosen by the bytes) and pushed chunk by chunk. Invariants: the stream gives
// exactly the matches of extract() on the whole text; matches are in order, do not overlap,
// lie inside the text, and their line and column are those of their start; a match's URL holds
// no white space; a prefixed or bracketed match starts with "<" and ends with ">"; each URL
// parses or is refused with a LocatorError.

import { extract, createExtractor, tryParse, type Match } from '../../src/index.js';
import { check, cuts, randomOf, refusal, show, textChunksOf, textOf } from './lib.js';

export function fuzz(data: Uint8Array): void {
  const flags = data[0] ?? 0;
  const options = { maxLength: flags & 1 ? 8 + (flags >> 2) : undefined, bare: (flags & 2) === 0 };
  const text = textOf(data.subarray(1));
  const whole = [...extract(text, options)];
  const x = createExtractor(options);
  const streamed: Match[] = [];
  for (const chunk of textChunksOf(text, cuts(text.length, randomOf(data)))) streamed.push(...x.push(chunk));
  streamed.push(...x.end());
  check(show(streamed) === show(whole), `chunked extraction differs:\n${show(whole)}\n${show(streamed)}`);
  let last = 0;
  let line = 1;
  let lineStart = 0;
  let at = 0;
  for (const m of whole) {
    check(
      m.start >= last && m.start < m.end && m.end <= text.length,
      `match [${m.start}, ${m.end}) out of order or bounds`,
    );
    last = m.end;
    for (; at < m.start; at++) {
      const c = text.charCodeAt(at);
      if (c === 10 || (c === 13 && text.charCodeAt(at + 1) !== 10)) {
        line++;
        lineStart = at + 1;
      }
    }
    check(
      m.line === line && m.column === m.start - lineStart + 1,
      `match at ${m.start}: line ${m.line}:${m.column}, not ${line}:${m.start - lineStart + 1}`,
    );
    check(!/\s/.test(m.url) && m.url.length > 0, `the URL ${JSON.stringify(m.url)} holds white space`);
    if (m.form !== 'bare') check(text[m.start] === '<' && text[m.end - 1] === '>', 'a wrapped match is not <...>');
    if (options.maxLength !== undefined)
      check(m.end - m.start <= options.maxLength, 'a match is longer than maxLength');
    refusal(() => tryParse(m.url), m.url.length);
  }
}
