// The gateway's responses: the headers every answer carries, pages and error pages with their
// status, redirects, downloads, and a sink over the response that waits for the client.

import type { ServerResponse } from 'node:http';
import type { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { redactUrl } from '../operations/redact.js';
import { UNSAFE_TEXT } from '../operations/unsafe-text.js';
import {
  ABORTED,
  FtpReplyError,
  GopherError,
  NO_CLIENT,
  NOT_FOUND,
  PROTOCOL_ERROR,
  TIMEOUT,
  gatewaySchemes,
} from '../clients/index.js';
import { Html, contentSecurityPolicy, markup, page } from './html.js';
import type { RenderContext, Sink } from './render/index.js';
import {
  GATEWAY_BUSY,
  GATEWAY_FAILED,
  GATEWAY_MISDIRECTED,
  GATEWAY_NOT_IMAGE,
  GATEWAY_REFUSED,
  GATEWAY_TOO_LARGE,
  type Config,
} from './config.js';
import { requestOrigin, type Target } from './request.js';

export function commonHeaders(res: ServerResponse, cfg: Config): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The gateway's own pages name themselves as the referrer of their links (an older browser
  // without Fetch Metadata tells the gateway that way that a request is its own), and no other
  // site learns their addresses (which may hold a password).
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(cfg.origin));
  if (cfg.robotsTag !== null) res.setHeader('X-Robots-Tag', cfg.robotsTag);
}

/** The responses that are pages (an error met after the start is written at their end); the others are objects passed on. */
export const PAGES = new WeakSet<ServerResponse>();
/**
 * Responses to HEAD requests (RFC 9110 9.3.2: the headers a GET would have, no content). The
 * object is opened, so that its type and size are known, and its body is cancelled unread: a HEAD
 * costs the remote server the request, not the transfer.
 */
export const HEADS = new WeakSet<ServerResponse>();

export function startPage(res: ServerResponse, cfg: Config, status: number): void {
  PAGES.add(res);
  res.statusCode = status;
  commonHeaders(res, cfg);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
}

export function sendPage(res: ServerResponse, cfg: Config, status: number, body: string): void {
  startPage(res, cfg, status);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * The HTTP status for a typed error: a refusal of the policy 403; a missing object (FTP 550,
 * Gopher+ error 1, `not-found`) 404; a URL that is not valid 400; no client for the scheme 501;
 * a timeout 504; any other network or protocol failure 502.
 */
export function statusFor(e: LocatorError): number {
  if (e.code === GATEWAY_BUSY) return 429;
  if (e.code === GATEWAY_MISDIRECTED) return 421;
  if (e.code === GATEWAY_NOT_IMAGE) return 415;
  if (e.code === GATEWAY_TOO_LARGE) return 413;
  if (e.code === NOT_FOUND) return 404;
  if (e instanceof FtpReplyError && (e.replyCode === 550 || e.replyCode === 450)) return 404;
  if (e instanceof GopherError && (e.errorNumber === 1 || e.errorNumber === null)) return 404;
  if (e.code === NO_CLIENT) return 501;
  if (e.code === TIMEOUT) return 504;
  if (e.kind === 'policy') return 403;
  if (e.kind === 'syntax' || e.kind === 'usage') return 400;
  return 502;
}

function errorBlock(e: LocatorError): Html {
  const rule = e.section !== null ? markup`<dt>Rule</dt><dd>${e.section}</dd>\n` : '';
  const offset = e.offset >= 0 ? markup`<dt>Offset</dt><dd>${String(e.offset)}</dd>\n` : '';
  return markup`<dl class="facts">
<dt>Code</dt><dd><code>${e.code}</code></dd>
<dt>Kind</dt><dd>${e.kind}</dd>
${rule}${offset}</dl>
`;
}

export function asLocatorError(e: unknown): LocatorError {
  if (e instanceof LocatorError) return e;
  return new LocatorError(GATEWAY_FAILED, -1, `the gateway failed: ${(e as Error)?.message ?? String(e)}`);
}

/** An error as a page: the typed error, its code, kind and rule, with the matching status. */
export function sendError(res: ServerResponse, cfg: Config, shownUrl: string, err: unknown, status?: number): void {
  const e = asLocatorError(err);
  const st = status ?? statusFor(e);
  const where = shownUrl !== '' ? markup`<p>URL: <code>${shownUrl}</code></p>\n` : '';
  const body = page(
    { title: `Error ${st}`, url: shownUrl, base: cfg.origin, kind: 'error' },
    markup`<h1>Error ${String(st)}: ${e.code}</h1>
${where}<p role="alert">${e.detail}</p>
${errorBlock(e)}`,
  );
  cfg.log?.(`error ${st} ${e.code} ${shownUrl}`);
  sendPage(res, cfg, st, body);
}

/** A sink over the response that waits for 'drain', and stops when the client goes away. */
export function sinkOf(res: ServerResponse, signal: AbortSignal): Sink & { bytes(chunk: Uint8Array): Promise<void> } {
  const wait = () =>
    new Promise<void>((resolve, reject) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        signal.removeEventListener('abort', done);
        if (res.destroyed || signal.aborted)
          reject(new LocatorError(ABORTED, -1, 'the client went away or the time ran out'));
        else resolve();
      };
      res.once('drain', done);
      res.once('close', done);
      signal.addEventListener('abort', done);
    });
  const put = (c: string | Uint8Array): Promise<void> | void => {
    if (res.destroyed || signal.aborted)
      throw new LocatorError(ABORTED, -1, 'the client went away or the time ran out');
    if (!res.write(c)) return wait();
  };
  return { write: put, bytes: async (c) => put(c) };
}

