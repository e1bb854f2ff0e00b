// The face shared by the interactive schemes (RFC 1738 3.8 telnet; the drafts' rlogin and tn3270):
// a session, which connect() opens and open() refuses; probed by connecting and reading the first
// bytes, no login. Each scheme adds its `session`; the protocol modules are imported when first used.

import type { ClientFace } from './client-face.js';
import { sessionSteps } from './probe/steps.js';

/** What the faces of the interactive schemes share; each spreads it and adds its `session`. */
export const INTERACTIVE_FACE: ClientFace = {
  kinds: ['session'],
  kindOf: () => 'session',
  probe: async (url, options) => (await import('./probe/session.js')).probe(url, options),
  steps: sessionSteps,
  form: () => ({ form: 'session' }),
  gatewayShows: 'the command to run',
};
