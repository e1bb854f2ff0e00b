// The Prospero client (RFC 1738 3.11): "Prospero URLs are interpreted by contacting a Prospero
// directory server on the specified host and port to determine appropriate access methods for a
// resource, which might themselves be represented as different URLs." It asks the server for the
// object's ACCESS-METHOD attribute (GET-OBJECT-INFO, Prospero v5 3.7) over ARDP on UDP
// (transport.ts), follows FORWARDED replies (Prospero v5 4.2) a few times, and answers with a
// Redirect to the first access method that is a URL (open() follows it within the policy), or,
// with followRedirects: false, with the list of access URLs as text/uri-list (RFC 2483).

import { lookup } from 'node:dns/promises';
import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { fieldsOf } from '../../schemes/fields.js';
import { parse } from '../../schemes/registry.js';
import { build } from '../../operations/build.js';
import { DEFAULT_POLICY } from '../../operations/policy.js';
import { beforeSending, resolveBeforeConnecting } from '../hop.js';
import { redactUrl } from '../../operations/redact.js';
import { checkTimeout } from '../connection.js';
import { cannotResolve } from '../dial.js';
import { NOT_FOUND, PROTOCOL_ERROR, type OpenOptions, type Redirect, type Resource } from '../types.js';
import { exchange } from './transport.js';
import {
  PROSPERO_NO_ACCESS,
  accessUrl,
  buildRequest,
  parseReply,
  replyLines,
  splitHost,
  uriList,
  type AccessUrl,
  type Forwarded,
  type ObjectQuery,
  quoteToken,
} from './protocol.js';
import {
  DIRECTORY_TYPE,
  PROSPERO_DIRECTORY_TOO_LARGE,
  PROSPERO_NOT_A_DIRECTORY,
  TARGET_FIELD,
  buildListRequest,
  entryLine,
  namesDirectory,
  linkUrl,
  parseListReply,
  type DirLink,
  type Entry,
} from './directory.js';

/** The Prospero port (RFC 1738 3.11: "the port defaults to 1525"). */
export const DEFAULT_PORT = 1525;
/** FORWARDED replies followed at most (the historic client's MAX_FWD_DEPTH is of this order). */
export const MAX_FORWARDS = 4;

/** The object version a URL asks for: the draft's %00 version, else an OBJECT-VERSION field, else "0" (current). */
function versionOf(f: { fields: Record<string, string>; version: string | null }): string {
  if (f.version !== null && f.version !== '') return f.version;
  const name = Object.keys(f.fields).find((n) => n.toUpperCase() === 'OBJECT-VERSION');
  return name !== undefined && f.fields[name] !== '' ? f.fields[name] : '0';
}

async function lookupAll(host: string) {
  try {
    return await lookup(host, { all: true });
  } catch (e) {
    throw cannotResolve(host, e);
  }
}

interface Asked {
  /** The prospero URL of the server and object (for messages, the policy, and the uri-list). */
  url: Url;
  host: string;
  port: number;
  query: ObjectQuery;
}

/** What one exchange with the server came to, read: where it forwards, what it warns of. */
interface Answer {
  forwarded: Forwarded | null;
  warnings: string[];
}

/**
 * One request on one object, following FORWARDED replies (Prospero v5 4.2) at most MAX_FORWARDS
 * times: the policy judges each server's address before a byte is sent to it (RFC 1738 6).
 */
async function askFollowing<T extends Answer>(
  first: Asked,
  options: OpenOptions,
  request: (q: ObjectQuery) => string,
  read: (text: string) => T,
): Promise<{ asked: Asked; reply: T }> {
  const timeout = checkTimeout(options.timeout);
  const policy = options.policy ?? DEFAULT_POLICY;
  const onTranscript = typeof options.transcript === 'function' ? options.transcript : undefined;
  let asked = first;
  for (let forwards = 0; ; forwards++) {
    const peer = await resolveBeforeConnecting(asked.url, policy, lookupAll);
    const text = request(asked.query);
    for (const line of replyLines(text)) onTranscript?.({ direction: 'send', text: line });
    const r = await exchange({ ...peer, port: asked.port }, new TextEncoder().encode(text), {
      timeout,
      signal: options.signal,
      policy,
      onTranscript,
    });
    const replyText = new TextDecoder('latin1').decode(r.message);
    for (const line of replyLines(replyText)) onTranscript?.({ direction: 'receive', text: line });
    const reply = read(replyText);
    if (reply.forwarded !== null) {
      const fw = reply.forwarded;
      const h = splitHost(fw.host);
      if (fw.hostType !== 'INTERNET-D' || h === null || fw.hsonameType !== 'ASCII') {
        throw new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the Prospero server forwarded to ${fw.hostType} ${fw.host} ${fw.hsonameType} ${fw.hsoname}, which this client cannot reach`,
        );
      }
      if (forwards >= MAX_FORWARDS) {
        throw new LocatorError(PROTOCOL_ERROR, -1, `more than ${MAX_FORWARDS} FORWARDED replies (Prospero v5 4.2)`);
      }
      const host = h.name.includes(':') ? `[${h.name}]` : h.name;
      const port = h.port ?? DEFAULT_PORT;
      let next: Url;
      try {
        next = parse(build('prospero', { host, port, hsoname: fw.hsoname }));
      } catch (e) {
        throw new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the Prospero server forwarded to a host that is not valid: ${fw.host}`,
          {
            cause: e,
          },
        );
      }
      beforeSending(next, policy);
      onTranscript?.({ direction: 'info', text: `FORWARDED: asking ${redactUrl(next)} (Prospero v5 4.2)` });
      asked = {
        url: next,
        host,
        port,
        query: { hsoname: fw.hsoname, version: fw.version || '0', remoteId: fw.remoteId },
      };
      continue;
    }
    for (const w of reply.warnings) onTranscript?.({ direction: 'info', text: `the server warns: ${w}` });
    return { asked, reply };
  }
}

