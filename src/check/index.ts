// The link checker (docs/check.md): operations over the clients (docs/layering.md). Node only.
export { check, checkOne, ANSWERS_KEPT } from './check.js';
export type {
  CheckOptions,
  CheckResult,
  CheckInput,
  CheckDocument,
  CheckLinks,
  FoundLink,
  CheckStatus,
  Where,
  ProbeFunction,
  PolitenessReport,
} from './check.js';
export { SCOPE_KINDS, type ScopeKind } from '../crawl/scope.js';
export { Politeness, type ServerPoliteness, type PolitenessOptions } from '../crawl/politeness.js';
export type { RobotsReport } from '../crawl/robots-cache.js';
export { HostLimiter, type Release } from './limiter.js';
export {
  listChildren,
  followable,
  serverKey,
  boundedBody,
  ListingCut,
  MAX_LISTING,
  MAX_LINKS,
  type ChildLister,
  type Slot,
} from './recurse.js';
