// The links of an HTML document, read with parse5 (the WHATWG HTML parsing algorithm, with the
// source location of every element, attribute and text node): each URL-carrying attribute, the
// document's <base href>, its ids and anchor names, and the spans of its text nodes (where the
// plain-text URLs of the RFC 1738 appendix are looked for).
import { parse, parseFragment } from 'parse5';
import type { RawLink, Read } from './types.js';

/**
 * The attributes that hold a URL, by element (HTML Living Standard, "URLs" in the index of
 * attributes: href, src, cite, action, formaction, data, poster, longdesc, manifest).
 */
const URL_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  area: ['href'],
  link: ['href'],
  base: ['href'],
  img: ['src', 'longdesc'],
  iframe: ['src', 'longdesc'],
  frame: ['src', 'longdesc'],
  script: ['src'],
  embed: ['src'],
  source: ['src'],
  track: ['src'],
  audio: ['src'],
  video: ['src', 'poster'],
  input: ['src', 'formaction'],
  button: ['formaction'],
  form: ['action'],
  object: ['data'],
  blockquote: ['cite'],
  q: ['cite'],
  del: ['cite'],
  ins: ['cite'],
  html: ['manifest'],
};

/** Elements whose text is no prose: no plain-text URL is looked for in it. */
const NOT_PROSE = new Set(['script', 'style', 'template', 'textarea']);

/** Elements of verbatim text (code, preformatted text): left out unless verbatim text is asked for (Read.verbatim). */
const VERBATIM = new Set(['pre', 'code']);

interface Location {
  startOffset: number;
  endOffset: number;
  attrs?: Record<string, { startOffset: number; endOffset: number }>;
}
interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  sourceCodeLocation?: Location | null;
}

/** The offset of an attribute's value in `text` (after `=`, white space and an opening quote). */
function valueOffset(text: string, at: { startOffset: number; endOffset: number }): number {
  const raw = text.slice(at.startOffset, at.endOffset);
  const m = /^[^=]*=[\t\n\f\r ]*["']?/.exec(raw);
  return at.startOffset + (m === null ? raw.length : m[0].length);
}

/** ASCII white space (HTML, "ASCII whitespace"): tab, LF, FF, CR, space. */
function asciiSpace(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
}

/** The start and end of `value` without its leading and trailing ASCII white space, in one pass each way. */
function trimmed(value: string): [number, number] {
  let start = 0;
  let end = value.length;
  while (start < end && asciiSpace(value.charCodeAt(start))) start++;
  while (end > start && asciiSpace(value.charCodeAt(end - 1))) end--;
  return [start, end];
}

/**
 * The links of HTML `text` (a whole document, or with `fragment` a piece of one, such as an HTML
 * block of Markdown), their offsets moved by `shift`. HTML strips leading and trailing ASCII
 * white space from a URL attribute (HTML, "valid URL potentially surrounded by spaces"): so does this.
 */
export function htmlLinks(text: string, shift = 0, fragment = false): Read {
  const root = (fragment
    ? parseFragment(text, { sourceCodeLocationInfo: true })
    : parse(text, { sourceCodeLocationInfo: true })) as unknown as Node;
  const links: RawLink[] = [];
  const anchors = new Set<string>();
  const texts: [number, number][] = [];
  const verbatim: [number, number][] = [];
  let base: RawLink | null = null;
  // Depth first, in document order, with a stack of its own: a document nested however deep
  // (parse5 keeps every level) cannot exhaust the call stack.
  const stack: [Node, boolean][] = [[root, true]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, prose] = next;
    const loc = node.sourceCodeLocation;
    if (node.nodeName === '#text') {
      if (prose && loc) texts.push([loc.startOffset + shift, loc.endOffset + shift]);
      continue;
    }
    const tag = node.tagName;
    if (tag !== undefined && VERBATIM.has(tag) && loc) verbatim.push([loc.startOffset + shift, loc.endOffset + shift]);
    if (tag !== undefined && node.attrs !== undefined) {
      const names = URL_ATTRIBUTES[tag] ?? [];
      for (const a of node.attrs) {
        if (a.name === 'id' || (a.name === 'name' && tag === 'a')) anchors.add(a.value);
        if (!names.includes(a.name)) continue;
        const at = loc?.attrs?.[a.name];
        const [lead, stop] = trimmed(a.value);
        const url = a.value.slice(lead, stop);
        const offset = (at === undefined ? (loc?.startOffset ?? 0) : valueOffset(text, at) + lead) + shift;
        const link: RawLink = { url, offset, length: url.length, kind: `${tag} ${a.name}` };
        if (tag === 'base') {
          if (base === null) base = link;
          continue;
        }
        links.push(link);
      }
    }
    const inner = prose && !NOT_PROSE.has(tag ?? '');
    const children = node.childNodes ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], inner]);
  }
  return { links, anchors, texts, base, verbatim };
}
