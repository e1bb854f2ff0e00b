// The gateway's renderers: one per kind of object (RFC 1738 4: "images of objects in the new
// scheme for clients using an existing protocol"). Each reads the object as it arrives and
// writes HTML to a Sink, so that nothing is held whole in memory; every remote string goes
// through esc() (html.ts), and every link is a link to the gateway (`ctx.link`).
//
// Rendering is chosen here by scheme and content type, not by the scheme entries' `render` hook:
// the entries live in the browser-safe layer (src/schemes/), which may not reach src/gateway/.
//
// The templates are tagged `markup` (not `html`): Prettier reformats templates tagged `html` as
// documents of their own, closing the tags that a fragment leaves open.

import { build } from '../build.js';
import { LocatorError } from '../core/errors.js';
import { SEGMENT_SET, encode } from '../core/percent.js';
import { redactUrl } from '../redact.js';
import type { MenuItem, AskQuestion } from '../clients/gopher/types.js';
import type { Explanation } from '../schemes/spec.js';
import type { Url } from '../core/url.js';
import { PROTOCOL_ERROR } from '../clients/types.js';
import { Html, markup } from './html.js';

/** Where a renderer writes: each call may wait for the client to take the bytes (back-pressure). */
export interface Sink {
  write(chunk: string): Promise<void> | void;
}

/** What a renderer knows of the gateway: how to link back to it. */
export interface RenderContext {
  /** The gateway page of a URL (with extra query parameters). */
  link(url: string, params?: Record<string, string>): string;
  /** The gateway's own address, for form actions ('' for relative). */
  base: string;
  /** True when the request came as a proxy request (an absolute URL in the request line). */
  proxy?: boolean;
}

/** The longest line of a line-based object accepted (octets); longer is a protocol error. */
export const MAX_LINE = 64 * 1024;

/** The words shown for Gopher item types (RFC 1436 3.8, and the common g, I, h, s, d, i). */
export const GOPHER_KINDS: Readonly<Record<string, string>> = {
  0: 'text',
  1: 'menu',
  2: 'phonebook',
  3: 'error',
  4: 'binhex',
  5: 'dos binary',
  6: 'uuencoded',
  7: 'search',
  8: 'telnet',
  9: 'binary',
  '+': 'mirror',
  T: 'tn3270',
  g: 'gif image',
  I: 'image',
  h: 'html',
  s: 'sound',
  d: 'document',
  i: 'info',
};

/** The word for a Gopher item type (RFC 1436 3.8); an unknown type is shown as "type X". */
export function gopherKind(type: string): string {
  return GOPHER_KINDS[type] ?? `type ${type}`;
}

// ---------------------------------------------------------------------------------------------
// Reading line-based objects

/**
 * The lines of a body, decoded as UTF-8 (octets that are not show as U+FFFD), without their line
 * ends (LF or CR LF). A line longer than MAX_LINE is a `protocol-error`.
 */
export async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  const reader = body.getReader();
  let pending = '';
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        done = true;
        pending += decoder.decode();
        if (pending !== '') yield pending.replace(/\r$/, '');
        return;
      }
      pending += decoder.decode(r.value, { stream: true });
      let nl = pending.indexOf('\n');
      let start = 0;
      while (nl >= 0) {
        yield pending.slice(start, nl).replace(/\r$/, '');
        start = nl + 1;
        nl = pending.indexOf('\n', start);
      }
      pending = pending.slice(start);
      if (pending.length > MAX_LINE) {
        throw new LocatorError(PROTOCOL_ERROR, -1, `a line of the object runs past ${MAX_LINE} characters`);
      }
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** Writes a body as escaped text inside <pre>, chunk by chunk (text as text). */
export async function renderText(body: ReadableStream<Uint8Array>, sink: Sink): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  await sink.write('<pre class="text">');
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      await sink.write(markup`${decoder.decode(r.value, { stream: true })}`.value);
    }
    done = true;
    await sink.write(markup`${decoder.decode()}`.value);
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  await sink.write('</pre>\n');
}

// ---------------------------------------------------------------------------------------------
// Gopher (RFC 1436 3.8; RFC 1738 3.4)

