// Links in Markdown and HTML documents for check(): the destinations of the markup (./markdown.ts
// with markdown-it, ./html.ts with parse5), and the plain-text URLs of their text by the RFC 1738
// appendix rules (extract()); relative ones resolved (RFC 1808 4) against <base href>, the given
// base or the document's own URL; fragments checked against the ids and headings of the
// document they name, when it can be read (a file:, http: or https: document: ./remote.ts). The
// checker's only dependencies.
import { extract } from '../../extract/index.js';
import { resolve } from '../../operations/resolve.js';
import { LocatorError } from '../../core/errors.js';
import type { FoundLink } from '../check.js';
import type { Slot } from '../recurse.js';
import { htmlLinks } from './html.js';
import { markdownLinks } from './markdown.js';
import type { RawLink, Read } from './types.js';
import { formatOf, type MarkupFormat } from './format.js';
import { formatOfType, type DocumentReader } from './remote.js';

export { formatOf, type MarkupFormat };

export interface MarkupOptions {
  format: MarkupFormat;
  /** The document's own absolute URL (file:///... for a file), or null (standard input). */
  location: string | null;
  /** The base for relative links when the document has no <base href> (`--base`). */
  base?: string;
  /** Also the plain-text URLs of the text, by the appendix rules (default true). */
  plain?: boolean;
  /**
   * Also the links and plain-text URLs of verbatim text: Markdown code blocks and code spans,
   * HTML `<pre>` and `<code>` (default false, as lychee's --include-verbatim).
   */
  verbatim?: boolean;
  /** Reads a document by its URL (without fragment) for its fragments (./remote.ts documentReader()). */
  read?: DocumentReader;
}

/** The ids, anchor names and heading slugs of a document. */
export function anchorsOf(text: string, format: MarkupFormat): Set<string> {
  return (format === 'markdown' ? markdownLinks(text) : htmlLinks(text)).anchors;
}

