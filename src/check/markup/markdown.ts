// The links of a Markdown document, read with markdown-it (CommonMark 0.31 and GitHub's tables
// and strikethrough): inline links and images, autolinks, reference definitions, and the links
// of raw HTML (./html.ts). markdown-it gives each block its lines (Token.map); a destination's
// column is found by looking for its text in the block, from the previous one on.
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

/** The first `needle` in `text` from `from` that starts before `end`, or -1 (the search never runs past `end`). */
function within(text: string, needle: string, from: number, end: number): number {
  const k = text.slice(from, Math.min(text.length, end + needle.length)).indexOf(needle);
  return k < 0 || from + k >= end ? -1 : from + k;
}

/** The links, anchors and text of Markdown `text` (offsets in UTF-16 code units). */
export function markdownLinks(text: string): Read {
  const md = markdownIt();
  const env: Env = {};
  const tokens = md.parse(text, env);
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  const lineStart = (n: number) => starts[Math.min(n, starts.length - 1)] ?? text.length;
  const links: RawLink[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const html = (content: string, near: number, end: number) => {
    const at = within(text, content, near, end);
    const shift = at >= 0 ? at : near;
    const r = htmlLinks(content, shift, true);
    links.push(...r.links);
    if (r.base !== null) links.push(r.base);
    for (const a of r.anchors) anchors.add(a);
    return at >= 0 ? at + content.length : near;
  };
  const referenced = new Set(Object.values(env.references ?? {}).map((r) => r.href));
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.map === null) continue;
    const from = lineStart(t.map[0]);
    const end = t.map[1] >= starts.length ? text.length : lineStart(t.map[1]);
    if (t.type === 'html_block') {
      html(t.content, from, end);
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
    let cursor = from;
    for (const c of t.children ?? []) {
      if (c.type === 'html_inline') {
        cursor = html(c.content, cursor, end);
        continue;
      }
      const isLink = c.type === 'link_open';
      if (!isLink && c.type !== 'image') continue;
      const url = String(c.attrGet(isLink ? 'href' : 'src') ?? '');
      const autolink = isLink && c.markup === 'autolink';
      // An inline destination follows "](" (or "](<"), an autolink "<"; a reference's is at its definition.
      let at = -1;
      for (const lead of autolink ? ['<'] : ['](', '](<']) {
        const k = within(text, lead + url, cursor, end);
        if (k >= 0 && (at < 0 || k < at)) at = k + lead.length;
      }
      if (at < 0) {
        // A reference's use: reported once, at its definition (below).
        if (referenced.has(url)) continue;
        // Written with escapes or entities: not found as decoded; the next inline destination's text.
        const k = within(text, '](', cursor, end);
        at = k >= 0 ? k + (text[k + 2] === '<' ? 3 : 2) : cursor;
      }
      const length = text.slice(at, end).search(/[\s)>]|$/);
      links.push({ url, offset: at, length, kind: autolink ? 'autolink' : isLink ? 'link' : 'image' });
      cursor = at + Math.max(length, 0);
    }
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
  return { links, anchors, texts: [[0, text.length]], base: null };
}
