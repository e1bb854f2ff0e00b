// The wording of explain's notes and steps: requests shown with their control characters named,
// and the notes on a URL's violations.

import type { Url } from '../core/url.js';
import type { Diagnostic } from '../core/errors.js';

/**
 * Shows TAB, CR and LF in an explain step as <TAB>, <CR>, <LF>; with `showNul`, NUL as <NUL>
 * too (the rlogin handshake fields end with NUL, RFC 1282).
 */
export function formatRequest(bytes: string, showNul = false): string {
  const out = bytes.replace(/\t/g, '<TAB>').replace(/\r\n/g, '<CR><LF>').replace(/\r/g, '<CR>').replace(/\n/g, '<LF>');
  return showNul ? out.replace(/\0/g, '<NUL>') : out;
}

/** How an explanation words one violation of its URL; null leaves it out. */
export type ViolationNote = (d: Diagnostic, url: Url) => string | null;

/** Appends the notes `note` words for the violations of the URL to `notes` (a new array by default). */
export function violationNotes(url: Url, note: ViolationNote, notes: string[] = []): string[] {
  for (const d of url.violations) {
    const n = note(d, url);
    if (n !== null) notes.push(n);
  }
  return notes;
}

// The wordings of those notes, one per family of schemes; each is part of the explain output.

/** ftp, file, afs: errors, the code first. */
export const NOT_VALID_CODE_FIRST: ViolationNote = (d) => (d.severity === 'error'
  ? `the URL is not valid (${d.code} at ${d.offset}, ${d.section}): ${d.message}` : null);
/** telnet, rlogin, tn3270, prospero, wais: errors. */
export const INVALID_URL: ViolationNote = (d) => (d.severity === 'error'
  ? `invalid URL: ${d.message} (${d.code} at offset ${d.offset}, ${d.section})` : null);
/** http, https, gopher: errors and warnings. */
export const NOT_VALID_OR_WARNING: ViolationNote = (d) => (d.severity === 'error'
  ? `not valid: ${d.message} (${d.code} at offset ${d.offset}, ${d.section})`
  : `warning: ${d.message} (${d.code} at offset ${d.offset})`);
/** mailto, news, nntp, mid, cid: errors, with the scheme name and the offset only. */
export const NOT_A_VALID_SCHEME_URL: ViolationNote = (d, url) => (d.severity === 'error'
  ? `not a valid ${url.scheme} URL: ${d.message} (offset ${d.offset})` : null);
