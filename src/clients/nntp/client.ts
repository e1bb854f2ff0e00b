// news (RFC 1738 3.6) and nntp (RFC 1738 3.7) over NNTP (RFC 3977; RFC 977 its first edition).
//
// news: URLs name no server: the reader's own news server is used, from NNTPSERVER ("host" or
// "host:port") and then the newsServer option. nntp: URLs name theirs. Each URL form sends
// exactly the commands of its scheme's explain() (src/schemes/news.ts, nntp.ts), those that
// depend on the server's answers included:
//
//   news:<message-id>      ARTICLE <message-id>                    the article (message/rfc822)
//   news:<group>           GROUP <group>, OVER|XOVER <lo>-<hi>     the group listing
//                          (or HEAD <n> for each article when the server has no overview)
//   news:*                 LIST ACTIVE                             the list of every group
//   nntp://h:p/<group>/<n> GROUP <group>, ARTICLE <n>              the article
//   nntp://h:p/<group>     as news:<group>
//
// before them, CAPABILITIES (when offered) and MODE READER (when needed); AUTHINFO USER/PASS
// only when the server answers 480; after them QUIT. Everything is streamed.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { INVALID_FIELD } from '../../schemes/codes.js';
import { fieldsOf } from '../../schemes/fields.js';
import { newsServer, news as newsScheme, checkGroup } from '../../schemes/news.js';
import { redactUrl } from '../../operations/redact.js';
import { checkTimeout, ipOf, pullStream } from '../connection.js';
import { NOT_FOUND, PROTOCOL_ERROR, TOO_LARGE, typedError, type OpenOptions, type Resource } from '../types.js';
import { NNTP_NO_SERVER } from './errors.js';
import {
  activeListingLine,
  bareMessageId,
  entryFromHeaders,
  parseActiveLine,
  parseHeaders,
  parseOverviewLine,
  overviewListingLine,
  type OverviewEntry,
} from './parser.js';
import { NntpSession, type Credentials } from './session.js';
import { netrcEntry, netrcHost, parseNetrc } from './netrc.js';

export { NntpReplyError } from './session.js';
export { NNTP_REPLY, NNTP_NO_SERVER, NNTP_AUTH_REQUIRED } from './errors.js';

/** The media type of a group listing (one article a line: number, subject, from, date, bytes, url). */
export const OVERVIEW_TYPE = 'text/x-locator-news-overview; charset=utf-8';
/** The media type of the list of every group (group, high, low, status, url). */
export const GROUPS_TYPE = 'text/x-locator-news-groups; charset=utf-8';
/** An article: RFC 5536 3 (the format of RFC 5322), CR LF line ends as on the wire. */
export const ARTICLE_TYPE = 'message/rfc822';

const utf8 = new TextEncoder();
const HEADER_LIMIT = 1024 * 1024;

/**
 * A group listing from a server with no overview asks HEAD for the last this many article
 * numbers at most, when no `limit` is given (one round trip each).
 */
export const HEAD_WINDOW = 1000;

function envOf(options: OpenOptions): Record<string, string | undefined> {
  return options.env ?? process.env;
}

/**
 * The server of a URL: the URL's host and port for nntp (RFC 1738 3.7); for news, the reader's
 * own (RFC 1738 3.6: "the reader will fetch the article or group from his or her local news
 * host"): NNTPSERVER, then the newsServer option.
 */
export function serverOf(url: Url, options: OpenOptions): { host: string; port: number } {
  if (url.scheme === 'nntp' && url.hasLogin) return { host: url.host ?? '', port: url.port ?? 119 };
  const fromEnv = newsServer(envOf(options));
  if (fromEnv.host !== null && fromEnv.host !== '') return { host: fromEnv.host, port: fromEnv.port };
  if (options.newsServer !== undefined && options.newsServer.trim() !== '') {
    const o = newsServer({ NNTPSERVER: options.newsServer });
    if (o.host !== null && o.host !== '') return { host: o.host, port: o.port };
  }
  throw new LocatorError(
    NNTP_NO_SERVER,
    -1,
    `${redactUrl(url)} names no news server (RFC 1738 3.6: the reader's own is used), and none is configured: set NNTPSERVER=host[:port], or pass the newsServer option (--nntp-server host[:port] of locator fetch, check and serve)`,
  );
}

