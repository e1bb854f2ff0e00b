// The gateway's forms (RFC 1738 3.4.2, 3.4.5, 3.5, 3.9): a search asks for words and goes to the
// URL with them; a mail form sends through the relay; a Gopher+ +ASK form is asked from the server
// and its answers sent. A POST is read only from the gateway's own page (its token and Origin).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import {
  NEEDS_INPUT,
  PROTOCOL_ERROR,
  open,
  send,
  type AskQuestion,
  type GatewayForm,
  type GopherOpenOptions,
} from '../clients/index.js';
import { markup } from './html.js';
import { askForm, mailForm, searchForm, type RenderContext } from './render/index.js';
import { GATEWAY_REFUSED, openOptions, type Config } from './config.js';
import { headerOf, readForm } from './request.js';
import { schemeOf } from './clients.js';
import { actions, redirectTo, simplePage } from './respond.js';
import { renderResource } from './objects.js';

/**
 * A mailto: URL when a relay is configured (RFC 1738 3.5: the URL designates "the internet mailing
 * address of an individual or service"): GET shows a form (From, Subject, the message); POST sends
 * it with send() through the relay and shows the relay's answer. A POST is accepted only with the
 * form's token (made per gateway process, readable only by pages of the gateway's own origin) and,
 * when the browser names one, the gateway's own Origin: another site's page cannot make the
 * gateway send mail (cross-site request forgery).
 */
export async function serveMail(
  req: IncomingMessage,
  res: ServerResponse,
  cfg: Config,
  url: Url,
  ctx: RenderContext,
  signal: AbortSignal,
): Promise<void> {
  if (req.method !== 'POST') {
    simplePage(
      res,
      cfg,
      ctx,
      url,
      'Send mail',
      markup`${mailForm(url, ctx, cfg.formToken)}${actions(url, ctx, false)}`,
    );
    return;
  }
  const form = await ownForm(req, cfg, 'the mail form', 'no mail is sent');
  const r = await send(
    url,
    { from: form.get('from') ?? '', subject: form.get('subject') ?? undefined, body: form.get('body') ?? '' },
    { smtp: cfg.smtp, timeout: cfg.timeout, signal, ...(cfg.smtpCa !== undefined ? { ca: cfg.smtpCa } : {}) },
  );
  simplePage(
    res,
    cfg,
    ctx,
    url,
    'Mail sent',
    markup`<p role="status">The relay ${r.relay} accepted the message for ${r.recipient}: ${String(r.reply.code)} ${r.reply.text}</p>
<dl class="facts"><dt>Message-ID</dt><dd>${r.messageId}</dd></dl>${actions(url, ctx, false)}`,
  );
}

/**
 * The fields of a form POSTed to the gateway, read only when it came from the gateway's own page:
 * its token (made per gateway process, readable only by pages of the gateway's own origin) must
 * match and, when the browser names one, so must the Origin. Another site's page cannot make the
 * gateway act (cross-site request forgery): send mail, or send answers to a Gopher+ form.
 */
export async function ownForm(req: IncomingMessage, cfg: Config, what: string, consequence: string) {
  const origin = headerOf(req, 'origin');
  const form = await readForm(req);
  if ((origin !== undefined && !cfg.names.origin(origin, schemeOf(req))) || form.get('token') !== cfg.formToken) {
    throw new LocatorError(
      GATEWAY_REFUSED,
      -1,
      `${what} was not sent from this gateway's own page (its token or Origin does not match): ${consequence}`,
    );
  }
  return form;
}

/**
 * A Gopher+ +ASK form (RFC 1738 3.4.5): GET shows it as an HTML form, POST sends the answers
 * (only from the gateway's own page, see ownForm).
 */
export async function serveAsk(
  req: IncomingMessage,
  res: ServerResponse,
  cfg: Config,
  url: Url,
  ctx: RenderContext,
  signal: AbortSignal,
): Promise<void> {
  if (req.method !== 'POST') {
    class Questions {
      constructor(readonly list: AskQuestion[]) {}
    }
    try {
      const ask: GopherOpenOptions = {
        ...openOptions(cfg, signal),
        ask: async (questions) => {
          throw new Questions(questions);
        },
      };
      const r = await open(url, ask);
      await r.body.cancel().catch(() => {});
      throw new LocatorError(PROTOCOL_ERROR, -1, 'the server sent the item without asking its form');
    } catch (e) {
      if (!(e instanceof Questions)) throw e;
      simplePage(
        res,
        cfg,
        ctx,
        url,
        'Gopher+ form',
        markup`${askForm(url.href, e.list, ctx, cfg.formToken)}${actions(url, ctx, false)}`,
      );
      return;
    }
  }
  const form = await ownForm(req, cfg, 'the Gopher+ form', 'nothing is sent to the server');
  const filled: GopherOpenOptions = {
    ...openOptions(cfg, signal),
    ask: async (questions) => {
      if (form.get('questions') !== String(questions.length)) {
        throw new LocatorError(
          NEEDS_INPUT,
          -1,
          `the form has ${questions.length} questions now, and ${form.get('questions') ?? 'no'} answers were sent: fill it in again`,
        );
      }
      return questions.map((_, i) => form.get(`a${i}`) ?? '');
    },
  };
  const r = await open(url, filled);
  await renderResource(res, cfg, url, r, null, ctx, signal);
}

/**
 * A search (RFC 1738 3.4.2 a Gopher type 7 item, 3.9 a WAIS database): without words, a form that
 * asks for them; with them (`search`), a redirect to the URL the face makes with those words.
 */
export function serveSearch(
  res: ServerResponse,
  cfg: Config,
  url: Url,
  form: GatewayForm & { form: 'search' },
  search: string | null,
  ctx: RenderContext,
): void {
  if (search === null) {
    simplePage(
      res,
      cfg,
      ctx,
      url,
      form.title,
      markup`${searchForm(url.href, form.what, ctx)}${actions(url, ctx, false)}`,
    );
    return;
  }
  redirectTo(res, cfg, ctx, form.withWords(search));
}
