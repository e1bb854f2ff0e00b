// The news and nntp probe (RFC 1738 3.6, 3.7; RFC 3977): the session the nntp client opens
// (greeting, CAPABILITIES, MODE READER, AUTHINFO when asked), then STAT <message-id> for an
// article (430: not there), GROUP for a group (411: not there), GROUP and STAT n for an nntp
// article (423: not there), the first line of LIST ACTIVE for news:*. No article is transferred.

import type { Url } from '../../core/url.js';
import { NOT_FOUND, typedError } from '../types.js';
import { fieldsOf } from '../../schemes/fields.js';
import { NntpSession } from './session.js';
import { assertArgument, credentialsFor, listActive, selectGroup, serverOf } from './client.js';
import { decodeText } from './parser.js';
import { result } from '../probe/result.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';

/** STAT (RFC 3977 6.2.4): 223 when the article is there; `missing` (430 or 423) when it is not. */
async function stat(s: NntpSession, arg: string, missing: number): Promise<ProbeResult> {
  const cmd = `STAT ${arg}`;
  const r = await s.command(cmd);
  // The reply text through the session's masking: a server may quote the AUTHINFO password back.
  if (r.code === 223) return result('ok', `223 ${s.conn.redact(r.text)}`, { reply: '223' });
  if (r.code === missing) throw s.error(r, cmd, `no such article: ${r.code} ${r.text}`, NOT_FOUND);
  throw s.error(r, cmd);
}

/** GROUP (RFC 3977 6.1.1): 211 when the group is there (selectGroup makes 411 `not-found`). */
async function group(s: NntpSession, name: string): Promise<ProbeResult> {
  const g = await selectGroup(s, name);
  return result('ok', `211 ${g.count} ${g.low} ${g.high} ${name}`, { reply: '211' });
}

/** news:* (RFC 1738 3.6): LIST ACTIVE (RFC 3977 7.6.3), LIST for an RFC 977 server; its first line. */
async function anyGroup(s: NntpSession): Promise<ProbeResult> {
  await listActive(s);
  const next = s.lineReader();
  let first: string | null = null;
  while (first === null) {
    const batch = await next();
    if (batch === null) break;
    if (batch.length > 0) first = decodeText(batch[0]);
  }
  // The rest of the list is not wanted: the connection is closed in the middle of it (no QUIT).
  s.close();
  return result(
    'ok',
    first === null ? '215 (no groups)' : `215, first group: ${s.conn.redact(first.split(/[ \t]/)[0])}`,
    {
      reply: '215',
    },
  );
}

/** Probes a news or nntp URL (RFC 1738 3.6, 3.7): the steps of nntpSteps(url). */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult> {
  let plan: (s: NntpSession) => Promise<ProbeResult>;
  if (url.scheme === 'news') {
    const f = fieldsOf(url, 'news');
    if (f.kind === 'article') {
      assertArgument('message-id', f.messageId!);
      plan = (s) => stat(s, `<${f.messageId}>`, 430);
    } else if (f.kind === 'group') {
      assertArgument('newsgroup name', f.group!);
      plan = (s) => group(s, f.group!);
    } else {
      plan = anyGroup;
    }
  } else {
    const f = fieldsOf(url, 'nntp');
    const name = f.group ?? '';
    assertArgument('newsgroup name', name);
    const n = f.article;
    plan =
      n === null
        ? (s) => group(s, name)
        : async (s) => {
            await selectGroup(s, name);
            return stat(s, String(n), 423);
          };
  }
  const { host, port } = serverOf(url, options);
  const s = await NntpSession.open(host, port, {
    signal: options.signal,
    timeout: options.timeout,
    policy: options.policy,
    onTranscript: typeof options.transcript === 'function' ? options.transcript : undefined,
    credentials: credentialsFor(host, options),
  });
  try {
    const r = await plan(s);
    if (!s.conn.done) await s.quit();
    return r;
  } catch (e) {
    const err = typedError(e, 'the NNTP probe');
    s.close(err);
    throw err;
  }
}