/**
 * The answer to a request refused by crossSiteRefusal: 403 with nothing retrieved, at once (no
 * timing to learn from), and a link to the same URL, which the user may follow: a link of the
 * gateway's own page is a same-origin request.
 */
export function sendCrossSiteRefusal(res: ServerResponse, cfg: Config, target: Target, why: string): void {
  const shown = redactUrl(target.raw);
  const e = new LocatorError(
    GATEWAY_REFUSED,
    -1,
    `the gateway does not open URLs for pages of other sites: ${why} (nothing was retrieved)`,
  );
  cfg.log?.(`error 403 ${e.code} ${shown} (from another site)`);
  const link = target.proxy
    ? ''
    : markup`<p>To open it yourself: <a href="${'/?' + target.params.toString()}">${shown}</a></p>\n`;
  sendPage(
    res,
    cfg,
    403,
    page(
      { title: 'Error 403', url: shown, base: cfg.origin, kind: 'error' },
      markup`<h1>Error 403: ${e.code}</h1>\n<p>URL: <code>${shown}</code></p>\n<p role="alert">${e.detail}</p>\n${link}${errorBlock(e)}`,
    ),
  );
}

export function homePage(cfg: Config): string {
  return page(
    { title: 'Home', url: '', base: cfg.origin },
    markup`<h1>locator gateway</h1>
<p>Type a URL in the address field above: its object is shown here, retrieved by the protocol the URL names
(RFC 1738). Gopher menus and FTP directories become lists of links that lead back through this gateway;
text is shown as text, other files are downloaded.</p>
<h2>Schemes</h2>
<ul>
${gatewaySchemes().map(({ schemes, shows }) => markup`<li>${schemes.map((s, i) => markup`${i > 0 ? ', ' : ''}<code>${s}:</code>`)} ${shows}</li>\n`)}</ul>
<p>Every page has an "Access algorithm" link: the protocol steps of its URL, without retrieving anything.</p>
`,
  );
}

export function actions(url: Url, ctx: RenderContext, download: boolean): Html {
  // The explanation needs no password (its steps show a placeholder): its link carries none.
  const explainLink = markup`<a href="${ctx.link(redactUrl(url), { view: 'explain' })}">Access algorithm</a>`;
  const raw = download ? markup` | <a href="${ctx.link(url.href, { view: 'raw' })}">Download the original</a>` : '';
  return markup`<p class="actions">${explainLink}${raw}</p>\n`;
}

