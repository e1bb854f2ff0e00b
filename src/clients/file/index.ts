// The face of the file client (RFC 1738 3.10): a file on this machine, or on another host by
// anonymous FTP, through the ftp client's face that the face table gives it. The protocol modules
// are imported when first used (./client.ts, ./probe.ts).

import type { Url } from '../../core/url.js';
import { fieldsOf } from '../../schemes/fields.js';
import type { ClientFace } from '../client-face.js';
import type { FtpFace } from './client.js';

/** file (RFC 1738 3.10): the path on this machine; a file of another host is probed as its ftp URL. */
export function fileSteps(url: Url): string[] {
  const f = fieldsOf(url, 'file');
  if (!f.local) return [`the file is on ${url.host}: its ftp URL is probed (RFC 1738 3.10)`];
  if (f.path === null) return ['nothing is opened: the file URL names no path (RFC 1738 3.10)'];
  return [`open ${f.path}: a document for reading (no octet read), a directory for listing`];
}

/**
 * The face of the file client, given the face of the ftp client, which retrieves and probes a file
 * of another host (RFC 1738 3.10; draft 1993-07 fileaddress). The face table passes it, so that
 * this folder imports no other scheme's (docs/layering.md, "Inside the clients").
 */
export default function fileFace(ftp: FtpFace): ClientFace {
  return {
    kinds: ['document', 'listing'],
    // The client says which it opened: a directory is listed (its names, one per line).
    objectOf: (_url, meta) => (meta.kind === 'listing' ? { kind: 'listing', view: 'directory' } : null),
    open: async (url, options) => (await import('./client.js')).open(url, options, ftp),
    probe: async (url, options) => (await import('./probe.js')).probe(url, options, ftp),
    steps: fileSteps,
    pages: true,
  };
}
