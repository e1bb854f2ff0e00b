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
} from './check.js';
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
