// What every renderer of the gateway shares (RFC 1738 4: "images of objects in the new scheme for
// clients using an existing protocol"): where it writes, how it links back to the gateway, the
// lines of a line-based object, text as text, a table of a line format, the access algorithm and
// the search form. Each renderer reads the object as it arrives and writes HTML to a Sink, so that
// nothing is held whole in memory; every remote string goes through esc() (../html.ts), and every
// link is a link to the gateway (`ctx.link`).
//
// The templates are tagged `markup` (not `html`): Prettier reformats templates tagged `html` as
// documents of their own, closing the tags that a fragment leaves open.

import { LocatorError } from '../../core/errors.js';
import type { Explanation } from '../../schemes/spec.js';
import { PROTOCOL_ERROR } from '../../clients/index.js';
import { createExtractor, type Match } from '../../extract/index.js';
import { Html, markup } from '../html.js';

/** Where a renderer writes: each call may wait for the client to take the bytes (back-pressure). */
export interface Sink {
  write(chunk: string): Promise<void> | void;
}

/** What a renderer knows of the gateway: how to link back to it. */
export interface RenderContext {
  /** The gateway page of a URL (with extra query parameters). */
  link(url: string, params?: Record<string, string>): string;
  /** The gateway's own address, for form actions ('' for relative). */
  base: string;
  /** True when the request came as a proxy request (an absolute URL in the request line). */
  proxy?: boolean;
  /** Show the images of Gopher image items (g, I, p) in menus (`--inline-images`). */
  inlineImages?: boolean;
  /**
   * Replaying archives (`serve --warc`): true when the archives hold the URL. A link to one they
   * do not hold is marked "not archived" (linkNote).
   */
  archived?: (url: string) => boolean;
  /** A line put at the head of an object's page, after its URL (a replay's capture date). */
  note?: Html;
}

/** What follows a link to `url` in a page: " (not archived)" when replaying archives that do not hold it. */
export function linkNote(ctx: RenderContext, url: string): Html | '' {
  return ctx.archived === undefined || ctx.archived(url)
    ? ''
    : markup` <small class="not-archived">(not archived)</small>`;
}

/** The longest line of a line-based object accepted (octets); longer is a protocol error. */
export const MAX_LINE = 64 * 1024;

// ---------------------------------------------------------------------------------------------
// Reading line-based objects

/**
 * The lines of a body, decoded as UTF-8 (octets that are not show as U+FFFD), without their line
 * ends (LF or CR LF). A line longer than MAX_LINE is a `protocol-error`.
 */
export async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  const reader = body.getReader();
  // The pieces of the line not ended yet, and their length: only each new chunk is searched for
  // an LF, and the pieces are joined once, when the line ends (a line trickled in small chunks
  // would otherwise be searched and copied again for each one: quadratic in its length).
  let parts: string[] = [];
  let size = 0;
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        done = true;
        const last = parts.join('') + decoder.decode();
        if (last !== '') yield last.replace(/\r$/, '');
        return;
      }
      const chunk = decoder.decode(r.value, { stream: true });
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
        const line = parts.length === 0 ? chunk.slice(start, nl) : parts.join('') + chunk.slice(start, nl);
        parts = [];
        size = 0;
        start = nl + 1;
        yield line.replace(/\r$/, '');
      }
      if (start < chunk.length) {
        parts.push(chunk.slice(start));
        size += chunk.length - start;
      }
      if (size > MAX_LINE) {
        throw new LocatorError(PROTOCOL_ERROR, -1, `a line of the object runs past ${MAX_LINE} characters`);
      }
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** The longest URL in a text that becomes a link (longer ones stay text: no gateway address holds them). */
export const MAX_LINKED_URL = 4096;

/**
 * Text as escaped text, with each URL in it (RFC 1738 appendix: bare, `<URL:...>` and `<...>`,
 * wrapped across lines too, as `locator extract` finds them) a link through the gateway, its text
 * as written (wrapper and line breaks included). Streaming: text is written as soon as no URL can
 * still begin in it, which is at most MAX_LINKED_URL code units behind what has arrived.
 */
export class LinkedText {
  readonly #x = createExtractor({ maxLength: MAX_LINKED_URL });
  #buf = '';
  /** The offset in the whole text of `#buf`'s first code unit. */
  #base = 0;
  constructor(
    private readonly ctx: RenderContext,
    private readonly sink: Sink,
  ) {}

  async push(text: string): Promise<void> {
    if (text === '') return;
    this.#buf += text;
    await this.#write(this.#x.push(text), this.#base + this.#buf.length - MAX_LINKED_URL);
  }

  async end(): Promise<void> {
    await this.#write(this.#x.end(), this.#base + this.#buf.length);
  }

  async #write(found: Match[], safe: number): Promise<void> {
    const parts: Html[] = [];
    let at = this.#base;
    for (const m of found) {
      if (m.start < at) continue;
      const text = this.#buf.slice(m.start - this.#base, m.end - this.#base);
      parts.push(
        markup`${this.#buf.slice(at - this.#base, m.start - this.#base)}<a href="${this.ctx.link(m.url)}">${text}</a>${linkNote(this.ctx, m.url)}`,
      );
      at = m.end;
    }
    const upTo = Math.max(at, safe);
    parts.push(markup`${this.#buf.slice(at - this.#base, upTo - this.#base)}`);
    this.#buf = this.#buf.slice(upTo - this.#base);
    this.#base = upTo;
    const out = markup`${parts}`.value;
    if (out !== '') await this.sink.write(out);
  }
}

