// The policy every client consults before it opens a connection (RFC 1738 6: a URL must not turn
// a harmless retrieval into "a possibly damaging remote operation").
//
// A client calls, in order:
//   1. assertAllowed(url, policy)                   before anything else: lint's refusals
//   2. resolveAllowed(url, policy, lookup), or its own lookup followed by
//      assertAddressAllowed(address, family, policy) for each address, after name resolution
//   3. connect to the address that was checked (not to the name again: a second lookup could
//      answer differently, "DNS rebinding")
//   4. for a redirect: assertRedirectAllowed(from, to, count, crossSchemeCount, policy)
// Each throws a PolicyError (a LocatorError with code `policy-refused`, the offset and section of
// the finding, and the finding itself as `.diagnostic`) before a byte is sent. Messages never
// hold a password. The module is pure: no node:* import, the lookup is the caller's.

import type { Url } from '../core/url.js';
import { LocatorError, CONTROL_CHAR, PORT_OUT_OF_RANGE, diagnostic, type Diagnostic } from '../core/errors.js';
import { lint } from './lint.js';
import { classifyAddress, type AddressClass } from '../lint/address.js';
import { entryOf } from '../schemes/registry.js';
import { wireParts } from '../lint/delimiters.js';
import { reservedFor } from '../lint/ports.js';
import {
  ENCODED_DELIMITER,
  GOPHER_PLUS_DATA_BLOCK,
  RESERVED_PORT,
  PRIVATE_ADDRESS,
  POLICY_REFUSED,
  TOO_MANY_REDIRECTS,
  CROSS_SCHEME_REDIRECT,
  REDIRECT_TO_FILE,
  NO_ADDRESS,
} from '../lint/codes.js';

export {
  POLICY_REFUSED,
  TOO_MANY_REDIRECTS,
  CROSS_SCHEME_REDIRECT,
  REDIRECT_TO_FILE,
  NO_ADDRESS,
  REDIRECT_LOOP,
  REDIRECT_NOT_FOLLOWED,
} from '../lint/codes.js';

/** What a client may do. Every field is optional; DEFAULT_POLICY gives the defaults. */
export interface Policy {
  /**
   * Ports registered to another protocol (reserved-port) that are allowed explicitly; and ports
   * other than the scheme's default to which a URL may send a data block of several lines (a
   * filled-in Gopher+ form, RFC 1738 3.4.9: gopher-plus-data-block), unless registered to
   * another protocol: a data block never goes to a reserved port, even one allowed here.
   */
  allowPorts?: readonly number[];
  /**
   * Refuse loopback, private, link-local, unspecified, multicast and reserved addresses, after
   * name resolution and in the URL itself ("localhost", literals), and URLs read from this
   * machine (file, afs, mid, cid): for servers that fetch URLs on behalf of others.
   */
  refusePrivateAddresses?: boolean;
  /** How many redirects a client follows (default 5, RFC 1945 9.3). */
  maxRedirects?: number;
  /** How many of those may change the scheme (default 0; http and https count as one scheme). */
  maxCrossSchemeRedirects?: number;
  /**
   * Accept URLs with violations of the syntax (an unencoded "~" or space, a draft form that is an
   * error, ...). Off by default: a URL that is not valid is refused. The refusals that guard the
   * protocol stay on: encoded delimiters, raw control characters, reserved ports and ports over 65535.
   */
  allowViolations?: boolean;
}

/** The defaults: no reserved port allowed, private addresses allowed, 5 redirects, none across schemes. */
export const DEFAULT_POLICY: Policy = Object.freeze({
  allowPorts: Object.freeze([]) as readonly number[],
  refusePrivateAddresses: false,
  maxRedirects: 5,
  maxCrossSchemeRedirects: 0,
  allowViolations: false,
});

/** A refusal of the policy: code `policy-refused`, with the finding that caused it. */
export class PolicyError extends LocatorError {
  /** The finding the policy refuses (its code, severity "error", offset, message, section). */
  readonly diagnostic: Diagnostic;

  constructor(d: Diagnostic) {
    super(POLICY_REFUSED, d.offset, `refused before any connection: ${d.message} (${d.code}, ${d.section})`, {
      section: d.section,
    });
    this.name = 'PolicyError';
    this.diagnostic = d;
  }
}

/** The order in which refusals are reported: the most dangerous first. */
const PRIORITY: Readonly<Record<string, number>> = {
  [ENCODED_DELIMITER]: 0,
  [CONTROL_CHAR]: 1,
  [GOPHER_PLUS_DATA_BLOCK]: 1,
  [RESERVED_PORT]: 2,
  [PRIVATE_ADDRESS]: 3,
};

/** True when the object is read from this machine, not fetched from a server: the scheme entry says (RFC 1738 3.10). */
function readsThisMachine(url: Url): boolean {
  return entryOf(url)?.readsThisMachine?.(url) ?? false;
}

