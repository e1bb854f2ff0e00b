// The gateway's HTML: one escaping template function, the page frame with its stylesheet, and
// the links that lead back through the gateway. Every value put into a page goes through esc()
// unless it is already an Html (a fragment this module built): remote text (menu entries, file
// names, article headers, selectors) can never open a tag or an attribute.

import { createHash } from 'node:crypto';
import { UNSAFE_TEXT_BUT_BREAKS, codePointName } from '../operations/unsafe-text.js';

/** A fragment of HTML that is already safe to send (built by markup`` or by a renderer). */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text as HTML (HTML 4.01 5.3.2, the five characters that can end text or an attribute value).
 * Every other character that must not act on what shows the page is shown by its name, as
 * `<U+202E>`: C0 and C1 controls other than TAB, LF and CR (a text browser would send them to
 * the terminal), the bidirectional formatting characters (a menu entry
 * "invoice\u202Efdp.exe" would read "invoiceexe.pdf") and the other, invisible, format characters
 * (category Cf: U+200B, U+FEFF, the tag characters U+E0000-E007F ...), the same set the CLI escapes
 * (src/operations/unsafe-text.ts). The one escaper of remote text: every renderer goes through it.
 */
export function esc(text: string): string {
  return text
    .replace(/[&<>"']/g, (c) => ESCAPES[c])
    .replace(UNSAFE_TEXT_BUT_BREAKS, (c) => `&lt;${codePointName(c)}&gt;`);
}

/**
 * The template of every page fragment: `markup\`<p>${text}</p>\`` escapes each value; an Html
 * value is put in as it is, an array is joined, null, undefined and false are left out.
 */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += fragment(values[i]) + strings[i + 1];
  return new Html(out);
}

function fragment(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(fragment).join('');
  return esc(String(v));
}

/** The address of a URL's page at the gateway: `<base>/?url=<URL, percent-encoded>` and more parameters. */
export function gatewayHref(base: string, url: string, params: Record<string, string> = {}): string {
  let out = `${base}/?url=${encodeURIComponent(url)}`;
  for (const [k, v] of Object.entries(params)) out += `&${k}=${encodeURIComponent(v)}`;
  return out;
}

/**
 * The stylesheet: readable text width, system fonts, contrast of at least 7:1 for text and 4.5:1
 * for links (WCAG 2.1 1.4.3/1.4.6), a visible focus ring for keyboard use (2.4.7).
 */
export const STYLE = `
:root { color-scheme: light; }
body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0; }
header, main, footer { max-width: 60rem; margin: 0 auto; padding: 0.5rem 1rem; }
header { border-bottom: 1px solid #767676; }
header form { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
header input[type=text] { flex: 1 1 20rem; }
input, button, textarea, select { font: inherit; padding: 0.25rem 0.5rem; color: #1a1a1a; background: #fff; border: 1px solid #595959; border-radius: 3px; }
button { background: #0b4f8a; color: #fff; border-color: #0b4f8a; cursor: pointer; }
a { color: #0b4f8a; }
a:visited { color: #5a2d82; }
a:focus, input:focus, button:focus, textarea:focus, select:focus { outline: 3px solid #c05600; outline-offset: 2px; }
.home { font-weight: bold; text-decoration: none; margin-right: 1rem; }
h1 { font-size: 1.4rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; }
ul.items { list-style: none; padding: 0; }
ul.items li { padding: 0.1rem 0; overflow-wrap: anywhere; }
img.inline { display: block; max-width: 100%; height: auto; margin: 0.25rem 0 0.5rem; }
.kind { display: inline-block; min-width: 5.5rem; font-size: 0.85rem; color: #3d3d3d; font-family: ui-monospace, monospace; }
li.info { white-space: pre-wrap; font-family: ui-monospace, monospace; }
li.problem, .problem { color: #8a1c00; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f4; padding: 0.75rem; border: 1px solid #d0d0d0; }
code { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.error h1 { color: #8a1c00; }
form.fill p { margin: 0.5rem 0; }
form.fill label { display: block; font-weight: bold; }
nav.crumbs ol { list-style: none; padding: 0; margin: 0.5rem 0; display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; }
footer { color: #3d3d3d; font-size: 0.9rem; border-top: 1px solid #767676; margin-top: 1rem; }
`.trim();

let styleHash: string | undefined;

/** The hash of STYLE for the Content-Security-Policy (CSP 3: a hash source allows one inline style). */
export function styleSource(): string {
  styleHash ??= `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
  return styleHash;
}

/**
 * The Content-Security-Policy of every page: no script at all, no plugin, no frame, the one
 * inline stylesheet by its hash, forms that submit only to the gateway itself.
 */
export function contentSecurityPolicy(gatewayOrigin: string): string {
  return [
    "default-src 'none'",
    `style-src ${styleSource()}`,
    "img-src 'self'",
    `form-action 'self' ${gatewayOrigin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** What the frame of a page needs: its title, the URL in the address field, the gateway's base. */
export interface PageFrame {
  title: string;
  /** The URL shown in the address field (passwords already hidden), or '' for the home page. */
  url: string;
  /** The gateway's address, for links ('' for links relative to the gateway's own pages). */
  base: string;
  /** A class for <main> ("error"). */
  kind?: string;
}

/** The start of a page (up to and including the opening of <main>), for pages streamed in parts. */
export function pageStart(f: PageFrame): string {
  const cls = f.kind ? markup` class="${f.kind}"` : '';
  return markup`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${f.title} - locator gateway</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<header>
<form method="get" action="${f.base}/" role="search">
<a class="home" href="${f.base}/">locator gateway</a>
<label for="address">URL</label>
<input type="text" id="address" name="url" value="${f.url}" size="60" spellcheck="false" autocomplete="off" autocapitalize="off">
<button type="submit">Go</button>
</form>
</header>
<main${cls}>
`.value;
}

/** The end of a page (closing <main>, the footer). */
export function pageEnd(): string {
  return `</main>
<footer><p>A gateway of the URL system of RFC 1738 (section 4): objects of other protocols shown over HTTP.</p></footer>
</body>
</html>
`;
}

/** A whole page. */
export function page(f: PageFrame, body: Html): string {
  return pageStart(f) + body.value + pageEnd();
}
