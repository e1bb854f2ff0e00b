// locator: the URL system of RFC 1738 and its 1993-94 drafts. The package root holds the parser
// and every operation on URLs, and nothing that reaches the network: it runs in browsers as it
// does in Node. The clients (open() and the protocol clients) are `locator/clients`.
export * from './parser.js';
export {
  lint,
  lintRecord,
  type LintRecord,
  ENCODED_DELIMITER,
  ENCODED_CONTROL,
  RESERVED_PORT,
  NONDEFAULT_PORT,
  PASSWORD_IN_URL,
  DECEPTIVE_LOGIN,
  PRIVATE_ADDRESS,
} from './operations/lint.js';
export { wellKnownPorts, portEntry, reservedFor, type PortEntry } from './lint/ports.js';
export { classifyAddress, classifyHost, type AddressClass } from './lint/address.js';
export {
  DEFAULT_POLICY,
  PolicyError,
  assertAllowed,
  assertAddressAllowed,
  assertRedirectAllowed,
  refusals,
  isCrossScheme,
  resolveAllowed,
  type Policy,
  type Lookup,
} from './operations/policy.js';
export { MASK, redactUrl, redactText, redactValue, secretsOf, passwordSpans } from './operations/redact.js';
export {
  resolve,
  resolveUrl,
  isHierarchical,
  removeDotSegments1808,
  removeDotSegments3986,
  removeDotSegmentsDraft,
  type Rules,
  type ResolveOptions,
} from './operations/resolve.js';
export { relativize } from './operations/relativize.js';
export {
  normalize,
  normalizeUrl,
  equivalent,
  toSafe,
  toDisplay,
  type SchemeRule,
  type EquivalentOptions,
} from './operations/normalize.js';
export {
  extract,
  createExtractor,
  extractStream,
  DEFAULT_MAX_LENGTH,
  type Extractor,
  type ExtractOptions,
  type Match,
  type MatchForm,
  type TextSource,
} from './extract/index.js';
export {
  partNames,
  partsOf,
  rawPartOf,
  withPart,
  withParts,
  UNKNOWN_PART,
  INVALID_PART,
  type PartOptions,
} from './operations/parts.js';
