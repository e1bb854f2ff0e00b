// The core: the character classes, the scanner, the record, the % codec and the errors. It
// imports nothing outside src/core/ and nothing from node:*; it knows no particular scheme (the
// scanner reads with a SchemeTable it is given: see src/schemes/registry.ts for the default).
export { parseWith, tryParseWith, type ParseOptions } from './parse.js';
export { SchemeTable, schemeHash, RESERVED_NAMES, type SchemeSyntax, type Report } from './scheme.js';
export { Url, type Components, type Span } from './url.js';
export {
  decode,
  decodeText,
  encode,
  octetsToText,
  textToOctets,
  EncodeSet,
  UCHAR_SET,
  XCHAR_SET,
  USER_SET,
  SEGMENT_SET,
  HSEGMENT_SET,
  type Charset,
  type DecodeOptions,
  type DecodeTextOptions,
  type EncodeOptions,
} from './percent.js';
export { normalizeEscapes } from './escapes.js';
export {
  LocatorError,
  defineCode,
  describeCodes,
  kindOf,
  type Diagnostic,
  type Severity,
  type Kind,
} from './errors.js';
export * as charclass from './charclass.js';
