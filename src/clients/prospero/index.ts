// The face of the prospero client (RFC 1738 3.11): the directory server names the object's access
// methods, which open() follows as redirects. The protocol modules are imported when first used
// (./client.ts, ./probe.ts).

import type { Url } from '../../core/url.js';
import { explain } from '../../build.js';
import type { ClientFace } from '../face.js';

/** prospero (RFC 1738 3.11): the directory lookup (GET-OBJECT-INFO ACCESS-METHOD); its URLs are not retrieved. */
export function prosperoSteps(url: Url): string[] {
  return [...explain(url).steps, 'the object is there when the reply names an access method'];
}

const prospero: ClientFace = {
  kinds: ['document', 'listing'],
  open: async (url, options) => (await import('./client.js')).open(url, options),
  probe: async (url, options) => (await import('./probe.js')).probe(url, options),
  steps: prosperoSteps,
};

export default prospero;
