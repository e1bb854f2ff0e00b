// lint(): the dangers of RFC 1738 section 6 ("Security Considerations") and of the 1993-10 and
// 1994-03 drafts' security notes, on top of every violation the parser and the scheme finds.
//
//   code                severity  rule
//   encoded-delimiter   error     an escape decodes to a delimiter of the protocol where the
//                                 client sends it decoded (src/lint/delimiters.ts), RFC 1738 6
//   encoded-control     warning   CR, LF or NUL encoded where the client sends it encoded (HTTP),
//                                 or in a scheme whose protocol locator does not know
//   gopher-plus-data-block error  a Gopher+ data block (several request lines, RFC 1738 3.4.9)
//                                 to another port than the scheme's default
//   reserved-port       error     the port is registered to another protocol (src/lint/ports.ts)
//   nondefault-port     warning   any other port than the scheme's default, RFC 1738 6
//   password-in-url     warning   RFC 1738 6; draft 1993-10 and 1994-03 security notes
//   deceptive-login     warning   a user name that reads as a host name (RFC 1738 3.1)
//   private-address     warning   a loopback, private, link-local... host literal, or "localhost"
//   (parser and scheme codes: unsafe-char, draft-only, experimental-scheme, unknown-scheme, ...)
//
// The diagnostics come in offset order, offsets counting the input as given.

import { Url, expectUrl } from '../core/url.js';
import { expectString } from '../core/percent.js';
import { tryParse, entryOf } from '../schemes/registry.js';
import { ViolationList, type ParseOptions } from '../core/parse.js';
import { LocatorError, diagnostic, type Diagnostic } from '../core/errors.js';
import { dataBlocks, encodedDelimiters, wireParts } from '../lint/delimiters.js';
import { reservedFor, inReservedSpace } from '../lint/ports.js';
import { classifyHost } from '../lint/address.js';
import { RESERVED_PORT, NONDEFAULT_PORT, PASSWORD_IN_URL, DECEPTIVE_LOGIN, PRIVATE_ADDRESS } from '../lint/codes.js';

export {
  ENCODED_DELIMITER,
  ENCODED_CONTROL,
  GOPHER_PLUS_DATA_BLOCK,
  RESERVED_PORT,
  NONDEFAULT_PORT,
  PASSWORD_IN_URL,
  DECEPTIVE_LOGIN,
  PRIVATE_ADDRESS,
} from '../lint/codes.js';

/** The result of linting one input (contract: `locator lint --json`, less the redaction of `input`). */
export interface LintRecord {
  input: string;
  /** True when no diagnostic has severity "error". */
  ok: boolean;
  diagnostics: Diagnostic[];
}

/**
 * Checks a URL for the dangers of RFC 1738 6 and returns every finding: the parser's and the
 * scheme's violations, encoded delimiters, data blocks of several lines to a port that is not the
 * scheme's default (RFC 1738 3.4.9), ports of other protocols and outside the default,
 * passwords, deceptive user names and hosts inside the network. An input that cannot be read at
 * all gives its fatal error as the one diagnostic. Offsets count the input as given.
 */
export function lint(input: string | Url, options?: ParseOptions): Diagnostic[] {
  expectUrl(input, 'lint: the URL');
  const url = typeof input === 'string' ? tryParse(input, options) : input;
  if (url instanceof LocatorError) return [url.toDiagnostic()];
  const v = url.violations;
  const extra: Diagnostic[] = [];
  ports(url, extra);
  login(url, extra);
  host(url, extra);
  // Without an escape, or a violation (a raw control character), no part can carry a delimiter
  // or a data block: the scheme entry is not asked (the common case, kept cheap).
  const wire = v.length === 0 && url.href.indexOf('%', url.schemePartStart) < 0 ? [] : wireParts(url);
  dataBlocks(url, extra, wire);
  // Encoded delimiters can be as many as a third of the input: they go to a capped list
  // (MAX_VIOLATIONS listed, the rest counted), like the parser's violations.
  const found = new ViolationList();
  encodedDelimiters(url, found, wire);
  const delimiters = found.list();
  if (delimiters.length === 0 && extra.length === 0) return v.length === 0 ? [] : v.slice();
  const out = new ViolationList();
  // A CR or LF escaped in a Gopher selector is both a syntax violation (gopher-selector-line-end)
  // and an encoded delimiter: the latter, which says what it would do on the wire, stands alone.
  const at = new Set<number>();
  for (const d of delimiters) if (d.code === 'encoded-delimiter') at.add(d.offset);
  for (const d of v) if (d.code !== 'gopher-selector-line-end' || !at.has(d.offset)) out.push(d);
  out.pushAll(delimiters);
  out.pushAll(extra);
  return out.list();
}

