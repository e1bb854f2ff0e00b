// The face shared by the interactive schemes (RFC 1738 3.8 telnet; the drafts' rlogin and tn3270):
// a session, which connect() opens and open() refuses; probed by connecting and reading the first
// bytes, no login. The protocol modules are imported when first used.

import type { ClientFace } from './face.js';
import { sessionSteps } from './probe/steps.js';

/** The face of an interactive scheme whose session `session` opens (plus what `extra` adds). */
export function sessionFace(session: NonNullable<ClientFace['session']>, extra: Partial<ClientFace> = {}): ClientFace {
  return {
    kinds: ['session'],
    kindOf: () => 'session',
    session,
    probe: async (url, options) => (await import('./probe/session.js')).probe(url, options),
    steps: sessionSteps,
    form: () => ({ form: 'session' }),
    ...extra,
  };
}