export function simplePage(
  res: ServerResponse,
  cfg: Config,
  ctx: RenderContext,
  url: Url,
  title: string,
  body: Html,
): void {
  const shown = redactUrl(url);
  const head = markup`<h1>${title}</h1>\n<p>URL: <code>${shown}</code></p>\n`;
  sendPage(res, cfg, 200, page({ title, url: shown, base: ctx.base }, markup`${head}${body}`));
}

export function redirectTo(res: ServerResponse, cfg: Config, ctx: RenderContext, url: string): void {
  const to = ctx.link(url);
  // To the origin the browser asked (localhost:8080 and 127.0.0.1:8080 are different sites: a
  // redirect from one to the other would be a cross-site request, refused); a proxy request's
  // Host names the remote server, so there the gateway's own address.
  const origin = (ctx.proxy ? null : requestOrigin(res.req, cfg)) ?? cfg.origin;
  const location = to.startsWith('/') ? origin + to : to;
  res.statusCode = 303;
  commonHeaders(res, cfg);
  res.setHeader('Location', location);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(
    page(
      { title: 'See other', url: redactUrl(url), base: ctx.base },
      markup`<h1>See other</h1>\n<p><a href="${to}">${redactUrl(url)}</a></p>\n`,
    ),
  );
}

/** A safe Content-Type for a download: a plain `type/subtype`, else application/octet-stream. */
export function downloadType(t: string | null): string {
  const m = t === null ? null : /^([A-Za-z0-9][\w.+-]*\/[\w.+-]+)/.exec(t);
  if (m === null) return 'application/octet-stream';
  const mt = m[1].toLowerCase();
  // Markup from elsewhere is never served as markup from the gateway's origin.
  if (/html|xml|svg|javascript|ecmascript/.test(mt)) return 'text/plain; charset=utf-8';
  return mt;
}

/** The file name of a download: the last segment or selector part of the URL, made safe. */
export function fileNameOf(url: Url): string {
  const path = url.path ?? '';
  const last = decodeURIComponentSafe(
    path
      .replace(/[;?].*$/, '')
      .split(/[/\t]/)
      .filter((s) => s !== '')
      .pop() ?? '',
  );
  // Controls and format characters (src/operations/unsafe-text.ts) would reorder or hide part of the name a
  // browser shows for the file: "invoice\u202Efdp.exe" as "invoiceexe.pdf".
  const clean = last
    .replace(UNSAFE_TEXT, '_')
    .replace(/["\\/]/g, '_')
    .replace(/^\.+/, '');
  return clean === '' ? 'download' : clean.slice(0, 200);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/%/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Passes a body on to the sink. With `length` (the Content-Length sent), the body must be exactly
 * that long (RFC 9112 6.3: the length delimits the message): a body that runs past it fails before
 * the octets past it are written, and one that ends short fails too, so that the caller cuts the
 * connection; neither is ever completed as if it were the object, and no octet of the object can
 * be read by the client as the start of the next response. `first`: a piece already read from
 * `reader` (the reader of `body`).
 */
export async function streamBytes(
  body: ReadableStream<Uint8Array>,
  sink: { bytes(c: Uint8Array): Promise<void> },
  held: {
    reader?: ReadableStreamDefaultReader<Uint8Array>;
    first?: ReadableStreamReadResult<Uint8Array>;
    length?: number | null;
  } = {},
): Promise<void> {
  const reader = held.reader ?? body.getReader();
  const length = held.length ?? null;
  let sent = 0;
  try {
    for (let r = held.first ?? (await reader.read()); !r.done; r = await reader.read()) {
      sent += r.value.length;
      if (length !== null && sent > length) {
        throw new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the object runs past the ${length} octets announced for it (the transfer is cut)`,
        );
      }
      await sink.bytes(r.value);
    }
    if (length !== null && sent < length) {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the object ended after ${sent} of the ${length} octets announced for it (the transfer is cut)`,
      );
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    throw e;
  } finally {
    reader.releaseLock();
  }
}