/** lint() as the record `locator lint --json` prints (RFC 1738 6): input, ok, diagnostics. */
export function lintRecord(input: string, options?: ParseOptions): LintRecord {
  expectString(input, 'lintRecord: the URL');
  const diagnostics = lint(input, options);
  return { input, ok: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
}

/**
 * RFC 1738 6: "The unsafe URL is typically constructed by specifying a port number other than
 * that reserved for the network protocol in question ... Caution should be used when using any
 * URL which specifies a port number other than the default for the protocol, especially when it
 * is a number within the reserved space." A port registered to another protocol is an error; any
 * other explicit port than the default a warning. Schemes that take no port (file, afs) report
 * one themselves.
 */
function ports(url: Url, out: Diagnostic[]): void {
  if (!url.explicitPort) return;
  const port = url.port;
  if (port === null) return; // over 65535: port-out-of-range is the parser's
  const spec = url.spec;
  if (spec !== undefined && spec.defaultPort === null) return;
  const at = url.portStart + url.inputOffset;
  const scheme = url.scheme;
  const owner = reservedFor(scheme, port);
  if (owner !== null) {
    out.push(
      diagnostic(
        RESERVED_PORT,
        at,
        `port ${port} is registered to ${owner.service}: a client of ${scheme} URLs that connects there talks to a server of another protocol, which may read the URL's text as its own commands (RFC 1738 6)`,
      ),
    );
    return;
  }
  if (spec === undefined || spec.defaultPort === port) return;
  out.push(
    diagnostic(
      NONDEFAULT_PORT,
      at,
      `port ${port} is not the default port of ${scheme} (${spec.defaultPort})${
        inReservedSpace(port) ? ', and it is within the reserved space (0-1023) of ports assigned to services' : ''
      }: make sure the server there speaks ${scheme} (RFC 1738 6)`,
    ),
  );
}

/**
 * RFC 1738 6: "The use of URLs containing passwords that should be secret is clearly unwise." An
 * empty password (ftp://user:@host) holds no secret and is not reported. A user name that reads
 * as a host name is reported as deceptive (RFC 1738 3.1: the host follows the "@").
 */
function login(url: Url, out: Diagnostic[]): void {
  if (url.userStart < 0) return; // no user, so no password either (RFC 1738 3.1)
  const c = url.components();
  if (c.password !== null && c.password[1] > c.password[0]) {
    out.push(
      diagnostic(
        PASSWORD_IN_URL,
        c.password[0] + url.inputOffset,
        'the URL holds a password (not shown): anyone who sees the URL, its logs or its history sees it too; the use of URLs containing passwords that should be secret is clearly unwise (RFC 1738 6)',
      ),
    );
  }
  if (c.user === null || url.host === null) return;
  const user = url.user as string;
  let end = 0;
  while (end < user.length) {
    const ch = user.charCodeAt(end);
    if (ch === 47 || ch === 63 || ch === 35 || ch === 64 || ch === 58) break;
    end++;
  }
  const name = user.slice(0, end);
  if (looksLikeHost(name) && name.toLowerCase() !== url.host.toLowerCase()) {
    out.push(
      diagnostic(
        DECEPTIVE_LOGIN,
        c.user[0] + url.inputOffset,
        `the user name begins with ${JSON.stringify(name)}, which reads as a host name, but the host is ${JSON.stringify(url.host)}, after the "@" (RFC 1738 3.1)`,
      ),
    );
  }
}

/** A dotted host name (two labels or more, the last starting with a letter) or a dotted quad. */
function looksLikeHost(s: string): boolean {
  let dots = 0;
  let labelStart = 0;
  let digitsOnly = true;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 46;
    if (c === 46) {
      if (i === labelStart) return false;
      if (i < s.length) {
        dots++;
        labelStart = i + 1;
      }
      continue;
    }
    const l = c | 32;
    if (l >= 97 && l <= 122) digitsOnly = false;
    else if (c === 45) digitsOnly = false;
    else if (c < 48 || c > 57) return false;
  }
  if (dots === 0) return false;
  if (digitsOnly) return dots === 3;
  const top = s.charCodeAt(labelStart) | 32;
  return top >= 97 && top <= 122;
}

/**
 * A host written as a loopback, private, link-local, unspecified, multicast or reserved address,
 * or "localhost" (RFC 6761 6.3): fine for a user's own client, refused for a server that fetches
 * URLs on behalf of others (the policy's refusePrivateAddresses). Not for a URL its scheme entry
 * reads from this machine (a local file, an AFS cell: `readsThisMachine`), whose "host" names no
 * server to connect to; the policy refuses those by themselves.
 */
function host(url: Url, out: Diagnostic[]): void {
  const start = url.hostStart;
  const end = url.hostEnd;
  if (start < 0 || end === start || entryOf(url)?.readsThisMachine?.(url) === true) return;
  // A name that does not end in "localhost" (or "localhost.") needs no closer look.
  const href = url.href;
  const first = href.charCodeAt(start);
  const last = href.charCodeAt(end - 1) === 46 && end - 1 > start ? href.charCodeAt(end - 2) : href.charCodeAt(end - 1);
  if (first > 58 && first !== 91 && (last | 32) !== 116) return;
  const h = href.slice(start, end);
  const cls = classifyHost(h);
  if (cls === null) return;
  const d = diagnostic(
    PRIVATE_ADDRESS,
    url.hostStart + url.inputOffset,
    `the host ${h} is ${cls.kind === 'unspecified' ? 'the unspecified address' : `a ${cls.kind} address`} (${cls.range}): a server that fetches URLs for others must not reach it (the policy's refusePrivateAddresses)`,
  );
  out.push({ ...d, section: cls.section });
}
