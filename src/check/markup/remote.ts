// The documents a `#fragment` link names, read for their anchors (lychee's --include-fragments):
// http: and https: documents through open() of the clients, bounded in size and time, each read
// once per run, in a slot of the checker's limits per server; file: documents by the reader the
// caller gives (src/check may use no node: module), bounded in size as well. The bound in size
// bounds the work of reading a document's anchors too (linear in its length: ./markdown.ts,
// ./html.ts), which no deadline can cut short.
import { MAX_TIMER, open, TOO_LARGE, type OpenOptions } from '../../clients/index.js';
import { Url } from '../../core/url.js';
import { tryParse } from '../../schemes/registry.js';
import { serverKey, type Slot } from '../recurse.js';
import type { MarkupFormat } from './format.js';

/** A document read for its anchors: its text and Content-Type, or why it could not be read. */
export type ReadDocument = { text: string; contentType?: string | null } | { unread: string };

/** Reads the document of a URL without fragment; a read over the network in a slot of `slot` (the checker's limits), when given. */
export type DocumentReader = (url: string, slot?: Slot) => Promise<ReadDocument>;

/** Reads a file: document, at most `maxBytes` octets (past them: `{ unread: longer than N octets }`). */
export type FileReader = (url: string, maxBytes: number) => Promise<ReadDocument>;

/** The most of a document read for its anchors (remote or file:): past it, its fragments are not checked. */
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
    if (code === TOO_LARGE) return tooLong(max);
    return { unread: e instanceof Error ? e.message : String(e) };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** The note of a document past `max` octets. */
export function tooLong(max: number): { unread: string } {
  return { unread: `longer than ${max} octets` };
}

/**
 * One reader for a run: an http: or https: URL read by readRemote() in a slot of its server (host
 * and port) when `slot` is given, a file: URL by `file` (at most `maxBytes`), any other left
 * unread; each URL (without fragment) read once, its answer kept for the run.
 */
export function documentReader(file: FileReader, options: RemoteOptions): DocumentReader {
  const kept = new Map<string, Promise<ReadDocument>>();
  const max = options.maxBytes ?? MAX_DOCUMENT;
  return (url, slot) => {
    let r = kept.get(url);
    if (r === undefined) {
      if (/^https?:/i.test(url)) {
        const u = tryParse(url);
        const read = () => readRemote(url, options);
        r = slot === undefined ? read() : slot(u instanceof Url ? serverKey(u) : url, read);
      } else
        r = /^file:/i.test(url) ? file(url, max) : Promise.resolve({ unread: 'not a file:, http: or https: document' });
      kept.set(url, r);
    }
    return r;
  };
}
