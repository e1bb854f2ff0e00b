// The mid and cid schemes (draft 1994-03: "mid  Message identifiers for electronic mail",
// "cid  Content identifiers for MIME body part"; RFC 1738 section 4 lists both names as under
// development without defining them).
//
//   midaddress     = "mid:" addr-spec               (draft 1994-03 BNF)
//   cidaddress     = "cid:" content-identifier      (draft 1994-03 BNF)
//
// A Message-ID is "<" addr-spec ">" (RFC 822 4.6.1) and a MIME Content-ID has the same form
// (the MIME Content-ID field, RFC 1341), so both URLs write an addr-spec without "<" and ">", encoded as
// in a mailto URL (RFC 1738 3.5). Every mid and cid URL is draft-only.
//
// DEVIATION: the draft gives mid only a message-id. The contract (`mid`: `messageId` and an
// optional `contentId`) follows the later RFC 2111 (1997), mid:<message-id>/<content-id>, which
// names one body part of the message; so in a mid URL an unencoded "/" separates the two, and a
// "/" inside either identifier is written %2F. The "/content-id" part gets its own warning.

import type { Url } from '../core/url.js';
import type { Report, SchemeSpec, Explanation } from './spec.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { XCHAR_SET, encode } from '../core/percent.js';
import { INVALID_FIELD, DRAFT_ONLY } from './codes.js';
import { schemePartRange, type Range } from './ranges.js';
import { text } from './read.js';
import { refuseLoginFields } from './login.js';
import { formatRequest, violationNotes } from './notes.js';
import { checkAddrSpec, flaggedByScanner } from './mailto.js';

export const INVALID_MESSAGE_ID = defineCode(
  'invalid-message-id',
  'error',
  'draft 1994-03 (mid)',
  'a mid URL holds a message-id: an RFC 822 addr-spec, without "<" and ">"',
);
export const INVALID_CONTENT_ID = defineCode(
  'invalid-content-id',
  'error',
  'draft 1994-03 (cid)',
  'a content-id is an RFC 822 addr-spec, without "<" and ">"',
);
export const MID_CONTENT_ID = defineCode(
  'mid-content-id',
  'warning',
  'RFC 2111 2 (later)',
  'the "/content-id" part of a mid URL is defined by RFC 2111 (1997), not by the 1994 draft',
);

/** In a mid URL an unencoded "/" separates message-id and content-id (RFC 2111 2). */
const MID_PART_SET = XCHAR_SET.without('/');

/** The message-id range and, after the first unencoded "/", the content-id range. */
function midParts(url: Url): { message: Range; content: Range | null } {
  const r = schemePartRange(url);
  const s = url.href;
  for (let i = r.start; i < r.end; i++) {
    if (s.charCodeAt(i) === 47) return { message: { start: r.start, end: i }, content: { start: i + 1, end: r.end } };
  }
  return { message: r, content: null };
}

/** Reports the first addr-spec problem of a range under `code`, unless the scanner did. */
function checkId(url: Url, r: Range, report: Report, code: string, what: string): void {
  const p = checkAddrSpec(url.href, r.start, r.end);
  if (p !== null && !flaggedByScanner(url.href, p.offset, r.end))
    report(code, p.offset + url.inputOffset, `${what}: ${p.message}`);
}

function draftOnly(url: Url, report: Report): void {
  report(
    DRAFT_ONLY,
    url.inputOffset,
    `${url.scheme} URLs are defined only by the 1994-03 draft (RFC 1738 4 lists "${url.scheme}" as a name under development)`,
  );
}

/** mid rules (draft 1994-03 midaddress; RFC 2111 2 for "/content-id"). */
function validateMid(url: Url, report: Report): void {
  draftOnly(url, report);
  const { message, content } = midParts(url);
  checkId(url, message, report, INVALID_MESSAGE_ID, 'the message-id is not an addr-spec');
  if (content === null) return;
  report(MID_CONTENT_ID, content.start - 1 + url.inputOffset);
  const s = url.href;
  for (let i = content.start; i < content.end; i++) {
    if (s.charCodeAt(i) === 47) {
      report(
        INVALID_CONTENT_ID,
        i + url.inputOffset,
        'only one "/" stands unencoded in a mid URL, between message-id and content-id: write a "/" of an identifier as %2F (RFC 2111 2)',
      );
      return;
    }
  }
  checkId(url, content, report, INVALID_CONTENT_ID, 'the content-id is not an addr-spec');
}

/** cid rules (draft 1994-03 cidaddress). */
function validateCid(url: Url, report: Report): void {
  draftOnly(url, report);
  checkId(url, schemePartRange(url), report, INVALID_CONTENT_ID, 'the content-id is not an addr-spec');
}

/** mid (drafts; RFC 2111): the message id and an optional content id. */
export interface MidFields {
  messageId: string;
  contentId: string | null;
}

/** cid (drafts; RFC 2111): the content id. */
export interface CidFields {
  contentId: string;
}

