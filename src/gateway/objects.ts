// The gateway's pages of retrieved objects (RFC 1738 4: "images of objects in the new scheme"):
// a menu, a listing or a search's answer as links through the gateway, an article with its
// headers, text as text; a document of another type, and any object asked as a proxy, passed on
// as it is. The view is the one open() names in meta.view (the scheme's face), never the scheme.

import type { ServerResponse } from 'node:http';
import type { Url } from '../core/url.js';
import { redactUrl } from '../operations/redact.js';
import type { Resource } from '../clients/index.js';
import { markup, pageEnd, pageStart } from './html.js';
import { CHARSETS, linkNote, renderText, viewOf, type RenderContext } from './render/index.js';
import type { Html } from './html.js';
import { GATEWAY_NOT_IMAGE, GATEWAY_TOO_LARGE, type Config } from './config.js';
import { LocatorError } from '../core/errors.js';
import {
  HEADS,
  actions,
  commonHeaders,
  contentDisposition,
  downloadType,
  fileNameOf,
  sinkOf,
  startPage,
  streamBytes,
} from './respond.js';

/**
 * The size a client announced as a Content-Length (RFC 9110 8.6: "a non-negative integer"): only
 * a whole number a double holds exactly, so that its decimal form is its digits (never "1e+21",
 * never a rounded value); else null, and the object goes chunked.
 */
function octetCount(size: number | null | undefined): number | null {
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : null;
}

/**
 * An object retrieved (RFC 1738 4) as the answer: a page of its view (meta.view, named by its
 * scheme's face: a menu, a listing, a search's answer, an article), or its text as a page; a
 * document of another type, `view=raw`, and a document asked as a proxy are passed on as they
 * are, as a download with a safe type.
 */
export async function renderResource(
  res: ServerResponse,
  cfg: Config,
  url: Url,
  r: Resource,
  view: string | null,
  ctx: RenderContext,
  signal: AbortSignal,
  /** The charset the reader chose for a text (`charset=`), else null: the server's, or a guess. */
  chosen: string | null = null,
  /** Given the whole page once it is written without error (a page of a kept object, for the cache). */
  keep: ((page: Uint8Array) => void) | null = null,
  /** The breadcrumbs of a Gopher menu by its server's caps.txt (crumbUrls), root first, the menu last. */
  crumbs: { label: string; href: string }[] | null = null,
): Promise<void> {
  if (view === 'image') {
    await sendImage(res, cfg, r);
    return;
  }
  const shows = viewOf(r.meta.view ?? null);
  const text = shows === null && /^text\//i.test((r.meta.contentType ?? '').trim());
  const download = shows === null && !text;
  const direct = sinkOf(res, signal);
  // Asked as a proxy, a document or file is passed on as it is (what a proxy does); menus,
  // listings and the other line formats have no HTTP form but a page.
  if (view === 'raw' || download || (ctx.proxy && text)) {
    res.statusCode = 200;
    commonHeaders(res, cfg);
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader(
      'Content-Type',
      view === 'raw' && !download ? downloadType(r.meta.contentType ?? 'text/plain') : downloadType(r.meta.contentType),
    );
    if (!ctx.proxy) res.setHeader('Content-Disposition', contentDisposition(fileNameOf(url)));
    const announced = octetCount(r.meta.size);
    if (HEADS.has(res)) {
      // The size the server (or the URL) announced, as GET would send it when the object holds to it.
      if (announced !== null) res.setHeader('Content-Length', String(announced));
      await r.body.cancel().catch(() => {});
      res.end();
      return;
    }
    // The first piece is read before the headers go: an object that fails at once is an error
    // page, and one that ends there has its length known.
    const reader = r.body.getReader();
    let first: ReadableStreamReadResult<Uint8Array>;
    try {
      first = await reader.read();
    } catch (e) {
      reader.releaseLock();
      await r.body.cancel().catch(() => {});
      throw e;
    }
    const length = first.done ? 0 : announced !== null && first.value.length <= announced ? announced : null;
    if (length !== null) res.setHeader('Content-Length', String(length));
    await streamBytes(r.body, direct, { reader, first, length });
    res.end();
    return;
  }
  startPage(res, cfg, 200);
  if (HEADS.has(res)) {
    await r.body.cancel().catch(() => {});
    res.end();
    return;
  }
  // A page to keep is recorded as it is written.
  const parts: string[] = [];
  const sink =
    keep === null
      ? direct
      : {
          write: (c: string) => {
            parts.push(c);
            return direct.write(c);
          },
        };
  const title = shows?.title ?? 'Text';
  const shown = redactUrl(r.meta.url || url.href);
  await sink.write(pageStart({ title, url: shown, base: ctx.base }));
  await sink.write(
    markup`<h1>${title}</h1>\n<p>URL: <code>${shown}</code></p>\n${ctx.note ?? ''}${actions(url, ctx, true)}`.value,
  );
  if (r.meta.redirects !== undefined && r.meta.redirects.length > 0) {
    await sink.write(
      markup`<p>Reached through ${r.meta.redirects.map((u, i) => markup`${i > 0 ? ', ' : ''}<code>${u}</code>`)}.</p>\n`
        .value,
    );
  }
  // What the server reported beside a partial answer (a WAIS diagnostic, RFC 1625 3), as
  // freeWAIS' waissearch and `locator fetch` show it.
  const diagnostics = r.meta.diagnostics ?? [];
  if (diagnostics.length > 0) {
    await sink.write(
      markup`<p class="diagnostic">The server reports beside its answer: ${diagnostics.map(
        (d, i) => markup`${i > 0 ? '; ' : ''}<code>${d.code}</code> ${d.text === '' ? '(no message)' : d.text}`,
      )}.</p>\n`.value,
    );
  }
  if (shows !== null) {
    if (crumbs !== null) await sink.write(crumbsNav(crumbs, ctx).value);
    const up = crumbs !== null ? crumbs[crumbs.length - 2].href : upOf(url, r.meta.view ?? null);
    if (up !== null)
      await sink.write(
        markup`<p class="up"><a href="${ctx.link(up)}" rel="up">Up to the menu above</a>${linkNote(ctx, up)}</p>\n`
          .value,
      );
    await shows.render(r.body, url, ctx, sink);
  } else {
    const named = /;\s*charset="?([^";\s]+)/i.exec(r.meta.contentType ?? '')?.[1]?.toLowerCase() ?? null;
    const charset =
      chosen !== null && Object.hasOwn(CHARSETS, chosen)
        ? chosen
        : named !== null && Object.hasOwn(CHARSETS, named)
          ? named
          : null;
    await sink.write(charsetLinks(url, ctx, charset).value);
    await renderText(r.body, sink, ctx, charset);
  }
  const end = pageEnd();
  res.end(end);
  if (keep !== null) {
    parts.push(end);
    keep(Buffer.from(parts.join('')));
  }
}

