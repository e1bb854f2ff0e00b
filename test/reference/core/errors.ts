// Errors and violations of the URL syntax (RFC 1738 sections 2, 3 and 5).
//
// Every finding has a stable string code, declared here beside its message and the section of
// the spec that states the rule. A fatal error (no structure can be read) is thrown as a
// LocatorError; a violation that still leaves a structure is collected on the parsed record.

export type Severity = 'error' | 'warning';

/**
 * What kind of failure a code is, for callers that act on it (the CLI derives its exit status
 * from the kind): `syntax` the URL (or other input) breaks a rule of the specs; `usage` the call
 * or command lacks something it needs (a search string, a password, a valid option); `policy` the
 * security policy refuses it (RFC 1738 6); `network` the connection failed (refused, timed out,
 * cut, cancelled); `protocol` the server answered, but with an error or something the protocol
 * does not allow.
 */
export type Kind = 'syntax' | 'usage' | 'policy' | 'network' | 'protocol';

/** One finding, as the CLI prints it in JSON (test/data/docs/contract.md). */
export interface Diagnostic {
  readonly code: string;
  readonly severity: Severity;
  /** UTF-16 code units from the start of the input as given (before `URL:` or `<` is stripped). */
  readonly offset: number;
  readonly message: string;
  /** The spec section, e.g. `RFC 1738 3.1`; null for a code that no spec section states (a timeout). */
  readonly section: string | null;
}

interface CodeInfo {
  readonly severity: Severity;
  readonly section: string | null;
  readonly message: string;
  readonly kind: Kind;
}

/**
 * The codes of the core syntax. Scheme modules and the linter declare their own with
 * `defineCode`; a code is declared once.
 */
const CODES = new Map<string, CodeInfo>();

/**
 * Declares a code with its default severity, spec section (null when no spec states the rule),
 * message and kind (default `syntax`). A code is declared once, wherever it is used.
 */
export function defineCode(
  code: string,
  severity: Severity,
  section: string | null,
  message: string,
  kind: Kind = 'syntax',
): string {
  const known = CODES.get(code);
  if (
    known &&
    (known.section !== section || known.message !== message || known.severity !== severity || known.kind !== kind)
  ) {
    throw new Error(`diagnostic code ${code} declared twice`);
  }
  CODES.set(code, { severity, section, message, kind });
  return code;
}

/** The kind of a declared code; undefined for a code never declared. */
export function kindOf(code: string): Kind | undefined {
  return CODES.get(code)?.kind;
}

// Fatal: no structure can be read.
export const EMPTY_INPUT = defineCode('empty-input', 'error', 'RFC 1738 2.1', 'the input is empty');
export const MISSING_SCHEME = defineCode(
  'missing-scheme',
  'error',
  'RFC 1738 2.1',
  'no scheme: a URL is written <scheme>:<scheme-specific-part>',
);
export const INVALID_SCHEME = defineCode(
  'invalid-scheme',
  'error',
  'RFC 1738 2.1',
  'a scheme name may contain only letters, digits, "+", "." and "-"',
);
export const INVALID_PORT = defineCode('invalid-port', 'error', 'RFC 1738 3.1', 'the port must be decimal digits');
export const UNCLOSED_WRAPPER = defineCode(
  'unclosed-wrapper',
  'error',
  'RFC 1738 appendix',
  'a URL that opens with "<" must close with ">"',
);
export const INVALID_ESCAPE_FATAL = defineCode(
  'invalid-escape',
  'error',
  'RFC 1738 2.2',
  '"%" must be followed by two hexadecimal digits',
);

