// The face of the ftp client (RFC 1738 3.2; RFC 959): files and directory listings. Its protocol
// modules are imported when a URL is first opened or probed (./client.ts, ./probe.ts).

import type { Url } from '../../core/url.js';
import { encode, SEGMENT_SET } from '../../core/percent.js';
import { fieldsOf } from '../../schemes/fields.js';
import type { ClientFace } from '../client-face.js';
import { ftpCheck, planFtp, passPlaceholder, shown } from './plan.js';
import { FtpReplyError } from './errors.js';
import { textLines } from '../framing/text-lines.js';

/** True when the URL names a directory: an empty last segment (a final "/") or `;type=d` (RFC 1738 3.2.2). */
function isDirectory(u: Url): boolean {
  const f = fieldsOf(u, 'ftp');
  return f.ftptype === 'd' || f.name === '';
}

/**
 * The listing URL of a name that is a directory (RFC 1738 3.2.2; the draft of 1994-03: a final
 * "/" lists the directory): the name with "/"; null for a URL that ends in "/" or has a `;type=`.
 */
function directoryOf(url: Url): string | null {
  const href = url.withoutFragment;
  if (href.endsWith('/') || href.lastIndexOf(';type=') > href.lastIndexOf('/')) return null;
  return href + '/';
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

/**
 * The entries of a directory listing (RFC 1738 3.2.2: NLST, names only), each as a URL under the
 * directory. NLST does not say which names are directories: each name is a URL with no final "/".
 */
async function* listingLinks(u: Url, body: ReadableStream<Uint8Array>): AsyncGenerator<string | null> {
  const href = u.withoutFragment;
  const semi = href.lastIndexOf(';type=');
  let base = semi > href.lastIndexOf('/') ? href.slice(0, semi) : href;
  if (fieldsOf(u, 'ftp').name !== '' && !base.endsWith('/')) base += '/';
  for await (const line of textLines(body)) {
    const name = line.replace(/\r$/, '').split('/').pop() ?? '';
    if (name === '' || name === '.' || name === '..') continue;
    yield base + encode(name, SEGMENT_SET);
  }
}

const ftp = {
  warcProtocols: ['ftp'],
  kinds: ['document', 'listing'],
  kindOf: (url) => (isDirectory(url) ? 'listing' : 'document'),
  objectOf: (url) => (planFtp(url).listing ? { kind: 'listing', view: 'ftp-listing' } : null),
  open: async (url, options) => (await import('./client.js')).open(url, options),
  probe: async (url, options) => (await import('./probe.js')).probe(url, options),
  steps: ftpSteps,
  links: listingLinks,
  directoryOf,
  gatewayShows: 'directories and files',
  // A name that is a directory: RETR fails with 550; the directory is listed instead (the draft of
  // 1994-03: a final "/" lists the directory).
  insteadOf(url, e) {
    if (!(e instanceof FtpReplyError) || e.replyCode !== 550 || e.command?.startsWith('RETR') !== true) return null;
    return directoryOf(url);
  },
} satisfies ClientFace;

export default ftp;
