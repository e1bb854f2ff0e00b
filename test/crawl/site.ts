// A generated site for the crawl's tests: page i links to a few others by a fixed rule, some
// links are written in other forms of the same URL (normal forms), some go to another server,
// some are broken. Pure: no network (the visitor is the crawl's seam; the clients' own tests and
// the checker's use the real servers).
import type { Url } from '../../src/core/url.js';
import type { Visit } from '../../src/crawl/engine.js';

export const SITE = 'http://site.test:8081';

/** The links of page `i` of a site of `n` pages. */
export function linksOf(i: number, n: number): string[] {
  const out: string[] = [];
  for (const k of [1, 2, 7, 31]) out.push(`${SITE}/p/${(i * k + k) % n}.html`);
  out.push(`${SITE}/p/${(i + 1) % n}.html#frag`); // the same object as the first link
  out.push(`HTTP://SITE.TEST:8081/p/${(i + 3) % n}.html`); // another form of a URL of the site
  if (i % 10 === 0) out.push(`${SITE}/missing/${i}`);
  if (i % 25 === 0) out.push(`http://elsewhere.test/x${i}`);
  return out;
}

/** A visitor over the generated site: pages have links; `/missing/` is broken. */
export function siteVisitor(n: number, onVisit?: (url: string) => void, pause = 0) {
  return async (u: Url, _e: unknown, follow: boolean): Promise<Visit> => {
    onVisit?.(u.href);
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
    const m = /\/p\/(\d+)\.html/.exec(u.href);
    if (u.host?.toLowerCase() !== 'site.test' || m === null) {
      const broken = u.href.includes('/missing/');
      return {
        verdict: { status: broken ? 'broken' : 'ok', attempts: 1, ms: 1, reason: broken ? '404 Not Found' : '200 OK' },
      };
    }
    return {
      verdict: { status: 'ok', attempts: 1, ms: 1, reason: '200 OK' },
      links: follow ? linksOf(Number(m[1]), n) : null,
    };
  };
}