// Violations: a structure is read, but a rule is broken.
export const INVALID_ESCAPE = INVALID_ESCAPE_FATAL;
export const NON_ASCII = defineCode(
  'non-ascii',
  'error',
  'RFC 1738 2.2',
  'a character outside US-ASCII must be encoded as %XX octets',
);
export const CONTROL_CHAR = defineCode(
  'control-char',
  'error',
  'RFC 1738 2.2',
  'a control character (00-1F, 7F) must be encoded',
);
export const UNSAFE_CHAR = defineCode(
  'unsafe-char',
  'error',
  'RFC 1738 2.2',
  'an unsafe character must always be encoded',
);
export const UNENCODED_DELIMITER = defineCode(
  'unencoded-delimiter',
  'error',
  'RFC 1738 3.1',
  'within the user and password fields ":", "@" and "/" must be encoded',
);
export const INVALID_HOST = defineCode(
  'invalid-host',
  'error',
  'RFC 1738 3.1',
  'a host is a domain name (labels of letters, digits and "-"; the last label starts with a letter) or four decimal groups',
);
export const EMPTY_HOST = defineCode('empty-host', 'error', 'RFC 1738 3.1', 'the host is empty');
export const INVALID_IPV4 = defineCode(
  'invalid-ipv4',
  'error',
  'RFC 1738 3.1',
  'each of the four decimal groups of a host number must be at most 255',
);
export const IPV6_LITERAL = defineCode(
  'ipv6-literal',
  'error',
  'RFC 1738 3.1',
  'a bracketed IPv6 literal (RFC 2732) is not part of RFC 1738; "[" and "]" are unsafe',
);
export const EMPTY_PORT = defineCode(
  'empty-port',
  'error',
  'RFC 1738 3.1',
  'a ":" after the host must be followed by the port digits; if the port is omitted, the colon is as well',
);
export const PORT_OUT_OF_RANGE = defineCode(
  'port-out-of-range',
  'error',
  'RFC 1738 3.1',
  'the port is over 65535, so no TCP connection can be made to it',
);
export const INVALID_CHAR = defineCode(
  'invalid-char',
  'error',
  'RFC 1738 5',
  'this character is not allowed here by the grammar',
);
export const RESERVED_SCHEME = defineCode(
  'reserved-scheme',
  'warning',
  'RFC 1738 4',
  'this scheme name is reserved; its syntax is not defined',
);
export const EXPERIMENTAL_SCHEME = defineCode(
  'experimental-scheme',
  'warning',
  'RFC 1738 4',
  'scheme names starting with "x-" are reserved for experimental purposes',
);
export const UNKNOWN_SCHEME = defineCode(
  'unknown-scheme',
  'warning',
  'RFC 1738 4',
  'this scheme is not registered; it is read with the generic syntax',
);
export const TRIMMED = defineCode(
  'trimmed-whitespace',
  'warning',
  'RFC 1738 appendix',
  'white space around the URL was removed (the trim option)',
);
export const TOO_MANY_VIOLATIONS = defineCode(
  'too-many-violations',
  'error',
  'RFC 1738 2.2',
  'more violations than are listed: only the first 100 of a URL are, and this one counts the rest',
);
export const MISSING_SLASHES = defineCode(
  'missing-slashes',
  'error',
  'RFC 1738 3.1',
  'this scheme uses the common Internet syntax, which starts with "//"',
);

/** Makes a diagnostic for a declared code; `message` overrides the declared one. */
export function diagnostic(code: string, offset: number, message?: string, severity?: Severity): Diagnostic {
  const info = CODES.get(code);
  if (!info) throw new Error(`undeclared diagnostic code ${code}`);
  return {
    code,
    severity: severity ?? info.severity,
    offset,
    message: message ?? info.message,
    section: info.section,
  };
}

/** Every declared code with its severity, section and message (for docs and `--help`). */
export function describeCodes(): Array<{ code: string } & CodeInfo> {
  return [...CODES].map(([code, info]) => ({ code, ...info }));
}

/**
 * The one error class of locator. `code` is stable; `kind` says what failed (see Kind); `offset`
 * counts UTF-16 code units into the input as given, and is -1 when the error has no place in it
 * (a network failure, a whole-URL refusal); `section` names the rule, or is null when no spec
 * section states it. Clients add their own codes (reply codes etc.). API misuse (a non-string
 * URL, an unknown option value) is a TypeError or RangeError, never a LocatorError.
 */
export class LocatorError extends Error {
  readonly code: string;
  readonly kind: Kind;
  readonly offset: number;
  readonly section: string | null;
  readonly severity: Severity = 'error';
  readonly input: string | undefined;
  /** The message without the code and offset appended. */
  readonly detail: string;

  constructor(
    code: string,
    offset: number,
    message?: string,
    options?: { input?: string; section?: string | null; cause?: unknown },
  ) {
    const info = CODES.get(code);
    const text = message ?? info?.message ?? code;
    super(
      offset >= 0 ? `${text} (${code} at offset ${offset})` : `${text} (${code})`,
      options?.cause !== undefined ? { cause: options.cause } : undefined,
    );
    this.name = 'LocatorError';
    this.code = code;
    this.offset = offset;
    this.section = options?.section !== undefined ? options.section : (info?.section ?? null);
    this.kind = info?.kind ?? 'syntax';
    this.input = options?.input;
    this.detail = text;
  }

  /** The error as a Diagnostic (the `error` field of `locator parse --json`). */
  toDiagnostic(): Diagnostic {
    return {
      code: this.code,
      severity: 'error',
      offset: this.offset,
      message: this.detail,
      section: this.section,
    };
  }
}
