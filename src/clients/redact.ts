// PLACEHOLDER until the security issue's redaction helpers land (src/redact.ts replaces this).
import { tryParse } from '../core/parse.js';
import { Url } from '../core/url.js';

/** The URL with its password replaced by ****. */
export function redactHref(href: string): string {
  const u = tryParse(href);
  if (!(u instanceof Url) || u.rawPassword === null || u.rawPassword === '') return href;
  const c = u.components().password!;
  return href.slice(0, c[0]) + '****' + href.slice(c[1]);
}
