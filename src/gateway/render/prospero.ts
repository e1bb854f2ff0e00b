// Prospero directories in the gateway (RFC 1738 3.11; Prospero v5 3.5 LIST): each link of the
// listing (one line per link: name, link type, target, host, URL, note) as a link through the
// gateway named by its name, with what it is; a link with no URL is shown with the reason.

import type { Url } from '../../core/url.js';
import { markup } from '../html.js';
import { lines, linkNote, type RenderContext, type Sink } from './common.js';

/**
 * One line of the listing (text/x-locator-prospero-directory, docs/prospero.md): name, link type,
 * target, host, URL (empty when none), note, TAB-separated; null for a line that is not one.
 */
function entryOf(line: string) {
  const f = line.split('\t');
  if (f.length !== 6) return null;
  return { name: f[0], linkType: f[1], target: f[2], url: f[4] === '' ? null : f[4], note: f[5] };
}

/** What a link is, shown before it: its target (Prospero v5 3.5.3.1), "union" for a union link not expanded. */
function kindOf(linkType: string, target: string): string {
  if (linkType === 'U') return 'union';
  const t = target.toUpperCase();
  if (t.split('+').includes('DIRECTORY')) return 'directory';
  if (t === 'EXTERNAL') return 'external';
  if (t === 'SYMBOLIC') return 'symbolic';
  return t === 'FILE' ? 'file' : 'object';
}

/** A Prospero directory listing (text/x-locator-prospero-directory) as a list of links. */
export async function renderProsperoDirectory(
  body: ReadableStream<Uint8Array>,
  _url: Url,
  ctx: RenderContext,
  sink: Sink,
): Promise<number> {
  await sink.write('<ul class="items listing">\n');
  let n = 0;
  for await (const line of lines(body)) {
    const e = entryOf(line);
    if (e === null) {
      if (line !== '') await sink.write(markup`<li class="problem">not a line of this listing: ${line}</li>\n`.value);
      continue;
    }
    const kind = kindOf(e.linkType, e.target);
    const note = e.note === '' ? '' : markup` <span class="info">(${e.note})</span>`.value;
    if (e.url === null) {
      await sink.write(markup`<li><span class="kind">${kind}</span> ${e.name}`.value + note + '</li>\n');
    } else {
      const a =
        markup`<li><span class="kind">${kind}</span> <a href="${ctx.link(e.url)}">${e.name}</a>${linkNote(ctx, e.url)}`
          .value;
      await sink.write(a + note + '</li>\n');
    }
    n++;
  }
  await sink.write('</ul>\n');
  if (n === 0) await sink.write('<p>The directory is empty.</p>\n');
  return n;
}
