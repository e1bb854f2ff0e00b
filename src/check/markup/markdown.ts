// The links of a Markdown document, read with markdown-it (CommonMark 0.31 and GitHub's tables
// and strikethrough): inline links and images, autolinks, reference definitions, and the links
// of raw HTML (./html.ts). markdown-it gives each block its lines (Token.map), not the columns of
// what is inside: each block's source is read once for the places a destination can start (after
// `](`, inside `<...>`), and each link token takes the first unused place that holds its
// destination. Every character of the source is looked at a bounded number of times: the work
// is linear in the length of the document, whatever it holds.
import markdownItParser, { type Env, type MarkdownIt, type Token } from 'markdown-it';
import { htmlLinks } from './html.js';
import type { RawLink, Read } from './types.js';

let parser: MarkdownIt | null = null;

/** markdown-it as a link finder: raw HTML on, no linkify (plain-text URLs are the extractor's), every scheme kept as written. */
function markdownIt(): MarkdownIt {
  if (parser !== null) return parser;
  const md = new markdownItParser('default', { html: true, linkify: false });
  // By default markdown-it drops javascript:, vbscript:, file: and data: links and percent-encodes
  // the rest (and punycodes host names): a checker wants each destination as written.
  md.validateLink = () => true;
  md.normalizeLink = (url: string) => url;
  md.normalizeLinkText = (text: string) => text;
  parser = md;
  return md;
}

/**
 * The anchor of a heading as GitHub (and most Markdown renderers after it) makes it: the text in
 * lower case, with what is not a letter, mark, digit, connector, space or hyphen removed and
 * each space made a hyphen; a repeated one gets -1, -2, ...
 */
export function slug(text: string, seen: Map<string, number>): string {
  const base = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
  const n = seen.get(base);
  seen.set(base, (n ?? -1) + 1);
  return n === undefined ? base : `${base}-${n + 1}`;
}

/** A reference definition's label and the offset and text of its destination. */
const DEFINITION = /^[ \t>]*\[((?:[^\]\\\n]|\\.){1,999})\]:[ \t]*(?:\r?\n[ \t>]*)?(<[^<>\n]*>|\S+)/gm;

/** A place in the source: offset and length (UTF-16 code units). */
interface Place {
  offset: number;
  length: number;
}

/** Places by the text they hold, each taken once, first first (`next`: the first not taken). */
type PlaceMap = Map<string, { list: Place[]; next: number }>;

/** Where the destinations of a block's source may be, by what they decode to; and every `](` for the rest. */
interface Places {
  /** Inline destinations (after `](`, CommonMark 6.3), by their text with escapes and entities decoded. */
  inline: PlaceMap;
  /** Autolinks (`<...>`, CommonMark 6.5), by their text. */
  auto: PlaceMap;
  /** The offset after each `](` (and its `<`), in order: where a destination not found by its text is reported. */
  leads: number[];
}

/**
 * The end of a link destination that starts at `start` (CommonMark 6.3, as markdown-it's
 * parseLinkDestination reads it: `<...>` without a line end or `<`, or a run without spaces or
 * controls whose parentheses balance, at most 32 deep): [end of the text, end of the scan, ok].
 */
function destinationEnd(text: string, start: number, max: number): [number, number, boolean] {
  let pos = start;
  if (text.charCodeAt(pos) === 0x3c) {
    for (pos++; pos < max; pos++) {
      const c = text.charCodeAt(pos);
      if (c === 0x0a || c === 0x0d || c === 0x3c) return [pos, pos, false];
      if (c === 0x3e) return [pos, pos + 1, true];
      if (c === 0x5c && pos + 1 < max) pos++;
    }
    return [pos, pos, false];
  }
  let level = 0;
  for (; pos < max; pos++) {
    const c = text.charCodeAt(pos);
    if (c <= 0x20 || c === 0x7f) break;
    if (c === 0x5c && pos + 1 < max) {
      if (text.charCodeAt(pos + 1) !== 0x20) pos++;
      continue;
    }
    if (c === 0x28 && ++level > 32) return [pos, pos, false];
    if (c === 0x29) {
      if (level === 0) break;
      level--;
    }
  }
  return [pos, pos, pos > start && level === 0];
}

/** The tag of a <pre> or <code> element, opening or closing (written inline in Markdown). */
const VERBATIM_TAG = /^<(\/?)(pre|code)(?=[\t\n\f\r />])/i;

/** The inline tokens whose place in the source is looked for. */
const INLINE_READ = new Set(['html_inline', 'link_open', 'image', 'code_inline']);

