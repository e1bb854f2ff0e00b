// A list of URLs in the gateway (RFC 2483 5, text/uri-list): what a Prospero directory server
// names as an object's access methods (RFC 1738 3.11), each linked through the gateway.

import { redactUrl } from '../../operations/redact.js';
import { markup } from '../html.js';
import { linkNote, type RenderContext, type Sink } from './common.js';

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
    await sink.write(markup`<li><a href="${ctx.link(t)}">${redactUrl(t)}</a>${linkNote(ctx, t)}</li>\n`.value);
    n++;
  }
  await sink.write('</ul>\n');
  return n;
}
