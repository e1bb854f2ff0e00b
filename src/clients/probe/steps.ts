// What each scheme's probe sends (issue 18), written the way explain() writes a client's steps:
// `locator explain --probe` prints it, and the probe modules (./ftp.ts, ./nntp.ts, ...) send
// exactly this. Pure: no I/O, so explainProbe() answers at once.

import type { Url } from '../../core/url.js';
import { explain } from '../../build.js';
import { entryOf } from '../../schemes/registry.js';
import { fieldsOf } from '../../schemes/fields.js';
import { formatRequest } from '../../schemes/notes.js';
import { planFtp, passPlaceholder, shown, type FtpPlan } from '../ftp/plan.js';
import type { ProbeOptions } from './types.js';

/** How long telnet, rlogin and tn3270 probes wait for the first bytes by default (ms). */
export const FIRST_BYTES_WAIT = 2000;

/** The default ports of the session schemes (RFC 1738 3.8; RFC 1282 for rlogin). */
export const SESSION_PORTS: Readonly<Record<string, number>> = { telnet: 23, rlogin: 513, tn3270: 23 };

/** The last command of an ftp probe: what proves the object once the CWDs are done. */
export type FtpCheck =
  | { kind: 'file'; name: FtpPlan['argument'] & object } // SIZE, MDTM when SIZE is unknown, CWD on 550
  | { kind: 'directory'; name: FtpPlan['argument'] & object } // CWD name, SIZE when that fails
  | { kind: 'listing' }; // the CWDs (or the login) are the proof

/** What an ftp probe checks after the CWDs (RFC 1738 3.2.2, 3.2.3). */
export function ftpCheck(plan: FtpPlan): FtpCheck {
  if (plan.argument === null) return { kind: 'listing' };
  return plan.verb === 'RETR' ? { kind: 'file', name: plan.argument } : { kind: 'directory', name: plan.argument };
}

/** ftp (RFC 1738 3.2; RFC 959, RFC 3659): login, one CWD per segment, then SIZE for a file, CWD for a directory. */
export function ftpSteps(url: Url): string[] {
  const plan = planFtp(url);
  const steps = [plan.user === null ? 'USER anonymous' : shown('USER', plan.user), passPlaceholder(plan)];
  for (const c of plan.cwd) steps.push(shown('CWD', c));
  const check = ftpCheck(plan);
  if (check.kind === 'file') {
    steps.push(
      `${shown('SIZE', check.name)} [213: there; 550: ${shown('CWD', check.name)}, a directory if 250]`,
      `[if SIZE is not known (500, 502)] ${shown('MDTM', check.name)}`,
    );
  } else if (check.kind === 'directory') {
    steps.push(`${shown('CWD', check.name)} [if refused: ${shown('SIZE', check.name)}]`);
  }
  steps.push('QUIT');
  return steps;
}

/** http, https (RFC 1738 3.3; RFC 1945 8.2): HEAD, and GET with its body cancelled when HEAD is refused. */
export function httpSteps(url: Url): string[] {
  const target = '/' + (url.path ?? ''); // RFC 1738 3.3, as the http client sends it
  const host = url.explicitPort && url.port !== url.spec?.defaultPort ? `${url.host}:${url.port}` : (url.host ?? '');
  return [
    `HEAD ${target} HTTP/1.1`,
    `Host: ${host}`,
    `[if HEAD is answered 405 or 501] GET ${target} HTTP/1.1, the body cancelled unread`,
  ];
}

/** gopher (RFC 1738 3.4; RFC 1436): the request, and the first line of the answer. */
export function gopherSteps(url: Url, options: ProbeOptions = {}): string[] {
  const f = fieldsOf(url, 'gopher');
  if (f.gophertype === 'h' && /^\/?URL:/.test(f.selector))
    return [`none: the "URL:" selector names ${f.selector.replace(/^\/?URL:/, '')}, which is probed instead`];
  if (f.gophertype === '8' || f.gophertype === 'T')
    return connectSteps(`${url.host}:${url.port ?? 23}`, options).map((s, i) =>
      i === 0 ? `${s} (a ${f.gophertype === '8' ? 'Telnet' : 'tn3270'} item: the session, RFC 1436 3.8)` : s,
    );
  const noSearch = f.gophertype === '7' && (f.search === null || f.search === '') && f.gopherPlus === null;
  const request = noSearch ? formatRequest(`${f.selector}\t\r\n`) + ' (an empty search)' : formatRequest(f.request);
  const read =
    f.gophertype === '1' || f.gophertype === '7'
      ? 'read the first line: a menu line (not an error item, type 3), "." or nothing; then close'
      : 'read the first bytes (an answer that is only error items, type 3, is an error); then close';
  return [`connect ${url.host}:${url.port ?? 70}`, request, read];
}

const NNTP_START = [
  'CAPABILITIES',
  'MODE READER [if CAPABILITIES lists MODE-READER without READER, or is not understood]',
];