/** The object a prospero URL names (RFC 1738 3.11): its server, port, hsoname and version. */
function askedOf(url: Url): Asked {
  const f = fieldsOf(url, 'prospero');
  if (f.hsoname === null) throw new LocatorError(PROTOCOL_ERROR, -1, 'a Prospero URL names an hsoname (RFC 1738 3.11)');
  return {
    url,
    host: url.host ?? '',
    port: url.port ?? DEFAULT_PORT,
    query: { hsoname: f.hsoname, version: versionOf(f) },
  };
}

/**
 * Resolves a prospero URL to the access methods of its object (RFC 1738 3.11; Prospero v5 3.7,
 * 4.2, A.1.1): the policy judges each server's address before a byte is sent to it.
 */
export async function accessMethods(
  url: Url,
  options: OpenOptions = {},
): Promise<{ asked: Url; methods: AccessUrl[]; warnings: string[] }> {
  const first = askedOf(url);
  const f = fieldsOf(url, 'prospero');
  const others = Object.keys(f.fields).filter((n) => !['OBJECT-VERSION', TARGET_FIELD].includes(n.toUpperCase()));
  if (others.length > 0 && typeof options.transcript === 'function') {
    options.transcript({
      direction: 'info',
      text: `the fields ${others.join(', ')} identify the link (RFC 1738 3.11); GET-OBJECT-INFO has no place for them`,
    });
  }
  const { asked, reply } = await askFollowing(first, options, buildRequest, parseReply);
  const link = {
    hostType: 'INTERNET-D',
    host: asked.port === DEFAULT_PORT ? asked.host : `${asked.host}(${asked.port})`,
    hsonameType: 'ASCII',
    hsoname: asked.query.hsoname,
  };
  return { asked: asked.url, methods: reply.accessMethods.map((m) => accessUrl(m, link)), warnings: reply.warnings };
}

/** The most links a listing reads, with those of its union links (past it: prospero-directory-too-large). */
export const MAX_LINKS = 10000;
/** Union links followed within union links at most (Prospero v5 A.2.2 sets no bound; a cycle needs one). */
export const MAX_UNION_DEPTH = 4;
/** Union directories listed for one listing at most (each is an exchange, perhaps with another server). */
export const MAX_UNIONS = 32;

const filterText = (f: string[]) => f.map(quoteToken).join(' ');

/**
 * Lists the directory a prospero URL names (Prospero v5 3.3 DIRECTORY, 3.5 LIST), its union
 * links expanded by the client (A.2.2: "the links from the target directory appear as part of
 * the directory from which the union link originates"; "if multiple objects have the same name,
 * the order in which the union links appear determines which object is visible": the
 * directory's own links first, then each union link's in order, a name already shown hidden).
 * Each union directory is asked on its own server, judged by the policy; a union link that
 * carries a filter, or is past MAX_UNION_DEPTH, or loops, or cannot be listed, is an entry of
 * its own with the reason. At most MAX_LINKS links in all.
 */
