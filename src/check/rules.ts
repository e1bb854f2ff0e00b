// Which URLs check() leaves out: --exclude and --include patterns and the lines of an ignore file
// (.locatorignore), with lychee's precedence: a URL that matches an include pattern is checked;
// else one that matches an exclude pattern (or an ignore line) is left out; else, when include
// patterns were given and no exclude pattern, it is left out too (the includes are then a list
// of what to check); else it is checked. --exclude-loopback and --exclude-private leave out
// URLs by their host as written (an include match still wins).
import { Url } from '../core/url.js';
import { tryParse } from '../schemes/registry.js';
import { linearPattern } from './pattern.js';

export interface Rules {
  include?: readonly string[];
  exclude?: readonly string[];
  /** Leave out URLs whose host is `localhost` or a loopback address (127.0.0.0/8, ::1). */
  excludeLoopback?: boolean;
  /** Leave out URLs whose host is a private or link-local address (RFC 1918, RFC 3927, RFC 4193, RFC 4291 2.5.6). */
  excludePrivate?: boolean;
}

/** The kind of a URL's host as written (no name is looked up): loopback, private, or other (null). */
export function hostKind(url: string): 'loopback' | 'private' | null {
  const u = tryParse(url);
  if (!(u instanceof Url)) return null;
  const host = (u.host ?? '').toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)) {
    return 'loopback';
  }
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4 !== null) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254))
      return 'private';
    return null;
  }
  if (/^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host)) return 'private';
  return null;
}

/** The patterns of an ignore file: one regular expression a line; blank lines and lines starting with "#" skipped. */
export function ignoreLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/**
 * The `skip` of check() for `rules` (regular expressions of ECMAScript, unanchored, matched
 * against the URL as reported, in linear time: pattern.ts): null when there are none. A pattern
 * that does not compile, or uses a backreference or a lookaround, is a PatternError (a
 * SyntaxError) naming it.
 */
export function skipper(rules: Rules): ((url: string) => boolean) | null {
  const include = (rules.include ?? []).map((p) => linearPattern(p, 'the include pattern'));
  const exclude = (rules.exclude ?? []).map((p) => linearPattern(p, 'the exclude pattern'));
  const kinds = [rules.excludeLoopback === true ? 'loopback' : null, rules.excludePrivate === true ? 'private' : null];
  const byHost = kinds.some((k) => k !== null);
  if (include.length === 0 && exclude.length === 0 && !byHost) return null;
  return (url: string) => {
    if (include.some((r) => r.test(url))) return false;
    if (byHost) {
      const kind = hostKind(url);
      if (kind !== null && kinds.includes(kind)) return true;
    }
    if (exclude.length === 0) return include.length > 0;
    return exclude.some((r) => r.test(url));
  };
}
