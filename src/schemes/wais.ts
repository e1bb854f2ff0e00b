// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const wais: SchemeSpec = {
  name: 'wais',
  defaultPort: 210,
  syntax: 'internet',
  status: 'rfc1738',
};
