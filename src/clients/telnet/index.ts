// The face of the telnet client (RFC 1738 3.8; RFC 854): an interactive session (../session-face.ts);
// ./session.ts is imported when first used.

import type { ClientFace } from '../face.js';
import { SESSION_FACE } from '../session-face.js';

const telnet: ClientFace = {
  ...SESSION_FACE,
  session: async (url, options) => (await import('./session.js')).connectSession(url, options),
};

export default telnet;
