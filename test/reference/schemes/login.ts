// The "//" login of the common Internet scheme syntax (RFC 1738 3.1): building it from fields, and
// refusing it (or its port) for a scheme that takes none.

import type { Url } from '../core/url.js';
import type { Report } from './spec.js';
import { USER_SET, encode } from '../core/percent.js';
import { LocatorError } from '../core/errors.js';
import { INVALID_FIELD, UNEXPECTED_LOGIN } from './codes.js';
import { refuse, stringField } from './read.js';

/** Reports that a scheme takes no user or password (e.g. http, RFC 1738 3.3). */
export function refuseLogin(url: Url, report: Report, section: string): void {
  const at = url.userStart;
  if (at >= 0)
    report(UNEXPECTED_LOGIN, at + url.inputOffset, `${url.scheme} URLs take no user name or password (${section})`);
}

const LOGIN_FIELDS = ['user', 'password', 'host', 'port'] as const;

/**
 * Refuses the generic login fields for a scheme that has no login: "a <scheme> URL has no
 * <field>", followed by ": <why>" when given.
 */
export function refuseLoginFields(fields: Record<string, unknown>, scheme: string, why?: string): void {
  for (const k of LOGIN_FIELDS) {
    if (fields[k] !== undefined && fields[k] !== null)
      refuse(`a ${scheme} URL has no ${k}${why === undefined ? '' : `: ${why}`}`);
  }
}

/** Reports a port after the host under `code`, at its ":" (an empty port, "host:", is let be). */
export function refusePort(url: Url, report: Report, code: string): void {
  if (url.portStart >= 0 && url.loginEnd > url.portStart) report(code, url.portStart - 1 + url.inputOffset);
}

/**
 * Builds "//" login for the common Internet scheme syntax (RFC 1738 3.1): user and password
 * encoded so that ":", "@" and "/" never stand unencoded; the host as given (it must be a host
 * name or number; it is not encoded because hosts take no escapes); the port when given and
 * different from `defaultPort` only if `omitDefaultPort`.
 */
export function buildLogin(
  fields: Record<string, unknown>,
  options?: { allowLogin?: boolean; defaultPort?: number | null },
): string {
  const user = stringField(fields, 'user');
  const password = stringField(fields, 'password');
  const host = stringField(fields, 'host') ?? '';
  const port = fields.port;
  if (options?.allowLogin === false && (user !== null || password !== null)) {
    throw new LocatorError(INVALID_FIELD, -1, 'this scheme takes no user name or password');
  }
  if (password !== null && user === null) {
    throw new LocatorError(INVALID_FIELD, -1, 'a password needs a user name (RFC 1738 3.1)');
  }
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c === 47 || c === 64 || c === 58 || c === 35 || c === 63 || c === 37 || c <= 32 || c >= 127) {
      if (!(c === 58 && host.startsWith('['))) {
        throw new LocatorError(INVALID_FIELD, i, `the host ${JSON.stringify(host)} cannot be written in a URL`);
      }
    }
  }
  let out = '//';
  if (user !== null) {
    out += encode(user, USER_SET);
    if (password !== null) out += ':' + encode(password, USER_SET);
    out += '@';
  }
  out += host;
  if (port !== undefined && port !== null) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
      throw new LocatorError(INVALID_FIELD, -1, `the port must be an integer from 0 to 65535, not ${String(port)}`);
    }
    if (port !== options?.defaultPort) out += ':' + port;
  }
  return out;
}