/** messageId and contentId (null without "/"), decoded. */
function midFields(url: Url): MidFields {
  const { message, content } = midParts(url);
  return Object.freeze({ messageId: text(url, message), contentId: content === null ? null : text(url, content) });
}

/** contentId, decoded. */
function cidFields(url: Url): CidFields {
  return Object.freeze({ contentId: text(url, schemePartRange(url)) });
}

function idField(f: Record<string, unknown>, name: string, scheme: string, optional: boolean): string | null {
  const v = f[name];
  if ((v === undefined || v === null) && optional) return null;
  if (typeof v !== 'string') throw new LocatorError(INVALID_FIELD, -1, `a ${scheme} URL needs ${name} (a string)`);
  if (v === '')
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `${name} is empty: it is an RFC 822 addr-spec${optional ? ' (use null for none)' : ''}`,
    );
  if (v.length > 1 && v.charCodeAt(0) === 60 && v.charCodeAt(v.length - 1) === 62) {
    throw new LocatorError(INVALID_FIELD, -1, `${name} is written without the enclosing "<" and ">"`);
  }
  return v;
}

/**
 * Writes mid:<message-id>[/<content-id>] (draft 1994-03; RFC 2111 2): each identifier encoded
 * like a mailto address, and "/" as %2F. As for mailto, an identifier RFC 822 does not accept
 * is still written and reported by parse(); an empty one is refused.
 */
function buildMid(f: Record<string, unknown>): string {
  refuseLoginFields(f, 'mid');
  const messageId = idField(f, 'messageId', 'mid', false) as string;
  const contentId = idField(f, 'contentId', 'mid', true);
  const m = encode(messageId, MID_PART_SET);
  return contentId === null ? m : `${m}/${encode(contentId, MID_PART_SET)}`;
}

/** Writes cid:<content-id> (draft 1994-03), encoded like a mailto address. */
function buildCid(f: Record<string, unknown>): string {
  refuseLoginFields(f, 'cid');
  return encode(idField(f, 'contentId', 'cid', false) as string, XCHAR_SET);
}

const NO_PROTOCOL =
  'there is no network protocol: the URL names the object by its identifier, not by where it is, so the client looks it up in the mail (and news) it already holds: its mail store, folders or archives';

/** How a mid URL is resolved: a lookup by Message-ID in a mail store (draft 1994-03). */
function explainMid(url: Url): Explanation {
  const f = midFields(url);
  const steps = [formatRequest(`find the message with the header field "Message-ID: <${f.messageId as string}>"`)];
  const notes = [
    NO_PROTOCOL,
    'mid URLs are defined only by the 1994-03 draft ("Message identifiers for electronic mail")',
    'if no message with this Message-ID is held, the URL cannot be resolved: nothing in it says where the message could be fetched',
  ];
  if (f.contentId !== null) {
    steps.push(
      formatRequest(`in it, find the MIME body part with the header field "Content-ID: <${f.contentId as string}>"`),
    );
    notes.push('the "/content-id" part, which selects one body part of the message, follows RFC 2111 (1997)');
  }
  violationNotes(url, notes);
  return { protocol: 'mail', host: null, port: null, steps, notes };
}

/** How a cid URL is resolved: a lookup by Content-ID among MIME body parts (draft 1994-03). */
function explainCid(url: Url): Explanation {
  const f = cidFields(url);
  const notes = [
    NO_PROTOCOL,
    'cid URLs are defined only by the 1994-03 draft ("Content identifiers for MIME body part")',
    'the body part is looked for first in the MIME message in which the URL appears, then among the other messages held',
  ];
  violationNotes(url, notes);
  return {
    protocol: 'mail',
    host: null,
    port: null,
    steps: [formatRequest(`find the MIME body part with the header field "Content-ID: <${f.contentId as string}>"`)],
    notes,
  };
}

/** mid: a mail message, or one body part of it, by identifier (draft 1994-03). */
export const mid: SchemeSpec<MidFields> = {
  name: 'mid',
  defaultPort: null,
  syntax: 'opaque',
  status: 'draft',
  hierarchical: false, // opaque
  // Read from the local mail store, not fetched from a server.
  readsThisMachine: () => true,
  neverRedirectTarget: true,
  validate: validateMid,
  fields: midFields,
  fieldsFrozen: true,
  build: buildMid,
  explain: explainMid,
  // Nothing is sent: the message is looked up in the local mail store (RFC 1738 6: no delimiter).
  wire: () => [],
};

/** cid: a MIME body part by its Content-ID (draft 1994-03). */
export const cid: SchemeSpec<CidFields> = {
  name: 'cid',
  defaultPort: null,
  syntax: 'opaque',
  status: 'draft',
  hierarchical: false, // opaque
  // Read from the local mail store, not fetched from a server.
  readsThisMachine: () => true,
  neverRedirectTarget: true,
  validate: validateCid,
  fields: cidFields,
  fieldsFrozen: true,
  build: buildCid,
  explain: explainCid,
  // Nothing is sent: the body part is looked up in the local mail store.
  wire: () => [],
};