export async function listDirectory(url: Url, options: OpenOptions = {}): Promise<{ asked: Url; entries: Entry[] }> {
  const onTranscript = typeof options.transcript === 'function' ? options.transcript : undefined;
  const entries: Entry[] = [];
  const seen = new Set<string>();
  const visited = new Set<string>();
  let read = 0;
  let unionsListed = 0;
  const list = async (a: Asked) => {
    const { asked, reply } = await askFollowing(a, options, buildListRequest, (t) =>
      parseListReply(t, MAX_LINKS - read),
    );
    read += reply.links.length;
    visited.add(`${asked.host.toLowerCase()}:${asked.port}:${asked.query.hsoname}`);
    return { asked, links: reply.links };
  };
  const hostOf = (l: DirLink) =>
    l.hostType === 'INTERNET-D' ? l.host : l.hostType === 'NULL' ? '' : `${l.hostType} ${l.host}`;
  const add = (l: DirLink, note: string, union: boolean) => {
    if (union && seen.has(l.name)) return;
    seen.add(l.name);
    const u = linkUrl(l);
    const notes = [u.why, ...l.filters.map((f) => `its filter ${filterText(f)} is not applied`), note];
    entries.push({
      name: l.name,
      linkType: l.linkType,
      target: l.target,
      host: hostOf(l),
      url: u.url,
      note: notes.filter((n) => n !== null && n !== '').join('; '),
    });
  };
  const walk = async (links: DirLink[], depth: number, via: string) => {
    const unions = links.filter((l) => l.linkType === 'U');
    for (const l of links) if (l.linkType !== 'U') add(l, via, depth > 0);
    for (const l of unions) {
      const u = linkUrl(l);
      const h = splitHost(l.host);
      const key = h === null ? '' : `${h.name.toLowerCase()}:${h.port ?? DEFAULT_PORT}:${l.hsoname}`;
      let why: string | null = null;
      if (l.filters.length > 0)
        why = `not expanded: the union link carries the filter ${filterText(l.filters[0])}, which this client does not apply`;
      else if (u.url === null || h === null) why = `not expanded: ${u.why ?? 'no host'}`;
      else if (visited.has(key)) why = 'not expanded: it leads back to a directory already listed';
      else if (depth + 1 > MAX_UNION_DEPTH) why = `not expanded: more than ${MAX_UNION_DEPTH} union links deep`;
      else if (unionsListed >= MAX_UNIONS) why = `not expanded: ${MAX_UNIONS} union directories were listed already`;
      if (why === null) {
        const target = parse(u.url!);
        unionsListed++;
        try {
          const r = await list(askedOf(target));
          onTranscript?.({
            direction: 'info',
            text: `the union link ${l.name}: ${r.links.length} links (Prospero v5 A.2.2)`,
          });
          await walk(r.links, depth + 1, `through the union link ${l.name}`);
          continue;
        } catch (e) {
          // the bound on links, and an abort, end the whole listing; any other failure is this link's
          if (!(e instanceof LocatorError) || e.code === PROSPERO_DIRECTORY_TOO_LARGE || options.signal?.aborted)
            throw e;
          why = `not expanded: ${e.message}`;
        }
      }
      entries.push({
        name: l.name,
        linkType: 'U',
        target: l.target,
        host: hostOf(l),
        url: u.url,
        note: [why, via].filter((n) => n !== '').join('; '),
      });
    }
  };
  const first = await list(askedOf(url));
  await walk(first.links, 0, '');
  return { asked: first.asked.url, entries };
}

function bodyOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(c) {
      if (bytes.length > 0) c.enqueue(bytes);
      c.close();
    },
  });
}

/** A directory listing as a Resource (DIRECTORY_TYPE, one link a line). */
async function listing(url: Url, options: OpenOptions): Promise<Resource> {
  const { entries } = await listDirectory(url, options);
  const bytes = new TextEncoder().encode(entries.map(entryLine).join(''));
  return {
    meta: {
      scheme: 'prospero',
      url: redactUrl(url),
      size: bytes.length,
      contentType: DIRECTORY_TYPE,
      transcript: [],
    },
    body: bodyOf(bytes),
  };
}

/**
 * Opens a prospero URL (RFC 1738 3.11): a directory's listing (listDirectory) when the URL says
 * its target is a directory (;TARGET=DIRECTORY) or the object has no access method and is a
 * directory; else a Redirect to the first access method that is a URL,
 * reason "the Prospero access method"; with followRedirects: false, a Resource whose body is the
 * access URLs as text/uri-list (RFC 2483 5). Fails with prospero-no-access-method when the
 * server names none that is a URL (the error lists what it named).
 */
export async function open(url: Url, options: OpenOptions): Promise<Resource | Redirect> {
  if (namesDirectory(url)) return listing(url, options);
  const { asked, methods } = await accessMethods(url, options);
  // A directory has no access method (Prospero v5 A.2): list it; an object that is not a
  // directory either keeps the answer below.
  if (methods.length === 0) {
    try {
      return await listing(url, options);
    } catch (e) {
      // not a directory (or, to a server that knows it by GET-OBJECT-INFO only, not found as one)
      if (!(e instanceof LocatorError) || (e.code !== PROSPERO_NOT_A_DIRECTORY && e.code !== NOT_FOUND)) throw e;
    }
  }
  const shown = redactUrl(url);
  if (options.followRedirects === false) {
    const bytes = new TextEncoder().encode(uriList(redactUrl(asked), methods));
    return {
      meta: {
        scheme: 'prospero',
        url: shown,
        size: bytes.length,
        contentType: 'text/uri-list',
        transcript: [],
      },
      body: bodyOf(bytes),
    };
  }
  const first = methods.find((m) => m.url !== null);
  if (first === undefined) {
    const what =
      methods.length === 0
        ? 'the server names no access method'
        : methods.map((m) => `${m.method.join(' ')} (${m.why})`).join('; ');
    throw new LocatorError(
      PROSPERO_NO_ACCESS,
      -1,
      `no access method of ${shown} is a URL this client follows: ${what}`,
    );
  }
  return { redirect: first.url!, reason: 'the Prospero access method' };
}
