// The Prospero client (RFC 1738 3.11): "Prospero URLs are interpreted by contacting a Prospero
// directory server on the specified host and port to determine appropriate access methods for a
// resource, which might themselves be represented as different URLs." It asks the server for the
// object's ACCESS-METHOD attribute (GET-OBJECT-INFO, Prospero v5 3.7) over ARDP on UDP
// (transport.ts), follows FORWARDED replies (Prospero v5 4.2) a few times, and answers with a
// Redirect to the first access method that is a URL (open() follows it within the policy), or,
// with followRedirects: false, with the list of access URLs as text/uri-list (RFC 2483).

import { lookup } from 'node:dns/promises';
import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { fieldsOf } from '../../schemes/fields.js';
import { parse } from '../../schemes/registry.js';
import { build } from '../../build.js';
import { assertAllowed, resolveAllowed, DEFAULT_POLICY } from '../../policy.js';
import { redactUrl } from '../../redact.js';
import { checkTimeout } from '../connection.js';
import { CONNECT_FAILED, PROTOCOL_ERROR, type OpenOptions, type Redirect, type Resource } from '../types.js';
import { exchange } from './transport.js';
import {
  PROSPERO_NO_ACCESS,
  accessUrl,
  buildRequest,
  parseReply,
  replyLines,
  splitHost,
  uriList,
  type AccessUrl,
  type ObjectQuery,
} from './protocol.js';

/** The Prospero port (RFC 1738 3.11: "the port defaults to 1525"). */
export const DEFAULT_PORT = 1525;
/** FORWARDED replies followed at most (the historic client's MAX_FWD_DEPTH is of this order). */
export const MAX_FORWARDS = 4;

/** The object version a URL asks for: the draft's %00 version, else an OBJECT-VERSION field, else "0" (current). */
function versionOf(f: { fields: Record<string, string>; version: string | null }): string {
  if (f.version !== null && f.version !== '') return f.version;
  const name = Object.keys(f.fields).find((n) => n.toUpperCase() === 'OBJECT-VERSION');
  return name !== undefined && f.fields[name] !== '' ? f.fields[name] : '0';
}

async function lookupAll(host: string) {
  try {
    return await lookup(host, { all: true });
  } catch (e) {
    throw new LocatorError(
      CONNECT_FAILED,
      -1,
      `cannot resolve the host ${JSON.stringify(host)}: ${(e as NodeJS.ErrnoException).code ?? e}`,
      { cause: e },
    );
  }
}

interface Asked {
  /** The prospero URL of the server and object (for messages, the policy, and the uri-list). */
  url: Url;
  host: string;
  port: number;
  query: ObjectQuery;
}

/**
 * Resolves a prospero URL to the access methods of its object (RFC 1738 3.11; Prospero v5 3.7,
 * 4.2, A.1.1): the policy judges each server's address before a byte is sent to it.
 */
