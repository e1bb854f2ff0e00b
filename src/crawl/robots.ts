// robots.txt, the Robots Exclusion Protocol (RFC 9309): parsed once per server, then asked for
// every URL of that server. The same rules serve a web server's /robots.txt and a Gopher server's
// `robots.txt` selector (Gopher crawlers such as Veronica-2 read it at the root), where the "path"
// matched is the selector.
//
// A one-pass reader over the lines and a matcher over char codes: a hostile robots.txt (a long
// pattern of `*`, a million lines) costs time linear in its size per URL asked, never more.

/** RFC 9309 2.5: crawlers MUST parse at least 500 kibibytes; the rest is not read. */
export const ROBOTS_MAX_OCTETS = 500 * 1024;

/** The most rules kept from one file (allow and disallow together): a longer file is cut there. */
export const ROBOTS_MAX_RULES = 10000;

/** One allow or disallow line of a group, its pattern normalized for comparison (RFC 9309 2.2.2). */
export interface RobotsRule {
  allow: boolean;
  /** The pattern as compared: `*` any run of octets, a final `$` the end of the path. */
  pattern: string;
}

/** What a robots.txt says to one crawler (its product token). */
export interface RobotsPolicy {
  /** The rules of the groups that name the crawler, else of the `*` group, else none (RFC 9309 2.2.1). */
  rules: readonly RobotsRule[];
  /** `Crawl-delay` of those groups, in milliseconds (not in RFC 9309: a widely honoured extension), or null. */
  crawlDelay: number | null;
  /** `Sitemap:` lines, wherever they stand (RFC 9309 2.2.4: other records), as written. */
  sitemaps: readonly string[];
  /** True when the groups applied were found by the crawler's own product token (not `*`). */
  named: boolean;
  /** Notes on what was not read: a file cut at ROBOTS_MAX_OCTETS, rules past ROBOTS_MAX_RULES. */
  notes: readonly string[];
}

/** The policy of a robots.txt that does not exist (RFC 9309 2.3.1.3, "unavailable"): everything allowed. */
export const ALLOW_ALL: RobotsPolicy = Object.freeze({
  rules: Object.freeze([]) as readonly RobotsRule[],
  crawlDelay: null,
  sitemaps: Object.freeze([]) as readonly string[],
  named: false,
  notes: Object.freeze([]) as readonly string[],
});

/** The policy of a robots.txt that could not be read (RFC 9309 2.3.1.4, "unreachable"): everything disallowed. */
export const DISALLOW_ALL: RobotsPolicy = Object.freeze({
  rules: Object.freeze([Object.freeze({ allow: false, pattern: '/' })]) as readonly RobotsRule[],
  crawlDelay: null,
  sitemaps: Object.freeze([]) as readonly string[],
  named: false,
  notes: Object.freeze([]) as readonly string[],
});

const isTokenChar = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d; // A-Z a-z _ -

/**
 * True when `token` is a valid product token (RFC 9309 2.2.1: `[a-zA-Z_-]+`), the name by which a
 * crawler finds its group.
 */
export function isProductToken(token: string): boolean {
  if (token.length === 0) return false;
  for (let i = 0; i < token.length; i++) if (!isTokenChar(token.charCodeAt(i))) return false;
  return true;
}

/**
 * The product token a `user-agent` line names: its value up to the first character that is not
 * one of a token (`ExampleBot/1.0` names `examplebot`), lower case; `*` for the catch-all group;
 * null for a value that names no token. RFC 9309 2.2.1.
 */
function agentOf(value: string): string | null {
  if (value.charCodeAt(0) === 0x2a) return '*';
  let end = 0;
  while (end < value.length && isTokenChar(value.charCodeAt(end))) end++;
  return end === 0 ? null : value.slice(0, end).toLowerCase();
}

const HEX = '0123456789ABCDEF';
const hexValue = (c: number) =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
/** RFC 3986 2.3: ALPHA DIGIT - . _ ~ */
const isUnreserved = (c: number) =>
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x30 && c <= 0x39) ||
  c === 0x2d ||
  c === 0x2e ||
  c === 0x5f ||
  c === 0x7e;

