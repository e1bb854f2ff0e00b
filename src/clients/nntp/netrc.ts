// The netrc file (the format of BSD ftp(1) and curl): "machine <host> login <user> password
// <password>" entries, and one "default" entry for any other host. Pure: the caller reads the
// file. Used for NNTP AUTHINFO (RFC 4643 2.3) when the server asks, and only for the hosts the
// user named (client.ts credentialsFor(), the netrcHosts option).

export interface NetrcEntry {
  /** The host, or null for the "default" entry. */
  machine: string | null;
  login: string | null;
  password: string | null;
}

/**
 * Reads the entries of a netrc text: tokens separated by white space, a token in double quotes
 * may hold spaces (and \" or \\); "macdef" skips its macro, up to an empty line; "#" starts a
 * comment at a token start.
 */
export function parseNetrc(text: string): NetrcEntry[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
      continue;
    }
    let tok = '';
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        tok += text[i++];
      }
      i++;
    } else {
      while (i < text.length && !/\s/.test(text[i])) tok += text[i++];
    }
    tokens.push(tok);
    if (tok === 'macdef') {
      // The macro's name, then its lines up to an empty line.
      const nl = text.indexOf('\n', i);
      const end = nl < 0 ? -1 : text.indexOf('\n\n', nl);
      i = end < 0 ? text.length : end + 2;
      tokens.pop();
    }
  }
  const entries: NetrcEntry[] = [];
  let current: NetrcEntry | null = null;
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t];
    if (tok === 'machine' || tok === 'default') {
      current = { machine: tok === 'machine' ? (tokens[++t] ?? '') : null, login: null, password: null };
      entries.push(current);
    } else if (current !== null && (tok === 'login' || tok === 'password' || tok === 'account')) {
      const v = tokens[++t] ?? '';
      if (tok === 'login') current.login = v;
      else if (tok === 'password') current.password = v;
    }
  }
  return entries;
}

/** A host as netrc entries compare it: case-insensitive, the brackets of an IPv6 literal ignored. */
export function netrcHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/**
 * The entry for `host` (compared by netrcHost()): its "machine" entry, else the "default" one
 * (unless `useDefault` is false), else null. With `login`, only an entry for that user.
 */
export function netrcEntry(
  entries: NetrcEntry[],
  host: string,
  login?: string,
  { useDefault = true }: { useDefault?: boolean } = {},
): NetrcEntry | null {
  const want = netrcHost(host);
  const fits = (e: NetrcEntry) => login === undefined || e.login === login;
  return (
    entries.find((e) => e.machine !== null && netrcHost(e.machine) === want && fits(e)) ??
    (useDefault ? entries.find((e) => e.machine === null && fits(e)) : undefined) ??
    null
  );
}
