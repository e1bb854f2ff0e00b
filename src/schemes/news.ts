// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const news: SchemeSpec = {
  name: 'news',
  defaultPort: null,
  syntax: 'opaque',
  status: 'rfc1738',
};
