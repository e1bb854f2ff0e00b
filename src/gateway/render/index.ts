// The gateway's renderers (RFC 1738 4), one module per kind of object, and the views: each view
// name a scheme's face gives an opened object (meta.view: src/clients/face.ts) with its page's
// title and its renderer. The table is keyed by the object's format, never by a scheme.

import type { Url } from '../../core/url.js';
import { readMenu } from '../../clients/index.js';
import { lines, type RenderContext, type Sink } from './common.js';
import { renderGopherMenu } from './gopher.js';
import { renderFtpListing } from './ftp.js';
import { renderArticle, renderNewsGroups, renderNewsOverview } from './news.js';
import { renderWaisHeadlines } from './wais.js';
import { renderUriList } from './uri-list.js';
import { renderProsperoDirectory } from './prospero.js';

export * from './common.js';
export * from './gopher.js';
export * from './ftp.js';
export * from './news.js';
export * from './wais.js';
export * from './uri-list.js';
export * from './session.js';
export * from './mail.js';

/** How the gateway shows one format of object: the page's title, and the renderer of its body. */
export interface View {
  title: string;
  render(body: ReadableStream<Uint8Array>, url: Url, ctx: RenderContext, sink: Sink): Promise<unknown>;
}

const VIEWS: Readonly<Record<string, View>> = {
  'gopher-menu': { title: 'Gopher menu', render: (body, _u, ctx, sink) => renderGopherMenu(readMenu(body), ctx, sink) },
  'ftp-listing': {
    title: 'FTP directory',
    render: (body, url, ctx, sink) => renderFtpListing(url.withoutFragment, lines(body), ctx, sink),
  },
  // A directory of this machine (a file: listing, one name per line as NLST gives them).
  directory: {
    title: 'Directory',
    render: (body, url, ctx, sink) => renderFtpListing(url.withoutFragment, lines(body), ctx, sink),
  },
  'news-overview': { title: 'Newsgroup', render: (body, _u, ctx, sink) => renderNewsOverview(lines(body), ctx, sink) },
  'news-groups': { title: 'Newsgroups', render: (body, _u, ctx, sink) => renderNewsGroups(lines(body), ctx, sink) },
  'wais-headlines': {
    title: 'WAIS search results',
    render: (body, _u, ctx, sink) => renderWaisHeadlines(lines(body), ctx, sink),
  },
  'prospero-directory': { title: 'Prospero directory', render: renderProsperoDirectory },
  'uri-list': { title: 'Where the object is', render: (body, _u, ctx, sink) => renderUriList(lines(body), ctx, sink) },
  article: {
    title: 'Article',
    render: (body, _u, ctx, sink) => renderArticle(lines(body)[Symbol.asyncIterator](), ctx, sink),
  },
};

/** The view of an object by its name (meta.view), or null: text is shown as text, anything else downloaded. */
export function viewOf(name: string | null): View | null {
  return name !== null && Object.hasOwn(VIEWS, name) ? VIEWS[name] : null;
}
