// The news scheme (RFC 1738 3.6; section 5 newsurl), and the newsgroup-name and host checks
// that nntp shares.
//
//   newsurl        = "news:" grouppart
//   grouppart      = "*" | group | article
//   group          = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
//   article        = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
//
// "A message identifier may be distinguished from a news group name by the presence of the
// commercial at "@" character. No additional characters are reserved within the components of
// a news URL." (3.6) A news URL names no server: "the reader will fetch the article or group
// from his or her local news host. News host names are NOT part of news URLs." (draft 1994-03)

import type { Url } from '../core/url.js';
import type { Report, SchemeSpec, Explanation, WirePart } from './spec.js';
import { NNTP_ARG, wirePart } from './wire.js';
import { CHAR_CLASS, ALPHA } from '../core/charclass.js';
import { bodySet, usualPart, HOST_PATTERN } from '../core/analyze.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { XCHAR_SET, decodeSlice, encode } from '../core/percent.js';
import { INVALID_FIELD } from './codes.js';
import { schemePartRange } from './ranges.js';
import { stringField, text } from './read.js';
import { refuseLoginFields } from './login.js';
import { formatRequest, violationNotes } from './notes.js';
import { describeOctet, flaggedByScanner, octetAt, widthAt, type AddrSpecProblem } from './mailto.js';

export const INVALID_NEWSGROUP = defineCode(
  'invalid-newsgroup',
  'error',
  'RFC 1738 5',
  'a newsgroup name is a letter followed by letters, digits, "-", ".", "+" and "_" (group)',
);
export const INVALID_ARTICLE = defineCode(
  'invalid-article',
  'error',
  'RFC 1738 3.6',
  'a message-id is <unique>@<full_domain_name>: 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host',
);
export const NEWS_HOST = defineCode(
  'news-host',
  'error',
  'RFC 1738 3.6',
  'a news URL names no server: it is news:<newsgroup-name>, news:<message-id> or news:*',
);

/** The NNTP port (RFC 977 2; RFC 1738 3.7). */
export const NNTP_PORT = 119;

/** The unique part of a message-id: uchar | ";" | "/" | "?" | ":" | "&" | "=" (RFC 1738 5 article). */
const UNIQUE_SET = XCHAR_SET.without('@');

