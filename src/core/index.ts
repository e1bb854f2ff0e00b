// The core: the character classes, the scanner, the record, the % codec and the errors.
// Nothing here imports from node:*; it runs in browsers as it does in Node.
export { parse, tryParse, type ParseOptions } from './parse.js';
export { Url, type Components, type Span } from './url.js';
export {
  decode, decodeText, encode, octetsToText, textToOctets, EncodeSet,
  UCHAR_SET, XCHAR_SET, USER_SET, SEGMENT_SET, HSEGMENT_SET,
  type Charset, type DecodeOptions, type DecodeTextOptions, type EncodeOptions,
} from './percent.js';
export { LocatorError, describeCodes, type Diagnostic, type Severity } from './errors.js';
export * as charclass from './charclass.js';
