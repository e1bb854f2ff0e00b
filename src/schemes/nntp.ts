// The nntp scheme (RFC 1738 3.7; section 5 nntpurl).
//
//   nntpurl        = "nntp://" hostport "/" group [ "/" digits ]
//
// "nntp://<host>:<port>/<newsgroup-name>/<article-number> ... If :<port> is omitted, the port
// defaults to 119." The drafts of 1993-10 and 1994-03 write the production as
// "nntp:" group "/" digits, with no server, although their text says "The news server name,
// newsgroup name, and index number of an article ... are given"; that form is read too, with a
// `draft-only` warning (the scanner reports its missing "//" as well).

import type { Url } from '../core/url.js';
import type { Report, SchemeSpec, Explanation, WirePart } from './spec.js';
import { NNTP_ARG, bodyRange, wirePart } from './wire.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { INVALID_FIELD, DRAFT_ONLY } from './codes.js';
import { pathRange, schemePartRange, type Range } from './ranges.js';
import { decodeSlice } from '../core/percent.js';
import { usualLogin } from '../core/analyze.js';
import { text } from './read.js';
import { refuseLogin, buildLogin } from './login.js';
import { formatRequest, violationNotes } from './notes.js';
import {
  INVALID_NEWSGROUP,
  NNTP_PORT,
  GROUP_PATTERN,
  checkGroup,
  assertGroup,
  groupListing,
  sessionSteps,
} from './news.js';
import { flaggedByScanner, type AddrSpecProblem } from './mailto.js';

export const INVALID_ARTICLE_NUMBER = defineCode(
  'invalid-article-number',
  'error',
  'RFC 1738 3.7',
  'the article number is the numeric id of the article within the group: digits only',
);

/** The group and article-number ranges of an nntp URL, or null for a URL with no url-path. */
function parts(url: Url): { group: Range; article: Range | null } | null {
  const r = url.hasLogin ? pathRange(url) : schemePartRange(url);
  if (r === null) return null;
  const s = url.href;
  for (let i = r.start; i < r.end; i++) {
    if (s.charCodeAt(i) === 47) return { group: { start: r.start, end: i }, article: { start: i + 1, end: r.end } };
  }
  return { group: r, article: null };
}

/** The article number as a number, or null when it is absent or not digits. */
function articleNumber(s: string, r: Range | null): number | null {
  if (r === null || r.start === r.end) return null;
  let n = 0;
  for (let i = r.start; i < r.end; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return null;
    n = n * 10 + (c - 48);
  }
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The first problem of an article number: [ "/" digits ] (RFC 1738 5), nothing after it, and
 * small enough to be read exactly. Characters the scanner reported are skipped.
 */
function checkArticle(s: string, a: Range): AddrSpecProblem | null {
  if (a.start === a.end) {
    return {
      offset: a.start,
      message:
        'the article number after "/" is missing: leave out the "/" too when there is none (RFC 1738 5: [ "/" digits ])',
    };
  }
  let n = 0;
  for (let i = a.start; i < a.end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48);
      continue;
    }
    if (flaggedByScanner(s, i)) continue;
    return {
      offset: i,
      message:
        c === 47
          ? 'nothing follows the article number: nntp://<host>:<port>/<newsgroup-name>/<article-number> (RFC 1738 3.7)'
          : c === 37
            ? 'the article number is plain digits, with no %XX escapes (RFC 1738 5)'
            : `the article number is digits only, and "${String.fromCharCode(c)}" is not a digit (RFC 1738 5)`,
    };
  }
  if (!Number.isSafeInteger(n)) {
    return {
      offset: a.start,
      message: `the article number is too large to be read exactly (over ${Number.MAX_SAFE_INTEGER})`,
    };
  }
  return null;
}

/** nntp rules (RFC 1738 3.7; section 5 nntpurl; the drafts' nntpaddress). */
function validate(url: Url, report: Report): void {
  const base = url.inputOffset;
  const s = url.href;
  refuseLogin(url, report, 'RFC 1738 3.7');
  const p = parts(url);
  if (p === null) {
    report(
      INVALID_NEWSGROUP,
      schemePartRange(url).end + base,
      'an nntp URL names a newsgroup: nntp://<host>:<port>/<newsgroup-name> (RFC 1738 5: "/" group is required)',
    );
    return;
  }
  const g = checkGroup(s, p.group.start, p.group.end);
  if (g !== null) report(INVALID_NEWSGROUP, g.offset + base, g.message);
  const a = p.article === null ? null : checkArticle(s, p.article);
  if (a !== null) report(INVALID_ARTICLE_NUMBER, a.offset + base, a.message);
  // The drafts' nntp:<group>/<digits>: said only when the rest is that form indeed.
  if (!url.hasLogin && g === null && a === null && p.article !== null) {
    report(
      DRAFT_ONLY,
      schemePartRange(url).start + base,
      'nntp:<group>/<digits> with no server is the grammar of the 1993-10 and 1994-03 drafts; RFC 1738 3.7 writes nntp://<host>:<port>/<newsgroup-name>/<article-number>',
    );
  }
}

