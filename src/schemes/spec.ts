// A scheme entry: the one home of everything locator knows of a scheme (RFC 1738 section 4: "Any
// submission of a new URL scheme must include a definition of an algorithm for accessing of
// resources within that scheme and the syntax for representing such a scheme"). The parser, the
// record, resolve, normalize, lint, the policy, open() and the gateway all ask the entry; none of
// them keeps a table of its own by scheme name.

import type { Url } from '../core/url.js';
import type { Report, SchemeSyntax } from '../core/scheme.js';

export type { Report };

/** The access algorithm of a URL, without the network (contract: `locator explain`). */
export interface Explanation {
  protocol: string;
  host: string | null;
  port: number | null;
  steps: string[];
  notes: string[];
}

/** How one scheme's URLs are put in normal form, beyond the generic rules (normalize()). */
export interface NormalForm {
  /** The section of RFC 1738 (or a draft) that licenses the rules. */
  readonly section: string;
  /**
   * The url-path (after the "/" that follows host[:port]; null when there is none) in normal
   * form. Gets the raw path; returns the normalized one, or null for no "/" at all. `clean` is
   * true when the URL holds no "%" and no character that must be encoded (the scanner reported
   * none), so that its escapes need no work.
   */
  path?(raw: string | null, clean: boolean): string | null;
  /**
   * True when `path(raw, true)` is `raw` itself for every path that is there (not null): a clean
   * URL's path is then its own normal form, and normalize() need not slice it to ask.
   */
  readonly keepsCleanPath?: boolean;
  /** The host in normal form (already lower case), e.g. "localhost" to "" for file. */
  host?(host: string): string;
  /**
   * For a host in lower case at href[start, end): true when `host()` returns it as it is, told
   * without slicing it (normalize()'s shortcut asks this instead of `host()` when it is given).
   */
  hostKeptAt?(href: string, start: number, end: number): boolean;
  /** The scheme-specific part of an opaque URL (no "//"), raw, in normal form; `clean` as for path. */
  part?(raw: string, clean: boolean): string;
}

/**
 * One part of a URL that the scheme's client puts on the wire (RFC 1738 6: "Care should be taken
 * when URLs contain embedded encoded delimiters for a given protocol ... that these are not
 * unencoded before transmission"). lint's delimiter check, the policy and the client read the
 * same list: an escape in [start, end) that decodes to one of `delimiters` is `encoded-delimiter`
 * (an error) when the part is sent decoded, `encoded-control` (a warning) when it is sent encoded.
 * Messages read '"%0D" in <what> decodes to CR, which ends the line ...: the client sends <what>
 * decoded in <line>' (or, for `encoded`, '"%0D" in <what> decodes to CR; <line>').
 */
export interface WirePart {
  /** The field, for messages and for the client: "the selector", "the password". */
  readonly what: string;
  /** [start, end) in `url.href`: the raw (encoded) text of the part. */
  readonly start: number;
  readonly end: number;
  /**
   * The protocol unit it is sent in, for messages: 'the FTP command "CWD <segment>" CR LF'. For
   * an `encoded` part, the note that says why an escaped delimiter matters there at all; for a
   * part with a `check`, the rule the check enforces (a message reads "... which <effect>: <line>").
   */
  readonly line: string;
  /** The octets that end or split that unit (CR, LF, NUL, TAB, space, FF as Telnet IAC ...). */
  readonly delimiters: readonly number[];
  /**
   * `decoded` (the default): the client sends the octets the escapes stand for, so an escaped
   * delimiter is an error; `encoded`: the client sends the text as written (HTTP), or the
   * protocol reads the field by length, so an escaped delimiter is only a warning.
   */
  readonly sent?: 'decoded' | 'encoded';
  /**
   * A check of its own instead of the plain scan (the Gopher+ electronic form, where CR LF
   * belongs to the form): returns the offsets in href of the escapes that smuggle a delimiter.
   */
  readonly check?: (url: Url, part: WirePart) => number[];
  /**
   * Where the part carries several protocol lines by design, the offset in href of its first
   * line end: the data block of a filled-in Gopher+ form (RFC 1738 3.4.9), lines the URL, not the
   * client, writes. lint reports it (`gopher-plus-data-block`) unless the URL goes to the
   * scheme's default port; the policy allows it there, or on a port it allows explicitly that is
   * registered to no other protocol, and never after a redirect; the client sends it only to a
   * server that announced the form.
   */
  readonly dataBlockAt?: number;
}

