// PLACEHOLDER: the ftp client is being written (issue 7); this file is replaced by it.
import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { NO_CLIENT, type OpenOptions, type Resource } from '../types.js';

export async function open(url: Url, _options: OpenOptions): Promise<Resource> {
  throw new LocatorError(NO_CLIENT, 0, `the ftp client is not written yet (${url.scheme})`);
}
