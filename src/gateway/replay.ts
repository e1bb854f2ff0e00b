// The gateway backed by archives (`locator serve --warc`): objects come from a ReplaySource (the
// CLI gives it src/archive/replay.ts's ReplayArchive, which the gateway may not import: the
// archive is the CLI's alone, rule `archive-for-the-cli-only`) instead of the network, and are
// shown by the same pages as live objects, each with a line naming its capture date; links to
// URLs the archives do not hold are marked "not archived" and lead to a page that says so. In
// this mode the gateway opens no connection at all: no client is asked, no name resolved.

import type { ServerResponse } from 'node:http';
import type { Url } from '../core/url.js';
import { redactUrl } from '../operations/redact.js';
import type { Resource } from '../clients/index.js';
import { gatewayHref, markup, page, type Html } from './html.js';
import type { RenderContext } from './render/index.js';
import type { Config } from './config.js';
import { actions, sendPage } from './respond.js';
import { renderResource } from './objects.js';

/** An object of the archives: what open() would have given, and the facts of its capture. */
export interface ReplayedObject {
  resource: Resource;
  /** The capture's date (WARC-Date, W3C-ISO8601). */
  date: string;
  /** The WARC file it was read from. */
  file: string;
  /** How many captures of the URL the archives hold (the latest is shown). */
  captures: number;
}

/** Where a replaying gateway takes its objects from (src/archive/replay.ts's ReplayArchive). */
export interface ReplaySource {
  /** The latest capture of a URL, or null when the archives hold none. */
  open(url: Url): Promise<ReplayedObject | null>;
  /** True when the archives hold a capture of the URL. */
  has(url: string): boolean;
  /** The URLs the archives hold (for the home page). */
  urls(): Iterable<string>;
  /** How many URLs the archives hold. */
  readonly size: number;
}

/** The most URLs the home page of a replay lists. */
const HOME_LIST = 1000;

/** A capture date as shown: `2026-11-29 08:50:03 UTC` (the date as written when it is not one). */
function shownDate(date: string): string {
  const d = new Date(date);
  return Number.isNaN(d.getTime())
    ? date
    : d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$|Z$/, ' UTC');
}

/** The line at the head of each page of an archived object (RFC 1738 4: its image): when it was captured, and from which file. */
export function captureLine(r: ReplayedObject): Html {
  const more = r.captures > 1 ? `; ${r.captures} captures, the latest shown` : '';
  return markup`<p class="capture">Archived copy: captured <time datetime="${r.date}">${shownDate(r.date)}</time> (from <code>${r.file}</code>${more}). Its links lead to the archived copies.</p>\n`;
}

/**
 * A URL of the archives as the answer (RFC 1738 4, its object as recorded): its page with the
 * capture line, or its download; `Memento-Datetime` (RFC 7089 2.1.1) names the capture on both.
 * A URL the archives do not hold is a 404 page that says so.
 */
export async function serveReplayed(
  res: ServerResponse,
  cfg: Config,
  replay: ReplaySource,
  url: Url,
  view: string | null,
  ctx: RenderContext,
  signal: AbortSignal,
  charset: string | null,
): Promise<void> {
  const r = await replay.open(url);
  if (r === null) {
    sendNotArchived(res, cfg, ctx, url);
    return;
  }
  const when = new Date(r.date);
  if (!Number.isNaN(when.getTime())) res.setHeader('Memento-Datetime', when.toUTCString());
  await renderResource(res, cfg, url, r.resource, view, { ...ctx, note: captureLine(r) }, signal, charset);
}

/** The page of a URL the archives do not hold (RFC 9110 15.5.5, 404): nothing is fetched in a replay. */
export function sendNotArchived(res: ServerResponse, cfg: Config, ctx: RenderContext, url: Url): void {
  const shown = redactUrl(url);
  cfg.log?.(`not archived ${shown}`);
  sendPage(
    res,
    cfg,
    404,
    page(
      { title: 'Not archived', url: shown, base: ctx.base, kind: 'error' },
      markup`<h1>Not archived</h1>
<p>URL: <code>${shown}</code></p>
<p role="alert" class="not-archived">The archives this gateway replays hold no capture of this URL. A replaying gateway reaches no server: nothing was fetched.</p>
${actions(url, ctx, false)}`,
    ),
  );
}

/** The home page of a replay (RFC 1738 4): the archives' URLs, in order, as links (the first HOME_LIST). */
export function replayHome(cfg: Config, replay: ReplaySource): string {
  const all = [...replay.urls()].sort();
  const shown = all.slice(0, HOME_LIST);
  const items = shown.map((u) => markup`<li><a href="${gatewayHref('', u)}">${redactUrl(u)}</a></li>\n`);
  const cut =
    all.length > shown.length
      ? markup`<p>The first ${String(shown.length)} of ${String(all.length)} are listed.</p>\n`
      : '';
  return page(
    { title: 'Archives', url: '', base: cfg.origin },
    markup`<h1>locator gateway: archives</h1>
<p>This gateway replays WARC archives: ${String(all.length)} URLs, each shown as it was captured, with the date of its capture. It reaches no server: a URL the archives do not hold is "not archived".</p>
<h2>Archived URLs</h2>
${cut}<ul class="items">
${items}</ul>
`,
  );
}