/** The breadcrumbs of a menu (caps.txt): a link to each menu above, the menu itself marked. */
function crumbsNav(crumbs: { label: string; href: string }[], ctx: RenderContext): Html {
  const items = crumbs.map((c, i) =>
    i === crumbs.length - 1
      ? markup`<li aria-current="page">${c.label}</li>`
      : markup`<li><a href="${ctx.link(c.href)}">${c.label}</a></li>`,
  );
  return markup`<nav class="crumbs" aria-label="Breadcrumbs"><ol>${items}</ol></nav>
`;
}

/** The links that show a text in another charset (the reader's choice, `charset=`); the one in use marked. */
function charsetLinks(url: Url, ctx: RenderContext, current: string | null): Html {
  const links = Object.entries(CHARSETS).map(([name, label], i) => {
    const sep = i > 0 ? ' | ' : '';
    return name === current
      ? markup`${sep}<strong aria-current="true">${label}</strong>`
      : markup`${sep}<a href="${ctx.link(url.href, { charset: name })}">${label}</a>`;
  });
  const guess = current === null ? ' (now a guess from its first octets)' : '';
  return markup`<p class="charsets">Read the text as${guess}: ${links}</p>\n`;
}

/**
 * The menu above a Gopher menu (RFC 1436 3.1: selectors of Unix servers are paths): the selector
 * less its last segment, as a menu; none for the root, a search, or a selector that is no path.
 */
export function upOf(url: Url, view: string | null): string | null {
  // The view is the Gopher face's own name for a menu (src/clients/gopher): no other scheme has it.
  if (view !== 'gopher-menu') return null;
  const path = url.path ?? '';
  if (path.length < 2 || path[0] !== '1') return null;
  const selector = path.slice(1);
  if (!selector.startsWith('/') || /%09|\t/i.test(selector)) return null;
  const parts = selector.split('/').filter((p) => p !== '');
  if (parts.length === 0) return null;
  parts.pop();
  const port = url.explicitPort ? `:${url.portDigits}` : '';
  return `gopher://${url.host}${port}/1${parts.length === 0 ? '' : '/' + parts.join('/')}`;
}

/** The type of an image by its first octets (its signature), or null: GIF, PNG, JPEG, WebP, BMP. */
export function imageType(head: Uint8Array): string | null {
  const b = Buffer.from(head.subarray(0, 12));
  if (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a') return 'image/gif';
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (b.toString('latin1', 0, 2) === 'BM') return 'image/bmp';
  return null;
}

/**
 * `view=image`: the object for an <img> of a menu page (`--inline-images`), passed on only when its
 * first octets are those of an image (GIF, PNG, JPEG, WebP, BMP: the type is the signature's, never
 * the server's word) and it is no larger than `inlineImageBytes`; else 415 or 413, and nothing of
 * it is passed on.
 */
async function sendImage(res: ServerResponse, cfg: Config, r: Resource): Promise<void> {
  const limit = cfg.inlineImageBytes;
  if (typeof r.meta.size === 'number' && r.meta.size > limit) {
    await r.body.cancel().catch(() => {});
    throw new LocatorError(GATEWAY_TOO_LARGE, -1, `the image is larger than the ${limit} octets shown in a page`);
  }
  // Read whole (it is small) before anything is sent: one too large or not an image is an error
  // page, never half an image.
  const reader = r.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (let c = await reader.read(); !c.done; c = await reader.read()) {
      size += c.value.length;
      if (size > limit)
        throw new LocatorError(GATEWAY_TOO_LARGE, -1, `the image is larger than the ${limit} octets shown in a page`);
      parts.push(c.value);
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    throw e;
  } finally {
    reader.releaseLock();
  }
  const image = Buffer.concat(parts);
  const type = imageType(image);
  if (type === null)
    throw new LocatorError(
      GATEWAY_NOT_IMAGE,
      -1,
      'the object is not an image the gateway shows in a page (GIF, PNG, JPEG, WebP, BMP)',
    );
  res.statusCode = 200;
  commonHeaders(res, cfg);
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', image.length);
  res.end(HEADS.has(res) ? undefined : image);
}
