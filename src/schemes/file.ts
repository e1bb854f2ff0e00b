// file: (RFC 1738 3.10; section 5: fileurl = "file://" [ host | "localhost" ] "/" fpath).
//
//   file://<host>/<path>        <path> = <directory>/<directory>/.../<name>
//
// The host is the machine on which the path is accessible; "" and "localhost" (any case) mean
// "the machine from which the URL is being interpreted". Everything between "//" and the next
// "/" is the host: file://node.gypi names the host "node.gypi" and no file at all.
//
// The path uses fpath, the production of ftp: "/" separates segments and ";" is reserved (there
// is no ";type=" in fileurl, so a ";" is always a violation).

import { normalizeEscapes } from '../core/escapes.js';
import type { Url } from '../core/url.js';
import type { Explanation, Report, SchemeSpec, WirePart } from './spec.js';
import { C_STRING, TELNET_LINE, bodyRange, wirePart } from './wire.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { INVALID_FIELD } from './codes.js';
import { decodeLenient } from '../core/percent.js';
import { bodyRun, usualLogin } from '../core/analyze.js';
import { pathRange, schemePartRange } from './ranges.js';
import { stringField, text, textSegments } from './read.js';
import { buildLogin, refuseLogin, refusePort } from './login.js';
import { violationNotes } from './notes.js';
import { encodePath, ftpSteps } from './ftp.js';

export const FILE_MISSING_PATH = defineCode(
  'file-missing-path',
  'error',
  'RFC 1738 5 (fileurl)',
  'a file URL needs "/" and a path after the host: file://<host>/<path>',
);
export const FILE_RESERVED_CHAR = defineCode(
  'file-reserved-char',
  'error',
  'RFC 1738 5 (fileurl, fsegment)',
  '";" is reserved in a file path segment and must be encoded as %3B',
);
export const FILE_PORT = defineCode(
  'file-port',
  'error',
  'RFC 1738 5 (fileurl)',
  'a file URL takes no port: fileurl = "file://" [ host | "localhost" ] "/" fpath',
);

/** True for the hosts that mean this machine: "" and "localhost", any case (RFC 1738 3.10). */
export function isLocalHost(host: string | null): boolean {
  return host === null || host === '' || (host.length === 9 && host.toLowerCase() === 'localhost');
}

/** RFC 1738 5 (fileurl): no user, password or port; "/" fpath required; ";" reserved. */
function validate(url: Url, report: Report): void {
  if (!url.hasLogin) return; // the scanner reported the missing "//"
  refuseLogin(url, report, 'RFC 1738 5, fileurl');
  refusePort(url, report, FILE_PORT);
  const r = pathRange(url);
  if (r === null) {
    const host = url.host ?? '';
    const at = url.bodyEnd + url.inputOffset;
    report(
      FILE_MISSING_PATH,
      at,
      host === ''
        ? 'file:// has no path: a file URL is file://<host>/<path> (RFC 1738 5, fileurl)'
        : `${JSON.stringify(host)} is read as a host name, not as a file: a file URL needs "/" and a path after the host (file://<host>/<path>, RFC 1738 3.10); for a file of this machine write file:///${host}`,
    );
    return;
  }
  if (!url.mayContain(59)) return; // the scanner saw no ";" in the path
  const href = url.href;
  for (let i = r.start; i < r.end; i++) {
    if (href.charCodeAt(i) === 59) {
      report(
        FILE_RESERVED_CHAR,
        i + url.inputOffset,
        '";" is reserved in a file path segment (fileurl uses fpath, which has no ";type=") and must be encoded as %3B (RFC 1738 5)',
      );
    }
  }
}

/**
 * The usual file URL, which neither the generic rules nor validate() report anything in (RFC
 * 1738 3.10, 5): a host or none, no user or port, "/" and a path without ";".
 */
const USUAL = /* @__PURE__ */ usualLogin(/* @__PURE__ */ bodyRun(';'), {
  emptyHost: true,
  port: false,
  pathRequired: true,
});

/**
 * The decoded path, beginning with "/", or null when there is none (RFC 1738 3.10).
 * DEVIATION: for the invalid form without "//" (file:/etc/motd), a scheme part that begins with
 * "/" is read as the path of this machine, the way such URLs are meant; the scanner has
 * reported the missing "//".
 */
function readPath(url: Url): string | null {
  const start = url.pathStart;
  if (start >= 0) {
    // Speed: without "%" the path is the slice from its "/", not a join of "/" and a slice.
    const h = url.href;
    const end = url.bodyEnd;
    const pc = h.indexOf('%', start);
    return pc >= 0 && pc < end ? '/' + decodeLenient(h, start, end) : h.slice(start - 1, end);
  }
  if (!url.hasLogin && url.schemePart.startsWith('/')) return text(url, schemePartRange(url));
  return null;
}

/** file (RFC 1738 3.10): the decoded path (starting with "/") and whether it is on this machine. */
export interface FileFields {
  /** The decoded path, beginning with "/"; null when the URL has none (file://host, file:x: `file-missing-path`). */
  path: string | null;
  local: boolean;
}

/** The contract fields (RFC 1738 3.10): `path` (decoded, begins with "/", or null), `local`. */
function fields(url: Url): FileFields {
  // Speed: the host is judged on its offsets; only a 9-character host is sliced.
  const hs = url.hostStart;
  const n = url.hostEnd - hs;
  const local = hs < 0 || n === 0 || (n === 9 && url.href.slice(hs, hs + 9).toLowerCase() === 'localhost');
  return Object.freeze({ path: readPath(url), local });
}

