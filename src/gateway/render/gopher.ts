// Gopher objects in the gateway (RFC 1436 3.8; RFC 1738 3.4): a menu (or a search's answer) as a
// list of links through the gateway, and a Gopher+ +ASK form (RFC 1738 3.4.5) as an HTML form.

import type { AskQuestion, MenuItem } from '../../clients/index.js';
import { Html, markup } from '../html.js';
import { linkNote, type RenderContext, type Sink } from './common.js';

/** The words shown for Gopher item types (RFC 1436 3.8, and the common g, I, h, s, d, i). */
export const GOPHER_KINDS: Readonly<Record<string, string>> = {
  0: 'text',
  1: 'menu',
  2: 'phonebook',
  3: 'error',
  4: 'binhex',
  5: 'dos binary',
  6: 'uuencoded',
  7: 'search',
  8: 'telnet',
  9: 'binary',
  '+': 'mirror',
  T: 'tn3270',
  g: 'gif image',
  I: 'image',
  p: 'png image',
  h: 'html',
  s: 'sound',
  d: 'document',
  i: 'info',
};

/** The Gopher item types that are images (RFC 1436 3.8 `g`; the common `I`, and `p` for PNG). */
export const IMAGE_TYPES: readonly string[] = ['g', 'I', 'p'];

/** The word for a Gopher item type (RFC 1436 3.8); an unknown type is shown as "type X". */
export function gopherKind(type: string): string {
  return GOPHER_KINDS[type] ?? `type ${type}`;
}

/** One menu item (RFC 1436 3.8) as a list entry: its type as a word, its display string linked through the gateway. */
export function menuItem(item: MenuItem, ctx: RenderContext): Html {
  const kind = markup`<span class="kind">${gopherKind(item.type)}</span> `;
  if (item.type === 'i') return markup`<li class="info">${item.display}</li>\n`;
  if (item.type === '3') return markup`<li class="problem">${kind}${item.display}</li>\n`;
  if (item.url === null) {
    return markup`<li class="problem">${kind}${item.display} <small>(${item.problem ?? 'no URL'})</small></li>\n`;
  }
  const note = item.problem === null ? '' : markup` <small class="problem">(${item.problem})</small>`;
  const form = item.gopherPlus === '?';
  const plus = form ? markup` <small>(form)</small>` : '';
  const href = ctx.link(form ? askUrl(item.url) : item.url);
  // An image item shown in the page (`--inline-images`): through the gateway's own address, whose
  // `view=image` passes on only an image of at most the size allowed.
  const img =
    ctx.inlineImages === true && IMAGE_TYPES.includes(item.type)
      ? markup`<img class="inline" src="${ctx.link(item.url, { view: 'image' })}" alt="${item.display}" loading="lazy">`
      : '';
  return markup`<li>${kind}<a href="${href}">${item.display}</a>${linkNote(ctx, item.url)}${plus}${note}${img}</li>\n`;
}

/** The "?" URL of an item whose menu line says it has a +ASK form (RFC 1738 3.4.5). */
function askUrl(url: string): string {
  return /%09/i.test(url) ? url : `${url}%09%09?`;
}

/** A Gopher menu (or the answer to a search; RFC 1436 3.8) as a list, written as the items arrive. */
export async function renderGopherMenu(
  items: AsyncIterable<MenuItem>,
  ctx: RenderContext,
  sink: Sink,
): Promise<number> {
  let n = 0;
  await sink.write('<ul class="items menu">\n');
  for await (const item of items) {
    await sink.write(menuItem(item, ctx).value);
    n++;
  }
  await sink.write('</ul>\n');
  if (n === 0) await sink.write('<p>The menu is empty.</p>\n');
  return n;
}

/**
 * A Gopher+ +ASK form (RFC 1738 3.4.5) as an HTML form: one field per question (Ask: a line,
 * AskP: a password, AskL: several lines, Choose/Select: a choice); submitted with POST (so that
 * an AskP answer is never in an address), it becomes the filled-in Gopher+ request. The form
 * carries the gateway's form token, as the mail form does: the answers may hold a password.
 */
export function askForm(url: string, questions: AskQuestion[], ctx: RenderContext, token: string): Html {
  const fields = questions.map((q, i) => {
    const id = `a${i}`;
    const label = markup`<label for="${id}">${q.prompt === '' ? `Question ${i + 1}` : q.prompt}</label>`;
    const first = q.values[0] ?? '';
    switch (q.kind) {
      case 'AskP':
        return markup`<p>${label}<input type="password" id="${id}" name="${id}" autocomplete="off"></p>\n`;
      case 'AskL':
        return markup`<p>${label}<textarea id="${id}" name="${id}" rows="4" cols="50">${first}</textarea></p>\n`;
      case 'Choose':
      case 'ChooseF':
      case 'Select': {
        const options = q.values.map((v) => markup`<option>${v}</option>`);
        return markup`<p>${label}<select id="${id}" name="${id}">${options}</select></p>\n`;
      }
      default:
        return markup`<p>${label}<input type="text" id="${id}" name="${id}" value="${first}" size="40"></p>\n`;
    }
  });
  return markup`<form class="fill" method="post" action="${ctx.base}/?url=${encodeURIComponent(url)}">
<input type="hidden" name="questions" value="${String(questions.length)}">
<input type="hidden" name="token" value="${token}">
${fields}<p><button type="submit">Send</button></p>
</form>
`;
}