function describe(c: number): string {
  if (c === 32) return 'a space';
  return c > 32 && c < 127 ? `"${String.fromCharCode(c)}"` : `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

const isAlpha = (c: number) => c < 128 && (CHAR_CLASS[c] & ALPHA) !== 0;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Checks href[start, end) against group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
 * (RFC 1738 5). The production is plain characters, so an escape is reported (as the core does
 * for hosts). Characters the scanner reported already are skipped; the first other problem is
 * returned with its href offset, or null.
 */
export function checkGroup(s: string, start: number, end: number): AddrSpecProblem | null {
  if (start >= end)
    return { offset: start, message: 'the newsgroup name is empty (RFC 1738 5: group = alpha *[ ... ])' };
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (isAlpha(c)) continue;
    if (i > start && (isDigit(c) || c === 45 || c === 46 || c === 43 || c === 95)) continue;
    if (flaggedByScanner(s, i)) continue;
    let message: string;
    if (c === 37)
      message =
        'a newsgroup name takes no %XX escapes: its characters are letters, digits, "-", ".", "+" and "_" (RFC 1738 5)';
    else if (c === 42) message = '"*" stands alone (news:*) for all groups; RFC 1738 has no group patterns';
    else if (c === 64) message = 'an "@" makes a message-id, not a newsgroup name (RFC 1738 3.6)';
    else if (i === start) message = `a newsgroup name starts with a letter, not ${describe(c)} (RFC 1738 5)`;
    else
      message = `${describe(c)} cannot stand in a newsgroup name: letters, digits, "-", ".", "+" and "_" (RFC 1738 5)`;
    return { offset: i, message };
  }
  return null;
}

/**
 * Checks href[start, end) against host = hostname | hostnumber (RFC 1738 3.1, 5): labels of
 * letters, digits and "-" that neither start nor end with "-", the last label starting with a
 * letter; or four decimal groups of at most 255. Hosts take no escapes. Returns the first
 * problem with its href offset, or null.
 */
export function checkHost(s: string, start: number, end: number): AddrSpecProblem | null {
  if (start >= end) return { offset: start, message: 'the host is empty (RFC 1738 3.1)' };
  let labelStart = start;
  let allDigits = true;
  let dots = 0;
  for (let i = start; i <= end; i++) {
    const c = i < end ? s.charCodeAt(i) : 46;
    if (c === 46) {
      if (i === labelStart) {
        return {
          offset: i,
          message:
            i === end
              ? 'a host name does not end with "." (RFC 1738 3.1)'
              : 'a host name has no empty label (RFC 1738 3.1)',
        };
      }
      if (s.charCodeAt(i - 1) === 45)
        return { offset: i - 1, message: 'a domain label does not end with "-" (RFC 1738 3.1)' };
      if (i < end) {
        dots++;
        labelStart = i + 1;
      }
      continue;
    }
    if (isAlpha(c)) {
      allDigits = false;
      continue;
    }
    if (isDigit(c)) continue;
    if (c === 45 && i > labelStart) {
      allDigits = false;
      continue;
    }
    if (c === 45) return { offset: i, message: 'a domain label does not start with "-" (RFC 1738 3.1)' };
    if (c === 37) return { offset: i, message: 'a host takes no %XX escapes (RFC 1738 3.1)' };
    return { offset: i, message: `${describe(c)} cannot stand in a host: letters, digits, "-" and "." (RFC 1738 3.1)` };
  }
  if (allDigits) {
    if (dots !== 3) {
      return {
        offset: labelStart,
        message: 'the last label of a host name starts with a letter, and a host number has four groups (RFC 1738 3.1)',
      };
    }
    let value = 0;
    let groupStart = start;
    for (let i = start; i <= end; i++) {
      const c = i < end ? s.charCodeAt(i) : 46;
      if (c !== 46) {
        value = value * 10 + (c - 48);
        continue;
      }
      if (value > 255)
        return { offset: groupStart, message: 'each group of a host number is at most 255 (RFC 1738 3.1)' };
      value = 0;
      groupStart = i + 1;
    }
    return null;
  }
  if (isDigit(s.charCodeAt(labelStart))) {
    return { offset: labelStart, message: 'the last label of a host name does not start with a digit (RFC 1738 3.1)' };
  }
  return null;
}

type Kind = 'group' | 'article' | 'all';

/** grouppart = "*" | group | article, told apart by "*" alone and by "@" (RFC 1738 3.6). */
function kindOf(s: string, start: number, end: number): Kind {
  if (end - start === 1 && s.charCodeAt(start) === 42) return 'all';
  for (let i = start; i < end; i++) if (s.charCodeAt(i) === 64) return 'article';
  return 'group';
}

/** group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ] (RFC 1738 5), as a pattern. */
export const GROUP_PATTERN = '[A-Za-z][A-Za-z0-9+._-]*';

/**
 * The usual news URL, which neither the generic rules nor validate() report anything in (RFC
 * 1738 3.6, 5; RFC 1036 2.1.5): no "//", then "*", a group, or a message-id of characters that
 * stand as they are (no escape, no "@") before one "@" and a host.
 */
const USUAL = /* @__PURE__ */ usualPart(
  `(?!//)(?:\\*|${GROUP_PATTERN}|[${/* @__PURE__ */ bodySet('@')}]+@${HOST_PATTERN})`,
);

/** news rules (RFC 1738 3.6; section 5 newsurl, grouppart, group, article). */
function validate(url: Url, report: Report): void {
  const { start, end } = schemePartRange(url);
  const s = url.href;
  const base = url.inputOffset;
  // 3.6 and draft 1994-03 note 1: no server in a news URL, so no "//" of the common syntax.
  if (end - start >= 2 && s.charCodeAt(start) === 47 && s.charCodeAt(start + 1) === 47) {
    report(
      NEWS_HOST,
      start + base,
      "a news URL names no server (RFC 1738 3.6: news URLs are location-independent; the reader's own news server is used); news://host/... is a later form (RFC 5538)",
    );
    return;
  }
  const kind = kindOf(s, start, end);
  if (kind === 'all') return;
  if (kind === 'group') {
    const p = checkGroup(s, start, end);
    if (p !== null) {
      report(
        INVALID_NEWSGROUP,
        p.offset + base,
        start === end
          ? 'a news URL names a newsgroup, a message-id or "*" (RFC 1738 3.6); here it is empty'
          : p.message,
      );
    }
    return;
  }
  // article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host: the last "@" starts the
  // host (a host holds no "@"); any earlier "@" belongs to the unique part.
  let at = end - 1;
  while (s.charCodeAt(at) !== 64) at--;
  if (at === start) {
    report(INVALID_ARTICLE, start + base, 'the unique part before "@" is empty (RFC 1738 5 article)');
  }
  // RFC 1036 2.1.5 (which 3.6 refers to): "unique is any string of printing ASCII characters,
  // not including "<" (left angle bracket), ">" (right angle bracket), or "@" (at sign)".
  for (let i = start; i < at; i += widthAt(s, i, at)) {
    const o = octetAt(s, i, at);
    if (o > 32 && o < 127 && o !== 60 && o !== 62 && o !== 64) continue;
    if (flaggedByScanner(s, i)) continue;
    report(
      INVALID_ARTICLE,
      i + base,
      o === 64
        ? 'a message-id has one "@", before its domain name (RFC 1036 2.1.5: the unique part holds no "@")'
        : `the unique part of a message-id is printing US-ASCII without "<", ">" and "@" (RFC 1036 2.1.5), and this ${
            widthAt(s, i, at) === 3 ? `escape decodes to ${describeOctet(o)}` : 'character is not'
          }`,
    );
    break;
  }
  const h = checkHost(s, at + 1, end);
  if (h !== null && !flaggedByScanner(s, h.offset)) {
    report(INVALID_ARTICLE, h.offset + base, `after "@" a message-id has a full domain name: ${h.message}`);
  }
}

/** kind, group and messageId (RFC 1738 3.6), decoded; each null when not that kind. */
const ALL = Object.freeze({ kind: 'all', group: null, messageId: null });

/** news (RFC 1738 3.6): a group, a message id, or every group ("*"). */
export interface NewsFields {
  kind: 'group' | 'article' | 'all';
  group: string | null;
  messageId: string | null;
}

function fields(url: Url): NewsFields {
  // Speed: offsets and one search for "@", no range object.
  const start = url.schemePartStart;
  const end = url.bodyEnd;
  const h = url.href;
  if (end - start === 1 && h.charCodeAt(start) === 42) return ALL;
  const at = h.indexOf('@', start);
  const value = decodeSlice(h, start, end);
  return at >= 0 && at < end
    ? Object.freeze({ kind: 'article', group: null, messageId: value })
    : Object.freeze({ kind: 'group', group: value, messageId: null });
}

/** Refuses a group that no news URL can write (RFC 1738 5 group), with the reason. */
export function assertGroup(group: string): void {
  const p = checkGroup(group, 0, group.length);
  if (p !== null || group.length === 0) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `${JSON.stringify(group)} is not a newsgroup name: ${p?.message ?? 'it is empty'}`,
    );
  }
  // checkGroup skips what the scanner would report; a built URL must not hold such characters.
  for (let i = 0; i < group.length; i++) {
    const c = group.charCodeAt(i);
    if (!(isAlpha(c) || (i > 0 && (isDigit(c) || c === 45 || c === 46 || c === 43 || c === 95)))) {
      throw new LocatorError(
        INVALID_FIELD,
        -1,
        `${JSON.stringify(group)} is not a newsgroup name: ${describe(c)} at ${i} (letters, digits, "-", ".", "+" and "_"; RFC 1738 5)`,
      );
    }
  }
}

