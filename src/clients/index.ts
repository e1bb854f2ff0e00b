// `locator/clients`: the part of the package that reaches the network (node only). open()
// dereferences a URL the way the specs say (RFC 1738 section 3); it lives in ./open.js. This
// module re-exports, and composes what needs open() and a scheme's own reader (openMenu()), so
// that no scheme's folder imports open() or this index (docs/layering.md). It is also the one
// door of the CLI, the checker and the gateway into the clients (the rule
// clients-through-their-face): each scheme's face (faceOf) and the few helpers they share.

import { open } from './open.js';
import { menuUrl, type Menu } from './gopher/open-menu.js';
import { readMenu } from './gopher/menu.js';
import type { GopherOpenOptions } from './gopher/types.js';
export { open };
export { connect, NO_SESSION, INTERACTIVE_ONLY } from './connect.js';
export type { InteractiveSession, SessionOptions, SessionModule } from './interactive.js';
export type {
  OpenOptions,
  Resource,
  Meta,
  TranscriptLine,
  GatewayConfig,
  ClientModule,
  Redirect,
  HttpExchange,
} from './types.js';
export { gatewayFromEnv } from './proxy.js';
export { readMenu, renderItem, renderMenu } from './gopher/menu.js';
export type { Menu } from './gopher/open-menu.js';
export { parseMenu, parseAttributes, parseAsk, type AttributeSet } from './gopher/parser.js';
export { GopherError, type MenuItem, type AskQuestion, type GopherOpenOptions } from './gopher/types.js';
export { FtpReplyError } from './ftp/errors.js';
export { parseRelay, RELAY_ENV } from './smtp/relay.js';
export type { SendOptions, SendResult } from './smtp/client.js';
export { ReplyError } from './framing/errors.js';
import type { MailMessage } from './smtp/message.js';
import type { Url as UrlRecord } from '../core/url.js';
import type { SendOptions, SendResult } from './smtp/client.js';
import type { WaisServer, WaisServerOptions } from './wais/server.js';
export type { MailMessage, WaisServer, WaisServerOptions };
export { SmtpReplyError } from './smtp/errors.js';
export { NntpReplyError } from './nntp/errors.js';
export { WaisError, WAIS_DIAGNOSTIC } from './wais/types.js';
export { Url } from '../core/url.js';
export { escapeScanner, type EscapeResult } from './rlogin/protocol.js';
export type { Tn3270Session } from './tn3270/session.js';
export { probe, explainProbe, statusOf } from './probe-url.js';
export type { CheckStatus, ProbeOptions, ProbeResult, ProbeModule, SoftErrorSample } from './probe/types.js';
export { followChain, type Chain } from './open.js';
export { faceOf, kindOfUrl, classify, retrievableSchemes, gatewaySchemes, warcProtocolsOf } from './face-of.js';
export { copyBody, type BodyOutput } from './body.js';
export {
  ABORTED,
  CONNECT_FAILED,
  CONNECTION_CLOSED,
  NEEDS_INPUT,
  NO_CLIENT,
  NOT_FOUND,
  PROTOCOL_ERROR,
  TIMEOUT,
  TOO_LARGE,
} from './types.js';
export { startTimer, MAX_TIMER, DEFAULT_TIMEOUT, type Timer } from './connection.js';
export { parseRetryAfter } from './http/retry-after.js';
export { netrcHost } from './nntp/netrc.js';
export { authSecrets } from './smtp/secrets.js';
export type { ClientFace, ObjectKind, GatewayForm, LinkReader, TextItem } from './client-face.js';

/**
 * Opens a gopher URL of type 1 (a menu) or 7 (a search, whose answer is a menu; RFC 1436 3.7)
 * with open() (policy, gateways, transcript as for any URL) and reads its answer as a menu: see
 * gopher/open-menu.ts menuUrl() for the URLs refused with `gopher-not-menu`.
 */
export async function openMenu(url: string | UrlRecord, options: GopherOpenOptions = {}): Promise<Menu> {
  const r = await open(menuUrl(url), options);
  return { meta: r.meta, items: readMenu(r.body) };
}

/**
 * Serves a folder of text files as a WAIS database (RFC 1625; `locator serve --wais`): see
 * wais/server.ts. Loaded on first use.
 */
export async function startWaisServer(options: WaisServerOptions): Promise<WaisServer> {
  return (await import('./wais/server.js')).startWaisServer(options);
}

/**
 * The wais URL of a database at `authority` (RFC 1738 3.9: wais://host:port/database, the name's
 * octets encoded): see wais/client.ts. Loaded on first use.
 */
export async function waisDatabaseUrl(authority: string, database: string): Promise<string> {
  return (await import('./wais/client.js')).databaseUrl(authority, database);
}

/**
 * Sends a message to a mailto URL's address through an SMTP relay (RFC 1738 3.5, RFC 5321): see
 * smtp/client.ts. Loaded on first use, so importing this door loads no TLS module.
 */
export async function send(
  url: string | UrlRecord,
  message: MailMessage,
  options: SendOptions = {},
): Promise<SendResult> {
  return (await import('./smtp/client.js')).send(url, message, options);
}
