// The face of the tn3270 client (the drafts' tn3270; RFC 1576): an interactive session
// (../interactive-face.ts); ./session.ts is imported when first used.

import type { ClientFace } from '../client-face.js';
import { INTERACTIVE_FACE } from '../interactive-face.js';

const tn3270: ClientFace = {
  ...INTERACTIVE_FACE,
  session: async (url, options) => (await import('./session.js')).connectSession(url, options),
};

export default tn3270;
