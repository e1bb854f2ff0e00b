// A Gopher server's caps.txt (the selector "caps.txt", Floodgap's convention, not an RFC: a first
// line "CAPS", then KEY=VALUE lines, "#" comments): how the server cuts its selectors into paths
// (PathDelimeter, PathIdentity, PathParent, PathParentDouble, PathEscapeCharacter), for the
// breadcrumbs of a menu page, and how long a client should keep the file (ExpireCapsAfter, its
// one cache key: the format has none for the server's other objects). Read by the gateway with
// `--caps` only, once per server per lifetime, bounded in size and time.

import { Url } from '../core/url.js';
import { tryParse } from '../schemes/registry.js';
import { open } from '../clients/index.js';
import { serverKey } from '../crawl/scope.js';
import { decode } from '../core/percent.js';
import { openOptions, type Config } from './config.js';
import { politely } from './upstream.js';

/** The largest caps.txt read: the file is a few kilobytes; past this the rest is not read. */
export const CAPS_MAX_BYTES = 16 * 1024;
/** Kept this long when the file names no ExpireCapsAfter, or when the server has none (seconds). */
export const CAPS_DEFAULT_SECONDS = 3600;
/** ExpireCapsAfter is held to these bounds (seconds): a minute, a day. */
export const CAPS_MIN_SECONDS = 60;
export const CAPS_MAX_SECONDS = 86_400;
/** Time a caps.txt may take in all (milliseconds), besides the gateway's timeout per wait. */
export const CAPS_TIME = 5_000;
/** Servers whose caps are remembered at once; the least recently asked go first. */
const CAPS_SERVERS = 4096;

/** How a server's selectors are paths (caps.txt "PATH SECTION"). */
export interface CapsPath {
  /** PathDelimeter (the file's spelling): the selector cut at it; absent, the selector is opaque. */
  delimiter: string;
  /** PathIdentity (default "."): a segment that is a no-op, x/./y as x/y; null when given empty. */
  identity: string | null;
  /** PathParent (default ".."): a segment that goes up, x/../y as y; null when given empty. */
  parent: string | null;
  /** PathParentDouble: two delimiters in a row go up (Mac: x::y), instead of collapsing to one. */
  parentDouble: boolean;
  /** PathEscapeCharacter: the next character is part of a segment, a delimiter too. */
  escape: string | null;
}

export interface Caps {
  /** CapsVersion, when a number. */
  version: number | null;
  /** ExpireCapsAfter in seconds, within CAPS_MIN_SECONDS..CAPS_MAX_SECONDS, or null when absent. */
  expireAfter: number | null;
  path: CapsPath | null;
}

/** A value of a path key: at most 8 characters, no control characters; else not taken. */
function pathValue(v: string | undefined): string | undefined {
  if (v === undefined || v.length > 8 || /[\x00-\x1f\x7f]/.test(v)) return undefined;
  return v;
}

/**
 * A caps.txt (the text of the selector "caps.txt"), or null when it is none: its first line is
 * not "CAPS". Blank lines and "#" lines are skipped; unknown keys are ignored; a key given twice
 * keeps its first value.
 */
export function parseCaps(text: string): Caps | null {
  const lines = text.slice(0, CAPS_MAX_BYTES).split(/\r?\n/);
  if (lines[0]?.trim() !== 'CAPS') return null;
  const keys = new Map<string, string>();
  for (const line of lines.slice(1)) {
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    if (!keys.has(key)) keys.set(key, line.slice(eq + 1).trim());
  }
  const version = /^[0-9]{1,6}$/.test(keys.get('CapsVersion') ?? '') ? Number(keys.get('CapsVersion')) : null;
  const expires = keys.get('ExpireCapsAfter') ?? '';
  const expireAfter = /^[0-9]{1,12}$/.test(expires)
    ? Math.min(CAPS_MAX_SECONDS, Math.max(CAPS_MIN_SECONDS, Number(expires)))
    : null;
  const delimiter = pathValue(keys.get('PathDelimeter'));
  const identity = pathValue(keys.get('PathIdentity'));
  const parent = pathValue(keys.get('PathParent'));
  const escape = pathValue(keys.get('PathEscapeCharacter'));
  const path: CapsPath | null =
    delimiter === undefined || delimiter === ''
      ? null
      : {
          delimiter,
          // An empty value means none; absent, the defaults (caps.txt's own comments).
          identity: identity === undefined ? '.' : identity === '' ? null : identity,
          parent: parent === undefined ? '..' : parent === '' ? null : parent,
          parentDouble: (keys.get('PathParentDouble') ?? '').toUpperCase() === 'TRUE',
          escape: escape === undefined || escape.length !== 1 || escape === delimiter ? null : escape,
        };
  return { version, expireAfter, path };
}

/** One step of the breadcrumbs: a menu above (or the menu itself, last), its label and selector. */
export interface Crumb {
  label: string;
  selector: string;
}

/**
 * The breadcrumbs of a selector by a server's path rules: the root menu (selector ""), then each
 * menu on the way down, the selector itself last (its identity and parent segments resolved).
 * A leading delimiter is kept in every selector built, as the server wrote its own; consecutive
 * delimiters collapse, unless PathParentDouble, where they go up. DEVIATION: PathKeepPreDelimeter
 * is not read: its meaning is left open by the file's comments, and gophernicus, which says FALSE,
 * serves its menus under selectors that begin with the delimiter ("/files").
 */
