// Prospero directories, the text (Prospero v5 3.3 DIRECTORY, 3.5 LIST): the request that lists a
// directory, the reading of its reply (LINK lines and the ATTRIBUTE lines that follow each,
// NONE-FOUND, FORWARDED, UNRESOLVED, the standard responses), each link made into a URL (RFC 1738
// 3.11), and the listing's line format. Pure: no I/O.

import { LocatorError, defineCode } from '../../core/errors.js';
import { build } from '../../operations/build.js';
import { tryParse } from '../../schemes/registry.js';
import { fieldsOf } from '../../schemes/fields.js';
import type { Url } from '../../core/url.js';
import { NOT_FOUND, PROTOCOL_ERROR } from '../types.js';
import { textLines } from '../framing/text-lines.js';
import {
  PROSPERO_FAILURE,
  assertSendable,
  PROTOCOL_VERSION,
  accessUrl,
  quoteToken,
  replyLines,
  splitHost,
  tokenize,
  type Forwarded,
  type ObjectQuery,
} from './protocol.js';

export const PROSPERO_NOT_A_DIRECTORY = defineCode(
  'prospero-not-a-directory',
  'error',
  'Prospero v5 3.3',
  'the Prospero object is not a directory (FAILURE NOT-A-DIRECTORY)',
  'protocol',
);
export const PROSPERO_DIRECTORY_TOO_LARGE = defineCode(
  'prospero-directory-too-large',
  'error',
  'Prospero v5 3.5',
  'the Prospero directory (with its union links) has more links than the client reads',
  'protocol',
);

/** The media type of a directory listing: one link a line (name, link type, target, host, URL, note; TAB-separated). */
export const DIRECTORY_TYPE = 'text/x-locator-prospero-directory';

/**
 * The URL field that says a Prospero link's target is a directory (RFC 1738 3.11: fields "serve
 * to identify the target of the URL"; Prospero v5 A.2.2: the link attribute `target`, the cached
 * base type of the object).
 */
export const TARGET_FIELD = 'TARGET';

/**
 * The request that lists a directory (Prospero v5 3.1, 3.3, 3.5), lines ended by LF:
 *   VERSION 5
 *   DIRECTORY ASCII <hsoname> [<object-version>]
 *   LIST ATTRIBUTES COMPONENTS
 * as the historic client's p_get_dir() sends it (lib/pfs/p_get_dir.c: the version only when one
 * is asked for; no component, so "*", every listable link). ATTRIBUTES with no list is
 * #INTERESTING; ID and FILTER are always implied, and ACCESS-METHOD for EXTERNAL links (3.5.2.2).
 * No EXPAND: a server "can ignore" it, so union links are expanded by the client either way.
 * DEVIATION: no AUTHENTICATE line (as buildRequest).
 */
export function buildListRequest(q: ObjectQuery): string {
  assertSendable(q);
  let text = `VERSION ${PROTOCOL_VERSION}\n`;
  text += `DIRECTORY ASCII ${quoteToken(q.hsoname)}${q.version === '0' || q.version === '' ? '' : ' ' + quoteToken(q.version)}\n`;
  if (q.remoteId !== undefined) text += `SELECT OBJECT FIELD ID REMOTE ${quoteToken(q.remoteId)}\n`;
  text += 'LIST ATTRIBUTES COMPONENTS\n';
  return text;
}

/** One LINK of a LIST reply (Prospero v5 3.5.3.1) with the attributes sent after it (3.5.3.2). */
export interface DirLink {
  /** L (a normal link) or U (a union link to a directory). */
  linkType: string;
  /** The object's base type (OBJECT, FILE, DIRECTORY, DIRECTORY+FILE), SYMBOLIC or EXTERNAL. */
  target: string;
  name: string;
  hostType: string;
  host: string;
  hsonameType: string;
  hsoname: string;
  version: string;
  /** Its ACCESS-METHOD values, in order (A.1.1). */
  accessMethods: string[][];
  /** Its FILTER values: the tokens after "FILTER" (3.5.3.3). */
  filters: string[][];
}

/** A LIST reply, read. */
export interface ListReply {
  links: DirLink[];
  forwarded: Forwarded | null;
  warnings: string[];
}

function malformed(line: string, what: string): LocatorError {
  return new LocatorError(PROTOCOL_ERROR, -1, `a malformed ${what} line: ${JSON.stringify(line)}`);
}