/** The netrcHosts option, checked: undefined, or an array of host names. */
function netrcHostsOption(options: OpenOptions): readonly string[] | undefined {
  const v = options.netrcHosts;
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((h) => typeof h !== 'string')) {
    throw new TypeError(`netrcHosts must be an array of host names, not ${JSON.stringify(v)}`);
  }
  return v;
}

/**
 * Which netrc entries may answer for the server `host`, or null for none: without netrcHosts,
 * only the "machine" entry of `host` itself, the server of the URL given to open() (open()
 * passes netrcHosts [] to a hop to another host); with it, the "machine" entry, or else the
 * "default" one, of a host it lists, and nothing for another. So the "default" entry goes only
 * to a host the user named, as curl sends it only to the host it was asked for.
 */
function netrcUse(host: string, options: OpenOptions): { useDefault: boolean } | null {
  if (options.netrc === false) return null;
  const hosts = netrcHostsOption(options);
  if (hosts === undefined) return { useDefault: false };
  return hosts.some((h) => netrcHost(h) === netrcHost(host)) ? { useDefault: true } : null;
}

/**
 * The credentials for AUTHINFO (RFC 4643 2.3), looked up only when the server asks: the user
 * option with the password option (a string or a prompt) or that user's netrc password; else the
 * netrc entry for the host. Null when none are configured. The netrc file is read only when an
 * entry of it may be used (netrcUse()). The user and password options are the caller's for the
 * host of the URL it gave: open() leaves them out of a hop to another host.
 */
export function credentialsFor(host: string, options: OpenOptions): () => Promise<Credentials | null> {
  const use = netrcUse(host, options);
  return async () => {
    let entries: ReturnType<typeof parseNetrc> = [];
    const env = envOf(options);
    const file =
      use === null || options.netrc === false ? null : (options.netrc ?? (env.HOME ? join(env.HOME, '.netrc') : null));
    if (file !== null) {
      try {
        entries = parseNetrc(readFileSync(file, 'utf8'));
      } catch {
        entries = [];
      }
    }
    if (options.user !== undefined) {
      const p = options.password;
      if (typeof p === 'string') return { user: options.user, password: p };
      const e = netrcEntry(entries, host, options.user, use ?? undefined);
      if (e?.password != null) return { user: options.user, password: e.password };
      if (typeof p === 'function') return { user: options.user, password: await p() };
      return null;
    }
    const e = netrcEntry(entries, host, undefined, use ?? undefined);
    if (e === null || e.login === null || e.password === null) return null;
    return { user: e.login, password: e.password };
  };
}

/** Refuses what cannot be one NNTP argument (RFC 3977 3.1: arguments are separated by space or TAB). */
export function assertArgument(what: string, v: string): void {
  const bad = v.search(/[\0\t\n\r ]/);
  if (bad >= 0 || v === '') {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `the ${what} ${JSON.stringify(v)} ${v === '' ? 'is empty' : 'holds a space, TAB, CR, LF or NUL'}: it cannot be sent as one NNTP argument (RFC 3977 3.1)`,
    );
  }
}

function checkLimit(v: unknown): bigint | null {
  if (v === undefined) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) {
    throw new RangeError(`limit must be a positive whole number of articles, not ${String(v)}`);
  }
  return BigInt(v);
}

/** The news: URL of a message-id (RFC 1738 3.6), or "" when it cannot be written as one. */
function articleUrl(messageId: string): string {
  const bare = bareMessageId(messageId);
  if (bare === null) return '';
  try {
    return 'news:' + newsScheme.build!({ messageId: bare });
  } catch {
    return '';
  }
}

/** The news: URL of a group (RFC 1738 3.6), or "" when the name is not a group of RFC 1738 5. */
function groupUrl(group: string): string {
  return /^[A-Za-z][A-Za-z0-9.+_-]*$/.test(group) && checkGroup(group, 0, group.length) === null ? 'news:' + group : '';
}

function meta(s: NntpSession, url: Url, contentType: string) {
  return { scheme: url.scheme, url: redactUrl(url), size: null, contentType, transcript: [], ...ipOf(s.conn) };
}

/** The body stream of a session: chunks from `next`, QUIT at the end, the socket closed on any failure. */
function streamOf(s: NntpSession, next: () => Promise<Uint8Array | null>, options: OpenOptions) {
  let quitting = false;
  return pullStream(
    async () => {
      const c = await next();
      if (c === null && !quitting) {
        quitting = true;
        await s.quit();
      }
      return c;
    },
    (reason) => s.close(reason),
    {
      maxBytes: options.maxBytes,
      tooLarge: () => new LocatorError(TOO_LARGE, -1, `the object is larger than ${options.maxBytes} octets`),
    },
  );
}

