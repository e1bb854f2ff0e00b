// Interactive sessions in the gateway (RFC 1738 3.8): a web page cannot hold one, so the page
// names the command that opens it.

import type { Url } from '../../core/url.js';
import { redactUrl } from '../../operations/redact.js';
import { Html, markup } from '../html.js';

/**
 * A telnet:, rlogin: or tn3270: URL (RFC 1738 3.8): an interactive session a web page cannot
 * hold, so the page gives the command that opens it, and the user name the URL names (the
 * password masked).
 */
export function sessionBlock(url: Url): Html {
  const shown = redactUrl(url);
  const where = `${url.host ?? ''}${url.port === null ? '' : ':' + url.port}`;
  const password = url.password !== null ? markup`<dt>Password</dt><dd>**** (given in the URL)</dd>\n` : '';
  return markup`<p>A <code>${url.scheme}:</code> URL designates an interactive session, which this gateway does not carry. Open it from a terminal with</p>
<pre><code>locator connect ${shown}</code></pre>
<dl class="facts">
<dt>Host</dt><dd>${where}</dd>
<dt>User</dt><dd>${url.user ?? '(none named)'}</dd>
${password}</dl>
`;
}
