// The forms in which an SMTP password may show up in what a server sends back (RFC 4954 4: the
// client's AUTH data is base64; a server's 535 or 334 may quote it). No networking here.

import { passwordSecrets } from '../secrets.js';
import { base64 } from './message.js';

const enc = new TextEncoder();

/**
 * Every form of an SMTP password to hide from transcripts, error messages and output (RFC 4954
 * 4, RFC 4616 2): the forms of ../secrets.ts passwordSecrets (as given, JSON-escaped, base64,
 * base64 at each alignment; AUTH LOGIN's line among them) and the AUTH PLAIN token, base64 of
 * NUL user NUL password. Longest first, so that a longer form is masked whole. Empty when the
 * password is empty.
 */
export function authSecrets(user: string, password: string): string[] {
  if (password === '') return [];
  return passwordSecrets(password, [base64(enc.encode(`\0${user}\0${password}`))]);
}