/**
 * Writes "*", a group or a message-id (RFC 1738 3.6, section 5 grouppart). A group is plain
 * characters and is refused unless it matches the grammar; a message-id is written without "<"
 * and ">", its unique part encoded (every "@" there as %40), the host after the last "@" as
 * it is (hosts take no escapes). `kind` may be left out when only one of group and messageId
 * is given.
 */
function build(f: Record<string, unknown>): string {
  refuseLoginFields(f, 'news', "the reader's own news server is used (RFC 1738 3.6)");
  const group = stringField(f, 'group');
  const messageId = stringField(f, 'messageId');
  let kind = f.kind;
  if (kind === undefined || kind === null) kind = messageId !== null ? 'article' : group === '*' ? 'all' : 'group';
  if (kind === 'all') {
    if (messageId !== null || (group !== null && group !== '*')) {
      throw new LocatorError(INVALID_FIELD, -1, 'kind "all" (news:*) takes no group or messageId');
    }
    return '*';
  }
  if (kind === 'group') {
    if (messageId !== null) throw new LocatorError(INVALID_FIELD, -1, 'kind "group" takes no messageId');
    if (group === null) throw new LocatorError(INVALID_FIELD, -1, 'kind "group" needs a group');
    assertGroup(group);
    return group;
  }
  if (kind !== 'article')
    throw new LocatorError(INVALID_FIELD, -1, `kind must be "group", "article" or "all", not ${JSON.stringify(kind)}`);
  if (group !== null) throw new LocatorError(INVALID_FIELD, -1, 'kind "article" takes no group');
  if (messageId === null) throw new LocatorError(INVALID_FIELD, -1, 'kind "article" needs a messageId');
  return buildMessageId(messageId);
}

