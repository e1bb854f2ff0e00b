// The reverse of resolve(): the shortest partial form of a target against a base, under each
// edition of the rules (RFC 1808, RFC 3986 5, the October 1993 draft's partial form).

import { LocatorError, defineCode } from '../core/errors.js';
import { parse } from '../schemes/registry.js';
import { Url, expectUrl } from '../core/url.js';
import { resolve } from './resolve.js';
import { readBase, ruleName, split, type ResolveOptions } from './partial.js';

export const UNREACHABLE_TARGET = defineCode(
  'unreachable-target',
  'error',
  'RFC 3986 5.2.2',
  'no partial form resolves to this target under these rules',
);

function tryResolve(base: Url, partial: string, options: ResolveOptions): string | null {
  try {
    return resolve(base, partial, options);
  } catch (e) {
    if (e instanceof LocatorError) return null;
    throw e;
  }
}

/**
 * The relative path from the directory of `basePath` to `targetPath` (both with a leading "/"),
 * in the forms worth trying: with "../" steps, with a "./" prefix (for a first segment that is
 * empty, holds ":", or would be read otherwise), and "." / ".." for a directory.
 */
function relativePaths(basePath: string, targetPath: string): string[] {
  const bs = basePath.split('/');
  bs.pop(); // the last segment of the base path is replaced (RFC 1808 4 step 6, RFC 3986 5.2.3)
  const ts = targetPath.split('/');
  const last = ts.pop() as string;
  let k = 0;
  while (k < bs.length && k < ts.length && bs[k] === ts[k]) k++;
  if (k === 0) return []; // the leading "" differs: not both absolute
  const ups = bs.length - k;
  const rest = [...ts.slice(k), last].join('/');
  const up = '../'.repeat(ups);
  const out = [up + rest, './' + up + rest];
  if (rest === '') {
    out.push(ups === 0 ? '.' : up.slice(0, -1));
  }
  return out;
}

/**
 * The shortest partial form that resolves back to `target` against `base` under the same rules
 * (RFC 1808 by default): the empty reference, a fragment, a query or params, a relative path, an
 * absolute path, a net path, or the whole target (the first of these on a tie) (draft 1993-10: "If the scheme parts are
 * different, the whole absolute locator must be given"). Every candidate is checked by
 * resolving it, so the answer always satisfies resolve(base, answer) === target; when no form
 * does (RFC 3986 removes dot segments even from absolute references), `unreachable-target`.
 */
export function relativize(base: string | Url, target: string | Url, options?: ResolveOptions): string {
  expectUrl(base, 'relativize: the base URL');
  expectUrl(target, 'relativize: the target URL');
  const rules = options?.rfc ?? 1808;
  const opts: ResolveOptions = { ...options, rfc: rules };
  const bu = readBase(base);
  const tu = typeof target === 'string' ? parse(target) : target;
  const t = tu.href;
  const b = split(bu.href, rules, false);
  const p = split(t, rules, false);
  const candidates: string[] = [];
  const sameScheme = p.scheme - p.start === b.scheme - b.start && t.slice(0, p.scheme) === bu.href.slice(0, b.scheme);
  if (sameScheme) {
    candidates.push('');
    const frag = p.frag >= 0 ? t.slice(p.frag - 1) : '';
    candidates.push(frag === '' ? '#' : frag);
    const sameAuth =
      p.auth >= 0 ? b.auth >= 0 && t.slice(p.auth, p.authEnd) === bu.href.slice(b.auth, b.authEnd) : b.auth < 0;
    if (sameAuth) {
      if (p.query >= 0) candidates.push(t.slice(p.query - 1));
      if (p.params >= 0) candidates.push(t.slice(p.params - 1));
      const bPath = bu.href.slice(b.path, b.pathEnd);
      const tPath = t.slice(p.path, p.pathEnd);
      if (rules === 'draft-1993-10') {
        // The draft's path runs to the fragment: compare and append that.
        const bAll = bu.href.slice(b.path, b.bodyEnd);
        const tAll = t.slice(p.path, p.bodyEnd);
        if (bAll.charCodeAt(0) === 47 && tAll.charCodeAt(0) === 47) {
          for (const rel of relativePaths(bAll, tAll)) candidates.push(rel + t.slice(p.bodyEnd));
        }
      } else if (bPath.charCodeAt(0) === 47 && tPath.charCodeAt(0) === 47) {
        const afterPath = t.slice(p.pathEnd); // params, query, fragment (as the rules split them)
        for (const rel of relativePaths(bPath, tPath)) candidates.push(rel + afterPath);
      }
      if (p.path < p.pathEnd && t.charCodeAt(p.path) === 47) candidates.push(t.slice(p.path));
    }
    if (p.auth >= 0) candidates.push(t.slice(p.auth - 2));
  }
  candidates.push(t);
  let best: string | null = null;
  for (const c of candidates) {
    if (best !== null && c.length >= best.length) continue;
    if (tryResolve(bu, c, opts) === t) best = c;
  }
  if (best === null) {
    throw new LocatorError(
      UNREACHABLE_TARGET,
      0,
      `no partial form resolves to ${JSON.stringify(t)} against ${JSON.stringify(bu.href)} under ${ruleName(rules)}${rules === 3986 ? ' (RFC 3986 5.2.2 removes dot segments from every path it does not inherit)' : ''}`,
      { input: t },
    );
  }
  return best;
}
