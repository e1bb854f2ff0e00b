// The face of the prospero client (RFC 1738 3.11): the directory server names the object's access
// methods, which open() follows as redirects, or lists a directory (Prospero v5 3.5 LIST) whose
// links are URLs. The protocol modules are imported when first used (./client.ts, ./probe.ts);
// ./directory.ts is pure.

import type { Url } from '../../core/url.js';
import { explain } from '../../operations/build.js';
import type { ClientFace } from '../client-face.js';
import { DIRECTORY_TYPE, listingLinks, namesDirectory } from './directory.js';

/** prospero (RFC 1738 3.11): the directory lookup (GET-OBJECT-INFO ACCESS-METHOD); its URLs are not retrieved. */
export function prosperoSteps(url: Url): string[] {
  return [...explain(url).steps, 'the object is there when the reply names an access method'];
}

const prospero: ClientFace = {
  warcProtocols: ['prospero'],
  kinds: ['document', 'listing'],
  // A URL whose TARGET field names a directory (as a listing writes a directory's link) is a
  // listing before it is opened; any other may turn out one when opened (no access method).
  kindOf: (url) => (namesDirectory(url) ? 'listing' : 'document'),
  objectOf: (_url, meta) =>
    (meta.contentType ?? '') === DIRECTORY_TYPE ? { kind: 'listing', view: 'prospero-directory' } : null,
  open: async (url, options) => (await import('./client.js')).open(url, options),
  probe: async (url, options) => (await import('./probe.js')).probe(url, options),
  steps: prosperoSteps,
  gatewayShows: 'objects (through their access method) and directories',
  links: (_url, body) => listingLinks(body),
};

export default prospero;
