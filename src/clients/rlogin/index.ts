// The face of the rlogin client (the drafts' rlogin; RFC 1282): an interactive session
// (../interactive-face.ts); ./session.ts is imported when first used.

import type { ClientFace } from '../client-face.js';
import { INTERACTIVE_FACE } from '../interactive-face.js';

const rlogin: ClientFace = {
  ...INTERACTIVE_FACE,
  session: async (url, options) => (await import('./session.js')).connectSession(url, options),
  // rlogin(1): "~." at the start of a line ends the session, read by the local terminal.
  tildeEscapes: true,
};

export default rlogin;
