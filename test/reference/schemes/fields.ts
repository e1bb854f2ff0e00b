// The decoded fields of each scheme of the specs (contract `fields`, test/data/docs/contract.md),
// as types: `parse(url).fields` of a URL of that scheme, and what `build(scheme, fields)` takes.
// The names are the BNF names of RFC 1738 section 5 where it has them.

import type { Url } from '../core/url.js';
import type { LoginFields } from './spec.js';
import type { GopherPlus } from './gopher.js';
import type { WaisFields } from './wais.js';

export type { GopherPlus, WaisFields };

/** ftp (RFC 1738 3.2): the decoded path segments, the CWD list, the name, the typecode. */
export interface FtpFields {
  segments: readonly string[];
  cwd: readonly string[];
  name: string | null;
  ftptype: string | null;
}

/** http and https (RFC 1738 3.3): hpath and search raw, segments and keywords decoded. */
export interface HttpFields {
  hpath: string | null;
  segments: readonly string[];
  search: string | null;
  keywords: readonly string[];
}

/** gopher (RFC 1738 3.4): gophertype, selector, search, Gopher+ string, and the request sent. */
export interface GopherFields {
  gophertype: string;
  selector: string;
  search: string | null;
  gopherPlus: string | null;
  /** The exact text the client sends, CR LF included. */
  request: string;
  plus: GopherPlus | null;
}

/** mailto (RFC 1738 3.5): the RFC 822 addr-spec. */
export interface MailtoFields {
  address: string;
}

/** news (RFC 1738 3.6): a group, a message id, or every group ("*"). */
export interface NewsFields {
  kind: 'group' | 'article' | 'all';
  group: string | null;
  messageId: string | null;
}

/** nntp (RFC 1738 3.7): the group and the article number. */
export interface NntpFields {
  group: string | null;
  article: number | null;
}

/** telnet, rlogin, tn3270 (RFC 1738 3.8): nothing beyond the login. */
export interface SessionFields {}

/** file (RFC 1738 3.10): the decoded path (starting with "/") and whether it is on this machine. */
export interface FileFields {
  path: string;
  local: boolean;
}

/** prospero (RFC 1738 3.11): the hsoname, the field=value pairs, the 1993-10 draft's version and attributes. */
export interface ProsperoFields {
  hsoname: string | null;
  fields: Record<string, string>;
  version: string | null;
  attributes: string[] | null;
}

/** mid (drafts; RFC 2111): the message id and an optional content id. */
export interface MidFields {
  messageId: string;
  contentId: string | null;
}

/** cid (drafts; RFC 2111): the content id. */
export interface CidFields {
  contentId: string;
}

/** afs (draft 1993-07): the cell and the path. */
export interface AfsFields {
  cellname: string | null;
  path: string;
}

/** The fields of every scheme of the specs, by scheme name. */
export interface SchemeFields {
  ftp: FtpFields;
  http: HttpFields;
  https: HttpFields;
  gopher: GopherFields;
  mailto: MailtoFields;
  news: NewsFields;
  nntp: NntpFields;
  telnet: SessionFields;
  rlogin: SessionFields;
  tn3270: SessionFields;
  wais: WaisFields;
  file: FileFields;
  prospero: ProsperoFields;
  mid: MidFields;
  cid: CidFields;
  afs: AfsFields;
}

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
