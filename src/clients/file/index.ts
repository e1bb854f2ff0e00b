// The face of the file client (RFC 1738 3.10): a file on this machine, or on another host by
// anonymous FTP. The protocol modules are imported when first used (./client.ts, ./probe.ts).

import type { Url } from '../../core/url.js';
import { fieldsOf } from '../../schemes/fields.js';
import type { ClientFace } from '../client-face.js';

/** file (RFC 1738 3.10): the path on this machine; a file of another host is probed as its ftp URL. */
export function fileSteps(url: Url): string[] {
  const f = fieldsOf(url, 'file');
  if (!f.local) return [`the file is on ${url.host}: its ftp URL is probed (RFC 1738 3.10)`];
  return [`open ${f.path}: a document for reading (no octet read), a directory for listing`];
}

const file: ClientFace = {
  kinds: ['document', 'listing'],
  // The client says which it opened: a directory is listed (its names, one per line).
  objectOf: (_url, meta) => (meta.kind === 'listing' ? { kind: 'listing', view: 'directory' } : null),
  open: async (url, options) => (await import('./client.js')).open(url, options),
  probe: async (url, options) => (await import('./probe.js')).probe(url, options),
  steps: fileSteps,
  pages: true,
};

export default file;