/** Space, tab, LF, CR. */
const BLANK = new Set([0x20, 0x09, 0x0a, 0x0d]);

function put(map: PlaceMap, key: string, offset: number, length: number): void {
  const kept = map.get(key);
  if (kept === undefined) map.set(key, { list: [{ offset, length }], next: 0 });
  else kept.list.push({ offset, length });
}

/**
 * The places of the destinations in text[from, end), in one pass. A scan for an autolink stops
 * at the next `<`; a destination's scan (destinationEnd) past another `](` holds that one's `(`
 * open to its end, and parentheses nest at most 32 deep: no character is read by more than 33
 * scans, and the work is linear in the length of the block.
 */
function placesOf(text: string, from: number, end: number, decode: (s: string) => string): Places {
  const places: Places = { inline: new Map(), auto: new Map(), leads: [] };
  // The end of the last destination read: a `<` before it is inside it, not an autolink.
  let scanned = from;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5d && text.charCodeAt(i + 1) === 0x28 && i + 1 < end) {
      let q = i + 2;
      // Spaces, tabs and line ends may come before the destination (markdown-it's link rule).
      while (q < end && BLANK.has(text.charCodeAt(q))) q++;
      const at = text.charCodeAt(q) === 0x3c ? q + 1 : q;
      places.leads.push(at);
      const [stop, next, ok] = destinationEnd(text, q, end);
      scanned = Math.max(scanned, next);
      if (ok) put(places.inline, decode(text.slice(at, stop)), at, stop - at);
      continue;
    }
    if (c === 0x3c && i >= scanned) {
      let k = i + 1;
      while (k < end && text.charCodeAt(k) !== 0x3c && text.charCodeAt(k) !== 0x3e) k++;
      if (k < end && text.charCodeAt(k) === 0x3e) put(places.auto, text.slice(i + 1, k), i + 1, k - i - 1);
    }
  }
  return places;
}

/** The first place of `key` not taken yet (each is taken once), or null. */
function take(map: PlaceMap, key: string): Place | null {
  const kept = map.get(key);
  if (kept === undefined || kept.next >= kept.list.length) return null;
  return kept.list[kept.next++];
}

/**
 * The span [start, end) in `block` of the next code span of `n` backticks from `at` (CommonMark
 * 6.1: an opening run of exactly `n`, its first backtick not escaped by a backslash, to the next
 * run of exactly `n`), or null. Each character is read once, and each backslash before a run once.
 */
function codeSpan(block: string, at: number, n: number): [number, number] | null {
  let open = -1;
  for (let i = at; i < block.length;) {
    if (block.charCodeAt(i) !== 0x60) {
      i++;
      continue;
    }
    let j = i;
    while (j < block.length && block.charCodeAt(j) === 0x60) j++;
    if (open >= 0) {
      if (j - i === n) return [open, j];
    } else {
      let slashes = 0;
      for (let k = i - 1; k >= at && block.charCodeAt(k) === 0x5c; k--) slashes++;
      const start = slashes % 2 === 1 ? i + 1 : i;
      if (j - start === n) open = start;
    }
    i = j;
  }
  return null;
}

