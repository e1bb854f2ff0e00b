// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const ftp: SchemeSpec = {
  name: 'ftp',
  defaultPort: 21,
  syntax: 'internet',
  status: 'rfc1738',
};