/**
 * ARTICLE (RFC 3977 6.2.1): 220 and the article, dot-stuffing undone, CR LF line ends kept.
 * 430 (no article with that message-id) and 423 (no article with that number) are `not-found`;
 * any other failure is `nntp-reply`.
 */
async function article(s: NntpSession, url: Url, arg: string, options: OpenOptions): Promise<Resource> {
  const cmd = `ARTICLE ${arg}`;
  const r = await s.command(cmd);
  if (r.code === 430 || r.code === 423) {
    throw s.error(
      r,
      cmd,
      `no such article: the news server answered ${r.code} ${JSON.stringify(r.text)} to ${JSON.stringify(cmd)} (RFC 3977 6.2.1)`,
      NOT_FOUND,
    );
  }
  if (r.code !== 220) throw s.error(r, cmd);
  return { meta: meta(s, url, ARTICLE_TYPE), body: streamOf(s, s.blockReader(), options) };
}

/** GROUP (RFC 3977 6.1.1): 211 count low high group; 411 is `not-found`. */
export async function selectGroup(
  s: NntpSession,
  group: string,
): Promise<{ low: bigint; high: bigint; count: bigint }> {
  const cmd = `GROUP ${group}`;
  const r = await s.command(cmd);
  if (r.code === 411) {
    throw s.error(
      r,
      cmd,
      `no such newsgroup: the news server answered 411 ${JSON.stringify(r.text)} to ${JSON.stringify(cmd)}`,
      NOT_FOUND,
    );
  }
  if (r.code !== 211) throw s.error(r, cmd);
  const m = /^([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)/.exec(r.text);
  if (m === null) {
    throw s.error(
      r,
      cmd,
      `the reply 211 ${JSON.stringify(r.text)} to ${JSON.stringify(cmd)} is not "211 count low high group" (RFC 3977 6.1.1)`,
      PROTOCOL_ERROR,
    );
  }
  return { count: BigInt(m[1]), low: BigInt(m[2]), high: BigInt(m[3]) };
}

/**
 * A group listing (news:<group>, nntp://host/group): GROUP, then the overview of the articles
 * (RFC 3977 8.3 OVER, or RFC 2980 2.8 XOVER when the server offers no CAPABILITIES), oldest
 * first; a server with neither answers HEAD for each article number instead (RFC 3977 6.2.2),
 * for the last HEAD_WINDOW numbers at most, until `count` articles have come. With `limit`, only
 * the last `limit` article numbers are asked for.
 */
async function listing(
  s: NntpSession,
  url: Url,
  group: string,
  urlOf: (e: OverviewEntry) => string,
  options: OpenOptions,
): Promise<Resource> {
  const limit = checkLimit(options.limit);
  const { count, low, high } = await selectGroup(s, group);
  const m = meta(s, url, OVERVIEW_TYPE);
  if (count === 0n || high < low) return { meta: m, body: streamOf(s, async () => null, options) };
  const lo = limit !== null && high - limit + 1n > low ? high - limit + 1n : low;
  const caps = s.capabilities;
  const overCmd = caps === null ? 'XOVER' : caps.has('OVER') ? 'OVER' : null;
  if (overCmd !== null) {
    const cmd = `${overCmd} ${lo}-${high}`;
    const r = await s.command(cmd);
    if (r.code === 224) {
      const next = s.listingReader((line) => {
        const e = parseOverviewLine(line);
        return e === null ? '' : overviewListingLine(e, urlOf(e));
      });
      return { meta: m, body: streamOf(s, next, options) };
    }
    if (r.code === 420 || r.code === 423) return { meta: m, body: streamOf(s, async () => null, options) };
    if (!(overCmd === 'XOVER' && (r.code === 500 || r.code === 501))) throw s.error(r, cmd);
  }
  // No overview: one HEAD per article number (RFC 3977 6.2.2). The marks of 211 only bound the
  // numbers (6.1.1: numbers between them may have no article), so a server announcing
  // "211 3 1 1000000000000" and answering 423 would get a trillion HEADs. As a newsreader that
  // fetches only the newest headers of a big group, ask only the last `limit` numbers, or the
  // last HEAD_WINDOW when no limit is given; and stop once `count` articles have come, since the
  // count is "at least the actual number of articles available" (6.1.1).
  const most = BigInt(HEAD_WINDOW);
  let n = limit !== null || high - lo + 1n <= most ? lo : high - most + 1n;
  if (n > lo) {
    s.conn.note(
      'info',
      `no overview: HEAD for the last ${HEAD_WINDOW} article numbers only (${n}-${high} of ${low}-${high}; the limit option asks for more)`,
    );
  }
  let found = 0n;
  const next = async (): Promise<Uint8Array | null> => {
    while (n <= high && found < count) {
      const num = n++;
      const cmd = `HEAD ${num}`;
      const r = await s.command(cmd);
      if (r.code === 423) continue;
      if (r.code !== 221) throw s.error(r, cmd);
      found++;
      const headers = parseHeaders(await s.readTextBlock(HEADER_LIMIT));
      const e = entryFromHeaders(String(num), headers);
      return utf8.encode(overviewListingLine(e, urlOf(e)));
    }
    return null;
  };
  return { meta: m, body: streamOf(s, next, options) };
}

/**
 * Starts the list of every group (RFC 1738 3.6 news:*): LIST ACTIVE (RFC 3977 7.6.3), or LIST
 * when an RFC 977 server does not know the keyword (500/501); any reply but 215 is an
 * NntpReplyError. The list's lines follow on the session (`lineReader()`).
 */
export async function listActive(s: NntpSession): Promise<void> {
  let cmd = 'LIST ACTIVE';
  let r = await s.command(cmd);
  if (r.code === 500 || r.code === 501) {
    cmd = 'LIST';
    r = await s.command(cmd);
  }
  if (r.code !== 215) throw s.error(r, cmd);
}

/** news:* (RFC 1738 3.6: "all available newsgroups"): LIST ACTIVE (RFC 3977 7.6.3), LIST for an RFC 977 server. */
async function allGroups(s: NntpSession, url: Url, options: OpenOptions): Promise<Resource> {
  await listActive(s);
  const next = s.listingReader((line) => {
    const e = parseActiveLine(line);
    return e === null ? '' : activeListingLine(e, groupUrl(e.group));
  });
  return { meta: meta(s, url, GROUPS_TYPE), body: streamOf(s, next, options) };
}

/**
 * Retrieves a news (RFC 1738 3.6) or nntp (RFC 1738 3.7) URL over NNTP (RFC 3977), sending the
 * commands of explain(url). Resolves once the server has accepted the last command, with the
 * article (message/rfc822, CR LF line ends) or a listing streamed; fails with a LocatorError:
 * `nntp-no-server`, `not-found` (430, 423, 411), `nntp-auth-required` (480 with no credentials),
 * `nntp-reply` (NntpReplyError, any other failure), `connection-closed`, `protocol-error`,
 * `timeout`, `aborted`, `too-large`.
 */
export async function open(url: Url, options: OpenOptions): Promise<Resource> {
  checkTimeout(options.timeout);
  checkLimit(options.limit);
  let plan: (s: NntpSession) => Promise<Resource>;
  if (url.scheme === 'news') {
    const f = fieldsOf(url, 'news');
    if (f.kind === 'article') {
      const id = f.messageId!;
      assertArgument('message-id', id);
      plan = (s) => article(s, url, `<${id}>`, options);
    } else if (f.kind === 'group') {
      assertArgument('newsgroup name', f.group!);
      plan = (s) => listing(s, url, f.group!, (e) => articleUrl(e.messageId), options);
    } else {
      plan = (s) => allGroups(s, url, options);
    }
  } else {
    const f = fieldsOf(url, 'nntp');
    const group = f.group ?? '';
    assertArgument('newsgroup name', group);
    const base = url.hasLogin ? `nntp://${url.host}:${url.port ?? 119}/${group}/` : '';
    if (f.article !== null) {
      const n = f.article;
      plan = async (s) => {
        await selectGroup(s, group);
        return article(s, url, String(n), options);
      };
    } else {
      plan = (s) => listing(s, url, group, (e) => (base === '' ? '' : base + e.number), options);
    }
  }
  const { host, port } = serverOf(url, options);
  const onTranscript = typeof options.transcript === 'function' ? options.transcript : undefined;
  const s = await NntpSession.open(host, port, {
    signal: options.signal,
    timeout: options.timeout,
    policy: options.policy,
    onTranscript,
    credentials: credentialsFor(host, options),
  });
  try {
    return await plan(s);
  } catch (e) {
    const err = typedError(e, 'the NNTP exchange');
    s.close(err);
    throw err;
  }
}
