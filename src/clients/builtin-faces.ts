// The faces of the built-in schemes' clients, beside the built-in scheme table
// (src/schemes/builtin.ts): the entries live in the browser-safe layer, which may not name their
// clients (they reach node:net), so this table pairs them, by scheme name, and is the only place
// that does. Each face is cheap to import: its protocol modules load when first used.

import type { BuiltinSchemeName } from '../schemes/builtin.js';
import type { ClientFace } from './client-face.js';
import ftp from './ftp/index.js';
import http from './http/index.js';
import gopher from './gopher/index.js';
import mailto from './smtp/index.js';
import nntp from './nntp/index.js';
import telnet from './telnet/index.js';
import rlogin from './rlogin/index.js';
import tn3270 from './tn3270/index.js';
import wais from './wais/index.js';
import fileFace from './file/index.js';
import prospero from './prospero/index.js';

/**
 * The face of each built-in scheme with a client, in the order of the specs (mid, cid and afs
 * have none), keyed by the scheme's name: a name that is no built-in scheme does not compile.
 */
export const BUILTIN_FACES: Readonly<Partial<Record<BuiltinSchemeName, ClientFace>>> = {
  ftp,
  http,
  https: http,
  gopher,
  mailto,
  news: nntp,
  nntp,
  telnet,
  rlogin,
  tn3270,
  wais,
  // A file of another host is retrieved by FTP (RFC 1738 3.10): the file face is given ftp's.
  file: /* @__PURE__ */ fileFace(ftp),
  prospero,
};
