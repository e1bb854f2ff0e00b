// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const http: SchemeSpec = {
  name: 'http',
  defaultPort: 80,
  syntax: 'internet',
  status: 'rfc1738',
};

export const https: SchemeSpec = {
  name: 'https',
  defaultPort: 443,
  syntax: 'internet',
  status: 'later',
};
