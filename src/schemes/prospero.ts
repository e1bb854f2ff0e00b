// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const prospero: SchemeSpec = {
  name: 'prospero',
  defaultPort: 1525,
  syntax: 'internet',
  status: 'rfc1738',
};