/** news (RFC 1738 3.6), nntp (3.7; RFC 3977): STAT or GROUP, or the first line of LIST ACTIVE. */
export function nntpSteps(url: Url): string[] {
  const steps = [...NNTP_START];
  if (url.scheme === 'news') {
    const f = fieldsOf(url, 'news');
    if (f.kind === 'article') steps.push(`STAT <${f.messageId}> [223: there; 430: no such article]`);
    else if (f.kind === 'group') steps.push(`GROUP ${f.group} [211: there; 411: no such group]`);
    else steps.push('LIST ACTIVE [215 and its first line; then close]');
  } else {
    const f = fieldsOf(url, 'nntp');
    steps.push(`GROUP ${f.group ?? ''} [211: there; 411: no such group]`);
    if (f.article !== null) steps.push(`STAT ${f.article} [223: there; 423: no such article]`);
  }
  steps.push('QUIT');
  return steps;
}

/** telnet, rlogin, tn3270 (RFC 1738 3.8): the connection and the first bytes, no login. */
export function sessionSteps(url: Url, options: ProbeOptions = {}): string[] {
  return connectSteps(`${url.host}:${url.port ?? SESSION_PORTS[url.scheme] ?? 23}`, options);
}

function connectSteps(hostport: string, options: ProbeOptions): string[] {
  const wait = options.firstBytesWait ?? FIRST_BYTES_WAIT;
  return [`connect ${hostport}`, `read the first bytes (waiting at most ${wait} ms), send nothing: no login`, 'close'];
}

/** mailto (RFC 1738 3.5; RFC 5321 5.1): the domain's MX, else its A and AAAA; RCPT TO only when asked. */
export function mailtoSteps(url: Url, options: ProbeOptions = {}): string[] {
  const address = fieldsOf(url, 'mailto').address;
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const dns =
    options.dnsServers !== undefined && options.dnsServers.length > 0 ? options.dnsServers.join(', ') : 'the system';
  const steps = [
    `DNS MX ${domain} (asking ${dns})`,
    `[if no MX] DNS A ${domain}, DNS AAAA ${domain} (RFC 5321 5.1: the domain is its own mail exchanger)`,
  ];
  if (options.smtpProbe === true) {
    const server = options.smtpServer ?? 'the first mail exchanger, port 25';
    steps.push(`connect ${server}`, 'EHLO <this host>', 'MAIL FROM:<>', `RCPT TO:<${address}>`, 'QUIT');
  }
  return steps;
}

/** file (RFC 1738 3.10): the path on this machine; a file of another host is probed as its ftp URL. */
export function fileSteps(url: Url): string[] {
  const f = fieldsOf(url, 'file');
  if (!f.local) return [`the file is on ${url.host}: its ftp URL is probed (RFC 1738 3.10)`];
  return [`open ${f.path}: a document for reading (no octet read), a directory for listing`];
}

/** wais (RFC 1738 3.9): InitRequest and the search (or the first piece of a document); then close. */
export function waisSteps(url: Url): string[] {
  const steps = explain(url).steps;
  const f = fieldsOf(url, 'wais');
  if (f.kind === 'database') {
    const db = f.database ?? '';
    // open() searches with no words, then retrieves the source description; the probe stops at
    // the answer that names it.
    steps.splice(
      -2,
      2,
      `search ${db} with no words (SearchRequest, query type 3: Database-Names "${db}"): the answer names its source description`,
    );
  }
  if (f.kind === 'document') steps[steps.length - 1] += ' [only the first piece: bytes 0-10000 at most]';
  steps.push('close');
  return steps;
}

/** prospero (RFC 1738 3.11): the directory lookup (GET-OBJECT-INFO ACCESS-METHOD); its URLs are not retrieved. */
export function prosperoSteps(url: Url): string[] {
  return [...explain(url).steps, 'the object is there when the reply names an access method'];
}

/** Any other scheme: open() and its first bytes, then the stream cancelled. */
export function openedSteps(url: Url): string[] {
  let steps: string[] = [];
  try {
    steps = explain(url).steps;
  } catch {
    steps = [];
  }
  return [...steps, 'read the first bytes of the object; then cancel the transfer'];
}

/** The steps of the probe of `url` (explainProbe(), `locator explain --probe`). */
export function probeSteps(url: Url, options: ProbeOptions = {}): string[] {
  if (entryOf(url)?.probe !== undefined) return [`the probe of the ${url.scheme} scheme's entry (registered with it)`];
  switch (url.scheme) {
    case 'ftp':
      return ftpSteps(url);
    case 'http':
    case 'https':
      return httpSteps(url);
    case 'gopher':
      return gopherSteps(url, options);
    case 'news':
    case 'nntp':
      return nntpSteps(url);
    case 'telnet':
    case 'rlogin':
    case 'tn3270':
      return sessionSteps(url, options);
    case 'mailto':
      return mailtoSteps(url, options);
    case 'file':
      return fileSteps(url);
    case 'wais':
      return waisSteps(url);
    case 'prospero':
      return prosperoSteps(url);
    default:
      return openedSteps(url);
  }
}