/**
 * Builds "//host/path" (RFC 1738 3.10, 5): the path split at "/" into fsegments, each encoded
 * (";", "%" and unsafe characters as %XX). `local: true` without a host writes the empty host.
 */
function build(f: Record<string, unknown>): string {
  if (f.port !== undefined && f.port !== null)
    throw new LocatorError(INVALID_FIELD, -1, 'a file URL takes no port (RFC 1738 5, fileurl)');
  const local = f.local;
  if (local !== undefined && local !== null && typeof local !== 'boolean')
    throw new LocatorError(INVALID_FIELD, -1, 'local must be a boolean');
  const host = stringField(f, 'host');
  if (local === true && !isLocalHost(host)) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `local is true but the host ${JSON.stringify(host)} is not "" or "localhost"`,
    );
  }
  if (local === false && isLocalHost(host)) {
    throw new LocatorError(INVALID_FIELD, -1, 'local is false, so a host other than "" and "localhost" is needed');
  }
  const path = stringField(f, 'path');
  if (path === null || !path.startsWith('/')) {
    throw new LocatorError(INVALID_FIELD, -1, 'a file URL needs a path beginning with "/" (RFC 1738 5, fileurl)');
  }
  const login = buildLogin({ ...f, host: host ?? '', port: null }, { allowLogin: false });
  return login + '/' + encodePath(path);
}

/**
 * The access: a local path is read from the file system (RFC 1738 3.10). For another host RFC
 * 1738 names no protocol; locator explains the anonymous FTP access the 1993-07 draft implies
 * (its "fileaddress" production is written "ftp://" host "/" path).
 */
function explain(url: Url): Explanation {
  const path = readPath(url);
  const notes = violationNotes(url);
  if (isLocalHost(url.host)) {
    const steps: string[] = [];
    if (path === null) {
      notes.push('the URL names no path, so there is nothing to open');
    } else {
      const dir = path.endsWith('/');
      steps.push(`${dir ? 'list' : 'open'} ${path}`);
      notes.push(
        `the host is ${url.host === null ? 'missing' : url.host === '' ? 'empty' : JSON.stringify(url.host)}: the file is read from the file system of the machine interpreting the URL, with no network protocol (RFC 1738 3.10)`,
      );
      if (dir) notes.push('the path ends in "/", so it names a directory, which the client lists');
      notes.push(
        'the path is decoded and handed to the local file system; where file names are not Unix-like the client maps it to the local form (RFC 1738 3.2.4: the URL path is not a Unix file name)',
      );
      if (path.includes('\0')) notes.push('the path holds a NUL (%00), which no file system accepts in a name');
    }
    return { protocol: 'file', host: url.host, port: null, steps, notes };
  }
  const r = pathRange(url);
  const segments = r === null ? [] : textSegments(url, r.start, r.end);
  const ftpAccess = ftpSteps({ user: null, password: null, segments, ftptype: null });
  notes.push(
    `the host ${JSON.stringify(url.host)} is another machine: RFC 1738 3.10 names no protocol or access method for file URLs`,
    'the 1993-07 draft writes its "fileaddress" production as "ftp://" host "/" path, so the file is fetched by anonymous FTP of the same path, as early clients did; the host may run no FTP server, and the FTP path is relative to the login directory, so it may not reach the same file',
    ...ftpAccess.notes,
  );
  return { protocol: 'ftp', host: url.host, port: 21, steps: ftpAccess.steps, notes };
}

/**
 * What the client sends (RFC 1738 3.10, 6): a local path goes to the file system as a C string,
 * where NUL ends the name; another host's path is fetched by anonymous FTP (the 1993-07 draft),
 * so its delimiters are those of ftp.
 */
function wire(url: Url): WirePart[] {
  const r = bodyRange(url);
  if (r === null) return [];
  if (isLocalHost(url.host))
    return [
      wirePart('the path', r[0], r[1], 'the file name handed to the file system, where NUL ends the name', C_STRING),
    ];
  return [
    wirePart(
      'the path',
      r[0],
      r[1],
      'the FTP commands "CWD <segment>" and "RETR <name>" (a file on another host is fetched by FTP)',
      TELNET_LINE,
    ),
  ];
}

/** file: host-specific file names (RFC 1738 3.10). */
export const file: SchemeSpec<FileFields> = {
  name: 'file',
  defaultPort: null,
  syntax: 'internet',
  status: 'rfc1738',
  // 3.10: "<path> is a hierarchical directory path of the form <directory>/<directory>/.../<name>".
  hierarchical: true,
  normal: {
    section: 'RFC 1738 3.10',
    // "<host> can be the string "localhost" or the empty string; this is interpreted as `the
    // machine from which the URL is being interpreted'": both are written as the empty host.
    host: (h) => (h === 'localhost' ? '' : h),
    hostKeptAt: (href, start, end) => end - start !== 9 || href.slice(start, end) !== 'localhost',
    path: (raw, clean) => (raw === null ? null : clean ? raw : normalizeEscapes(raw)),
    keepsCleanPath: true,
  },
  // A file URL naming this machine is read from its file system, not fetched from a server.
  readsThisMachine: (url) => isLocalHost(url.host),
  // RFC 1738 3.10: "This scheme, unlike most other URL schemes, does not designate a resource that
  // is universally accessible over the Internet": whatever its host, no server sends a client to one.
  neverRedirectTarget: true,
  emptyHost: true,
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  build,
  explain,
  wire,
};
