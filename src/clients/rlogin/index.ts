// The face of the rlogin client (the drafts' rlogin; RFC 1282): an interactive session
// (../session-face.ts); ./session.ts is imported when first used.

import { sessionFace } from '../session-face.js';

export default sessionFace(async (url, options) => (await import('./session.js')).connectSession(url, options), {
  // rlogin(1): "~." at the start of a line ends the session, read by the local terminal.
  tildeEscapes: true,
});
