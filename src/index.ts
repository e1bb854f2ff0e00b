// locator: the URL system of RFC 1738 and its 1993-94 drafts.
export * from './core/index.js';
export {
  registerScheme, unregisterScheme, getScheme, listSchemes,
  type SchemeSpec, type Explanation, type Report,
} from './schemes/registry.js';
export { build, explain } from './build.js';
export {
  extract, createExtractor, extractStream, DEFAULT_MAX_LENGTH,
  type Extractor, type ExtractOptions, type Match, type MatchForm, type TextSource,
} from './extract/index.js';
