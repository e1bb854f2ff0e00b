// The face of the tn3270 client (the drafts' tn3270; RFC 1576): an interactive session
// (../session-face.ts); ./session.ts is imported when first used.

import { sessionFace } from '../session-face.js';

export default sessionFace(async (url, options) => (await import('./session.js')).connectSession(url, options));