export function breadcrumbs(selector: string, path: CapsPath): Crumb[] {
  const d = path.delimiter;
  const lead = selector.startsWith(d) ? d : '';
  // The segments between delimiters, escapes honoured; an empty one marks two delimiters in a row.
  const raw: { text: string; written: string }[] = [];
  let text = '';
  let written = '';
  for (let i = lead.length; i < selector.length;) {
    if (path.escape !== null && selector[i] === path.escape && i + 1 < selector.length) {
      text += selector[i + 1];
      written += selector.slice(i, i + 2);
      i += 2;
    } else if (selector.startsWith(d, i)) {
      raw.push({ text, written });
      text = '';
      written = '';
      i += d.length;
    } else {
      text += selector[i];
      written += selector[i];
      i++;
    }
  }
  if (written !== '') raw.push({ text, written });
  const stack: { text: string; written: string }[] = [];
  for (const seg of raw) {
    if (seg.written === '') {
      if (path.parentDouble) stack.pop();
    } else if (seg.written === path.identity) continue;
    else if (seg.written === path.parent) stack.pop();
    else stack.push(seg);
  }
  const crumbs: Crumb[] = [{ label: '', selector: '' }];
  for (let i = 0; i < stack.length; i++) {
    crumbs.push({
      label: stack[i].text,
      selector:
        lead +
        stack
          .slice(0, i + 1)
          .map((s) => s.written)
          .join(d),
    });
  }
  return crumbs;
}

/** The caps of the servers asked lately, each kept for its lifetime; one request per server at a time. */
export class CapsCache {
  readonly #known = new Map<string, { caps: Caps | null; expires: number }>();
  readonly #flights = new Map<string, Promise<Caps | null>>();
  /** caps.txt requests made (for the tests). */
  requests = 0;
  constructor(
    private readonly fetchText: (url: Url, signal: AbortSignal) => Promise<string | null>,
    private readonly now: () => number = Date.now,
  ) {}

  /** What is known of a server now ("host:port"), for the tests: its caps and until when. */
  entry(server: string): { caps: Caps | null; expires: number } | undefined {
    return this.#known.get(server);
  }

  /**
   * The caps of the Gopher server of `url` (the selector "caps.txt" on its host and port): kept
   * for its ExpireCapsAfter (or an hour), a server without one (or a failure) remembered as such
   * for an hour; null when it has none. A reader who goes away stops waiting, not the request.
   */
  async of(url: Url, signal: AbortSignal): Promise<Caps | null> {
    const server = serverKey(url);
    const known = this.#known.get(server);
    if (known !== undefined && known.expires > this.now()) {
      this.#known.delete(server);
      this.#known.set(server, known);
      return known.caps;
    }
    let flight = this.#flights.get(server);
    if (flight === undefined) {
      const capsUrl = tryParse(`gopher://${url.host ?? ''}${url.explicitPort ? `:${url.portDigits}` : ''}/0caps.txt`);
      if (!(capsUrl instanceof Url)) return null;
      this.requests++;
      flight = (async () => {
        const ac = new AbortController();
        const timer = setTimeout(() => ac.abort(), CAPS_TIME);
        try {
          const text = await this.fetchText(capsUrl, ac.signal).catch(() => null);
          const caps = text === null ? null : parseCaps(text);
          const seconds = caps?.expireAfter ?? CAPS_DEFAULT_SECONDS;
          this.#known.delete(server);
          if (this.#known.size >= CAPS_SERVERS) this.#known.delete(this.#known.keys().next().value!);
          this.#known.set(server, { caps, expires: this.now() + seconds * 1000 });
          return caps;
        } finally {
          clearTimeout(timer);
          this.#flights.delete(server);
        }
      })();
      this.#flights.set(server, flight);
    }
    return new Promise<Caps | null>((resolve) => {
      const gone = () => resolve(null);
      signal.addEventListener('abort', gone, { once: true });
      void flight.then((c) => {
        signal.removeEventListener('abort', gone);
        resolve(c);
      });
    });
  }
}

/**
 * The text of a caps.txt through the gateway's clients and politeness: at most CAPS_MAX_BYTES
 * (the rest is not read: the transfer is cancelled), decoded as Latin-1 (its keys are ASCII);
 * null when it fails.
 */
export async function fetchCapsText(cfg: Config, url: Url, signal: AbortSignal): Promise<string | null> {
  const r = await politely(cfg.upstream, url, signal, () => open(url, openOptions(cfg, signal)));
  const reader = r.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < CAPS_MAX_BYTES) {
      const c = await reader.read();
      if (c.done) break;
      parts.push(c.value);
      size += c.value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(parts).subarray(0, CAPS_MAX_BYTES).toString('latin1');
}

/**
 * The Gopher URLs of the breadcrumbs of a menu URL (`gopher://h/1/a/b`) by the caps of its
 * server, each a type-1 menu on the same host and port (RFC 4266 2: the selector percent-encoded
 * octet by octet where RFC 1738 2.2 asks), or null when its path section says nothing, the URL is
 * no menu or a search, or the selector has nothing above it.
 */
export function crumbUrls(url: Url, caps: Caps | null): { label: string; href: string }[] | null {
  const path = url.path ?? '';
  if (caps?.path == null || path[0] !== '1' || /%09/i.test(path)) return null;
  const selector = Buffer.from(decode(path.slice(1), { strict: false })).toString('latin1');
  const crumbs = breadcrumbs(selector, caps.path);
  if (crumbs.length < 2) return null;
  const base = `gopher://${url.host ?? ''}${url.explicitPort ? `:${url.portDigits}` : ''}/1`;
  return crumbs.map((c, i) => ({
    label: i === 0 ? `${url.host ?? ''}${url.explicitPort ? `:${url.portDigits}` : ''}` : c.label,
    href:
      base +
      c.selector.replace(
        /[^A-Za-z0-9$\-_.+!*'(),;:@&=/]/g,
        (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
      ),
  }));
}
