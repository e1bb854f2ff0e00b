// Finding URLs in plain text: the RFC 1738 appendix "Recommendations for URLs in Context" and
// the "Wrappers for URIs in plain text" appendix of the 1993-10 and 1994-03 drafts. The rules
// are in docs/extract.md; the scanner is scan.ts (its character tables chars.ts, the line breaks
// inside a wrapper lines.ts, joining and trimming what it found readings.ts), the whole-text and
// push forms extract.ts, the async stream form stream.ts.
export { extract, createExtractor, DEFAULT_MAX_LENGTH, type Extractor, type ExtractOptions } from './extract.js';
export { extractStream, type TextSource } from './stream.js';
export type { Match, MatchForm, Written } from './scan.js';