/** One menu item (RFC 1436 3.8) as a list entry: its type as a word, its display string linked through the gateway. */
export function menuItem(item: MenuItem, ctx: RenderContext): Html {
  const kind = markup`<span class="kind">${gopherKind(item.type)}</span> `;
  if (item.type === 'i') return markup`<li class="info">${item.display}</li>\n`;
  if (item.type === '3') return markup`<li class="problem">${kind}${item.display}</li>\n`;
  if (item.url === null) {
    return markup`<li class="problem">${kind}${item.display} <small>(${item.problem ?? 'no URL'})</small></li>\n`;
  }
  const note = item.problem === null ? '' : markup` <small class="problem">(${item.problem})</small>`;
  const form = item.gopherPlus === '?';
  const plus = form ? markup` <small>(form)</small>` : '';
  const href = ctx.link(form ? askUrl(item.url) : item.url);
  return markup`<li>${kind}<a href="${href}">${item.display}</a>${plus}${note}</li>\n`;
}

/** The "?" URL of an item whose menu line says it has a +ASK form (RFC 1738 3.4.5). */
function askUrl(url: string): string {
  return /%09/i.test(url) ? url : `${url}%09%09?`;
}

/** A Gopher menu (or the answer to a search; RFC 1436 3.8) as a list, written as the items arrive. */
export async function renderMenu(items: AsyncIterable<MenuItem>, ctx: RenderContext, sink: Sink): Promise<number> {
  let n = 0;
  await sink.write('<ul class="items menu">\n');
  for await (const item of items) {
    await sink.write(menuItem(item, ctx).value);
    n++;
  }
  await sink.write('</ul>\n');
  if (n === 0) await sink.write('<p>The menu is empty.</p>\n');
  return n;
}

/** The search form of a Gopher type-7 item or a WAIS database (RFC 1738 3.4.2, 3.9). */
export function searchForm(url: string, what: string, ctx: RenderContext): Html {
  return markup`<form class="fill" method="get" action="${ctx.base}/">
<input type="hidden" name="url" value="${url}">
<p><label for="search">Search ${what}</label>
<input type="text" id="search" name="search" size="40" required></p>
<p><button type="submit">Search</button></p>
</form>
`;
}

/**
 * A Gopher+ +ASK form (RFC 1738 3.4.5) as an HTML form: one field per question (Ask: a line,
 * AskP: a password, AskL: several lines, Choose/Select: a choice); submitted with POST (so that
 * an AskP answer is never in an address), it becomes the filled-in Gopher+ request. The form
 * carries the gateway's form token, as the mail form does: the answers may hold a password.
 */
export function askForm(url: string, questions: AskQuestion[], ctx: RenderContext, token: string): Html {
  const fields = questions.map((q, i) => {
    const id = `a${i}`;
    const label = markup`<label for="${id}">${q.prompt === '' ? `Question ${i + 1}` : q.prompt}</label>`;
    const first = q.values[0] ?? '';
    switch (q.kind) {
      case 'AskP':
        return markup`<p>${label}<input type="password" id="${id}" name="${id}" autocomplete="off"></p>\n`;
      case 'AskL':
        return markup`<p>${label}<textarea id="${id}" name="${id}" rows="4" cols="50">${first}</textarea></p>\n`;
      case 'Choose':
      case 'ChooseF':
      case 'Select': {
        const options = q.values.map((v) => markup`<option>${v}</option>`);
        return markup`<p>${label}<select id="${id}" name="${id}">${options}</select></p>\n`;
      }
      default:
        return markup`<p>${label}<input type="text" id="${id}" name="${id}" value="${first}" size="40"></p>\n`;
    }
  });
  return markup`<form class="fill" method="post" action="${ctx.base}/?url=${encodeURIComponent(url)}">
<input type="hidden" name="questions" value="${String(questions.length)}">
<input type="hidden" name="token" value="${token}">
${fields}<p><button type="submit">Send</button></p>
</form>
`;
}

// ---------------------------------------------------------------------------------------------
// FTP (RFC 1738 3.2; RFC 959 NLST)

const TEXT_EXT = ['txt', 'text', 'md', 'readme', 'html', 'htm', 'c', 'h', 'ts', 'js', 'sh', 'py', 'doc', 'me'];
const IMAGE_EXT = ['gif', 'jpg', 'jpeg', 'png', 'xbm', 'tif', 'tiff'];
const ARCHIVE_EXT = ['gz', 'z', 'tar', 'zip', 'tgz', 'bz2', 'xz', 'hqx', 'sit', 'arc', 'zoo'];

