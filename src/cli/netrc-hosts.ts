// The --netrc-host option of fetch, check and serve: the hosts whose ~/.netrc entries may be used
// (OpenOptions.netrcHosts). One parser for the three commands, so that a value one of them takes
// means the same to the others, and a value that could never match a host is refused, not
// silently kept.
import { isIPv4, isIPv6 } from 'node:net';
import { netrcHost } from '../clients/index.js';
import { UsageError } from './command.js';

/** A host name (RFC 1123 2.1 labels; "_" too, as names in the wild have it), at most 253 octets. */
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*$/;

/**
 * One --netrc-host value as netrc entries compare hosts (netrcHost(): lower case, no IPv6
 * brackets): a host name, an IPv4 address, or an IPv6 literal with or without its brackets (the
 * host part of RFC 1738 3.1; RFC 3986 3.2.2 for the brackets). A port, a user, a path or
 * anything else is a usage error naming `option`: entries are for hosts, not servers.
 */
export function netrcHostArg(value: unknown, option = '--netrc-host'): string {
  const bad = () =>
    new UsageError(
      `${option} takes a host name, an IPv4 address or an IPv6 address (no port), not ${JSON.stringify(value)}`,
    );
  if (typeof value !== 'string') throw bad();
  const bracketed = /^\[(.*)\]$/.exec(value);
  if (bracketed !== null) {
    if (!isIPv6(bracketed[1])) throw bad();
  } else if (!isIPv6(value) && !isIPv4(value) && !HOST_NAME.test(value)) {
    throw bad();
  }
  if (value.includes('%')) throw bad(); // an IPv6 zone names an interface, never a URL's host
  return netrcHost(value);
}

/** The values of a repeatable --netrc-host (parseArgs gives a string or an array), each checked by netrcHostArg(); undefined when none. */
export function netrcHostsArg(values: unknown, option = '--netrc-host'): string[] | undefined {
  if (values === undefined) return undefined;
  return ([] as unknown[]).concat(values).map((v) => netrcHostArg(v, option));
}
