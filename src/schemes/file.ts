// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const file: SchemeSpec = {
  name: 'file',
  defaultPort: null,
  syntax: 'internet',
  status: 'rfc1738',
  emptyHost: true,
};