/**
 * True when no redirect may lead to the URL, whatever the redirect's origin and the policy's
 * budgets: its scheme entry says so (neverRedirectTarget: file whatever its host, afs, mid, cid),
 * or the URL is read from this machine (RFC 1738 3.10, 6).
 */
function neverRedirectTarget(url: Url): boolean {
  return entryOf(url)?.neverRedirectTarget === true || readsThisMachine(url);
}

/**
 * True when a data block of several lines may go to the URL's port (RFC 1738 3.4.9, 6): lint
 * reports one only off the scheme's default port; there the port must be allowed explicitly and
 * registered to no other protocol.
 */
function dataBlockPortAllowed(url: Url, allowPorts: readonly number[]): boolean {
  const port = url.port;
  return port !== null && allowPorts.includes(port) && reservedFor(url.scheme, port) === null;
}

/**
 * Every finding of lint() that the policy refuses, most dangerous first, each with severity
 * "error" (RFC 1738 6): encoded delimiters, raw control characters and ports over 65535
 * (port-out-of-range, RFC 1738 3.1) always; a Gopher+ data block off the default port unless
 * the port is allowed and reserved for no other protocol (RFC 1738 3.4.9); reserved ports unless
 * allowed; with refusePrivateAddresses, hosts inside the network and local files; and, unless
 * allowViolations, every other error. An empty list: the URL may be opened.
 */
export function refusals(url: Url, policy: Policy = DEFAULT_POLICY): Diagnostic[] {
  const out: Diagnostic[] = [];
  const allowPorts = policy.allowPorts ?? [];
  for (const d of lint(url)) {
    if (d.code === RESERVED_PORT) {
      if (!allowPorts.includes(url.port as number)) out.push(d);
    } else if (d.code === GOPHER_PLUS_DATA_BLOCK) {
      if (!dataBlockPortAllowed(url, allowPorts)) out.push(d);
    } else if (d.code === PRIVATE_ADDRESS) {
      if (policy.refusePrivateAddresses) out.push({ ...d, severity: 'error' });
    } else if (d.severity === 'error') {
      // A port over 65535 has no TCP number (Url.port is null): refused even with allowViolations,
      // so that no client falls back to the default port.
      if (
        d.code === ENCODED_DELIMITER ||
        d.code === CONTROL_CHAR ||
        d.code === PORT_OUT_OF_RANGE ||
        !policy.allowViolations
      )
        out.push(d);
    }
  }
  if (policy.refusePrivateAddresses && readsThisMachine(url)) {
    out.push(
      diagnostic(
        PRIVATE_ADDRESS,
        url.inputOffset,
        `a ${url.scheme} URL is read from the files of this machine, which a server that fetches URLs for others must not expose`,
        'error',
      ),
    );
  }
  out.sort((a, b) => (PRIORITY[a.code] ?? 9) - (PRIORITY[b.code] ?? 9) || a.offset - b.offset);
  return out;
}

/**
 * Before any connection (RFC 1738 6): throws a PolicyError when lint finds something the policy
 * refuses (encoded-delimiter always; reserved-port unless allowed; an invalid URL unless
 * allowViolations; with refusePrivateAddresses a host inside the network or a local file).
 */
export function assertAllowed(url: Url, policy: Policy = DEFAULT_POLICY): void {
  const r = refusals(url, policy);
  if (r.length > 0) throw new PolicyError(r[0]);
}

function describeClass(cls: AddressClass): string {
  return cls.kind === 'unspecified' ? 'the unspecified address' : `a ${cls.kind} address`;
}

/**
 * After name resolution, before connect: with refusePrivateAddresses, refuses loopback, private,
 * link-local, unspecified, multicast and reserved IPv4 and IPv6 addresses, reading IPv4-mapped,
 * IPv4-compatible, NAT64 and 6to4 IPv6 addresses through to the IPv4 address they carry. An
 * address that cannot be read is refused too (the check fails closed). `url`, when given, puts
 * the offset of its host on the error.
 */
export function assertAddressAllowed(address: string, family: 4 | 6, policy: Policy = DEFAULT_POLICY, url?: Url): void {
  if (!policy.refusePrivateAddresses) return;
  const cls = classifyAddress(address);
  if (cls === null) return;
  const offset = url !== undefined && url.hostStart >= 0 ? url.hostStart + url.inputOffset : -1;
  const d =
    cls === undefined
      ? diagnostic(
          PRIVATE_ADDRESS,
          offset,
          `${JSON.stringify(address)} is not an IPv${family} address, so it cannot be checked; it is refused`,
          'error',
        )
      : {
          ...diagnostic(
            PRIVATE_ADDRESS,
            offset,
            `the host resolved to ${address}, ${describeClass(cls)} (${cls.range}): a server that fetches URLs for others must not reach it`,
            'error',
          ),
          section: cls.section,
        };
  throw new PolicyError(d);
}

