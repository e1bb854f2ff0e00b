// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const nntp: SchemeSpec = {
  name: 'nntp',
  defaultPort: 119,
  syntax: 'internet',
  status: 'rfc1738',
};