/**
 * A path or pattern in the form RFC 9309 2.2.2 compares: octets outside ASCII percent-encoded
 * (UTF-8), escapes of unreserved characters decoded, the hex digits of the other escapes upper
 * case; everything else as written. In a pattern `*` and `$` are left alone (they are the
 * pattern's own); in a path (`path` true) they are encoded.
 */
export function robotsForm(s: string, path = false): string {
  let plain = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 || c > 0x7e || c < 0x21 || (path && (c === 0x2a || c === 0x24))) {
      plain = false;
      break;
    }
  }
  if (plain) return s;
  let out = '';
  const bytes = new TextEncoder().encode(s);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x25 && i + 2 < bytes.length && hexValue(bytes[i + 1]) >= 0 && hexValue(bytes[i + 2]) >= 0) {
      const v = hexValue(bytes[i + 1]) * 16 + hexValue(bytes[i + 2]);
      if (isUnreserved(v)) out += String.fromCharCode(v);
      else out += '%' + HEX[v >> 4] + HEX[v & 15];
      i += 2;
    } else if (b > 0x7e || b < 0x21 || (path && (b === 0x2a || b === 0x24))) {
      // In a path, `*` and `$` are octets like any other: encoded, so that only a pattern's own
      // escapes `%2A` and `%24` match them (RFC 9309 2.2.3).
      out += '%' + HEX[b >> 4] + HEX[b & 15];
    } else {
      out += String.fromCharCode(b);
    }
  }
  return out;
}

interface Group {
  agents: string[];
  rules: RobotsRule[];
  crawlDelay: number | null;
}

/**
 * Reads a robots.txt (RFC 9309 2.1-2.2) for the crawler whose product token is `token`: the groups
 * that name it (merged, 2.2.1), else the `*` groups, else no rule at all. Lines that are not
 * records are ignored (2.2: "crawlers SHOULD try to parse each line"); keys are case-insensitive;
 * `#` starts a comment; an empty `disallow` forbids nothing. Only the first ROBOTS_MAX_OCTETS are
 * read. `Crawl-delay` (seconds, a decimal number) is read from the same groups.
 */
export function parseRobots(text: string, token: string): RobotsPolicy {
  if (!isProductToken(token))
    throw new RangeError(`robots: ${JSON.stringify(token)} is not a product token ([a-zA-Z_-]+, RFC 9309 2.2.1)`);
  const notes: string[] = [];
  if (text.length > ROBOTS_MAX_OCTETS) {
    // Characters, not octets: the cut is at or past the octet bound, never before it.
    text = text.slice(0, ROBOTS_MAX_OCTETS);
    notes.push(`robots.txt is longer than ${ROBOTS_MAX_OCTETS} octets: the rest was not read (RFC 9309 2.5)`);
  }
  const me = token.toLowerCase();
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  /** True while the lines read since the last rule are user-agent lines (one group's heading). */
  let heading = false;
  let ruleCount = 0;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start <= text.length) {
    // One line: [start, end); its comment starts at `stop`, its key ends at `colon` (searched
    // within the line only: a search to the end of the text per line would be quadratic).
    let end = start;
    let stop = -1;
    let colon = -1;
    while (end < text.length) {
      const c = text.charCodeAt(end);
      if (c === 0x0a || c === 0x0d) break;
      if (c === 0x23 && stop < 0) stop = end;
      else if (c === 0x3a && colon < 0 && stop < 0) colon = end;
      end++;
    }
    if (stop < 0) stop = end;
    if (colon >= 0) {
      const key = text.slice(start, colon).trim().toLowerCase();
      const value = text.slice(colon + 1, stop).trim();
      if (key === 'user-agent') {
        if (!heading || current === null) {
          current = { agents: [], rules: [], crawlDelay: null };
          groups.push(current);
          heading = true;
        }
        const agent = agentOf(value);
        if (agent !== null) current.agents.push(agent);
      } else if (key === 'allow' || key === 'disallow') {
        heading = false;
        if (current !== null && value.length > 0) {
          if (ruleCount < ROBOTS_MAX_RULES) current.rules.push({ allow: key === 'allow', pattern: robotsForm(value) });
          else if (ruleCount === ROBOTS_MAX_RULES)
            notes.push(`robots.txt has more than ${ROBOTS_MAX_RULES} rules: the rest were not read`);
          ruleCount++;
        }
      } else if (key === 'crawl-delay') {
        heading = false;
        const n = /^[0-9]{1,7}(\.[0-9]{1,6})?$/.test(value) ? Number(value) : NaN;
        if (current !== null && Number.isFinite(n)) current.crawlDelay = Math.round(n * 1000);
      } else if (key === 'sitemap') {
        if (value.length > 0 && sitemaps.length < 1000) sitemaps.push(value);
      }
    }
    if (end >= text.length) break;
    // CR LF is one line end; a lone CR or LF is one too (RFC 9309 2.2: EOL).
    start = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
  }
  let chosen = groups.filter((g) => g.agents.includes(me));
  const named = chosen.length > 0;
  if (!named) chosen = groups.filter((g) => g.agents.includes('*'));
  const rules: RobotsRule[] = [];
  let crawlDelay: number | null = null;
  for (const g of chosen) {
    for (const r of g.rules) rules.push(Object.freeze(r));
    if (g.crawlDelay !== null) crawlDelay = Math.max(crawlDelay ?? 0, g.crawlDelay);
  }
  return Object.freeze({
    rules: Object.freeze(rules),
    crawlDelay,
    sitemaps: Object.freeze(sitemaps),
    named,
    notes: Object.freeze(notes),
  });
}

