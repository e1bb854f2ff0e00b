// The face of the telnet client (RFC 1738 3.8; RFC 854): an interactive session, which connect() opens and
// open() refuses. The protocol modules are imported when first used (./session.ts,
// ../probe/session.ts).

import type { ClientFace } from '../face.js';
import { sessionSteps } from '../probe/steps.js';

const telnet: ClientFace = {
  kinds: ['session'],
  kindOf: () => 'session',
  session: async (url, options) => (await import('./session.js')).connectSession(url, options),
  probe: async (url, options) => (await import('../probe/session.js')).probe(url, options),
  steps: sessionSteps,
  form: () => ({ form: 'session' }),
};

export default telnet;