/** The name a redirect is counted under: the scheme entry's `family` (https counts as http), else the scheme. */
function schemeFamily(url: Url): string {
  return entryOf(url)?.family ?? url.scheme;
}

/** True when a redirect from `from` to `to` changes the scheme (http and https count as one). */
export function isCrossScheme(from: Url, to: Url): boolean {
  return schemeFamily(from) !== schemeFamily(to);
}

/**
 * True when a redirect from `from` to `to` spends the policy's cross-scheme budget: it changes the
 * scheme, and `from` is not a scheme whose meaning is a URL of another scheme (SchemeSpec.indirect:
 * prospero, RFC 1738 3.11).
 */
export function countsAsCrossScheme(from: Url, to: Url): boolean {
  return isCrossScheme(from, to) && entryOf(from)?.indirect !== true;
}

/**
 * For a redirect from `from` to `to` (RFC 1945 9.3; RFC 1738 6), `count` redirects followed so
 * far and `crossSchemeCount` of them across schemes: throws when this one would be more than
 * maxRedirects, when it changes the scheme more than maxCrossSchemeRedirects times, when it leads
 * to a URL that is never a redirect's target (a file URL whatever its host, afs, mid, cid, or
 * anything read from this machine: never allowed), when `to` carries a data block of several
 * lines (a filled-in Gopher+ form, RFC 1738 3.4.9: never from a redirect, whatever the port), or
 * when `to` itself is refused (assertAllowed). Messages name the schemes, never the URLs (they may
 * hold passwords).
 */
export function assertRedirectAllowed(
  from: Url,
  to: Url,
  count: number,
  crossSchemeCount: number,
  policy: Policy = DEFAULT_POLICY,
): void {
  const at = to.inputOffset;
  const max = policy.maxRedirects ?? 5;
  if (count >= max) {
    throw new PolicyError(
      diagnostic(
        TOO_MANY_REDIRECTS,
        at,
        `redirect ${count + 1} would be more than the ${max} the policy follows; redirections this many times usually indicate an infinite loop (RFC 1945 9.3)`,
      ),
    );
  }
  if (neverRedirectTarget(to)) {
    throw new PolicyError(
      diagnostic(
        REDIRECT_TO_FILE,
        at,
        `a ${from.scheme} answer redirects to a ${to.scheme} URL, which names files of a machine rather than a server's object: that could make the client read its own files for a remote server (RFC 1738 3.10, 6)`,
      ),
    );
  }
  const block = wireParts(to).find((p) => p.dataBlockAt !== undefined);
  if (block !== undefined) {
    throw new PolicyError(
      diagnostic(
        GOPHER_PLUS_DATA_BLOCK,
        block.dataBlockAt! + to.inputOffset,
        `a ${from.scheme} answer redirects to a ${to.scheme} URL whose ${block.what.replace(/^the /, '')} carries a data block of several lines (the filled-in form of RFC 1738 3.4.9): a server must not choose the lines the client writes, so such a URL is never followed (RFC 1738 6)`,
      ),
    );
  }
  if (countsAsCrossScheme(from, to)) {
    const maxCross = policy.maxCrossSchemeRedirects ?? 0;
    if (crossSchemeCount >= maxCross) {
      throw new PolicyError(
        diagnostic(
          CROSS_SCHEME_REDIRECT,
          at,
          `the redirect from ${from.scheme} to ${to.scheme} changes the scheme, and the policy follows ${maxCross === 0 ? 'no such redirect' : `at most ${maxCross}`}: a harmless retrieval must not become an operation of another protocol (RFC 1738 6)`,
        ),
      );
    }
  }
  assertAllowed(to, policy);
}

/** A name lookup, as node:dns/promises lookup(host, { all: true }) answers. */
export type Lookup = (host: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/**
 * Resolves the host of `url` with `lookup` and checks every address it gets (assertAddressAllowed),
 * so that a name resolving to a public and a private address at once is refused; returns the first
 * address, which the client connects to (not to the name again). An address literal is checked
 * without a lookup. Throws a PolicyError, the lookup's own error, or a LocatorError `no-address`
 * when the name resolves to no address at all.
 */
export async function resolveAllowed(
  url: Url,
  policy: Policy | undefined,
  lookup: Lookup,
): Promise<{ address: string; family: 4 | 6 }> {
  const p = policy ?? DEFAULT_POLICY;
  let host = url.host ?? '';
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  const literal = classifyAddress(host);
  const answers = literal !== undefined ? [{ address: host, family: host.includes(':') ? 6 : 4 }] : await lookup(host);
  if (answers.length === 0) {
    throw new LocatorError(NO_ADDRESS, url.hostStart + url.inputOffset, `the host ${host} resolves to no address`);
  }
  for (const a of answers) assertAddressAllowed(a.address, a.family === 6 ? 6 : 4, p, url);
  const first = answers[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
