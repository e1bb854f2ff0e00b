// A stand-in for the per-scheme probes of issue 18 (part 1, written beside this one): probe()
// opens the URL with open() and cancels the body unread, so `locator check` runs while the real
// probes are written. It has the contract's signature (./types.ts) and is replaced at the merge.
import { parse } from '../../schemes/registry.js';
import { Url, expectUrl } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { open } from '../open.js';
import type { ProbeOptions, ProbeResult } from './types.js';

export type { ProbeOptions, ProbeResult, ProbeModule, CheckStatus } from './types.js';

/** The reply code of a protocol error (FTP, NNTP, SMTP carry it; HTTP's is in the message). */
function replyOf(e: unknown): string | undefined {
  const r = (e as { replyCode?: unknown }).replyCode;
  if (typeof r === 'number') return String(r);
  const m = /answered ([0-9]{3})\b/.exec(e instanceof Error ? e.message : '');
  return m === null ? undefined : m[1];
}

/** A failure of open() as a probe result (the statuses of issue 18). */
function failed(e: unknown, started: number): ProbeResult {
  const ms = Date.now() - started;
  if (!(e instanceof LocatorError)) {
    return { status: 'unreachable', reason: String(e), temporary: false, redirects: [], transcript: [], ms };
  }
  const reply = replyOf(e);
  const base = { reason: e.detail, code: e.code, redirects: [], transcript: [], ms };
  if (e.kind === 'policy') return { ...base, status: 'refused', temporary: false };
  if (e.kind === 'network') {
    return { ...base, status: 'unreachable', temporary: e.code === 'timeout' || e.code === 'connection-closed' };
  }
  // FTP and SMTP 4yz replies are transient (RFC 959 4.2, RFC 5321 4.2.1); NNTP's 411, 423 and 430
  // say the group or article is not there (RFC 3977 3.2.1), only 400 is "try again later".
  const temporary =
    reply !== undefined &&
    (e.code === 'ftp-reply' || e.code === 'smtp-reply'
      ? reply.startsWith('4')
      : e.code === 'nntp-reply'
        ? reply === '400'
        : reply === '503');
  return reply === undefined
    ? { ...base, status: 'broken', temporary }
    : { ...base, reply, status: 'broken', temporary };
}

/**
 * Proves that the object of `url` is there (RFC 1738 3, issue 18): here by opening it with
 * open() and cancelling its body unread (more traffic than the real probes send).
 */
export async function probe(url: string | Url, options: ProbeOptions = {}): Promise<ProbeResult> {
  expectUrl(url, 'probe: the URL');
  const started = Date.now();
  try {
    const u = typeof url === 'string' ? parse(url) : url;
    const r = await open(u, { ...options, transcript: options.transcript ?? false });
    await r.body.cancel().catch(() => {});
    const redirects = r.meta.redirects ?? [];
    const what = r.meta.status !== undefined ? `${r.meta.status}` : 'opened';
    return {
      status: redirects.length > 0 ? 'redirected' : 'ok',
      reason: redirects.length > 0 ? `${what} after ${redirects.length} redirect(s) to ${r.meta.url}` : what,
      ...(r.meta.status !== undefined ? { reply: String(r.meta.status) } : {}),
      temporary: false,
      redirects: redirects.length > 0 ? [...redirects.slice(1), r.meta.url] : [],
      transcript: r.meta.transcript,
      ms: Date.now() - started,
    };
  } catch (e) {
    return failed(e, started);
  }
}

/** The steps a probe of `url` sends (`explain --probe`): here, those of open(). */
export function explainProbe(url: string | Url): string[] {
  expectUrl(url, 'explainProbe: the URL');
  const u = typeof url === 'string' ? parse(url) : url;
  return [`open ${u.scheme} URL and cancel the body unread`];
}
