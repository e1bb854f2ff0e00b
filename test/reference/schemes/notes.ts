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

/**
 * The one wording of explain's note on a violation of its URL, for every scheme (RFC 1738 5 and
 * the scheme sections of 3 name the rules): an error reads "not a valid <scheme> URL: <message>
 * (<code> at offset <n>, <section>)", a warning "warning: <message> (<code> at offset <n>,
 * <section>)"; the section is left out when no spec states the rule.
 */
export function violationNote(d: Diagnostic, url: Url): string {
  const where = `${d.code} at offset ${d.offset}${d.section === null ? '' : `, ${d.section}`}`;
  return d.severity === 'error'
    ? `not a valid ${url.scheme} URL: ${d.message} (${where})`
    : `warning: ${d.message} (${where})`;
}

/** Appends explain's notes on the violations of the URL, errors and warnings, to `notes` (a new array by default). */
export function violationNotes(url: Url, notes: string[] = []): string[] {
  for (const d of url.violations) notes.push(violationNote(d, url));
  return notes;
}
