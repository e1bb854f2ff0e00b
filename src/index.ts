// locator: the URL system of RFC 1738 and its 1993-94 drafts.
export * from './core/index.js';
export {
  registerScheme, unregisterScheme, getScheme, listSchemes,
  type SchemeSpec, type Explanation, type Report,
} from './schemes/registry.js';
export { build, explain } from './build.js';
export { open } from './clients/index.js';
export type { OpenOptions, Resource, Meta, TranscriptLine, GatewayConfig } from './clients/types.js';
export { openMenu, readMenu, renderItem, renderMenu, type Menu } from './clients/gopher/menu.js';
export { parseMenu, parseAttributes, parseAsk, type AttributeSet } from './clients/gopher/parser.js';
export { GopherError, type MenuItem, type AskQuestion, type GopherOpenOptions } from './clients/gopher/types.js';
export { FtpReplyError } from './clients/ftp/errors.js';
export {
  lint, lintRecord, type LintRecord,
  ENCODED_DELIMITER, ENCODED_CONTROL, RESERVED_PORT, NONDEFAULT_PORT, PASSWORD_IN_URL, DECEPTIVE_LOGIN, PRIVATE_ADDRESS,
} from './lint.js';
export { wellKnownPorts, portEntry, reservedFor, type PortEntry } from './lint/ports.js';
export { classifyAddress, classifyHost, type AddressClass } from './lint/address.js';
export {
  DEFAULT_POLICY, PolicyError, assertAllowed, assertAddressAllowed, assertRedirectAllowed, refusals,
  isCrossScheme, resolveAllowed, type Policy, type Lookup,
} from './policy.js';
export { MASK, redactUrl, redactText, redactValue, secretsOf, passwordSpans } from './redact.js';
export {
  resolve, resolveUrl, relativize, isHierarchical, HIERARCHICAL,
  removeDotSegments1808, removeDotSegments3986, removeDotSegmentsDraft,
  type Rules, type ResolveOptions,
} from './resolve.js';
export {
  normalize, normalizeUrl, equivalent, toSafe, toDisplay, normalizeEscapes, SCHEME_RULES,
  type SchemeRule, type EquivalentOptions,
} from './normalize.js';
export {
  extract, createExtractor, extractStream, DEFAULT_MAX_LENGTH,
  type Extractor, type ExtractOptions, type Match, type MatchForm, type TextSource,
} from './extract/index.js';
