// The FTP session an ftp URL stands for (RFC 1738 3.2.1-3.2.3), as data: who logs in, the CWD
// arguments, the TYPE, and RETR or NLST. Pure: no I/O. The client (client.ts) performs exactly
// this plan, and planSteps() writes it the way explain() of src/schemes/ftp.ts does, so a test
// can hold the two side by side: the client sends what `locator explain` says.

import type { Url } from '../../core/url.js';
import { decode, decodeText } from '../../core/percent.js';
import { guessType, typeSuffixAt } from '../../schemes/ftp.js';
import { pathRange, splitRanges } from '../../schemes/ranges.js';
import { formatRequest } from '../../schemes/notes.js';

/** An argument of an FTP command: the octets sent, and the text a transcript shows. */
export interface FtpArgument {
  /** The decoded octets (RFC 1738 3.2.2: "The components are decoded prior to their use"). */
  octets: Uint8Array;
  /** The decoded text (UTF-8), as explain() shows it. */
  text: string;
}

export interface FtpPlan {
  /** USER argument; null for the anonymous convention (RFC 1738 3.2.1). */
  user: FtpArgument | null;
  /** The URL's password; null when it gives none. */
  password: FtpArgument | null;
  /** One CWD per cwd segment, in order, empty ones included (RFC 1738 3.2.2). */
  cwd: FtpArgument[];
  /** The TYPE argument ("A", "I", "A N", "L 8"); null when no TYPE is sent. */
  type: string | null;
  /** RETR the name, or NLST (with the name for ;type=d, without for a directory URL). */
  verb: 'RETR' | 'NLST';
  /** The RETR or NLST argument; null for a bare NLST. */
  argument: FtpArgument | null;
  /** True when the object is a listing (NLST). */
  listing: boolean;
  /** What holds a CR or LF once decoded (it would end the command early), or null. */
  lineBreakIn: string | null;
}

function argument(href: string, start: number, end: number): FtpArgument {
  return { octets: decode(href, { strict: false }, start, end), text: decodeText(href, { strict: false }, start, end) };
}

function fromText(s: string | null, raw: string | null): FtpArgument | null {
  if (s === null || raw === null) return null;
  return { octets: decode(raw, { strict: false }), text: s };
}

function hasLineBreak(a: FtpArgument | null): boolean {
  return a !== null && (a.octets.includes(13) || a.octets.includes(10));
}

/**
 * The TYPE argument of a typecode (RFC 1738 5 ftptype; draft 1994-03: the RFC 959 TYPE with the
 * space omitted, put back here), or null when the typecode is not one.
 */
export function typeArgument(code: string): string | null {
  const up = code.toUpperCase();
  if (up === 'A' || up === 'I' || up === 'D') return up;
  if (up.length === 2 && (up[0] === 'A' || up[0] === 'E') && 'NTC'.includes(up[1])) return `${up[0]} ${up[1]}`;
  if (up.length > 1 && up[0] === 'L' && [...up.slice(1)].every((c) => c >= '0' && c <= '9')) return `L ${up.slice(1)}`;
  return null;
}

/**
 * The session of an ftp URL (RFC 1738 3.2.1-3.2.3; draft 1994-03: a final "/" lists the
 * directory). A typecode that is not one is ignored and the type guessed, as explain() says.
 */
export function planFtp(url: Url): FtpPlan {
  const href = url.href;
  const r = pathRange(url);
  let segments: FtpArgument[] = [];
  let code: string | null = null;
  if (r !== null) {
    const semi = typeSuffixAt(href, r.start, r.end);
    const end = semi >= 0 ? semi : r.end;
    segments = splitRanges(href, r.start, end).map((s) => argument(href, s.start, s.end));
    if (semi >= 0) code = typeArgument(href.slice(semi + 6, r.end));
  }
  const n = segments.length;
  const cwd = segments.slice(0, Math.max(0, n - 1));
  const name = n === 0 ? null : segments[n - 1];
  const user = fromText(url.user, url.rawUser);
  const password = user === null ? null : fromText(url.password, url.rawPassword);

  let type: string | null;
  let verb: FtpPlan['verb'];
  let arg: FtpArgument | null;
  if (code === 'D') {
    type = null;
    verb = 'NLST';
    arg = name === null || name.octets.length === 0 ? null : name;
  } else if (name === null || name.octets.length === 0) {
    type = code;
    verb = 'NLST';
    arg = null;
  } else {
    type = code ?? guessType(name.text);
    verb = 'RETR';
    arg = name;
  }
  const parts: Array<[string, FtpArgument | null]> = [
    ['the user name', user],
    ['the password', password],
    ...cwd.map((c, i): [string, FtpArgument] => [`CWD segment ${i + 1}`, c]),
    ['the name', name],
  ];
  const bad = parts.find(([, a]) => hasLineBreak(a));
  return { user, password, cwd, type, verb, argument: arg, listing: verb === 'NLST', lineBreakIn: bad ? bad[0] : null };
}

/** The placeholder explain() writes for the PASS argument (src/schemes/ftp.ts ftpSteps). */
export function passPlaceholder(plan: FtpPlan): string {
  if (plan.user === null) return 'PASS <your e-mail address>';
  return plan.password !== null ? 'PASS <password from the URL>' : 'PASS <password the user is asked for>';
}

/** A command line as a transcript and explain() show it: TAB, CR, LF made visible. */
export function shown(verb: string, arg: FtpArgument | null): string {
  return arg === null ? verb : `${verb} ${formatRequest(arg.text)}`;
}

/**
 * The plan written as explain(url).steps: USER, PASS (a placeholder), CWD..., TYPE, EPSV, RETR or
 * NLST, QUIT. PASS is sent only when the server asks (331), and PASV only when EPSV is refused;
 * the steps show the usual course.
 */
export function planSteps(plan: FtpPlan): string[] {
  const steps = [plan.user === null ? 'USER anonymous' : shown('USER', plan.user), passPlaceholder(plan)];
  for (const c of plan.cwd) steps.push(shown('CWD', c));
  if (plan.type !== null) steps.push(`TYPE ${plan.type}`);
  steps.push('EPSV', shown(plan.verb, plan.argument), 'QUIT');
  return steps;
}

/** The last command of an ftp probe: what proves the object once the CWDs are done. */
export type FtpCheck =
  | { kind: 'file'; name: FtpArgument } // SIZE, MDTM when SIZE is unknown, CWD on 550
  | { kind: 'directory'; name: FtpArgument } // CWD name, SIZE when that fails
  | { kind: 'listing' }; // the CWDs (or the login) are the proof

/** What an ftp probe checks after the CWDs (RFC 1738 3.2.2, 3.2.3). */
export function ftpCheck(plan: FtpPlan): FtpCheck {
  if (plan.argument === null) return { kind: 'listing' };
  return plan.verb === 'RETR' ? { kind: 'file', name: plan.argument } : { kind: 'directory', name: plan.argument };
}
