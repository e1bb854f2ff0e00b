// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const mid: SchemeSpec = {
  name: 'mid',
  defaultPort: null,
  syntax: 'opaque',
  status: 'draft',
};

export const cid: SchemeSpec = {
  name: 'cid',
  defaultPort: null,
  syntax: 'opaque',
  status: 'draft',
};