/** A guess of what a listed name is, from its extension (NLST gives names only, RFC 959 4.1.3). */
export function ftpKind(name: string): string {
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  if (ext === undefined) return 'entry';
  if (TEXT_EXT.includes(ext)) return 'text';
  if (IMAGE_EXT.includes(ext)) return 'image';
  if (ARCHIVE_EXT.includes(ext)) return 'archive';
  return 'file';
}

/** The URL of a listed name in a directory URL (RFC 1738 3.2.2: one fsegment per name). */
export function ftpEntryUrl(dir: string, name: string): string {
  const base = dir.replace(/[?#].*$/, '').replace(/;type=d$/i, '');
  return (base.endsWith('/') ? base : base + '/') + encode(name, SEGMENT_SET);
}

/** The directory above an ftp (or file) directory URL (RFC 1738 3.2.2, 3.10), or null at the top. */
export function ftpParent(dir: string): string | null {
  const m = /^((?:ftp|file):\/\/[^/]*)(\/.*)?$/i.exec(dir.replace(/[?#].*$/, '').replace(/;type=d$/i, ''));
  if (m === null) return null;
  const path = (m[2] ?? '/').replace(/\/+$/, '');
  if (path === '') return null;
  return m[1] + path.slice(0, path.lastIndexOf('/') + 1);
}

/** An FTP listing (NLST, one name per line; RFC 959 4.1.3) as a list of links. */
export async function renderFtpListing(
  dir: string,
  body: AsyncIterable<string>,
  ctx: RenderContext,
  sink: Sink,
): Promise<number> {
  const parent = ftpParent(dir);
  await sink.write('<ul class="items listing">\n');
  if (parent !== null) {
    await sink.write(markup`<li><span class="kind">up</span> <a href="${ctx.link(parent)}">..</a></li>\n`.value);
  }
  let n = 0;
  for await (const line of body) {
    // Some servers answer NLST with paths ("dir/name"): the last segment is the name.
    const name = line.replace(/^.*\//, '');
    if (name === '' || name === '.' || name === '..') continue;
    const href = ctx.link(ftpEntryUrl(dir, name));
    await sink.write(markup`<li><span class="kind">${ftpKind(name)}</span> <a href="${href}">${name}</a></li>\n`.value);
    n++;
  }
  await sink.write('</ul>\n');
  if (n === 0) await sink.write('<p>The directory is empty.</p>\n');
  return n;
}

// ---------------------------------------------------------------------------------------------
// Tables of the line formats of the news, WAIS and Prospero clients (docs/gateway.md)

async function renderTable(
  body: AsyncIterable<string>,
  caption: string,
  heads: string[],
  row: (f: string[]) => Html,
  width: number,
  sink: Sink,
): Promise<number> {
  const th = heads.map((h) => markup`<th scope="col">${h}</th>`);
  await sink.write(markup`<table><caption>${caption}</caption>\n<thead><tr>${th}</tr></thead>\n<tbody>\n`.value);
  let n = 0;
  for await (const line of body) {
    if (line === '') continue;
    const f = line.split('\t');
    if (f.length < width) {
      const span = String(heads.length);
      await sink.write(
        markup`<tr><td colspan="${span}" class="problem">not a line of this listing: ${line}</td></tr>\n`.value,
      );
      continue;
    }
    await sink.write(row(f).value);
    n++;
  }
  await sink.write('</tbody></table>\n');
  if (n === 0) await sink.write('<p>Nothing is listed.</p>\n');
  return n;
}

/** `text/x-locator-news-overview`: number, subject, from, date, bytes, url (RFC 3977 8.3 overview). */
export function renderNewsOverview(body: AsyncIterable<string>, ctx: RenderContext, sink: Sink): Promise<number> {
  return renderTable(
    body,
    'Articles',
    ['Number', 'Subject', 'From', 'Date', 'Bytes'],
    ([num, subject, from, date, bytes, url]) => {
      const a = markup`<a href="${ctx.link(url)}">${subject === '' ? '(no subject)' : subject}</a>`;
      return markup`<tr><td>${num}</td><td>${a}</td><td>${from}</td><td>${date}</td><td>${bytes}</td></tr>\n`;
    },
    6,
    sink,
  );
}

/** `text/x-locator-news-groups`: group, high, low, status, url (RFC 3977 7.6.3 LIST ACTIVE). */
export function renderNewsGroups(body: AsyncIterable<string>, ctx: RenderContext, sink: Sink): Promise<number> {
  return renderTable(
    body,
    'Newsgroups',
    ['Group', 'Articles', 'Status'],
    ([group, high, low, status, url]) => {
      const h = Number(high);
      const l = Number(low);
      const count = Number.isSafeInteger(h) && Number.isSafeInteger(l) && h >= l ? String(h - l + 1) : '?';
      const word = status === 'y' ? 'posting' : status === 'n' ? 'no posting' : status === 'm' ? 'moderated' : status;
      return markup`<tr><td><a href="${ctx.link(url)}">${group}</a></td><td>${count}</td><td>${word}</td></tr>\n`;
    },
    5,
    sink,
  );
}

/** `text/x-locator-wais-headlines`: score, size, type, headline, url (RFC 1625 search results). */
export function renderWaisHeadlines(body: AsyncIterable<string>, ctx: RenderContext, sink: Sink): Promise<number> {
  return renderTable(
    body,
    'Documents found',
    ['Score', 'Headline', 'Type', 'Size'],
    ([score, size, type, headline, url]) => {
      const a = markup`<a href="${ctx.link(url)}">${headline === '' ? '(no headline)' : headline}</a>`;
      return markup`<tr><td>${score}</td><td>${a}</td><td>${type}</td><td>${size}</td></tr>\n`;
    },
    5,
    sink,
  );
}

/** `text/uri-list` (RFC 2483 5: one URL a line, "#" lines are comments): a list of links. */
export async function renderUriList(body: AsyncIterable<string>, ctx: RenderContext, sink: Sink): Promise<number> {
  await sink.write('<ul class="items">\n');
  let n = 0;
  for await (const line of body) {
    const t = line.trim();
    if (t === '') continue;
    if (t.startsWith('#')) {
      await sink.write(markup`<li class="info">${t.slice(1).trim()}</li>\n`.value);
      continue;
    }
    await sink.write(markup`<li><a href="${ctx.link(t)}">${redactUrl(t)}</a></li>\n`.value);
    n++;
  }
  await sink.write('</ul>\n');
  return n;
}

// ---------------------------------------------------------------------------------------------
// Articles (RFC 1036 2, RFC 5322 2.2)

/** The headers shown first, in this order; all of them are in a <details> list. */
const MAIN_HEADERS = ['subject', 'from', 'date', 'newsgroups', 'message-id', 'references', 'organization'];

/** The largest header section read (characters); past it the article is refused as malformed. */
export const MAX_HEADERS = 64 * 1024;

/** A news: URL for a message-id written "<id>" (RFC 1738 3.6), or null when it is none. */
export function messageIdUrl(id: string): string | null {
  const m = /^<([^<>\s]+@[^<>\s]+)>$/.exec(id.trim());
  if (m === null) return null;
  try {
    return build('news', { messageId: m[1] });
  } catch {
    return null;
  }
}

/** A news: URL for a group name (RFC 1738 3.6), or null. */
function groupUrl(group: string): string | null {
  try {
    return build('news', { group });
  } catch {
    return null;
  }
}

function headerLabel(name: string): string {
  if (name === 'message-id') return 'Message-ID';
  return name.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
}

function headerValue(name: string, v: string, ctx: RenderContext): Html {
  if (name === 'newsgroups') {
    const groups = v
      .split(',')
      .map((g) => g.trim())
      .filter((g) => g !== '');
    return markup`${groups.map((g, i) => {
      const u = groupUrl(g);
      return markup`${i > 0 ? ', ' : ''}${u === null ? g : markup`<a href="${ctx.link(u)}">${g}</a>`}`;
    })}`;
  }
  if (name === 'message-id' || name === 'references') {
    const ids = v.split(/\s+/).filter((x) => x !== '');
    return markup`${ids.map((id, i) => {
      const u = messageIdUrl(id);
      return markup`${i > 0 ? ' ' : ''}${u === null ? id : markup`<a href="${ctx.link(u)}">${id}</a>`}`;
    })}`;
  }
  return markup`${v}`;
}

/**
 * A `message/rfc822` article (RFC 1036 2): the main headers (newsgroups and message-ids linked as
 * news: URLs through the gateway), every header in a <details>, and the body as text.
 */
export async function renderArticle(lineIter: AsyncIterator<string>, ctx: RenderContext, sink: Sink): Promise<void> {
  const headers: Array<[string, string]> = [];
  let size = 0;
  for (;;) {
    const r = await lineIter.next();
    if (r.done || r.value === '') break;
    size += r.value.length + 1;
    if (size > MAX_HEADERS) {
      throw new LocatorError(PROTOCOL_ERROR, -1, `the article's headers run past ${MAX_HEADERS} characters`);
    }
    if (/^[ \t]/.test(r.value) && headers.length > 0) headers[headers.length - 1][1] += ' ' + r.value.trim();
    else {
      const colon = r.value.indexOf(':');
      if (colon > 0) headers.push([r.value.slice(0, colon), r.value.slice(colon + 1).trim()]);
    }
  }
  const get = (name: string) => headers.find(([k]) => k.toLowerCase() === name)?.[1] ?? null;
  await sink.write(markup`<h2>${get('subject') ?? '(no subject)'}</h2>\n<dl class="facts">\n`.value);
  for (const name of MAIN_HEADERS) {
    const v = get(name);
    if (v === null) continue;
    await sink.write(markup`<dt>${headerLabel(name)}</dt><dd>${headerValue(name, v, ctx)}</dd>\n`.value);
  }
  const all = headers.map(([k, v]) => `${k}: ${v}\n`).join('');
  await sink.write(
    markup`</dl>\n<details><summary>All headers</summary>\n<pre>${all}</pre></details>\n<pre class="text">`.value,
  );
  for (;;) {
    const r = await lineIter.next();
    if (r.done) break;
    await sink.write(markup`${r.value}\n`.value);
  }
  await sink.write('</pre>\n');
}

// ---------------------------------------------------------------------------------------------
// Pages that need no retrieval

/** The `explain` steps of a URL (RFC 1738 3: the access algorithm, without the network). */
export function explainBlock(x: Explanation): Html {
  const where = x.host === null ? '' : ` ${x.host}${x.port === null ? '' : ':' + x.port}`;
  const steps = x.steps.map((s) => markup`<li><code>${s}</code></li>\n`);
  const notes = x.notes.map((n) => markup`<li>${n}</li>\n`);
  return markup`<h2>Access algorithm</h2>
<p>Protocol: <strong>${x.protocol}</strong>${where}</p>
<ol class="steps">${steps}</ol>
${notes.length > 0 ? markup`<h2>Notes</h2>\n<ul>${notes}</ul>\n` : ''}`;
}

/**
 * A telnet:, rlogin: or tn3270: URL (RFC 1738 3.8): an interactive session a web page cannot
 * hold, so the page gives the command that opens it, and the user name the URL names (the
 * password masked).
 */
export function sessionBlock(url: Url): Html {
  const shown = redactUrl(url.href);
  const where = `${url.host ?? ''}${url.port === null ? '' : ':' + url.port}`;
  const password = url.password !== null ? markup`<dt>Password</dt><dd>**** (given in the URL)</dd>\n` : '';
  return markup`<p>A <code>${url.scheme}:</code> URL designates an interactive session, which this gateway does not carry. Open it from a terminal with</p>
<pre><code>locator connect ${shown}</code></pre>
<dl class="facts">
<dt>Host</dt><dd>${where}</dd>
<dt>User</dt><dd>${url.user ?? '(none named)'}</dd>
${password}</dl>
`;
}

/**
 * The form of a mailto: URL when the gateway has a relay (RFC 1738 3.5): the address, the sender,
 * the subject and the message; POSTed to the gateway with the form's token.
 */
export function mailForm(url: Url, ctx: RenderContext, token: string): Html {
  const address = (url.fields as { address?: string }).address ?? '';
  return markup`<dl class="facts"><dt>To</dt><dd>${address}</dd></dl>
<form method="post" action="${ctx.link(url.href)}">
<input type="hidden" name="token" value="${token}">
<p><label for="mail-from">Your address (From)</label><br><input id="mail-from" name="from" type="email" required size="40"></p>
<p><label for="mail-subject">Subject</label><br><input id="mail-subject" name="subject" type="text" size="60"></p>
<p><label for="mail-body">Message</label><br><textarea id="mail-body" name="body" rows="12" cols="72"></textarea></p>
<p><button type="submit">Send</button></p>
</form>
`;
}

/** A mailto: URL (RFC 1738 3.5): the address, and a note that this gateway sends no mail. */
export function mailtoBlock(url: Url): Html {
  const address = (url.fields as { address?: string }).address ?? '';
  return markup`<dl class="facts"><dt>Address</dt><dd>${address}</dd></dl>
<p>This gateway is not configured to send mail (no relay is configured). Use <code>locator send ${redactUrl(url.href)}</code> or your mail program.</p>
`;
}
