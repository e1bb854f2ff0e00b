// The codes of the linter and the policy (RFC 1738 section 6, "Security Considerations", and the
// security notes of the 1993-10 and 1994-03 drafts), each declared once with its severity, the
// section that states the danger, and its message. The parser's own codes (unsafe-char,
// draft-only, experimental-scheme, ...) are declared beside the parser and keep their names.

import { defineCode } from '../core/errors.js';

/**
 * RFC 1738 6: "Care should be taken when URLs contain embedded encoded delimiters for a given
 * protocol (for example, CR and LF characters for telnet protocols) that these are not unencoded
 * before transmission."
 */
export const ENCODED_DELIMITER = defineCode(
  'encoded-delimiter',
  'error',
  'RFC 1738 6',
  'an escape decodes to a delimiter of the protocol where the client sends it: decoded, it would end the command early and the rest would be read as another command',
);

/**
 * An escape that decodes to CR, LF or NUL where the client sends it still encoded (HTTP), or where
 * locator does not know the protocol (an unregistered scheme): no delimiter for this client, but a
 * server or gateway that decodes it may read one (RFC 1738 6).
 */
export const ENCODED_CONTROL = defineCode(
  'encoded-control',
  'warning',
  'RFC 1738 6',
  'an escape decodes to CR, LF or NUL: this client does not decode it into the protocol, but a server or gateway that does may read it as a delimiter',
);

/**
 * RFC 1738 3.4.9: a filled-in Gopher+ form carries a data block of several lines ("+-1" CR LF,
 * the values, "." CR LF), which the client sends as written; RFC 1738 6: to a server of another
 * protocol each line is a command of its own (the gopher-to-SMTP attack, with the lines written
 * in the URL). Allowed on the scheme's default port, or on a port the policy allows explicitly
 * that is registered to no other protocol; never after a redirect.
 */
export const GOPHER_PLUS_DATA_BLOCK = defineCode(
  'gopher-plus-data-block',
  'error',
  'RFC 1738 3.4.9, 6',
  'the URL carries a Gopher+ data block (several request lines) to a port other than the gopher default: a server of another protocol there would read each line as a command',
);

/**
 * RFC 1738 6: "Caution should be used when using any URL which specifies a port number other than
 * the default for the protocol, especially when it is a number within the reserved space."
 */
export const NONDEFAULT_PORT = defineCode(
  'nondefault-port',
  'warning',
  'RFC 1738 6',
  'the port is not the default port of the protocol',
);

/**
 * RFC 1738 6: "The unsafe URL is typically constructed by specifying a port number other than that
 * reserved for the network protocol in question. The client unwittingly contacts a server which
 * is in fact running a different protocol." (the gopher-to-SMTP example)
 */
export const RESERVED_PORT = defineCode(
  'reserved-port',
  'error',
  'RFC 1738 6',
  'the port is registered to a different protocol: the client would talk to a server of that protocol',
);

/** RFC 1738 6: "The use of URLs containing passwords that should be secret is clearly unwise." */
export const PASSWORD_IN_URL = defineCode(
  'password-in-url',
  'warning',
  'RFC 1738 6',
  'the URL holds a password: the use of URLs containing passwords that should be secret is clearly unwise',
);

/**
 * RFC 1738 3.1: the host follows the last "@"; a user name that looks like a host name makes a
 * reader believe the URL points there (http://trusted.example@evil.example/).
 */
export const DECEPTIVE_LOGIN = defineCode(
  'deceptive-login',
  'warning',
  'RFC 1738 3.1',
  'the user name looks like a host name, but the host is what follows "@"',
);

/**
 * The host is a loopback, private, link-local, unspecified, multicast or reserved address (or
 * "localhost"): a server that fetches URLs on behalf of others must not reach it (the policy's
 * refusePrivateAddresses). A warning from lint; a refusal under that policy.
 */
export const PRIVATE_ADDRESS = defineCode(
  'private-address',
  'warning',
  'RFC 1918 3, RFC 4291 2.5',
  'the host is a loopback, private or link-local address, inside the network of the machine that fetches it',
);

// The policy (src/operations/policy.ts).

/** A refusal: thrown before any connection is opened, with the diagnostic that caused it. */
export const POLICY_REFUSED = defineCode(
  'policy-refused',
  'error',
  'RFC 1738 6',
  'the policy refuses this URL: no connection is opened',
  'policy',
);

/**
 * RFC 1945 9.3: "A user agent should never automatically redirect a request more than 5 times,
 * since such redirections usually indicate an infinite loop."
 */
export const TOO_MANY_REDIRECTS = defineCode(
  'too-many-redirects',
  'error',
  'RFC 1945 9.3',
  'too many redirects: redirections this many times usually indicate an infinite loop',
  'policy',
);

/**
 * RFC 1738 6: a harmless retrieval must not turn into a remote operation of another protocol; a
 * redirect that changes the scheme (an http answer pointing to gopher://127.0.0.1:6379/...) is
 * that attack's usual path.
 */
export const CROSS_SCHEME_REDIRECT = defineCode(
  'cross-scheme-redirect',
  'error',
  'RFC 1738 6',
  'the redirect changes the scheme, which the policy allows only a limited number of times',
  'policy',
);

/** RFC 1738 3.10: a file URL names a file of the machine that reads it; no server may send a client there. */
export const REDIRECT_TO_FILE = defineCode(
  'redirect-to-file',
  'error',
  'RFC 1738 3.10',
  'a redirect to a file URL would make the client read its own files for a remote server',
  'policy',
);

/**
 * RFC 1945 9.3 ("such redirections usually indicate an infinite loop"): a redirect to a URL the
 * chain has visited already (compared by normal form, RFC 1738 2.1-3) is a loop, stopped at once.
 */
export const REDIRECT_LOOP = defineCode(
  'redirect-loop',
  'error',
  'RFC 1945 9.3',
  'the redirect leads back to a URL of the same chain: a loop',
  'policy',
);

/** A client answered with a redirect while open() was told not to follow any (followRedirects: false). */
export const REDIRECT_NOT_FOLLOWED = defineCode(
  'redirect-not-followed',
  'error',
  'RFC 1738 6',
  'the object is elsewhere, and redirects are not followed',
  'policy',
);

/** A name lookup answered no address at all (resolveAllowed): there is nothing to connect to. */
export const NO_ADDRESS = defineCode(
  'no-address',
  'error',
  'RFC 1738 3.1',
  'the host name resolves to no address',
  'network',
);