export async function accessMethods(
  url: Url,
  options: OpenOptions = {},
): Promise<{ asked: Url; methods: AccessUrl[]; warnings: string[] }> {
  const timeout = checkTimeout(options.timeout);
  const policy = options.policy ?? DEFAULT_POLICY;
  const onTranscript = typeof options.transcript === 'function' ? options.transcript : undefined;
  const f = fieldsOf(url, 'prospero');
  if (f.hsoname === null) throw new LocatorError(PROTOCOL_ERROR, -1, 'a Prospero URL names an hsoname (RFC 1738 3.11)');
  const others = Object.keys(f.fields).filter((n) => n.toUpperCase() !== 'OBJECT-VERSION');
  if (others.length > 0) {
    onTranscript?.({
      direction: 'info',
      text: `the fields ${others.join(', ')} identify the link (RFC 1738 3.11); GET-OBJECT-INFO has no place for them`,
    });
  }
  let asked: Asked = {
    url,
    host: url.host ?? '',
    port: url.port ?? DEFAULT_PORT,
    query: { hsoname: f.hsoname, version: versionOf(f) },
  };
  for (let forwards = 0; ; forwards++) {
    const peer = await resolveAllowed(asked.url, policy, lookupAll);
    const text = buildRequest(asked.query);
    for (const line of replyLines(text)) onTranscript?.({ direction: 'send', text: line });
    const r = await exchange({ ...peer, port: asked.port }, new TextEncoder().encode(text), {
      timeout,
      signal: options.signal,
      policy,
      onTranscript,
    });
    const replyText = new TextDecoder('latin1').decode(r.message);
    for (const line of replyLines(replyText)) onTranscript?.({ direction: 'receive', text: line });
    const reply = parseReply(replyText);
    if (reply.forwarded !== null) {
      const fw = reply.forwarded;
      const h = splitHost(fw.host);
      if (fw.hostType !== 'INTERNET-D' || h === null || fw.hsonameType !== 'ASCII') {
        throw new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the Prospero server forwarded to ${fw.hostType} ${fw.host} ${fw.hsonameType} ${fw.hsoname}, which this client cannot reach`,
        );
      }
      if (forwards >= MAX_FORWARDS) {
        throw new LocatorError(PROTOCOL_ERROR, -1, `more than ${MAX_FORWARDS} FORWARDED replies (Prospero v5 4.2)`);
      }
      const host = h.name.includes(':') ? `[${h.name}]` : h.name;
      const port = h.port ?? DEFAULT_PORT;
      let next: Url;
      try {
        next = parse(build('prospero', { host, port, hsoname: fw.hsoname }));
      } catch (e) {
        throw new LocatorError(
          PROTOCOL_ERROR,
          -1,
          `the Prospero server forwarded to a host that is not valid: ${fw.host}`,
          {
            cause: e,
          },
        );
      }
      assertAllowed(next, policy);
      onTranscript?.({ direction: 'info', text: `FORWARDED: asking ${redactUrl(next.href)} (Prospero v5 4.2)` });
      asked = {
        url: next,
        host,
        port,
        query: { hsoname: fw.hsoname, version: fw.version || '0', remoteId: fw.remoteId },
      };
      continue;
    }
    for (const w of reply.warnings) onTranscript?.({ direction: 'info', text: `the server warns: ${w}` });
    const link = {
      hostType: 'INTERNET-D',
      host: asked.port === DEFAULT_PORT ? asked.host : `${asked.host}(${asked.port})`,
      hsonameType: 'ASCII',
      hsoname: asked.query.hsoname,
    };
    return { asked: asked.url, methods: reply.accessMethods.map((m) => accessUrl(m, link)), warnings: reply.warnings };
  }
}

/**
 * Opens a prospero URL (RFC 1738 3.11): a Redirect to the first access method that is a URL,
 * reason "the Prospero access method"; with followRedirects: false, a Resource whose body is the
 * access URLs as text/uri-list (RFC 2483 5). Fails with prospero-no-access-method when the
 * server names none that is a URL (the error lists what it named).
 */
export async function open(url: Url, options: OpenOptions): Promise<Resource | Redirect> {
  const { asked, methods } = await accessMethods(url, options);
  const shown = redactUrl(url.href);
  if (options.followRedirects === false) {
    const bytes = new TextEncoder().encode(uriList(redactUrl(asked.href), methods));
    return {
      meta: {
        scheme: 'prospero',
        url: shown,
        size: bytes.length,
        contentType: 'text/uri-list',
        transcript: [],
      },
      body: new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(bytes);
          c.close();
        },
      }),
    };
  }
  const first = methods.find((m) => m.url !== null);
  if (first === undefined) {
    const what =
      methods.length === 0
        ? 'the server names no access method'
        : methods.map((m) => `${m.method.join(' ')} (${m.why})`).join('; ');
    throw new LocatorError(
      PROSPERO_NO_ACCESS,
      -1,
      `no access method of ${shown} is a URL this client follows: ${what}`,
    );
  }
  return { redirect: first.url!, reason: 'the Prospero access method' };
}
