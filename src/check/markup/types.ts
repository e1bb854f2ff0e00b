// What the readers of markup (./html.ts, ./markdown.ts) give ./index.ts.

/** A link destination as written in the markup, at `offset` (UTF-16 code units) in the source. */
export interface RawLink {
  /** The destination: entities and backslash escapes decoded, surrounding white space removed. */
  url: string;
  offset: number;
  /** The length of its text in the source (for overlaps with the plain-text URLs). */
  length: number;
  /** Where it came from: `a href`, `img src`, `link`, `image`, `autolink`, `definition`. */
  kind: string;
}

/** What a reader found in a document. */
export interface Read {
  links: RawLink[];
  /** The fragment identifiers the document defines: ids, anchor names, heading slugs. */
  anchors: Set<string>;
  /** The spans [start, end) of text where plain-text URLs are looked for. */
  texts: [number, number][];
  /** The first <base href>, or null. */
  base: RawLink | null;
  /** The spans [start, end) of verbatim text: code blocks and code spans, `<pre>` and `<code>` elements. */
  verbatim: [number, number][];
}
