// connect(): open an interactive session for a URL that designates one (RFC 1738 3.8: "the
// telnet URL designates an interactive text-based service"; the drafts' rlogin and tn3270). The
// counterpart of open(), which retrieves data objects. The session is the scheme's face's
// (./face-of.ts), whose protocol module is imported only when a URL of that scheme is connected to.

import { parse } from '../schemes/registry.js';
import { Url, expectUrl } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { DEFAULT_POLICY } from '../operations/policy.js';
import { beforeSending } from './hop.js';
import type { InteractiveSession, SessionOptions } from './interactive.js';
import { faceOf, interactiveSchemes } from './face-of.js';
import { NO_SESSION } from './interactive.js';

export { interactiveSchemes };
export { NO_SESSION, INTERACTIVE_ONLY, interactiveOnly } from './interactive.js';

/**
 * Opens an interactive session (RFC 1738 3.8): checks the URL against the policy first (no byte
 * is sent for a refused URL, RFC 1738 6), then hands it to its scheme's face (its session). Resolves
 * to an InteractiveSession; fails with a LocatorError (policy-refused, no-session,
 * connect-failed, timeout, aborted).
 */
export async function connect(url: string | Url, options: SessionOptions = {}): Promise<InteractiveSession> {
  expectUrl(url, 'connect: the URL');
  const u = typeof url === 'string' ? parse(url) : url;
  const policy = options.policy ?? DEFAULT_POLICY;
  beforeSending(u, policy);
  const face = faceOf(u);
  if (face.session === undefined) {
    throw new LocatorError(
      NO_SESSION,
      0,
      `${u.scheme}: URLs designate no interactive service connect() can open (it opens ${interactiveSchemes().join(', ')}); use open() (\`locator fetch\`) for data objects`,
    );
  }
  return face.session(u, { ...options, policy });
}
