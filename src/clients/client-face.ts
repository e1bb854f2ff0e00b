// The face of a scheme's client (RFC 1738 4: "a definition of an algorithm for accessing of
// resources within that scheme"), in the manner of curl's Curl_handler: one object per scheme that
// says what open(), probe(), connect(), `locator check --recursive`, `locator fetch` and the gateway
// do with its URLs. Each built-in scheme's face is the default export of
// src/clients/<scheme>/index.ts, listed in ./builtin-faces.ts; a scheme registered with registerScheme
// brings the same parts through its entry (`client`, `probe`: ./faces.ts). A face is cheap to load:
// its methods import the protocol modules (node:net and the rest) when first called.

import type { Url } from '../core/url.js';
import type { InteractiveSession, SessionOptions } from './interactive.js';
import type { Meta, ObjectKind, OpenOptions, Redirect, Resource } from './types.js';
import type { ProbeOptions, ProbeResult } from './probe/types.js';

export type { ObjectKind };

/**
 * What the gateway shows for a URL before anything is retrieved (docs/gateway.md): a search form
 * whose words make a new URL; a Gopher+ form asked from the server; a mail form (sent through the
 * relay); the command that opens a session; a link for the web browser itself.
 */
export type GatewayForm =
  | {
      form: 'search';
      /** The page's title. */
      title: string;
      /** What is searched, as the form's label says it: "for", "the database src". */
      what: string;
      /** The URL with these words as its search (RFC 1738 3.4, 3.9). */
      withWords(words: string): string;
    }
  | { form: 'ask' }
  | { form: 'mail' }
  | { form: 'session' }
  | { form: 'browser' };

/**
 * The links of a menu or listing, for `locator check --recursive`, read from its opened body in
 * order: a URL, or null for an entry that is no link (a Gopher info line), which still counts
 * against the checker's bound on entries read.
 */
export type LinkReader = (url: Url, body: ReadableStream<Uint8Array>) => AsyncIterable<string | null>;

/** One item of a menu as `locator fetch` writes it: a line of text, and the object for --json. */
export interface TextItem {
  text: string;
  json: unknown;
}

/** The face of one scheme's client. Every part is optional: a part left out gets the generic behaviour. */
export interface ClientFace {
  /** The kinds of object its URLs designate. */
  readonly kinds: readonly ObjectKind[];
  /** What a URL designates, before it is opened (pure; default `document`). */
  kindOf?(url: Url): ObjectKind;
  /**
   * What an opened object is (`meta.kind`, set by open()), and under which view name the gateway
   * shows it (`meta.view`: 'gopher-menu', 'ftp-listing', ...; null for text or a download); null
   * to leave it to the content type (faces.ts objectByType).
   */
  objectOf?(url: Url, meta: Meta): { kind: ObjectKind; view: string | null } | null;
  /** One hop of open() (RFC 1738 3): the object, or where it is. Left out: `no-client`. */
  open?(url: Url, options: OpenOptions): Promise<Resource | Redirect>;
  /** One hop of probe(): does the object exist? Left out: open() and the first bytes. */
  probe?(url: Url, options: ProbeOptions): Promise<ProbeResult | Redirect>;
  /** What probe() sends, as explain()'s steps (pure). */
  steps?(url: Url, options: ProbeOptions): string[];
  /** An interactive session (RFC 1738 3.8): connect(). Left out: `no-session`. */
  session?(url: Url, options: SessionOptions): Promise<InteractiveSession>;
  /** True when a terminal session reads "~." escape lines locally (rlogin, RFC 1282; `locator connect`). */
  readonly tildeEscapes?: boolean;
  /** What the gateway shows before retrieving anything, or null to retrieve the object. */
  form?(url: Url): GatewayForm | null;
  /**
   * What the gateway shows for the scheme's URLs, in a few words ('directories and files'), for
   * the list of schemes on its home page, where the schemes with the same words share a line.
   * Left out: the scheme is not in that list (a web page is left to the browser).
   */
  readonly gatewayShows?: string;
  /**
   * False when the face's open() retrieves nothing (a mailto URL names a mailbox: its open() says
   * so): `locator fetch --help` lists every scheme whose face opens, but these.
   */
  readonly retrieves?: boolean;
  /**
   * True when the gateway may read the server's caps.txt for the breadcrumbs of this URL's page
   * (a Gopher menu: the caps.txt convention of Gopher servers). Left out: never.
   */
  hasServerCaps?(url: Url): boolean;
  /**
   * The identifiers of its exchanges in the WARC-Protocol registry (the IIPC proposal,
   * warc-specifications issue 42) that an archive writes beside its records: "http/1.1", "ftp",
   * "gopher"; nntp, wais and prospero are not in the registry yet (DEVIATION: their own names,
   * as the registry names the others). Left out: none.
   */
  readonly warcProtocols?: readonly string[];
  /** The links of a menu or listing (`--recursive`): only for URLs of kind `menu` or `listing`. */
  links?: LinkReader;
  /**
   * True when a document of this scheme may be a page of hypertext (HTML, Markdown) whose links a
   * crawl reads (`check --recursive`: http, https, file); by its Content-Type or name once opened.
   */
  readonly pages?: boolean;
  /**
   * Where robots.txt is for the server of `url` (RFC 9309 2.3: /robots.txt of a web server; the
   * `robots.txt` selector of a Gopher server's root), and the path its rules are matched against
   * (from its `/`); null or left out: the scheme has no such file, and a crawl is not restricted.
   */
  robots?(url: Url): { url: string; path: string } | null;
  /** A menu's items as text lines (`locator fetch --menu`), read from its body. */
  items?(body: ReadableStream<Uint8Array>): AsyncIterable<TextItem>;
  /**
   * The URL that lists a name found to be a directory (an FTP name with a final "/", RFC 1738
   * 3.2.2), or null: `check --recursive` follows it when the probe says `directory`.
   */
  directoryOf?(url: Url): string | null;
  /**
   * Another URL to open when opening failed (open(): an FTP name that is a directory, RETR
   * refused with 550, is listed instead), or null.
   */
  insteadOf?(url: Url, error: unknown): string | null;
}
