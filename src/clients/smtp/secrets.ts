// The forms in which an SMTP password may show up in what a server sends back (RFC 4954 4: the
// client's AUTH data is base64; a server's 535 or 334 may quote it). No networking here.

import { base64 } from './message.js';

const enc = new TextEncoder();

/**
 * The base64 characters that encode `secret` wherever it stands in a longer base64 text (RFC 2045
 * 6.8: 3 octets make 4 characters): for each of the three offsets the secret can start at in a
 * group of 3, the characters made of its octets only. A server that quotes an AUTH PLAIN token
 * for another user, or a base64 "user:password", holds one of these.
 */
function base64Cores(secret: Uint8Array): string[] {
  const out: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const padded = new Uint8Array(lead + secret.length);
    padded.set(secret, lead);
    const text = base64(padded);
    const first = Math.ceil((8 * lead) / 6);
    const end = Math.floor((8 * (lead + secret.length)) / 6);
    // Shorter runs would mask ordinary words; the exact forms below cover a short password.
    if (end - first >= 6) out.push(text.slice(first, end));
  }
  return out;
}

/**
 * Every form of an SMTP password to hide from transcripts, error messages and output (RFC 4954
 * 4, RFC 4616 2): the password as given and JSON-escaped (as a reply or message that quotes it
 * shows it); base64 of it (AUTH LOGIN's line); the AUTH PLAIN token,
 * base64 of NUL user NUL password; and the base64 characters of the password at each alignment
 * (base64Cores). Longest first, so that a longer form is masked whole. Empty when the password
 * is empty.
 */
export function authSecrets(user: string, password: string): string[] {
  if (password === '') return [];
  const bytes = enc.encode(password);
  const forms = new Set([
    password,
    JSON.stringify(password).slice(1, -1),
    base64(bytes),
    base64(enc.encode(`\0${user}\0${password}`)),
    ...base64Cores(bytes),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}
