// afs: Andrew File System global file names (draft 1993-07 BNF; RFC 1738 4 reserves the name).
//
//   afsaddress = a f s : / / cellname / path        cellname = hostname
//   path       = void | xpalphas [ / path ]         (draft 1993-07; repeated in 1993-10 and 1994-03)
//
// That is all the drafts say. The July 1993 draft lists afsaddress among the URL forms; the
// October 1993 and March 1994 drafts keep it "as historical note, but [it] is not a url
// production"; RFC 1738 section 4 lists "afs" among the names proposed but not defined. So every
// afs URL gets a `draft-only` warning, and this module reads only what the grammar gives: the
// cell name and the path. No user, password or port; no access algorithm is defined.
//
// Characters of the path: the 1994-03 draft (the latest edition that prints afsaddress) makes
// xpalpha = alpha | digit | safe | extra | escape | "+", with "@" and "&" in safe, and "=", ";",
// "?", ":" reserved; "/" separates segments.

import type { Url } from '../core/url.js';
import type { Explanation, Report, SchemeSpec, WirePart } from './spec.js';
import { C_STRING, bodyRange, wirePart } from './wire.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { UCHAR_SET } from '../core/percent.js';
import { DRAFT_ONLY, INVALID_FIELD } from './codes.js';
import { checkRange, pathRange } from './ranges.js';
import { stringField, text } from './read.js';
import { buildLogin, refuseLogin, refusePort } from './login.js';
import { violationNotes } from './notes.js';
import { encodePath } from './ftp.js';

export const AFS_MISSING_CELL = defineCode(
  'afs-missing-cell',
  'error',
  'draft 1993-07 (afsaddress)',
  'an afs URL names its cell: afs://<cellname>/<path>, cellname = hostname',
);
export const AFS_MISSING_PATH = defineCode(
  'afs-missing-path',
  'error',
  'draft 1993-07 (afsaddress)',
  'an afs URL has "/" and a path after the cell name: afs://<cellname>/<path>',
);
export const AFS_PORT = defineCode(
  'afs-port',
  'error',
  'draft 1993-07 (afsaddress)',
  'an afs URL takes no port: afs://<cellname>/<path>',
);
export const AFS_RESERVED_CHAR = defineCode(
  'afs-reserved-char',
  'error',
  'draft 1994-03 (afsaddress, xpalpha)',
  'a reserved character ("=", ";", "?" or ":") must be encoded in an afs path',
);

/** xpalphas (draft 1994-03): uchar plus the draft's safe "@" and "&". */
const AFS_SEGMENT_SET = UCHAR_SET.with('@&');
/** A path: xpalphas separated by "/". */
const AFS_PATH_SET = AFS_SEGMENT_SET.with('/');

/** Draft 1993-07 afsaddress: a draft-only form; cell name required; no login, no port; "/" path. */
function validate(url: Url, report: Report): void {
  report(
    DRAFT_ONLY,
    url.inputOffset,
    'afs: URLs are defined only by the 1993-07 draft (afsaddress); the later drafts keep it as a historical note and RFC 1738 4 only reserves the name',
  );
  if (!url.hasLogin) return; // the scanner reported the missing "//"
  refuseLogin(url, report, 'draft 1993-07, afsaddress');
  if (url.hostEnd === url.hostStart) report(AFS_MISSING_CELL, url.hostStart + url.inputOffset);
  refusePort(url, report, AFS_PORT);
  const r = pathRange(url);
  if (r === null) {
    report(AFS_MISSING_PATH, url.bodyEnd + url.inputOffset);
    return;
  }
  checkRange(url, r.start, r.end, AFS_PATH_SET, report, AFS_RESERVED_CHAR);
}

function readPath(url: Url): string | null {
  const r = pathRange(url);
  return r === null ? null : '/' + text(url, r);
}

/** afs (draft 1993-07): the cell and the path. */
export interface AfsFields {
  cellname: string | null;
  /** The decoded path, beginning with "/"; null when the URL has none (afs://cell: `afs-missing-path`). */
  path: string | null;
}

/** The fields of draft 1993-07 afsaddress: `cellname` (the host) and `path` (decoded, begins with "/", or null). */
function fields(url: Url): AfsFields {
  return Object.freeze({ cellname: url.host, path: readPath(url) });
}

/** Builds "//cellname/path" (draft 1993-07 afsaddress); `host` may stand for `cellname`. */
function build(f: Record<string, unknown>): string {
  if (f.port !== undefined && f.port !== null) throw new LocatorError(INVALID_FIELD, -1, 'an afs URL takes no port');
  const cell = stringField(f, 'cellname');
  const host = stringField(f, 'host');
  if (cell !== null && host !== null && cell !== host) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `cellname ${JSON.stringify(cell)} and host ${JSON.stringify(host)} disagree`,
    );
  }
  const name = cell ?? host;
  if (name === null || name === '') throw new LocatorError(INVALID_FIELD, -1, 'an afs URL needs a cell name');
  const path = stringField(f, 'path');
  if (path === null || !path.startsWith('/'))
    throw new LocatorError(INVALID_FIELD, -1, 'an afs URL needs a path beginning with "/"');
  const login = buildLogin({ ...f, host: name, port: null }, { allowLogin: false });
  return login + '/' + encodePath(path, AFS_SEGMENT_SET);
}

/**
 * The drafts define no access algorithm for afs. locator explains the reading of the AFS global
 * name space (an AFS convention, not the drafts'): cell C is mounted at /afs/C on a machine
 * running an AFS client, so the file is opened there.
 */
function explain(url: Url): Explanation {
  const notes = violationNotes(url);
  const path = readPath(url);
  const cell = url.host;
  const steps: string[] = [];
  notes.push(
    'the drafts define only the syntax afs://<cellname>/<path> and no access algorithm (draft 1993-07; RFC 1738 4 reserves the name)',
  );
  if (cell !== null && cell !== '' && path !== null) {
    steps.push(`open /afs/${cell}${path}`);
    notes.push(
      `read through the AFS global name space, where the cell ${JSON.stringify(cell)} is mounted at /afs/${cell} on a machine running an AFS client (an AFS convention, not part of the drafts)`,
    );
  } else {
    notes.push('without a cell name and a path there is no file to open');
  }
  return { protocol: 'afs', host: cell, port: null, steps, notes };
}

/** What the client reads (draft 1993-07 afsaddress; RFC 1738 6): the path names a file under /afs/<cell>, a C string. */
function wire(url: Url): WirePart[] {
  const r = bodyRange(url);
  return r === null
    ? []
    : [wirePart('the path', r[0], r[1], 'the file name handed to the file system, where NUL ends the name', C_STRING)];
}

/** afs: Andrew File System global file names (draft 1993-07 only). */
export const afs: SchemeSpec<AfsFields> = {
  name: 'afs',
  defaultPort: null,
  syntax: 'internet',
  status: 'draft',
  // draft 1993-07: afs://<cellname>/<path>, a file name in the AFS tree.
  hierarchical: true,
  // Read from this machine's /afs name space, not fetched from a server.
  readsThisMachine: () => true,
  neverRedirectTarget: true,
  emptyHost: true,
  validate,
  fields,
  fieldsFrozen: true,
  build,
  explain,
  wire,
};