/** The links, anchors and text of Markdown `text` (offsets in UTF-16 code units), in time linear in its length. */
export function markdownLinks(text: string): Read {
  const md = markdownIt();
  const env: Env = {};
  const tokens = md.parse(text, env);
  // markdown-it reads U+0000 as U+FFFD (CommonMark 2.3): the source searched is read so too (the same offsets).
  const src = text.includes('\0') ? text.replace(/\0/g, '\uFFFD') : text;
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  const lineStart = (n: number) => starts[Math.min(n, starts.length - 1)] ?? text.length;
  const links: RawLink[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const verbatim: [number, number][] = [];
  const decode = (s: string) => md.utils.unescapeAll(s);
  /**
   * The links of raw HTML `content`, looked for (its first line, which markdown-it keeps as
   * written) in `block`, the source from `from`, from `near` on; the offset after it, or -1.
   */
  const html = (content: string, block: string, from: number, near: number): number => {
    const line = content.split('\n', 1)[0];
    const k = line === '' ? -1 : block.indexOf(line, near - from);
    const at = k < 0 ? -1 : from + k;
    const r = htmlLinks(content, at >= 0 ? at : near, true);
    links.push(...r.links);
    if (r.base !== null) links.push(r.base);
    for (const a of r.anchors) anchors.add(a);
    verbatim.push(...r.verbatim);
    return at >= 0 ? at + line.length : -1;
  };
  const referenced = new Set(Object.values(env.references ?? {}).map((r) => r.href));
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.map === null) continue;
    const from = lineStart(t.map[0]);
    const end = t.map[1] >= starts.length ? text.length : lineStart(t.map[1]);
    if (t.type === 'html_block') {
      html(t.content, src.slice(from, end), from, from);
      continue;
    }
    if (t.type === 'fence' || t.type === 'code_block') {
      verbatim.push([from, end]);
      continue;
    }
    if (t.type === 'heading_open') {
      const inline = tokens[i + 1];
      const words = (inline?.children ?? [])
        .filter((c: Token) => c.type === 'text' || c.type === 'code_inline')
        .map((c: Token) => c.content);
      anchors.add(slug(words.join(''), seen));
      continue;
    }
    if (t.type !== 'inline') continue;
    const children = t.children ?? [];
    if (!children.some((c) => INLINE_READ.has(c.type))) continue;
    const places = placesOf(src, from, end, decode);
    const block = src.slice(from, end);
    // Raw HTML is found in order, each after the one before; once one is not found (its first line
    // is not in the source as written), the rest of the block's are reported at its start.
    let htmlCursor: number | null = from;
    // Code spans likewise, each after the one before and after the raw HTML before it.
    let codeCursor: number | null = from;
    // An inline <pre> or <code> not closed yet: its name and the offset of its tag.
    let open: { tag: string; at: number } | null = null;
    let lead = 0;
    let cursor = from;
    for (let j = 0; j < children.length; j++) {
      const c = children[j];
      if (c.type === 'html_inline') {
        if (htmlCursor === null) html(c.content, '', from, from);
        else {
          const after = html(c.content, block, from, htmlCursor);
          // A <pre> or <code> written inline opens in one token and closes in another.
          const tag = after < 0 ? null : VERBATIM_TAG.exec(c.content);
          const start = after - c.content.split('\n', 1)[0].length;
          if (tag !== null && tag[1] === '' && open === null) open = { tag: tag[2].toLowerCase(), at: start };
          if (tag !== null && tag[1] === '/' && open?.tag === tag[2].toLowerCase()) {
            verbatim.push([open.at, after]);
            open = null;
          }
          htmlCursor = after < 0 ? null : after;
        }
        continue;
      }
      if (c.type === 'code_inline') {
        if (codeCursor === null) continue;
        const span = codeSpan(block, Math.max(codeCursor, htmlCursor ?? from) - from, c.markup.length);
        codeCursor = span === null ? null : from + span[1];
        if (span !== null) verbatim.push([from + span[0], from + span[1]]);
        continue;
      }
      const isLink = c.type === 'link_open';
      if (!isLink && c.type !== 'image') continue;
      const url = String(c.attrGet(isLink ? 'href' : 'src') ?? '');
      const autolink = isLink && c.markup === 'autolink';
      // An inline destination follows "](" (or "](<"), an autolink "<"; a reference's is at its definition.
      const place = autolink ? take(places.auto, children[j + 1]?.content ?? url) : take(places.inline, url);
      let at: number;
      let length: number;
      if (place !== null) {
        at = place.offset;
        length = place.length;
      } else {
        // A reference's use: reported once, at its definition (below).
        if (!autolink && referenced.has(url)) continue;
        // Not found as decoded: at the next "](" (or the block's start).
        while (lead < places.leads.length && places.leads[lead] < cursor) lead++;
        at = places.leads[lead] ?? cursor;
        length = 0;
        while (at + length < end && !/[\s)>]/.test(src[at + length])) length++;
      }
      links.push({ url, offset: at, length, kind: autolink ? 'autolink' : isLink ? 'link' : 'image' });
      cursor = Math.max(cursor, at + length);
    }
    // Not closed in its paragraph: verbatim to the paragraph's end.
    if (open !== null) verbatim.push([open.at, end]);
  }
  // Reference definitions, once each, at their destination (the first definition of a label wins).
  const refs = env.references ?? {};
  const defined = new Set<string>();
  for (const m of text.matchAll(DEFINITION)) {
    const label = md.utils.normalizeReference(m[1]);
    const ref = refs[label];
    if (ref === undefined || defined.has(label)) continue;
    defined.add(label);
    const written = String(m[2]);
    const offset = (m.index ?? 0) + m[0].length - written.length + (written.startsWith('<') ? 1 : 0);
    links.push({ url: ref.href, offset, length: written.length, kind: 'definition' });
  }
  links.sort((a, b) => a.offset - b.offset);
  return { links, anchors, texts: [[0, text.length]], base: null, verbatim };
}
