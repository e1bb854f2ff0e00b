// Sitemaps (the sitemaps.org protocol 0.9) as seeds of a crawl: a `<urlset>` lists pages in
// `<url><loc>`, a `<sitemapindex>` lists other sitemaps in `<sitemap><loc>`; either may be
// gzip'd; robots.txt names them in `Sitemap:` lines (RFC 9309 2.2.4).
//
// Written by hand, not with an XML library: the protocol needs only the text of `<loc>`
// elements (with the five predefined entities, character references and CDATA), read as the
// octets arrive, within the protocol's own bounds; a general XML parser would add a dependency
// to the crawl layer for that. Markup that is not well-formed is read as far as it goes: a
// sitemap is a hint, and a broken one costs only its seeds.
import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';

/** sitemaps.org: at most 50,000 URLs and 50 MB (52,428,800 octets, uncompressed) per sitemap. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_OCTETS = 52_428_800;
/** The longest `<loc>` read (sitemaps.org: under 2,048 characters); a longer one is skipped. */
export const SITEMAP_MAX_LOC = 2048;

export interface SitemapEntry {
  /** `url` for a page of a `<urlset>`, `sitemap` for a sitemap of a `<sitemapindex>`. */
  kind: 'url' | 'sitemap';
  loc: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of a `<loc>`: entities and character references decoded, white space around it removed. */
export function locText(raw: string): string {
  let s = raw;
  if (s.includes('<![CDATA[')) s = s.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, t: string) => t.replace(/&/g, '&amp;'));
  s = s.replace(/&(#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
    }
    return ENTITIES[e] ?? m;
  });
  return s.trim();
}

/**
 * The entries of a sitemap, read as its octets come (gunzipped first when `gzip`): each `<loc>`
 * inside `<url>` (kind `url`) or `<sitemap>` (kind `sitemap`). Stops after SITEMAP_MAX_URLS
 * entries or SITEMAP_MAX_OCTETS octets of XML, and `notes` says so.
 */
export async function* readSitemap(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  gzip: boolean,
  notes: string[] = [],
): AsyncGenerator<SitemapEntry> {
  let source: AsyncIterable<Uint8Array> = body as AsyncIterable<Uint8Array>;
  if (gzip) source = Readable.from(body as AsyncIterable<Uint8Array>).pipe(createGunzip());
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let octets = 0;
  let count = 0;
  /** The element a `<loc>` is in: the last `<url>` or `<sitemap>` opened. */
  let parent: 'url' | 'sitemap' | null = null;
  const tag = /<(\/?)(url|sitemap|loc)(?=[\s>/])[^>]*>/g;
  try {
    for await (const chunk of source) {
      octets += chunk.length;
      text += decoder.decode(chunk, { stream: true });
      // One pass over the text with a position (no slicing per tag, which would copy the rest
      // of the chunk at each one); only the unread tail is kept for the next chunk.
      let pos = 0;
      for (;;) {
        tag.lastIndex = pos;
        const m = tag.exec(text);
        if (m === null) {
          // Keep only what may be the start of a tag split across chunks.
          const lt = text.lastIndexOf('<');
          pos = lt < pos ? text.length : lt;
          break;
        }
        const [, close, name] = m;
        const after = m.index + m[0].length;
        if (name === 'loc' && close === '') {
          const end = text.indexOf('</loc>', after);
          if (end < 0) {
            // An endless <loc> is skipped; a short one waits for the next chunk.
            pos = text.length - m.index > SITEMAP_MAX_LOC + 64 ? after : m.index;
            if (pos === m.index) break;
            continue;
          }
          const raw = text.slice(after, end);
          pos = end + 6;
          if (parent !== null && raw.length <= SITEMAP_MAX_LOC) {
            const loc = locText(raw);
            if (loc !== '') {
              if (count >= SITEMAP_MAX_URLS) {
                notes.push(
                  `the sitemap lists more than ${SITEMAP_MAX_URLS} URLs: the rest were not read (sitemaps.org)`,
                );
                return;
              }
              count++;
              yield { kind: parent, loc };
            }
          }
          continue;
        }
        if (name !== 'loc') parent = close === '' ? (name as 'url' | 'sitemap') : null;
        pos = after;
      }
      text = text.slice(pos);
      if (octets > SITEMAP_MAX_OCTETS) {
        notes.push(`the sitemap is longer than ${SITEMAP_MAX_OCTETS} octets: the rest was not read (sitemaps.org)`);
        return;
      }
    }
  } catch (e) {
    notes.push(`the sitemap could not be read whole: ${e instanceof Error ? e.message : String(e)}`);
  }
}