/**
 * The usual nntp URL, which neither the generic rules nor validate() report anything in (RFC
 * 1738 3.7, 5): host and port, then "/", a group and at most "/" and an article number of up to
 * 15 digits (read exactly).
 */
const USUAL = /* @__PURE__ */ usualLogin(`${GROUP_PATTERN}(?:/[0-9]{1,15})?`, { pathRequired: true });

/** group (decoded; null when the URL has no url-path) and article (number or null), RFC 1738 3.7. */
const NO_GROUP = Object.freeze({ group: null, article: null });

/** nntp (RFC 1738 3.7): the group and the article number. */
export interface NntpFields {
  group: string | null;
  article: number | null;
}

function fields(url: Url): NntpFields {
  // Speed: as parts(), on offsets: one search for "/", no range objects.
  const start = url.hasLogin ? url.pathStart : url.schemePartStart;
  if (start < 0) return NO_GROUP;
  const h = url.href;
  const end = url.bodyEnd;
  let slash = h.indexOf('/', start);
  if (slash < 0 || slash > end) slash = end;
  return Object.freeze({
    group: decodeSlice(h, start, slash),
    article: slash === end ? null : articleNumber(h, { start: slash + 1, end }),
  });
}

/**
 * Writes nntp://host[:port]/group[/article] (RFC 1738 3.7, 5). The host is required; the port is
 * left out when it is 119; the group must match the group production (it takes no escapes); the
 * article is a whole number or null.
 */
function build(f: Record<string, unknown>): string {
  if (typeof f.host !== 'string' || f.host === '') {
    throw new LocatorError(INVALID_FIELD, -1, 'an nntp URL needs the host of its news server (RFC 1738 3.7)');
  }
  const login = buildLogin(f, { allowLogin: false, defaultPort: NNTP_PORT });
  const group = f.group;
  if (typeof group !== 'string') throw new LocatorError(INVALID_FIELD, -1, 'an nntp URL needs a group (a string)');
  assertGroup(group);
  const article = f.article;
  if (article === undefined || article === null) return `${login}/${group}`;
  if (typeof article !== 'number' || !Number.isSafeInteger(article) || article < 0) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `the article number must be a whole number, not ${JSON.stringify(article)} (RFC 1738 5: digits)`,
    );
  }
  return `${login}/${group}/${article}`;
}

/**
 * The access algorithm (RFC 1738 3.7; RFC 977): connect to host:port (119), select the group
 * with GROUP, fetch the article by its number with ARTICLE; with no article number, list the
 * group as a news reader does.
 */
function explain(url: Url): Explanation {
  const f = fields(url);
  const group = (f.group as string | null) ?? '';
  const notes: string[] = [];
  let steps: string[];
  if (f.article !== null) {
    steps = [formatRequest(`GROUP ${group}`), `ARTICLE ${f.article as number}`, 'QUIT'];
    notes.push('ARTICLE <n> selects by number within the group that GROUP selected (RFC 3977 6.2.1; RFC 977 3.1.2)');
  } else {
    const listing = groupListing(group);
    steps = listing.steps;
    notes.push(...listing.notes);
  }
  notes.push(
    'nntp URLs are not globally accessible: most NNTP servers allow access only from local clients (RFC 1738 3.7), so the news: form is preferred for articles',
  );
  notes.push(
    'article numbers belong to one server: the same article has another number on another server (draft 1994-03)',
  );
  const session = sessionSteps();
  notes.push(...session.notes);
  steps = [...session.steps, ...steps];
  if (!url.hasLogin)
    notes.push(
      "this URL names no server (the drafts' nntp:<group>/<digits>): the client must be told which server to ask",
    );
  violationNotes(url, notes);
  return { protocol: 'nntp', host: url.host, port: url.hasLogin ? url.port : NNTP_PORT, steps, notes };
}

/**
 * What the client sends (RFC 1738 3.7, 6; RFC 977 2.3): the group in GROUP. The article number
 * is digits: an escape there makes it no number, and it is not sent.
 */
function wire(url: Url): WirePart[] {
  const r = bodyRange(url);
  if (r === null) return [];
  let slash = url.href.indexOf('/', r[0]);
  if (slash < 0 || slash > r[1]) slash = r[1];
  return [wirePart('the newsgroup name', r[0], slash, 'the NNTP command "GROUP <group>" CR LF', NNTP_ARG)];
}

/** nntp: an article or group on one NNTP server (RFC 1738 3.7). */
export const nntp: SchemeSpec<NntpFields> = {
  name: 'nntp',
  defaultPort: NNTP_PORT,
  syntax: 'internet',
  status: 'rfc1738',
  // Not hierarchical. 3.7 and 5: "/" group [ "/" digits ]: two fields of different kinds (a news
  // group name is dotted, RFC 1036), not a hierarchy.
  hierarchical: false,
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  build,
  explain,
  wire,
};