/** What a scheme's client module offers open() (src/clients/types.ts narrows it). */
export interface SchemeClient {
  open(url: Url, options: unknown): Promise<unknown>;
}

/** A scheme's own probe for `locator check` (src/clients/probe/types.ts ProbeModule): typed loosely here. */
export interface SchemeProbe {
  probe(url: Url, options: unknown): Promise<unknown>;
}

/**
 * A scheme entry, typed by its fields F (`parse(url).fields` and the argument of `build`).
 * Everything but name, defaultPort, syntax and status is optional: a scheme that leaves a hook
 * out gets the generic behaviour of that operation.
 */
export interface SchemeSpec<F extends object = Record<string, unknown>> extends SchemeSyntax {
  /** Where the scheme is defined: the RFC, only the drafts, reserved without syntax, or later. */
  readonly status: 'rfc1738' | 'draft' | 'reserved' | 'later';
  /** The decoded scheme-specific fields (contract `fields`). */
  fields?(url: Url): F;
  /**
   * Builds the scheme-specific part (after "scheme:") from decoded fields, encoding what must be
   * encoded; `build(scheme, fields)` adds the scheme and the fragment. The generic `user`,
   * `password`, `host`, `port` are among the fields for schemes with a login.
   */
  build?(fields: Partial<F> & LoginFields): string;
  /** The access algorithm, as the steps a client performs (`locator explain`). */
  explain?(url: Url): Explanation;
  /**
   * The well-known ports of the protocol its client speaks besides defaultPort (RFC 1738 6: "the
   * port reserved for the network protocol in question"): lint's table of well-known ports lists
   * the scheme on them, and a URL of the scheme on one of them is on its own protocol's port.
   */
  readonly otherPorts?: readonly number[];
  /**
   * Partial forms (resolve, relativize): true when the url-path is a hierarchy of "/"-separated
   * names that a relative path merges into; false when it is not (a relative path against it is
   * an error). Left out: true for the common Internet syntax, false for an opaque scheme.
   */
  readonly hierarchical?: boolean;
  /** The scheme's normal-form rules (normalize, equivalent). */
  readonly normal?: NormalForm;
  /** The parts the client sends decoded, and what delimits them (lint, policy, the client). */
  wire?(url: Url): WirePart[];
  /** True when the object is read from this machine rather than from a server (the policy). */
  readsThisMachine?(url: Url): boolean;
  /**
   * True when no redirect may lead to a URL of this scheme, whatever its host (the policy's
   * `redirect-to-file`): a server must never steer a client to a name of its own files, even one
   * that names another host (a file URL of another host is fetched by FTP, but the same text names
   * this machine's files to a client that reads it otherwise). A scheme whose entry says
   * readsThisMachine for a URL is never a redirect's target either.
   */
  readonly neverRedirectTarget?: boolean;
  /**
   * The name redirects are counted under (the policy's cross-scheme budget): https is counted as
   * http, the same protocol with or without TLS. Left out: the scheme's own name.
   */
  readonly family?: string;
  /**
   * True when the scheme's access algorithm is to find the object's URL in another scheme: a
   * Prospero directory server answers with the object's access methods (RFC 1738 3.11: "Prospero
   * URLs are interpreted by contacting a Prospero directory server ... to determine appropriate
   * access methods"). The policy does not count that first hop against the cross-scheme budget (it
   * is the scheme's meaning, not a server changing the protocol); every other check still applies.
   */
  readonly indirect?: boolean;
  /** Loads the client that performs the access algorithm (open()); imported only when used. */
  client?: () => Promise<SchemeClient>;
  /**
   * Loads the probe that proves a URL's object is there with the least traffic (`locator check`);
   * imported only when used. Left out: the object is opened and its first bytes read.
   */
  probe?: () => Promise<SchemeProbe>;
  /** Loads the gateway's renderer of this scheme's objects (`locator serve`); imported only when used. */
  render?: () => Promise<unknown>;
}

/** The generic login fields of RFC 1738 3.1, decoded; null or absent when the URL has none. */
export interface LoginFields {
  user?: string | null;
  password?: string | null;
  host?: string | null;
  port?: number | string | null;
  fragment?: string | null;
}
