// The schemes of RFC 1738 section 3 and of its drafts: the static table the registry starts from
// (no import of this module registers anything). Each scheme's own rules live in its module.

import type { SchemeSpec } from './spec.js';
import { ftp } from './ftp.js';
import { http, https } from './http.js';
import { gopher } from './gopher.js';
import { mailto } from './mailto.js';
import { news } from './news.js';
import { nntp } from './nntp.js';
import { telnet, rlogin, tn3270 } from './telnet.js';
import { wais } from './wais.js';
import { file } from './file.js';
import { prospero } from './prospero.js';
import { mid, cid } from './mid.js';
import { afs } from './afs.js';

/**
 * Every built-in scheme entry under its name, in the order of the specs: the one list of the
 * built-in schemes. A table keyed by scheme name elsewhere (the clients' faces,
 * src/clients/builtin-faces.ts) is typed by BuiltinSchemeName, so a misspelt name is a compile
 * error.
 */
const BY_NAME = {
  ftp,
  http,
  https,
  gopher,
  mailto,
  news,
  nntp,
  telnet,
  rlogin,
  tn3270,
  wais,
  file,
  prospero,
  mid,
  cid,
  afs,
};

/** The name of a built-in scheme (RFC 1738 3 and its drafts): a key of the table above. */
export type BuiltinSchemeName = keyof typeof BY_NAME;

/** The fields type F of an entry typed SchemeSpec<F> (its module declares F beside its `fields`). */
type FieldsOf<S> = S extends SchemeSpec<infer F> ? F : never;

/**
 * The decoded fields of each built-in scheme, by its name (contract `fields`): the type its entry
 * declares, gathered from the table above, so that a new entry brings its own (SchemeFields in
 * ./fields.ts, which fieldsOf() and build() read).
 */
export type BuiltinFields = { [N in BuiltinSchemeName]: FieldsOf<(typeof BY_NAME)[N]> };

/** Every built-in scheme entry, in the order of the specs (each held as the generic entry). */
export const BUILTIN_SCHEMES: readonly SchemeSpec[] = /* @__PURE__ */ Object.values(
  BY_NAME,
) as unknown as readonly SchemeSpec[];
