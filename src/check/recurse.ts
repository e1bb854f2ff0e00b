// --recursive (issue 18): the links inside a Gopher menu (RFC 1436 3.8, RFC 1738 3.4) and the
// names of an FTP directory listing (RFC 1738 3.2.2: NLST), read with open(), as URLs to check.
import type { Url } from '../core/url.js';
import { encode, SEGMENT_SET } from '../core/percent.js';
import { LocatorError } from '../core/errors.js';
import { open } from '../clients/open.js';
import { openMenu } from '../clients/gopher/menu.js';
import type { OpenOptions } from '../clients/types.js';
import type { GopherPlus } from '../schemes/gopher.js';

/** Runs one network operation within the checker's limits (the server key, the operation). */
export type Slot = <T>(host: string, fn: () => Promise<T>) => Promise<T>;

/** What the checker calls to read the links of a URL it follows (injectable: CheckOptions.children). */
export type ChildLister = (url: Url, options: OpenOptions, slot: Slot) => Promise<string[]>;

/** The largest listing read, in octets: a longer one is cut there (the names read so far are kept). */
export const MAX_LISTING = 1 << 20;

/** The server key of a URL: host and port for those with a host, the scheme for the others (news:, file:, mailto:). */
export function serverKey(u: Url): string {
  const host = u.host;
  if (host === null || host === '') return `${u.scheme}:`;
  return `${host.toLowerCase()}:${u.portDigits ?? u.port ?? ''}`;
}

/** True when the URL is a Gopher menu (type 1, not a Gopher+ attribute or form request: RFC 1738 3.4). */
function isGopherMenu(u: Url): boolean {
  if (u.scheme !== 'gopher') return false;
  const f = u.fields as { gophertype?: string; plus?: GopherPlus | null };
  const kind = f.plus?.kind;
  return f.gophertype === '1' && kind !== 'attributes' && kind !== 'directory-attributes' && kind !== 'ask';
}

/** True when the URL is an FTP directory: an empty last segment (a final "/") or `;type=d` (RFC 1738 3.2.2). */
function isFtpDirectory(u: Url): boolean {
  if (u.scheme !== 'ftp') return false;
  const f = u.fields as { name?: string; ftptype?: string | null };
  return f.ftptype === 'd' || f.name === '' || f.name === undefined;
}

/** True when --recursive reads the links of this URL: a Gopher menu or an FTP directory. */
export function followable(u: Url): boolean {
  return isGopherMenu(u) || isFtpDirectory(u);
}

/** The links of a Gopher menu, each item's URL (RFC 1436 3.8: info and error lines have none; a search is not run). */
async function menuLinks(u: Url, options: OpenOptions): Promise<string[]> {
  const menu = await openMenu(u, options);
  const out: string[] = [];
  for await (const item of menu.items) {
    if (item.url !== null && item.type !== 'i' && item.type !== '3') out.push(item.url);
  }
  return out;
}

async function readText(body: ReadableStream<Uint8Array>): Promise<string> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    parts.push(r.value);
    size += r.value.length;
    if (size >= MAX_LISTING) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}

/**
 * The entries of an FTP directory (RFC 1738 3.2.2: NLST, names only), each as a URL under the
 * directory. NLST does not say which names are directories: each name is tried as one (its URL
 * with a final "/", CWD and NLST: one more session per name); a name that is one gets the "/",
 * the others are files.
 */
async function ftpLinks(u: Url, options: OpenOptions, slot: Slot): Promise<string[]> {
  const key = serverKey(u);
  const text = await slot(key, async () => readText((await open(u, options)).body));
  const href = u.withoutFragment;
  const semi = href.lastIndexOf(';type=');
  let base = semi > href.lastIndexOf('/') ? href.slice(0, semi) : href;
  const f = u.fields as { name?: string };
  if (f.name !== '' && !base.endsWith('/')) base += '/';
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const name = line.replace(/\r$/, '').split('/').pop() ?? '';
    if (name !== '' && name !== '.' && name !== '..') names.push(name);
  }
  return Promise.all(
    names.map(async (name) => {
      const child = base + encode(name, SEGMENT_SET);
      const isDir = await slot(key, async () => {
        try {
          const r = await open(child + '/', options);
          await r.body.cancel().catch(() => {});
          return true;
        } catch (e) {
          if (e instanceof LocatorError && e.kind === 'protocol') return false;
          throw e;
        }
      });
      return isDir ? child + '/' : child;
    }),
  );
}

/**
 * The links the checker follows from a Gopher menu or an FTP directory listing (issue 18,
 * `--recursive`), in the order the server lists them; [] for any other URL.
 */
export const listChildren: ChildLister = async (url, options, slot) => {
  if (isGopherMenu(url)) return slot(serverKey(url), () => menuLinks(url, options));
  if (isFtpDirectory(url)) return ftpLinks(url, options, slot);
  return [];
};
