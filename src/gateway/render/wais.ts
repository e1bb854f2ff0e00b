// WAIS search results in the gateway (RFC 1738 3.9; RFC 1625): the headlines as a table, each
// document linked through the gateway (the wais client's line format, docs/gateway.md).

import { markup } from '../html.js';
import { linkNote, renderTable, type RenderContext, type Sink } from './common.js';

/** `text/x-locator-wais-headlines`: score, size, type, headline, url (RFC 1625 search results). */
export function renderWaisHeadlines(body: AsyncIterable<string>, ctx: RenderContext, sink: Sink): Promise<number> {
  return renderTable(
    body,
    'Documents found',
    ['Score', 'Headline', 'Type', 'Size'],
    ([score, size, type, headline, url]) => {
      const a = markup`<a href="${ctx.link(url)}">${headline === '' ? '(no headline)' : headline}</a>${linkNote(ctx, url)}`;
      return markup`<tr><td>${score}</td><td>${a}</td><td>${type}</td><td>${size}</td></tr>\n`;
    },
    5,
    sink,
  );
}