function buildMessageId(id: string): string {
  if (id.length > 1 && id.charCodeAt(0) === 60 && id.charCodeAt(id.length - 1) === 62) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      'a message-id is written without the enclosing "<" and ">" (RFC 1738 3.6)',
    );
  }
  const at = id.lastIndexOf('@');
  if (at < 0)
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `${JSON.stringify(id)} is not a message-id: it has no "@" (<unique>@<full_domain_name>, RFC 1738 3.6)`,
    );
  if (at === 0)
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `${JSON.stringify(id)} is not a message-id: the unique part before "@" is empty`,
    );
  const h = checkHost(id, at + 1, id.length);
  if (h !== null) throw new LocatorError(INVALID_FIELD, -1, `${JSON.stringify(id)} is not a message-id: ${h.message}`);
  let unique = encode(id.slice(0, at), UNIQUE_SET);
  // A leading "//" would read as a server (news-host); "/" may always be encoded (RFC 1738 2.2).
  if (unique.startsWith('//')) unique = '%2F' + unique.slice(1);
  return `${unique}@${id.slice(at + 1)}`;
}

/**
 * The news server a reader is configured with (draft 1994-03 NEWS note 1: "the reader will fetch
 * the article or group from his or her local news host"): NNTPSERVER, "host" or "host:port".
 */
