// gopher (RFC 1738 3.4, RFC 1436, the Gopher+ protocol document): connect to host:port (70 by
// default), send exactly the request the gopher scheme module computes (`fields.request`, the
// steps of explain()), read the answer until the server closes. Gopher+ requests ("+", "!", "$",
// and the two exchanges of a "?" form) get a header line first ("+<length>", "+-1", "+-2", or
// "-..." for an error), which is read and stripped. The body is streamed with back-pressure.
//
// Menus are returned as their raw bytes like any other item; src/clients/gopher/menu.ts reads
// them into items (openMenu, readMenu, renderMenu); this module does not re-export them: menu.ts
// imports open(), which loads this module, so a re-export here would close an import cycle.

import type { Url } from '../../core/url.js';
import { INTERACTIVE_ONLY } from '../interactive.js';
import { parse } from '../../schemes/registry.js';
import { LocatorError } from '../../core/errors.js';
import { fieldsOf } from '../../schemes/fields.js';
import { checkTimeout } from '../connection.js';
import { redactUrl as redactHref } from '../../operations/redact.js';
import { PROTOCOL_ERROR, type Redirect, type Resource } from '../types.js';
import type { GopherOpenOptions } from './types.js';
import { plainExchange } from './request.js';
import { retrieve } from './reply.js';
import { openFilledForm, openForm } from './form.js';

export {
  GopherError,
  GOPHER_ERROR,
  GOPHER_NOT_MENU,
  type MenuItem,
  type AskQuestion,
  type GopherOpenOptions,
} from './types.js';
export { requestFromOctets, requestOctets } from './request.js';

// ---------------------------------------------------------------------------------------------
// Items that are not retrieved from this server

/** The URL named by an "h" item's "URL:" selector (a Gopher server convention), or null. */
function linkedUrl(selector: string): string | null {
  if (selector.startsWith('URL:')) return selector.slice(4);
  if (selector.startsWith('/URL:')) return selector.slice(5);
  return null;
}

/**
 * An "h" item whose selector starts with "URL:" names another URL: the client goes there
 * instead of sending the selector (the note of explain()). Nothing is sent to the gopher server:
 * the answer is a Redirect, which open() follows like any other (the policy's redirect budget,
 * never to a file URL, no loops).
 */
function linked(url: Url, target: string): Redirect {
  let next: Url;
  try {
    next = parse(target);
  } catch (e) {
    throw new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `${redactHref(url)} links to ${JSON.stringify(redactHref(target))}, which is not a URL`,
      { cause: e },
    );
  }
  return { redirect: next, reason: 'the Gopher "URL:" link' };
}

// ---------------------------------------------------------------------------------------------

/**
 * Retrieves a gopher URL (RFC 1738 3.4, RFC 1436, Gopher+): performs exactly the steps of
 * explain(url). Resolves to `{ meta, body }` once the server has started to answer; fails with
 * a LocatorError: `gopher-error` (GopherError) when the server reports an error,
 * `needs-input` for a type 7 search without a search string or a "?" form without `ask`,
 * `connection-closed` when a reply is cut short, `protocol-error` for a reply that is not
 * Gopher+ where a Gopher+ header is due, `timeout`, `aborted`, `too-large`.
 */
export async function open(url: Url, options: GopherOpenOptions): Promise<Resource | Redirect> {
  checkTimeout(options.timeout);
  const f = fieldsOf(url, 'gopher');
  const type = f.gophertype;
  if (type === '8' || type === 'T') {
    const scheme = type === '8' ? 'telnet' : 'tn3270';
    throw new LocatorError(
      INTERACTIVE_ONLY,
      -1,
      `a type ${type} item is a ${type === '8' ? 'Telnet' : 'tn3270'} session, not a document (RFC 1436 3.8): open ${scheme}://${url.host}:${url.port}/ with connect() (\`locator connect\`)`,
    );
  }
  const link = type === 'h' ? linkedUrl(f.selector) : null;
  if (link !== null) return linked(url, link);
  if (f.plus?.kind === 'ask') return openForm(url, f, options);
  if (f.plus?.kind === 'form') return openFilledForm(url, f, options);
  return retrieve(url, f, await plainExchange(url, f, options), options);
}
