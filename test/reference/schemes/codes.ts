// The diagnostic codes shared by several scheme modules (a scheme's own codes stay in its module).

import { defineCode } from '../core/errors.js';

export const INVALID_FIELD = defineCode(
  'invalid-field',
  'error',
  'RFC 1738 5',
  'this field value cannot be written in a URL of this scheme',
);
export const DRAFT_ONLY = defineCode(
  'draft-only',
  'warning',
  'RFC 1738 (drafts)',
  'this form is defined only by a 1993-94 draft, not by RFC 1738',
);
export const UNEXPECTED_LOGIN = defineCode(
  'unexpected-login',
  'error',
  'RFC 1738 5',
  'this scheme takes no user name or password',
);
