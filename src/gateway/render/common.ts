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

/** Writes a body as escaped text inside <pre>, chunk by chunk (text as text). */
export async function renderText(body: ReadableStream<Uint8Array>, sink: Sink): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  await sink.write('<pre class="text">');
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      await sink.write(markup`${decoder.decode(r.value, { stream: true })}`.value);
    }
    done = true;
    await sink.write(markup`${decoder.decode()}`.value);
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  await sink.write('</pre>\n');
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