/**
 * Writes a body as escaped text inside <pre>, chunk by chunk (text as text), decoded by `charset`
 * (default UTF-8: decodeText), the URLs in it links through the gateway (LinkedText).
 */
export async function renderText(
  body: ReadableStream<Uint8Array>,
  sink: Sink,
  ctx?: RenderContext,
  charset: string | null = 'utf-8',
): Promise<void> {
  await sink.write('<pre class="text">');
  const out =
    ctx === undefined
      ? { push: async (t: string) => sink.write(markup`${t}`.value), end: async () => {} }
      : new LinkedText(ctx, sink);
  const reader = body.getReader();
  let done = false;
  let decoder: ReturnType<typeof textDecoder> | null = charset === null ? null : textDecoder(charset);
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      decoder ??= textDecoder(guessCharset(r.value));
      await out.push(decoder.decode(r.value, { stream: true }));
    }
    decoder ??= textDecoder('utf-8');
    done = true;
    await out.push(decoder.decode());
    await out.end();
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  await sink.write('</pre>\n');
}

/** The charsets a reader may choose for a text (its `charset` parameter), by name: label and decoder. */
export const CHARSETS: Readonly<Record<string, string>> = {
  'utf-8': 'UTF-8',
  'iso-8859-1': 'Latin-1',
  cp437: 'CP437 (IBM PC)',
  macintosh: 'Mac Roman',
};

/**
 * CP437, the IBM PC's code page, from 0x80 to 0xFF (0x00-0x7F as ASCII): the box drawing and
 * shading of ANSI art. Not among the WHATWG encodings TextDecoder knows.
 */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/**
 * The charset of a text that names none, from its first octets, as `file:` guesses it: UTF-8 when
 * they decode as UTF-8 (a sequence cut at the end allowed), else Latin-1, the 8-bit set of the
 * documents that predate UTF-8.
 */
export function guessCharset(head: Uint8Array): 'utf-8' | 'iso-8859-1' {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'iso-8859-1';
  }
}

/** A decoder of one of CHARSETS (anything else: UTF-8); Latin-1 as WHATWG reads it (windows-1252). */
export function textDecoder(charset: string): { decode(b?: Uint8Array, o?: { stream?: boolean }): string } {
  if (charset === 'cp437') {
    return {
      decode: (b) => {
        let s = '';
        for (const c of b ?? []) s += c < 0x80 ? String.fromCharCode(c) : CP437_HIGH[c - 0x80];
        return s;
      },
    };
  }
  return new TextDecoder(Object.hasOwn(CHARSETS, charset) ? charset : 'utf-8');
}

/** The search form of a Gopher type-7 item or a WAIS database (RFC 1738 3.4.2, 3.9). */
export function searchForm(url: string, what: string, ctx: RenderContext): Html {
  return markup`<form class="fill" method="get" action="${ctx.base}/">
<input type="hidden" name="url" value="${url}">
<p><label for="search">Search ${what}</label>
<input type="text" id="search" name="search" size="40" required></p>
<p><button type="submit">Search</button></p>
</form>
`;
}

// ---------------------------------------------------------------------------------------------
// Tables of the line formats of the news, WAIS and Prospero clients (docs/gateway.md)

/** A line format of tab-separated fields as a table, written as the lines arrive (docs/gateway.md). */
export async function renderTable(
  body: AsyncIterable<string>,
  caption: string,
  heads: string[],
  row: (f: string[]) => Html,
  width: number,
  sink: Sink,
): Promise<number> {
  const th = heads.map((h) => markup`<th scope="col">${h}</th>`);
  await sink.write(markup`<table><caption>${caption}</caption>\n<thead><tr>${th}</tr></thead>\n<tbody>\n`.value);
  let n = 0;
  for await (const line of body) {
    if (line === '') continue;
    const f = line.split('\t');
    if (f.length < width) {
      const span = String(heads.length);
      await sink.write(
        markup`<tr><td colspan="${span}" class="problem">not a line of this listing: ${line}</td></tr>\n`.value,
      );
      continue;
    }
    await sink.write(row(f).value);
    n++;
  }
  await sink.write('</tbody></table>\n');
  if (n === 0) await sink.write('<p>Nothing is listed.</p>\n');
  return n;
}

// ---------------------------------------------------------------------------------------------
// Pages that need no retrieval

/** The `explain` steps of a URL (RFC 1738 3: the access algorithm, without the network). */
export function explainBlock(x: Explanation): Html {
  const where = x.host === null ? '' : ` ${x.host}${x.port === null ? '' : ':' + x.port}`;
  const steps = x.steps.map((s) => markup`<li><code>${s}</code></li>\n`);
  const notes = x.notes.map((n) => markup`<li>${n}</li>\n`);
  return markup`<h2>Access algorithm</h2>
<p>Protocol: <strong>${x.protocol}</strong>${where}</p>
<ol class="steps">${steps}</ol>
${notes.length > 0 ? markup`<h2>Notes</h2>\n<ul>${notes}</ul>\n` : ''}`;
}