/** Line and column (1-based, UTF-16 code units; LF, CR LF and a lone CR end a line) of offsets read in increasing order. */
class Positions {
  #line = 1;
  #lineStart = 0;
  #at = 0;
  constructor(private readonly text: string) {}
  at(offset: number): { line: number; column: number } {
    if (offset < this.#at) {
      this.#line = 1;
      this.#lineStart = 0;
      this.#at = 0;
    }
    const t = this.text;
    for (let i = this.#at; i < offset; i++) {
      const c = t.charCodeAt(i);
      if (c === 10 || (c === 13 && t.charCodeAt(i + 1) !== 10)) {
        this.#line++;
        this.#lineStart = i + 1;
      }
    }
    this.#at = offset;
    return { line: this.#line, column: offset - this.#lineStart + 1 };
  }
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** Schemes that name no object to check: left out (as lychee and LinkChecker do). */
const NOT_CHECKED = /^(javascript|data|about|blob):/i;

/** A link reported as written: `invalid`, with the reason (and the error's code when it has one). */
function invalid(url: string, line: number, column: number, reason: string, e?: unknown): FoundLink {
  return {
    url,
    line,
    column,
    verdict: { status: 'invalid', reason, ...(e instanceof LocatorError ? { code: e.code } : {}) },
  };
}

/** A relative reference with its characters outside RFC 1738 2.2 (spaces, non-ASCII) %-encoded as UTF-8. */
function encodeRelative(ref: string): string {
  return ref.replace(/[^A-Za-z0-9$\-_.+!*'(),;/?:@=&%#~]/gu, (ch) =>
    Array.from(new TextEncoder().encode(ch), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/** Sorted spans with those that overlap or touch merged. */
function merged(spans: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [s, e] of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last !== undefined && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** What a reader found, less its verbatim text: the links that start in it, and it cut out of the text spans. */
function withoutVerbatim(read: Read): Read {
  const skip = merged(read.verbatim);
  if (skip.length === 0) return read;
  const inside = (offset: number): boolean => {
    // The last span that starts at or before `offset` (binary search).
    let lo = 0;
    let hi = skip.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (skip[mid][0] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return skip[lo][0] <= offset && offset < skip[lo][1];
  };
  const texts: [number, number][] = [];
  let k = 0;
  for (const [start, end] of [...read.texts].sort((a, b) => a[0] - b[0])) {
    while (k < skip.length && skip[k][1] <= start) k++;
    let from = start;
    for (let j = k; j < skip.length && skip[j][0] < end; j++) {
      if (skip[j][0] > from) texts.push([from, skip[j][0]]);
      from = Math.max(from, skip[j][1]);
    }
    if (from < end) texts.push([from, end]);
  }
  return { ...read, links: read.links.filter((l) => !inside(l.offset)), texts };
}

/**
 * A URL up to its first `?` or `;` (its name, for the extension), found in one pass: `/[?;].*$/`
 * tries every `?` to the end of the line, quadratic on an attribute of many `?` and a line end.
 */
function beforeQuery(url: string): string {
  const k = url.search(/[?;]/);
  return k < 0 ? url : url.slice(0, k);
}

function decodeFragment(f: string): string {
  try {
    return decodeURIComponent(f);
  } catch {
    return f;
  }
}

/**
 * The links of a Markdown or HTML document as check() takes them (CheckLinks.links): each
 * destination of the markup, then (unless `plain: false`) each plain-text URL of its text not
 * inside one, in the order of the source, with line and column. A relative link is resolved
 * (RFC 1808 4) and checked as that URL, with a note of what was written; one with no base to
 * resolve against is `invalid`. A `#fragment` of the document itself, or of a Markdown or HTML
 * document that `read` can read, is `broken` when no id, anchor name or heading slug matches.
 */
export async function* markupLinks(text: string, options: MarkupOptions): AsyncGenerator<FoundLink> {
  const whole: Read = options.format === 'markdown' ? markdownLinks(text) : htmlLinks(text);
  const read = options.verbatim === true ? whole : withoutVerbatim(whole);
  const at = new Positions(text);
  const located: { raw: RawLink; plain?: { cutAt?: string; note?: string } }[] = read.links.map((raw) => ({ raw }));
  if (read.base !== null) located.push({ raw: read.base });
  if (options.plain !== false) {
    const taken = [...located.map((l) => [l.raw.offset, l.raw.offset + Math.max(1, l.raw.length)])].sort(
      (a, b) => a[0] - b[0],
    );
    // Matches come in increasing order within a span, and spans in increasing order: one pass over `taken`.
    let t = 0;
    for (const [start, end] of [...read.texts].sort((x, y) => x[0] - y[0])) {
      for (const m of extract(text.slice(start, end), { written: true })) {
        const s = start + m.start;
        const e = start + m.end;
        while (t < taken.length && taken[t][1] <= s) t++;
        let overlaps = false;
        for (let k = t; k < taken.length && taken[k][0] < e; k++) if (s < taken[k][1]) overlaps = true;
        if (overlaps) continue;
        const w = m.written;
        const url = w?.why === 'run-on' ? w.text : m.url;
        const plain =
          w?.why === 'run-on'
            ? { cutAt: m.url }
            : w?.why === 'white-space'
              ? { note: `white space in the wrapper ignored (RFC 1738 appendix): written ${JSON.stringify(w.text)}` }
              : {};
        const offset = s + (m.form === 'bare' ? 0 : m.url.length > 0 ? text.indexOf(m.url[0], s) - s : 0);
        located.push({ raw: { url, offset, length: e - s, kind: 'text' }, plain });
      }
    }
  }
  located.sort((a, b) => a.raw.offset - b.raw.offset);
  // The base of relative links: <base href> (itself resolved against the document), --base, the document.
  let base: string | null = options.base ?? options.location;
  if (read.base !== null && read.base.url !== '') {
    try {
      base = SCHEME.test(read.base.url) ? read.base.url : resolve(base ?? '', read.base.url);
    } catch {
      // A <base href> that cannot be resolved is reported as a link; the other base stands.
    }
  }
  /** The anchors of the document of a URL without fragment, or why they are not known (read in a slot of `slot`). */
  const fragmentsOf = new Map<string, Promise<Set<string> | string>>();
  const anchorsAt = (url: string, slot: Slot): Promise<Set<string> | string> => {
    let kept = fragmentsOf.get(url);
    if (kept === undefined) {
      const named = formatOf(beforeQuery(url));
      kept =
        options.read === undefined
          ? Promise.resolve('no reader of documents')
          : options.read(url, slot).then((d) => {
              if ('unread' in d) return `the document could not be read (${d.unread})`;
              // The Content-Type first (an http: document's), then the name.
              const format = formatOfType(d.contentType) ?? named;
              if (format === null) return `the document is not Markdown or HTML (${d.contentType ?? 'by its name'})`;
              return anchorsOf(d.text, format);
            });
      fragmentsOf.set(url, kept);
    }
    return kept;
  };
  for (const { raw, plain } of located) {
    const { line, column } = at.at(raw.offset);
    const written = raw.url;
    if (written === '' || written === '#' || NOT_CHECKED.test(written)) continue;
    if (plain !== undefined || SCHEME.test(written)) {
      yield { url: written, line, column, ...plain, ...fragment(written, plain?.note) };
      continue;
    }
    if (written.startsWith('#') && (base === null || base === options.location)) {
      // A fragment of this document: decided here, whatever its name.
      const id = decodeFragment(written.slice(1));
      const ok = read.anchors.has(id);
      yield {
        url: options.location === null ? written : options.location + written,
        line,
        column,
        verdict: ok
          ? { status: 'ok', reason: `the document has the id or heading ${JSON.stringify(id)}` }
          : { status: 'broken', reason: `no id, anchor name or heading ${JSON.stringify(id)} in the document` },
      };
      continue;
    }
    const note = `written ${JSON.stringify(written)}`;
    if (base === null) {
      yield invalid(
        written,
        line,
        column,
        'a relative link, and no base URL to resolve it against (the document has no location: give --base)',
      );
      continue;
    }
    let url: string;
    try {
      url = resolve(base, encodeRelative(written));
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      yield invalid(written, line, column, `cannot be resolved against ${base}: ${reason}`, e);
      continue;
    }
    yield { url, line, column, ...fragment(url, note) };
  }

  /**
   * The verdict of a URL's fragment when the file:, http: or https: document it names is read and
   * has no such anchor; when that document cannot be read, the probe's verdict stands and the
   * note says the fragment was not checked (beside `note`, what was written). Another document
   * than this one is read when check() takes the link (`decide`), in a slot of its limits, so
   * that the documents of many links are read at once, as their probes are.
   */
  function fragment(url: string, note?: string): Pick<FoundLink, 'verdict' | 'note' | 'decide'> {
    const noted = note === undefined ? {} : { note };
    const hash = url.indexOf('#');
    if (hash < 0 || !/^(file|https?):/i.test(url)) return noted;
    const id = decodeFragment(url.slice(hash + 1));
    if (id === '') return noted;
    const document = url.slice(0, hash);
    if (document === options.location) return verdictOf(read.anchors, id, document, note);
    // Without a reader, or for a file: document not Markdown or HTML by its name: the probe's verdict, no note.
    if (options.read === undefined) return noted;
    if (/^file:/i.test(url) && formatOf(beforeQuery(document)) === null) return noted;
    return { ...noted, decide: async (slot) => verdictOf(await anchorsAt(document, slot), id, document, note) };
  }
}

/** The verdict and note of fragment `id` of `document` by its anchors, or the note of why they are not known. */
function verdictOf(
  anchors: Set<string> | string,
  id: string,
  document: string,
  note: string | undefined,
): Pick<FoundLink, 'verdict' | 'note'> {
  const noted = note === undefined ? {} : { note };
  if (typeof anchors === 'string') {
    const why = `the fragment ${JSON.stringify(id)} not checked: ${anchors}`;
    return { note: note === undefined ? why : `${note}; ${why}` };
  }
  if (anchors.has(id)) return noted;
  return {
    ...noted,
    verdict: {
      status: 'broken',
      reason: `no id, anchor name or heading ${JSON.stringify(id)} in ${document}`,
    },
  };
}
