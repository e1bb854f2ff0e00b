// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const gopher: SchemeSpec = {
  name: 'gopher',
  defaultPort: 70,
  syntax: 'internet',
  status: 'rfc1738',
};
