// The schemes of RFC 1738 section 3 and of its drafts, registered like any other scheme
// (RFC 1738 section 4). Each scheme's own rules live in its module.

import { registerScheme, type SchemeSpec } from './registry.js';

const BUILTIN: SchemeSpec[] = [
  { name: 'ftp', defaultPort: 21, syntax: 'internet', status: 'rfc1738' },
  { name: 'http', defaultPort: 80, syntax: 'internet', status: 'rfc1738' },
  { name: 'gopher', defaultPort: 70, syntax: 'internet', status: 'rfc1738' },
  { name: 'mailto', defaultPort: null, syntax: 'opaque', status: 'rfc1738' },
  { name: 'news', defaultPort: null, syntax: 'opaque', status: 'rfc1738' },
  { name: 'nntp', defaultPort: 119, syntax: 'internet', status: 'rfc1738' },
  { name: 'telnet', defaultPort: 23, syntax: 'internet', status: 'rfc1738' },
  { name: 'wais', defaultPort: 210, syntax: 'internet', status: 'rfc1738' },
  { name: 'file', defaultPort: null, syntax: 'internet', status: 'rfc1738', emptyHost: true },
  { name: 'prospero', defaultPort: 1525, syntax: 'internet', status: 'rfc1738' },
  { name: 'https', defaultPort: 443, syntax: 'internet', status: 'later' },
  { name: 'rlogin', defaultPort: 513, syntax: 'internet', status: 'draft' },
  { name: 'tn3270', defaultPort: 23, syntax: 'internet', status: 'draft' },
  { name: 'mid', defaultPort: null, syntax: 'opaque', status: 'draft' },
  { name: 'cid', defaultPort: null, syntax: 'opaque', status: 'draft' },
  { name: 'afs', defaultPort: null, syntax: 'internet', status: 'draft', emptyHost: true },
];

for (const spec of BUILTIN) registerScheme(spec);
