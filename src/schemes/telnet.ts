// STUB: replaced by the scheme's own module (issue 3).
import type { SchemeSpec } from './registry.js';

export const telnet: SchemeSpec = {
  name: 'telnet',
  defaultPort: 23,
  syntax: 'internet',
  status: 'rfc1738',
};

export const rlogin: SchemeSpec = {
  name: 'rlogin',
  defaultPort: 513,
  syntax: 'internet',
  status: 'draft',
};

export const tn3270: SchemeSpec = {
  name: 'tn3270',
  defaultPort: 23,
  syntax: 'internet',
  status: 'draft',
};
