// The decoded fields of each scheme of the specs (contract `fields`, test/data/docs/contract.md),
// as types: `parse(url).fields` of a URL of that scheme, and what `build(scheme, fields)` takes.
// Each scheme's module declares its own (SchemeSpec<F>: FtpFields in ./ftp.ts, ...); the table of
// ./builtin.ts gathers them by scheme name. The names are the BNF names of RFC 1738 section 5
// where it has them.

import type { Url } from '../core/url.js';
import type { LoginFields } from './spec.js';
import type { BuiltinFields } from './builtin.js';

// The fields types under the names the package has published (locator/core). A scheme added
// later needs no name here: its fields are SchemeFields['<scheme>'].
export type { FtpFields } from './ftp.js';
export type { HttpFields } from './http.js';
export type { GopherFields, GopherPlus } from './gopher.js';
export type { MailtoFields } from './mailto.js';
export type { NewsFields } from './news.js';
export type { NntpFields } from './nntp.js';
export type { SessionFields } from './telnet.js';
export type { WaisFields } from './wais.js';
export type { FileFields } from './file.js';
export type { ProsperoFields } from './prospero.js';
export type { MidFields, CidFields } from './mid.js';
export type { AfsFields } from './afs.js';

/**
 * The fields of every built-in scheme, by scheme name (the types the entries of ./builtin.ts
 * declare): `fieldsOf(url, 'ftp')` is FtpFields. An interface, so that it can be augmented.
 */
export interface SchemeFields extends BuiltinFields {}

/**
 * What build(scheme, fields) takes for a scheme of the specs: its fields (each may be left out or
 * null: absent), the login and a fragment.
 */
export type BuildFields<S extends keyof SchemeFields> = {
  [K in keyof SchemeFields[S]]?: SchemeFields[S][K] | null;
} & LoginFields;

/**
 * The fields of `url`, typed by its scheme (RFC 1738 3): throws a TypeError when the URL is of
 * another scheme, so that a caller never reads one scheme's fields as another's.
 */
export function fieldsOf<S extends keyof SchemeFields>(url: Url, scheme: S): SchemeFields[S] {
  if (url.scheme !== scheme) throw new TypeError(`fieldsOf: a ${url.scheme} URL has no ${scheme} fields`);
  return url.fields as unknown as SchemeFields[S];
}
