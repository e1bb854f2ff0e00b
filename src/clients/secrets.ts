// The forms in which a password may show up in what a server sends back, and their masking in
// text a server sent over several lines. Shared by the clients that send a password (SMTP AUTH,
// RFC 4954; NNTP AUTHINFO, RFC 4643). No networking here.

const enc = new TextEncoder();
const MASK = '****';

function base64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('base64');
}

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
 * The forms of a password to hide from transcripts, error messages and output: as given, and
 * JSON-escaped (as a message that quotes a reply shows it); base64 of it (RFC 4954 4: SMTP AUTH
 * data), and the base64 characters of it at each alignment in a longer base64 text
 * (base64Cores). `extra` adds forms of the caller's (a whole AUTH token). Longest first, so that
 * a longer form is masked whole. Empty when the password is empty.
 */
export function passwordSecrets(password: string, extra: readonly string[] = []): string[] {
  if (password === '') return [];
  const bytes = enc.encode(password);
  const forms = new Set([
    password,
    JSON.stringify(password).slice(1, -1),
    base64(bytes),
    ...extra,
    ...base64Cores(bytes),
  ]);
  return [...forms].filter((s) => s !== '').sort((a, b) => b.length - a.length);
}

/**
 * `parts` (the texts of the lines of one reply, in order) with every secret masked as "****",
 * within a part and also where a secret runs on from one part into the next (RFC 5321 4.2: a
 * multi-line reply may cut a quoted token or password anywhere). The parts are matched as one
 * text, joined with nothing between them; each part keeps its own place, a masked run in it
 * shown as one "****".
 */
export function maskAcross(parts: readonly string[], secrets: readonly string[]): string[] {
  const list = [...new Set(secrets)].filter((s) => s !== '');
  if (list.length === 0) return [...parts];
  const joined = parts.join('');
  const hidden = new Uint8Array(joined.length);
  let any = false;
  for (const s of list) {
    for (let at = joined.indexOf(s); at >= 0; at = joined.indexOf(s, at + 1)) {
      hidden.fill(1, at, at + s.length);
      any = true;
    }
  }
  if (!any) return [...parts];
  const out: string[] = [];
  let start = 0;
  for (const p of parts) {
    let t = '';
    for (let i = 0; i < p.length; i++) {
      if (hidden[start + i] === 0) t += p[i];
      else if (i === 0 || hidden[start + i - 1] === 0) t += MASK;
    }
    out.push(t);
    start += p.length;
  }
  return out;
}
