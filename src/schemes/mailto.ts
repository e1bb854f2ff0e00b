// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const mailto: SchemeSpec = {
  name: 'mailto',
  defaultPort: null,
  syntax: 'opaque',
  status: 'rfc1738',
};
