// The face of the rlogin client (the drafts' rlogin; RFC 1282): an interactive session, which connect() opens and
// open() refuses. The protocol modules are imported when first used (./session.ts,
// ../probe/session.ts).

import type { ClientFace } from '../face.js';
import { sessionSteps } from '../probe/steps.js';

const rlogin: ClientFace = {
  kinds: ['session'],
  kindOf: () => 'session',
  session: async (url, options) => (await import('./session.js')).connectSession(url, options),
  probe: async (url, options) => (await import('../probe/session.js')).probe(url, options),
  steps: sessionSteps,
  form: () => ({ form: 'session' }),
  // rlogin(1): "~." at the start of a line ends the session, read by the local terminal.
  tildeEscapes: true,
};

export default rlogin;
