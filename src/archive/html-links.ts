// The links an archive crawl follows from an HTML page: the URL-carrying attributes of its elements
// (HTML Living Standard, the index of attributes), read with parse5 (the WHATWG parsing algorithm,
// as a browser reads the page), relative ones resolved against the page's <base href> or its own
// URL by RFC 3986 5.2, as a browser resolves them (a "../" above the root is dropped, where RFC
// 1808 4 would keep it: nginx answers 400 to that). What a browser fetches to show the page (images, style sheets, scripts, frames)
// is kept with the pages it links to, as `wget --mirror` keeps it, so that a replay draws the page.

import { parse } from 'parse5';
import { resolve } from '../operations/resolve.js';

/** The attributes that hold a URL to fetch or to follow, by element. */
const URL_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  area: ['href'],
  link: ['href'],
  img: ['src'],
  iframe: ['src'],
  frame: ['src'],
  script: ['src'],
  embed: ['src'],
  source: ['src'],
  track: ['src'],
  audio: ['src'],
  video: ['src', 'poster'],
  input: ['src'],
  object: ['data'],
};

interface Node {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
}

/** True for a media type of HTML (text/html, application/xhtml+xml), the pages whose links are read. */
export function isHtml(contentType: string | null | undefined): boolean {
  const t = contentType?.split(';')[0].trim().toLowerCase();
  return t === 'text/html' || t === 'application/xhtml+xml';
}

/**
 * The absolute URLs an HTML page links to (HTML Living Standard 2.4 "URLs"; RFC 3986 5.2 for the
 * relative ones), in document order, the fragment dropped, each once; a link that does not resolve
 * to a URL is left out.
 */
export function htmlPageLinks(text: string, location: string): string[] {
  const doc = parse(text) as unknown as Node;
  const raw: string[] = [];
  let base: string | null = null;
  const walk = (node: Node): void => {
    const name = node.nodeName;
    if (name === 'base' && base === null) {
      const href = node.attrs?.find((a) => a.name === 'href')?.value.trim();
      if (href) base = href;
    }
    const names = Object.hasOwn(URL_ATTRIBUTES, name) ? URL_ATTRIBUTES[name] : undefined;
    if (names !== undefined) {
      for (const a of node.attrs ?? []) if (names.includes(a.name) && a.value.trim() !== '') raw.push(a.value.trim());
    }
    for (const c of node.childNodes ?? []) walk(c);
    if (node.content !== undefined) walk(node.content);
  };
  walk(doc);
  let against = location;
  if (base !== null) {
    try {
      against = resolve(location, base, { rfc: 3986 });
    } catch {
      // A <base href> that does not resolve is ignored (HTML: the fallback base URL).
    }
  }
  const out = new Set<string>();
  for (const r of raw) {
    if (/^(javascript|data|mailto):/i.test(r)) continue;
    try {
      const abs = resolve(against, r, { rfc: 3986 });
      const hash = abs.indexOf('#');
      out.add(hash < 0 ? abs : abs.slice(0, hash));
    } catch {
      // Not a URL: nothing to follow.
    }
  }
  return [...out];
}
