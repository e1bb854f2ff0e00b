// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const afs: SchemeSpec = {
  name: 'afs',
  defaultPort: null,
  syntax: 'internet',
  status: 'draft',
  emptyHost: true,
};
