// The documents a `#fragment` link names, read for their anchors (lychee's --include-fragments):
// http: and https: documents through open() of the clients, bounded in size and time, each read
// once per run; file: documents by the reader the caller gives (src/check may use no node: module).
import { MAX_TIMER, open, TOO_LARGE, type OpenOptions } from '../../clients/index.js';
import type { MarkupFormat } from './format.js';

/** A document read for its anchors: its text and Content-Type, or why it could not be read. */
export type ReadDocument = { text: string; contentType?: string | null } | { unread: string };

/** Reads the document of a URL without fragment. */
export type DocumentReader = (url: string) => Promise<ReadDocument>;

/** The most of a remote document read for its anchors: past it, its fragments are not checked. */
export const MAX_DOCUMENT = 2 * 1024 * 1024;

/** The format of a Content-Type (RFC 2045 5.1: type/subtype, parameters ignored), null for another type or none. */
export function formatOfType(contentType: string | null | undefined): MarkupFormat | null {
  const t = contentType?.split(';')[0].trim().toLowerCase();
  if (t === 'text/html' || t === 'application/xhtml+xml') return 'html';
  if (t === 'text/markdown' || t === 'text/x-markdown') return 'markdown';
  return null;
}

export interface RemoteOptions {
  /** The silence allowed on any one wait (the probes' --timeout), and the whole read: `deadline` (default 4 times it). */
  timeout?: number;
  deadline?: number;
  policy?: OpenOptions['policy'];
  env?: OpenOptions['env'];
  /** The most octets read (default MAX_DOCUMENT). */
  maxBytes?: number;
}

/** Reads an http: or https: document (RFC 1738 3.3, RFC 1945 through open()): at most `maxBytes`, within the deadline. */
export async function readRemote(url: string, options: RemoteOptions): Promise<ReadDocument> {
  const max = options.maxBytes ?? MAX_DOCUMENT;
  const timeout = options.timeout ?? 10000;
  const deadline = options.deadline ?? 4 * timeout;
  const controller = new AbortController();
  // A deadline past what a timer holds (about 24.8 days) is none.
  const timer = deadline <= MAX_TIMER ? setTimeout(() => controller.abort(), deadline) : undefined;
  try {
    const r = await open(url, {
      signal: controller.signal,
      timeout,
      maxBytes: max,
      ...(options.policy !== undefined ? { policy: options.policy } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
    const reader = r.body.getReader();
    const decoder = new TextDecoder('utf-8');
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
    return { text, contentType: r.meta.contentType };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (controller.signal.aborted) return { unread: `not read within ${deadline} ms` };
    if (code === TOO_LARGE) return { unread: `longer than ${max} octets` };
    return { unread: e instanceof Error ? e.message : String(e) };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * One reader for a run: an http: or https: URL read by readRemote(), a file: URL by `file`, any
 * other left unread; each URL (without fragment) read once, its answer kept for the run.
 */
export function documentReader(file: DocumentReader, options: RemoteOptions): DocumentReader {
  const kept = new Map<string, Promise<ReadDocument>>();
  return (url) => {
    let r = kept.get(url);
    if (r === undefined) {
      r = /^https?:/i.test(url)
        ? readRemote(url, options)
        : /^file:/i.test(url)
          ? file(url)
          : Promise.resolve({ unread: 'not a file:, http: or https: document' });
      kept.set(url, r);
    }
    return r;
  };
}
