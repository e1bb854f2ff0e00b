// The face of the telnet client (RFC 1738 3.8; RFC 854): an interactive session (../session-face.ts);
// ./session.ts is imported when first used.

import { sessionFace } from '../session-face.js';

export default sessionFace(async (url, options) => (await import('./session.js')).connectSession(url, options));
