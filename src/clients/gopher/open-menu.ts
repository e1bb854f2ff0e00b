// openMenu(): a gopher URL of type 1 or 7 opened with open() and read as a menu (RFC 1436 3.8,
// appendix), for callers that want the items rather than the bytes. What is gopher's is here
// (which URLs answer with a menu, menuUrl(); the Menu); openMenu() itself is open() then
// readMenu(), in ../index.ts, so that no scheme folder imports open() (docs/layering.md).
//
//   const { meta, items } = await openMenu('gopher://127.0.0.1:7070/1/files');
//   for await (const item of items) console.log(renderItem(item));

import { parse } from '../../schemes/registry.js';
import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import type { GopherPlus } from '../../schemes/gopher.js';
import type { Meta } from '../types.js';
import { GOPHER_NOT_MENU, type MenuItem } from './types.js';

/** A menu being read: what is known of it, and its items as they arrive. */
export interface Menu {
  meta: Meta;
  /** The items in order; breaking out of the loop closes the connection. */
  items: AsyncGenerator<MenuItem, void, undefined>;
}

/**
 * The URL openMenu() opens (RFC 1436 3.8): a gopher URL of type 1 (a menu) or 7 (a search, whose
 * answer is a menu; RFC 1436 3.7). Gopher+ "+" requests are allowed (the header is stripped by the
 * client); "!", "$" and "?" answers are not menus and are refused with `gopher-not-menu`, as are
 * other item types and URLs of other schemes.
 */
export function menuUrl(url: string | Url): Url {
  const u = typeof url === 'string' ? parse(url) : url;
  const f = u.fields as { gophertype?: string; plus?: GopherPlus | null };
  if (u.scheme !== 'gopher' || (f.gophertype !== '1' && f.gophertype !== '7')) {
    throw new LocatorError(
      GOPHER_NOT_MENU,
      -1,
      `${u.scheme === 'gopher' ? `the gophertype is "${f.gophertype}"` : `a ${u.scheme}: URL is not a Gopher item`}: only types 1 (menu) and 7 (search) answer with a menu (RFC 1436 3.8)`,
    );
  }
  const kind = f.plus?.kind;
  if (kind === 'attributes' || kind === 'directory-attributes' || kind === 'ask') {
    throw new LocatorError(
      GOPHER_NOT_MENU,
      -1,
      `a Gopher+ "${u.fields.gopherPlus}" request is answered with attributes or a form, not a menu (RFC 1738 3.4.5-3.4.7)`,
    );
  }
  return u;
}
