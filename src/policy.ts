// PLACEHOLDER until the security issue's policy lands (it replaces this file): the API the
// clients call before any connection. This version refuses invalid URLs and nothing else.
import type { Url } from './core/url.js';
import { LocatorError, defineCode } from './core/errors.js';

export const POLICY_REFUSED = defineCode('policy-refused', 'error', 'RFC 1738 6',
  'the security policy refuses this URL');

export interface Policy {
  allowPorts?: number[];
  refusePrivateAddresses?: boolean;
  maxRedirects?: number;
  maxCrossSchemeRedirects?: number;
}

export const DEFAULT_POLICY: Policy = Object.freeze({ maxRedirects: 5, maxCrossSchemeRedirects: 0 });

export function assertAllowed(url: Url, _policy: Policy = DEFAULT_POLICY): void {
  const bad = url.violations.find((d) => d.severity === 'error');
  if (bad) throw new LocatorError(POLICY_REFUSED, bad.offset, `refused: ${bad.message} (${bad.code})`);
}

export function assertAddressAllowed(_address: string, _family: 4 | 6, _policy: Policy = DEFAULT_POLICY): void {}

export function assertRedirectAllowed(_from: Url, _to: Url, count: number, cross: number, policy: Policy = DEFAULT_POLICY): void {
  if (count >= (policy.maxRedirects ?? 5)) throw new LocatorError(POLICY_REFUSED, -1, 'too many redirects');
  if (cross > (policy.maxCrossSchemeRedirects ?? 0)) throw new LocatorError(POLICY_REFUSED, -1, 'a redirect to another scheme');
}