export function newsServer(
  env: Record<string, string | undefined> | undefined = (
    globalThis as { process?: { env?: Record<string, string | undefined> } }
  ).process?.env,
): { host: string | null; port: number; setting: string | null } {
  const v = env?.NNTPSERVER?.trim();
  if (!v) return { host: null, port: NNTP_PORT, setting: null };
  const m = /^(\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(v);
  if (m && Number(m[2]) <= 65535) return { host: m[1], port: Number(m[2]), setting: v };
  return { host: v, port: NNTP_PORT, setting: v };
}

/**
 * The commands a client sends before the one that retrieves (RFC 3977 5.1-5.3): it reads the
 * greeting, asks CAPABILITIES, switches a transit server to reader mode with MODE READER, and
 * asks CAPABILITIES again after the switch (5.3.2: they may change). A step with a "[...]" tail
 * is sent only in the case it names.
 */
export function sessionSteps(): { steps: string[]; notes: string[] } {
  return {
    steps: [
      'CAPABILITIES',
      'MODE READER [if CAPABILITIES lists MODE-READER without READER, or is not understood]',
      'CAPABILITIES [if MODE READER switched the mode and the server has CAPABILITIES]',
    ],
    notes: [
      'the client reads the server greeting (200 or 201) before it sends anything (RFC 3977 5.1; RFC 977 2.4.3)',
      'CAPABILITIES (RFC 3977 5.2) is read when the server offers it; an RFC 977 server answers 500 and gets MODE READER (RFC 2980 2.3), whose 5xx answer is ignored',
      'AUTHINFO USER and AUTHINFO PASS (RFC 4643 2.3) are sent only when the server answers 480 to a command and a user name and password are configured for that server (an option, or the ~/.netrc machine entry of the host the user gave: never the default entry unless netrcHosts names the host); CAPABILITIES is then asked again (RFC 4643 2.3.1) and the command sent again',
    ],
  };
}

/**
 * What a client sends to show a newsgroup (RFC 3977 6.1.1, 8.3; RFC 2980 2.8; RFC 977 3.1.2):
 * GROUP selects it and its reply "211 count low high group" gives the article numbers, then
 * OVER asks the overview of those articles (XOVER of a server without CAPABILITIES; HEAD of each
 * article number when the server has no overview).
 */
export function groupListing(group: string): { steps: string[]; notes: string[] } {
  return {
    steps: [
      formatRequest(`GROUP ${group}`),
      'OVER <low>-<high> [XOVER <low>-<high> if the server has no CAPABILITIES; HEAD <n> for each article if it has no overview]',
      'QUIT',
    ],
    notes: [
      'a group is shown as the list of its articles, oldest first: the reply to GROUP ("211 <count> <low> <high> <group>") gives the article numbers, and OVER (RFC 3977 8.3) the subject, author, date and size of each; with a limit of N articles, <low> is <high>-N+1',
      'an RFC 977 server has no overview command: the reader then asks HEAD for each article number (RFC 977 3.1.2), skipping numbers with no article (423): for the last 1000 numbers at most unless a limit is given, and no more once <count> articles have come',
    ],
  };
}

/**
 * The access algorithm (RFC 1738 3.6; draft 1994-03 NEWS): NNTP (RFC 977) to the reader's own
 * news server; ARTICLE <message-id> for an article, GROUP for a group, LIST for news:*.
 */
function explain(url: Url): Explanation {
  const f = fields(url);
  const server = newsServer();
  const notes: string[] = [];
  let steps: string[];
  if (f.kind === 'all') {
    steps = ['LIST ACTIVE [LIST if the server does not understand LIST ACTIVE]', 'QUIT'];
    notes.push(
      'news:* is "all available news groups" (RFC 1738 3.6): LIST ACTIVE returns each group as "<group> <high> <low> <status>" (RFC 3977 7.6.3; RFC 977 3.6.1 has LIST); descriptions of the groups need LIST NEWSGROUPS (RFC 3977 7.6.6)',
    );
  } else if (f.kind === 'article') {
    steps = [formatRequest(`ARTICLE <${f.messageId as string}>`), 'QUIT'];
    notes.push(
      'the message-id is sent in "<" and ">" (RFC 977 3.1.1, RFC 1036 2.1.5), which the URL leaves out (RFC 1738 3.6)',
    );
    notes.push(
      'an article that has expired on the server cannot be fetched: the message-id names no archive (draft 1994-03, note 2)',
    );
    notes.push(
      'the article may come by any other news transport too, or from articles already received (draft 1994-03)',
    );
  } else {
    const listing = groupListing(f.group as string);
    steps = listing.steps;
    notes.push(...listing.notes);
  }
  notes.unshift(
    server.setting !== null
      ? `the news server is the reader's local one: NNTPSERVER=${server.setting}; news URLs are location-independent and name no server (RFC 1738 3.6)`
      : "the news server is the reader's local one: NNTPSERVER (not set here, so the client must be told its news server); news URLs are location-independent and name no server (RFC 1738 3.6)",
  );
  const session = sessionSteps();
  notes.push(...session.notes);
  violationNotes(url, notes);
  return { protocol: 'nntp', host: server.host, port: server.port, steps: [...session.steps, ...steps], notes };
}

/**
 * What the client sends (RFC 1738 3.6, 6; RFC 977 2.3: arguments separated by spaces or tabs,
 * 3.1.1, 3.2.1): the group in GROUP, or the message-id in ARTICLE; nothing from "news:*".
 */
function wire(url: Url): WirePart[] {
  const s = url.schemePartStart;
  const e = url.bodyEnd;
  const h = url.href;
  if (e - s === 1 && h.charCodeAt(s) === 42) return []; // news:*
  const article = h.indexOf('@', s);
  return article >= 0 && article < e
    ? [wirePart('the message-id', s, e, 'the NNTP command "ARTICLE <message-id>" CR LF', NNTP_ARG)]
    : [wirePart('the newsgroup name', s, e, 'the NNTP command "GROUP <group>" CR LF', NNTP_ARG)];
}

/** news: a USENET newsgroup, article or all groups (RFC 1738 3.6). */
export const news: SchemeSpec<NewsFields> = {
  name: 'news',
  defaultPort: null,
  // A news URL names no server: it is read from the reader's NNTP server (RFC 1738 3.6), on 119.
  otherPorts: [NNTP_PORT],
  syntax: 'opaque',
  status: 'rfc1738',
  hierarchical: false, // opaque (3.6)
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  build,
  explain,
  wire,
};