/**
 * Reads a reply to DIRECTORY and LIST (Prospero v5 3.5.3, 4): LINK lines, "LINK <link-type>
 * <target> <name-component> <host-type> <host-name> <hsoname-type> <hsoname> <object-version>
 * [DEST-EXP <t>] [ID <type> <value>]...", the ATTRIBUTE lines after a LINK (its ACCESS-METHOD
 * and FILTER; others, and those before the first LINK, which describe the directory, are passed
 * over), NONE-FOUND (an empty directory), FORWARDED, WARNING, VERSION. Throws
 * prospero-not-a-directory for FAILURE NOT-A-DIRECTORY, not-found for FAILURE NOT-FOUND,
 * prospero-failure for other failures and errors, protocol-error for UNRESOLVED (no component
 * was sent, so none can be left) and any other line. At most `maxLinks` links are read: past
 * them, prospero-directory-too-large.
 */
export function parseListReply(text: string, maxLinks: number): ListReply {
  const r: ListReply = { links: [], forwarded: null, warnings: [] };
  let last: DirLink | null = null;
  for (const line of replyLines(text)) {
    const t = tokenize(line);
    const word = t[0] ?? '';
    if (word === 'LINK') {
      if (t.length < 9) throw malformed(line, 'LINK');
      if (r.links.length >= maxLinks) {
        throw new LocatorError(
          PROSPERO_DIRECTORY_TOO_LARGE,
          -1,
          `the Prospero directory has more than ${maxLinks} links: the client reads no more (Prospero v5 3.5)`,
        );
      }
      last = {
        linkType: t[1],
        target: t[2],
        name: t[3],
        hostType: t[4],
        host: t[5],
        hsonameType: t[6],
        hsoname: t[7],
        version: t[8],
        accessMethods: [],
        filters: [],
      };
      r.links.push(last);
    } else if (/^ATTRIBUTE>*$/.test(word)) {
      if (t.length < 4) throw malformed(line, 'ATTRIBUTE');
      // Sub-attributes ("ATTRIBUTE>") belong to an attribute's value, not to the link.
      if (last === null || word !== 'ATTRIBUTE') continue;
      const at = t[1] === 'FIELD' ? 2 : t[2] === 'FIELD' ? 3 : -1;
      if (at < 0) continue;
      const name = t[at].toUpperCase();
      let value = t.slice(at + 1);
      if ((value[0] === 'SEQUENCE' || value[0] === 'FILTER') && name !== 'FILTER' && value.length > 1)
        value = value.slice(1);
      if (name === 'ACCESS-METHOD') last.accessMethods.push(value);
      else if (name === 'FILTER') last.filters.push(value[0] === 'FILTER' ? value.slice(1) : value);
    } else if (word === 'NONE-FOUND') {
      // an empty directory (3.5.3.5)
    } else if (word === 'FORWARDED') {
      if (t.length < 6) throw malformed(line, 'FORWARDED');
      const f: Forwarded = { hostType: t[1], host: t[2], hsonameType: t[3], hsoname: t[4], version: t[5] };
      for (let i = 6; i + 2 < t.length; i++) if (t[i] === 'ID' && t[i + 1] === 'REMOTE') f.remoteId = t[i + 2];
      r.forwarded = f;
    } else if (word === 'WARNING') {
      r.warnings.push(t.slice(1).join(' '));
    } else if (word === 'VERSION') {
      // the server's own VERSION line (3.1)
    } else if (word === 'FAILURE') {
      const code =
        t[1] === 'NOT-A-DIRECTORY' ? PROSPERO_NOT_A_DIRECTORY : t[1] === 'NOT-FOUND' ? NOT_FOUND : PROSPERO_FAILURE;
      throw new LocatorError(code, -1, `the Prospero server answered ${JSON.stringify(line)} (Prospero v5 4.4)`);
    } else if (word === 'ERROR' || word === 'VERSION-NOT-SUPPORTED') {
      throw new LocatorError(PROSPERO_FAILURE, -1, `the Prospero server answered ${JSON.stringify(line)}`);
    } else if (word === 'UNRESOLVED') {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the Prospero server answered UNRESOLVED to a LIST with no component: ${JSON.stringify(line)} (Prospero v5 3.5.3.4)`,
      );
    } else {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the Prospero server answered a line LIST does not allow: ${JSON.stringify(line)}`,
      );
    }
  }
  return r;
}

/** A link's URL (RFC 1738 3.11), or why it has none. */
export interface LinkUrl {
  url: string | null;
  why: string | null;
}

/** True when a link's target is a directory (Prospero v5 A.2.2: DIRECTORY or DIRECTORY+FILE, in any order). */
export function isDirectoryTarget(target: string): boolean {
  return target.toUpperCase().split('+').includes('DIRECTORY');
}