/**
 * The length of the longest prefix match of `pattern` against the whole of `path`, or -1 when it
 * does not match (RFC 9309 2.2.2, 2.2.3): `*` matches any run of characters, a final `$` anchors
 * at the end of the path. Patterns match from the path's start. Greedy with one backtrack point
 * (the last `*`), which is linear in path length times the number of `*`-separated pieces.
 */
export function matchLength(pattern: string, path: string): number {
  let end = pattern.length;
  const anchored = end > 0 && pattern.charCodeAt(end - 1) === 0x24; // '$'
  if (anchored) end--;
  // Pieces between stars, matched left to right, each at its first place after the last: the
  // standard linear matcher for a pattern of literals and `*` (earliest match of each piece is
  // never worse for the pieces after it).
  let p = 0; // position in pattern
  let s = 0; // position in path
  let first = true;
  while (p <= end) {
    let star = pattern.indexOf('*', p);
    if (star < 0 || star > end) star = end;
    const piece = pattern.slice(p, star);
    const last = star === end;
    if (first) {
      if (!path.startsWith(piece, 0)) return -1;
      s = piece.length;
      first = false;
      if (last) {
        if (anchored && s !== path.length) return -1;
        return pattern.length;
      }
    } else if (last && anchored) {
      // The last piece after a star, anchored: it must end the path.
      if (path.length - piece.length < s || !path.endsWith(piece)) return -1;
      return pattern.length;
    } else {
      const at = path.indexOf(piece, s);
      if (at < 0) return -1;
      s = at + piece.length;
      if (last) return pattern.length;
    }
    p = star + 1;
  }
  return pattern.length;
}

/**
 * Whether `policy` lets the crawler fetch `path` (the path and query of an http URL, from its `/`;
 * a Gopher selector made to start with `/`): the rule with the longest matching pattern decides,
 * an allow winning a tie (RFC 9309 2.2.2); no matching rule allows. `/robots.txt` itself is always
 * allowed (2.2.2). Returns the deciding rule, or null when none matched.
 */
export function robotsVerdict(policy: RobotsPolicy, path: string): { allowed: boolean; rule: RobotsRule | null } {
  const p = robotsForm(path.length === 0 ? '/' : path, true);
  if (p === '/robots.txt') return { allowed: true, rule: null };
  let best: RobotsRule | null = null;
  let bestLength = -1;
  for (const r of policy.rules) {
    const n = matchLength(r.pattern, p);
    if (n < 0) continue;
    if (n > bestLength || (n === bestLength && r.allow && best !== null && !best.allow)) {
      best = r;
      bestLength = n;
    }
  }
  return { allowed: best === null || best.allow, rule: best };
}
