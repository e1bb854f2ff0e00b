// The face of the gopher client (RFC 1738 3.4; RFC 1436, Gopher+): documents, menus, type 7
// searches and Gopher+ forms. Its protocol modules are imported when a URL is first opened or
// probed (./client.ts, ./probe.ts, ./menu.ts).

import type { Url } from '../../core/url.js';
import { build } from '../../operations/build.js';
import { fieldsOf } from '../../schemes/fields.js';
import { formatRequest } from '../../schemes/notes.js';
import type { ClientFace, ObjectKind } from '../client-face.js';
import type { ProbeOptions } from '../probe/types.js';
import { connectSteps } from '../probe/steps.js';

/** gopher (RFC 1738 3.4; RFC 1436): the request, and the first line of the answer. */
export function gopherSteps(url: Url, options: ProbeOptions = {}): string[] {
  const f = fieldsOf(url, 'gopher');
  if (f.gophertype === 'h' && /^\/?URL:/.test(f.selector))
    return [`none: the "URL:" selector names ${f.selector.replace(/^\/?URL:/, '')}, which is probed instead`];
  if (f.gophertype === '8' || f.gophertype === 'T')
    return connectSteps(`${url.host}:${url.port ?? 23}`, options).map((s, i) =>
      i === 0 ? `${s} (a ${f.gophertype === '8' ? 'Telnet' : 'tn3270'} item: the session, RFC 1436 3.8)` : s,
    );
  const request = asksWords(url)
    ? formatRequest(`${f.selector}\t\r\n`) + ' (an empty search)'
    : formatRequest(f.request);
  const read =
    f.gophertype === '1' || f.gophertype === '7'
      ? 'read the first line: a menu line (not an error item, type 3), "." or nothing; then close'
      : 'read the answer, whole when it is at most 4096 octets (only error items, type 3, or one followed by info lines only, is an error); then close';
  return [`connect ${url.host}:${url.port ?? 70}`, request, read];
}

/** True for a type 7 item with no search words yet (RFC 1738 3.4: "the search string ... follows"). */
function asksWords(url: Url): boolean {
  const f = fieldsOf(url, 'gopher');
  return f.gophertype === '7' && (f.search === null || f.search === '') && f.gopherPlus === null;
}

/**
 * What a gopher URL designates (RFC 1436 3.8): a menu (type 1, not a Gopher+ attribute or form
 * request), a search (type 7, with or without its words: the answer is a menu), a session (8, T).
 */
function kindOf(url: Url): ObjectKind {
  const f = fieldsOf(url, 'gopher');
  const plus = f.plus?.kind;
  if (f.gophertype === '1')
    return plus === 'attributes' || plus === 'directory-attributes' || plus === 'ask' ? 'document' : 'menu';
  if (f.gophertype === '7') return 'search';
  if (f.gophertype === '8' || f.gophertype === 'T') return 'session';
  return 'document';
}

/** The items of a menu: each one's URL, or null for an info or error line (RFC 1436 3.8). */
async function* menuLinks(_url: Url, body: ReadableStream<Uint8Array>): AsyncGenerator<string | null> {
  const { readMenu } = await import('./menu.js');
  for await (const item of readMenu(body))
    yield item.url !== null && item.type !== 'i' && item.type !== '3' ? item.url : null;
}

const gopher: ClientFace = {
  warcProtocols: ['gopher'],
  kinds: ['document', 'menu', 'search', 'session'],
  kindOf,
  objectOf(_url, meta) {
    const t = (meta.contentType ?? '').toLowerCase().replace(/;.*$/, '').trim();
    if (meta.gopherType === '1' || meta.gopherType === '7' || t === 'application/gopher-menu')
      return { kind: 'menu', view: 'gopher-menu' };
    return null;
  },
  open: async (url, options) => (await import('./client.js')).open(url, options),
  probe: async (url, options) => (await import('./probe.js')).probe(url, options),
  steps: gopherSteps,
  form(url) {
    const f = fieldsOf(url, 'gopher');
    if (asksWords(url)) {
      return {
        form: 'search',
        title: 'Gopher search',
        what: 'for',
        withWords: (search) =>
          build('gopher', { host: url.host, port: url.port, gophertype: '7', selector: f.selector, search }),
      };
    }
    return f.plus?.kind === 'ask' ? { form: 'ask' } : null;
  },
  links: menuLinks,
  gatewayShows: 'menus, documents, type 7 searches, Gopher+ forms',
  // A menu's breadcrumbs come from its server's caps.txt (gophernicus, Bucktooth), read by the gateway.
  hasServerCaps: (url) => kindOf(url) === 'menu',
  // Gopher crawlers (Veronica-2 among them) read robots.txt as the selector `robots.txt` of the
  // server's root, a text item; its rules are matched against the selector, made to start with "/".
  robots(url) {
    const port = url.explicitPort && url.port !== url.spec?.defaultPort ? `:${url.portDigits ?? url.port}` : '';
    const selector = fieldsOf(url, 'gopher').selector;
    return {
      url: `gopher://${url.host ?? ''}${port}/0robots.txt`,
      path: selector.startsWith('/') ? selector : '/' + selector,
    };
  },
  async *items(body) {
    const { readMenu, renderItem } = await import('./menu.js');
    for await (const item of readMenu(body)) yield { text: renderItem(item), json: item };
  },
};

export default gopher;
