// The face of the telnet client (RFC 1738 3.8; RFC 854): an interactive session (../interactive-face.ts);
// ./session.ts is imported when first used.

import type { ClientFace } from '../client-face.js';
import { INTERACTIVE_FACE } from '../interactive-face.js';

const telnet: ClientFace = {
  ...INTERACTIVE_FACE,
  session: async (url, options) => (await import('./session.js')).connectSession(url, options),
};

export default telnet;
