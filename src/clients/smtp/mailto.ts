// open() for mailto URLs (RFC 1738 3.5): "the mailto URL scheme is used to designate the Internet
// mailing address of an individual or service. No additional information other than an Internet
// mailing address is present or implied." There is no object to read, so open() refuses with a
// stable code that names what to do instead: send() (`locator send`).

import { LocatorError } from '../../core/errors.js';
import type { Url } from '../../core/url.js';
import type { OpenOptions, Resource } from '../types.js';
import { MAILTO_NOT_RETRIEVABLE } from './errors.js';

/** Refuses to open a mailto URL (RFC 1738 3.5): code `mailto-not-retrievable`, naming send(). */
export async function open(url: Url, _options: OpenOptions): Promise<Resource> {
  throw new LocatorError(
    MAILTO_NOT_RETRIEVABLE,
    url.inputOffset,
    'a mailto URL designates a mailbox, not an object to open (RFC 1738 3.5): use send(url, message, options) from locator/clients, or `locator send`, to send a message to it',
  );
}