/**
 * A link as a URL (RFC 1738 3.11; Prospero v5 3.5.3.1):
 *   EXTERNAL   its first ACCESS-METHOD that is a URL ("External Prospero links are represented as
 *              URLs of the underlying access method and are not represented as Prospero URLs")
 *   a Prospero object on an INTERNET-D host, hsoname type ASCII
 *              prospero://host:port/<hsoname>, with ;OBJECT-VERSION=<v> for a version other than 0
 *              and ;TARGET=<target> for a directory (so that what it designates is known before
 *              it is opened)
 * No URL: a link the principal may not read (its fields are NULL), a SYMBOLIC link (a path in a
 * virtual system, which needs the user's virtual system), other host and hsoname types.
 */
export function linkUrl(l: DirLink): LinkUrl {
  const none = (why: string): LinkUrl => ({ url: null, why });
  if (l.hostType === 'NULL' && l.host === 'NULL')
    return none('the server gives no read access to the link (its fields are NULL)');
  const target = l.target.toUpperCase();
  if (target === 'EXTERNAL') {
    const link = { hostType: l.hostType, host: l.host, hsonameType: l.hsonameType, hsoname: l.hsoname };
    const whys: string[] = [];
    for (const m of l.accessMethods) {
      const a = accessUrl(m, link);
      if (a.url !== null) return { url: a.url.href, why: null };
      whys.push(`${a.method[0] ?? '?'}: ${a.why}`);
    }
    return none(whys.length === 0 ? 'the external link names no access method' : whys.join('; '));
  }
  if (target === 'SYMBOLIC' || l.hostType === 'VIRTUAL-SYSTEM') {
    return none(`a symbolic link to ${l.hsoname} in the virtual system ${l.host}, which this client does not keep`);
  }
  if (l.hostType !== 'INTERNET-D')
    return none(`the host type ${JSON.stringify(l.hostType)} is not an Internet domain name`);
  if (l.hsonameType !== 'ASCII') return none(`the hsoname type ${JSON.stringify(l.hsonameType)} is not ASCII`);
  const h = splitHost(l.host);
  if (h === null) return none(`the host ${JSON.stringify(l.host)} is not "name" or "name(port)"`);
  const fields: Record<string, string> = {};
  if (l.version !== '0' && l.version !== '') fields['OBJECT-VERSION'] = l.version;
  if (isDirectoryTarget(target)) fields[TARGET_FIELD] = target;
  try {
    const href = build('prospero', {
      host: h.name.includes(':') ? `[${h.name}]` : h.name,
      port: h.port ?? undefined,
      hsoname: l.hsoname,
      fields,
    } as never);
    const u = tryParse(href);
    if (u instanceof Error || u.violations.some((d) => d.severity === 'error'))
      return none(`the link comes to ${JSON.stringify(href)}, which is not a valid URL`);
    return { url: u.href, why: null };
  } catch (e) {
    return none(e instanceof Error ? e.message : String(e));
  }
}

/** One line of a directory listing. */
export interface Entry {
  name: string;
  /** L, or U for a union link that was not expanded. */
  linkType: string;
  target: string;
  host: string;
  url: string | null;
  /** Why there is no URL, what was not done (a filter), or the union link it came through. */
  note: string;
}

const clean = (s: string) => s.replace(/[\t\r\n\0-\x1f\x7f]/g, ' ');

/**
 * The line of one entry (DIRECTORY_TYPE): name, link type, target, host, URL (empty when none),
 * note; TAB-separated, control characters made spaces, LF-ended.
 */
export function entryLine(e: Entry): string {
  return [e.name, e.linkType, e.target, e.host, e.url ?? '', e.note].map(clean).join('\t') + '\n';
}

/** An entry line read back (DIRECTORY_TYPE), or null for a line that is not one. */
export function readEntryLine(line: string): Entry | null {
  const f = line.replace(/\r?\n?$/, '').split('\t');
  if (f.length !== 6) return null;
  return { name: f[0], linkType: f[1], target: f[2], host: f[3], url: f[4] === '' ? null : f[4], note: f[5] };
}

/** True when the URL's TARGET field says it names a directory (RFC 1738 3.11 fields; Prospero v5 A.2.2 target). */
export function namesDirectory(url: Url): boolean {
  const f = fieldsOf(url, 'prospero');
  const name = Object.keys(f.fields).find((n) => n.toUpperCase() === TARGET_FIELD);
  return name !== undefined && isDirectoryTarget(f.fields[name]);
}

/**
 * The links of a listing (DIRECTORY_TYPE), read as they arrive, for `check --recursive`: each
 * entry's URL, or null for an entry that has none.
 */
export async function* listingLinks(body: ReadableStream<Uint8Array>): AsyncGenerator<string | null> {
  for await (const line of textLines(body)) {
    if (line === '') continue;
    yield readEntryLine(line)?.url ?? null;
  }
}
