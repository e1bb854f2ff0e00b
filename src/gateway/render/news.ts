// News objects in the gateway (RFC 1738 3.6, 3.7; RFC 1036, RFC 3977): a group's overview and the
// list of groups as tables (the news client's line formats, docs/gateway.md), and an article
// with its headers, its newsgroups and message-ids linked as news: URLs.

import { build } from '../../operations/build.js';
import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../../clients/index.js';
import { Html, markup } from '../html.js';
import { LinkedText, linkNote, renderTable, type RenderContext, type Sink } from './common.js';

/** `text/x-locator-news-overview`: number, subject, from, date, bytes, url (RFC 3977 8.3 overview). */
export function renderNewsOverview(body: AsyncIterable<string>, ctx: RenderContext, sink: Sink): Promise<number> {
  return renderTable(
    body,
    'Articles',
    ['Number', 'Subject', 'From', 'Date', 'Bytes'],
    ([num, subject, from, date, bytes, url]) => {
      const a = markup`<a href="${ctx.link(url)}">${subject === '' ? '(no subject)' : subject}</a>${linkNote(ctx, url)}`;
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
      return markup`<tr><td><a href="${ctx.link(url)}">${group}</a>${linkNote(ctx, url)}</td><td>${count}</td><td>${word}</td></tr>\n`;
    },
    5,
    sink,
  );
}

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
      return markup`${i > 0 ? ', ' : ''}${u === null ? g : markup`<a href="${ctx.link(u)}">${g}</a>${linkNote(ctx, u)}`}`;
    })}`;
  }
  if (name === 'message-id' || name === 'references') {
    const ids = v.split(/\s+/).filter((x) => x !== '');
    return markup`${ids.map((id, i) => {
      const u = messageIdUrl(id);
      return markup`${i > 0 ? ' ' : ''}${u === null ? id : markup`<a href="${ctx.link(u)}">${id}</a>${linkNote(ctx, u)}`}`;
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
  const text = new LinkedText(ctx, sink);
  for (;;) {
    const r = await lineIter.next();
    if (r.done) break;
    await text.push(`${r.value}\n`);
  }
  await text.end();
  await sink.write('</pre>\n');
}
