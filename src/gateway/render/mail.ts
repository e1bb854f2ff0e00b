// mailto: URLs in the gateway (RFC 1738 3.5): the form that sends mail through the relay, or, with
// no relay, the address and how to write to it.

import type { Url } from '../../core/url.js';
import { fieldsOf } from '../../schemes/fields.js';
import { redactUrl } from '../../operations/redact.js';
import { Html, markup } from '../html.js';
import type { RenderContext } from './common.js';

/**
 * The form of a mailto: URL when the gateway has a relay (RFC 1738 3.5): the address, the sender,
 * the subject and the message; POSTed to the gateway with the form's token.
 */
export function mailForm(url: Url, ctx: RenderContext, token: string): Html {
  const address = fieldsOf(url, 'mailto').address;
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
  const address = fieldsOf(url, 'mailto').address;
  return markup`<dl class="facts"><dt>Address</dt><dd>${address}</dd></dl>
<p>This gateway is not configured to send mail (no relay is configured). Use <code>locator send ${redactUrl(url)}</code> or your mail program.</p>
`;
}
