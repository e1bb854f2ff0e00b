// locator: the URL system of RFC 1738 and its 1993-94 drafts.
export * from './core/index.js';
export {
  registerScheme, unregisterScheme, getScheme, listSchemes,
  type SchemeSpec, type Explanation, type Report,
} from './schemes/registry.js';
export { build, explain } from './build.js';
export {
  resolve, resolveUrl, relativize, isHierarchical, HIERARCHICAL,
  removeDotSegments1808, removeDotSegments3986, removeDotSegmentsDraft,
  type Rules, type ResolveOptions,
} from './resolve.js';
export {
  normalize, normalizeUrl, equivalent, toSafe, toDisplay, normalizeEscapes, SCHEME_RULES,
  type SchemeRule, type EquivalentOptions,
} from './normalize.js';
