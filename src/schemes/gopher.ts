// The gopher scheme (RFC 1738 3.4.1-3.4.9 and the section 5 production gopherurl; the Gopher
// section of draft-url-1994-03 for Gopher+ strings and what the client sends; RFC 1436 for
// selectors and item types).
//
//   gopher://<host>:<port>/<gophertype><selector>%09<search>%09<gopher+_string>
//
//   gopherurl      = "gopher://" hostport [ / [ gtype [ selector
//                    [ "%09" search [ "%09" gopher+_string ] ] ] ] ]
//   gtype          = xchar
//   selector       = *xchar
//   gopher+_string = *xchar
//
// "Within the <gopher-path>, no characters are reserved" (3.4.1): "?", ";", "/" are selector
// characters like any other, and only the escape "%09" (TAB) separates the parts.

import { normalizeEscapes, DECODE_ALL_GRAPHIC_SAFE } from '../core/escapes.js';
import { bodySet, usualLogin } from '../core/analyze.js';
import type { Url } from '../core/url.js';
import type { Explanation, Report, SchemeSpec, WirePart } from './spec.js';
import { CR, LF, LINE, NUL, TAB, wirePart } from './wire.js';
import { defineCode, LocatorError } from '../core/errors.js';
import { XCHAR_SET, decode, encode, hexValue, textToOctets } from '../core/percent.js';
import { INVALID_FIELD } from './codes.js';
import { isEscape, isSurrogatePair, pathRange, type Range } from './ranges.js';
import { stringField, text } from './read.js';
import { buildLogin, refuseLogin } from './login.js';
import { formatRequest, violationNotes } from './notes.js';

export const SELECTOR_LINE_END = defineCode(
  'gopher-selector-line-end',
  'error',
  'RFC 1738 3.4.1',
  'a selector may contain any octets except TAB, LF and CR',
);
export const INVALID_GOPHERTYPE = defineCode(
  'invalid-gophertype',
  'error',
  'RFC 1738 3.4.1',
  'the gophertype is a single printable US-ASCII character (RFC 1436 item types); an escape must not decode to a control character or an octet above 7F',
);

/** The item types RFC 1436 defines. */
const RFC1436_TYPES = '0123456789+TgI';

/** The parts of a gopher-path as ranges of href (RFC 1738 5 gopherurl). */
export interface GopherParts {
  /** The gtype: one character or one escape; null when the gopher-path is empty. */
  gtype: Range | null;
  selector: Range;
  search: Range | null;
  gopherPlus: Range | null;
}

/** True when href[i, i+3) is the escape "%09" (an encoded TAB). */
function isTab(h: string, i: number, end: number): boolean {
  return i + 2 < end && h.charCodeAt(i) === 37 && h.charCodeAt(i + 1) === 48 && h.charCodeAt(i + 2) === 57;
}

/**
 * Splits the gopher-path (RFC 1738 3.4.1, 5 gopherurl): the gtype is the first xchar (a
 * character, or an escape of three characters); the selector runs to the first "%09", the search
 * to the second; everything after the second "%09" is the gopher+_string, whatever it holds.
 * Null when the URL has no gopher-path (no "/" after host[:port], or no "//" at all).
 *
 * The one cut of a gopher URL: the fields, lint's delimiter check (the entry's `wire`) and the
 * client's request all read these ranges.
 */
export function gopherParts(url: Url): GopherParts | null {
  const r = pathRange(url);
  if (r === null || r.start === r.end) return null;
  const h = url.href;
  const end = r.end;
  let g = r.start + 1;
  if (isEscape(h, r.start, end)) g = r.start + 3;
  else if (isSurrogatePair(h, r.start, end)) g++;
  const parts: GopherParts = {
    gtype: { start: r.start, end: g },
    selector: { start: g, end },
    search: null,
    gopherPlus: null,
  };
  // Speed: the "%09" separators found by indexOf, not by a look at every character.
  const t1 = h.indexOf('%09', g);
  if (t1 < 0 || t1 + 2 >= end) return parts;
  parts.selector.end = t1;
  const t2 = h.indexOf('%09', t1 + 3);
  if (t2 < 0 || t2 + 2 >= end) parts.search = { start: t1 + 3, end };
  else {
    parts.search = { start: t1 + 3, end: t2 };
    parts.gopherPlus = { start: t2 + 3, end };
  }
  return parts;
}

/**
 * The gopher rules beyond the generic syntax: no user or password (RFC 1738 5: gopherurl has a
 * hostport, not a login), and a gophertype that a Gopher menu line can carry (RFC 1436: one
 * character before the display string; TAB, CR and LF delimit the lines and fields). The
 * scanner has reported raw TAB, CR, LF and other characters that must be encoded; an encoded
 * CR or LF in the selector is allowed by the grammar (selector = *xchar) and left to the linter.
 */
function validate(url: Url, report: Report): void {
  if (url.userStart >= 0) refuseLogin(url, report, 'RFC 1738 5 (gopherurl)');
  const s = url.pathStart;
  const end = url.bodyEnd;
  if (s < 0 || s === end) return;
  const h = url.href;
  const p = gopherParts(url);
  if (p !== null) checkSelector(url, h, p.selector.start, p.selector.end, report);
  if (!isEscape(h, s, end)) return;
  const octet = (hexValue(h.charCodeAt(s + 1)) << 4) | hexValue(h.charCodeAt(s + 2));
  if (octet < 32 || octet >= 127) {
    const what =
      octet === 9
        ? 'TAB (a gopher-path cannot start with "%09": the gophertype comes first)'
        : octet === 13 || octet === 10
          ? 'a line end'
          : octet < 128
            ? 'a control character'
            : 'an octet above 7F';
    report(
      INVALID_GOPHERTYPE,
      s + url.inputOffset,
      `the gophertype "${h.slice(s, s + 3)}" decodes to ${what}; a gophertype is one printable US-ASCII character (RFC 1738 3.4.1, RFC 1436)`,
    );
  }
}

/**
 * The usual gopher URL, which neither the generic rules nor validate() report anything in (RFC
 * 1738 3.4.1, 5): host and port, then a gopher-path whose gophertype is no escape and which
 * holds no escape of LF or CR.
 */
const USUAL = /* @__PURE__ */ usualLogin(
  `(?:[${/* @__PURE__ */ bodySet('')}][${/* @__PURE__ */ bodySet('')}]*(?:%(?![0][AaDd])[0-9A-Fa-f]{2}[${/* @__PURE__ */ bodySet('')}]*)*)?`,
);

/**
 * RFC 1738 3.4.1: "the selector string ... may contain any octets except 09 hexadecimal (US-ASCII
 * HT or tab) 0A hexadecimal (US-ASCII character LF), and 0D (US-ASCII character CR)". The
 * selector is href[from, end), as gopherParts cuts it (a %09 ends it: the search follows); an
 * escape of LF or CR inside it is a violation at its offset.
 */
function checkSelector(url: Url, h: string, from: number, end: number, report: Report): void {
  for (let i = h.indexOf('%', from); i >= 0 && i + 2 < end; i = h.indexOf('%', i + 1)) {
    if (h.charCodeAt(i + 1) !== 48) continue;
    const lo = h.charCodeAt(i + 2) | 32;
    if (lo === 97 || lo === 100) {
      report(
        SELECTOR_LINE_END,
        i + url.inputOffset,
        `"${h.slice(i, i + 3)}" decodes to ${lo === 97 ? 'LF' : 'CR'}, which a selector may not contain (RFC 1738 3.4.1): it would end the request line`,
      );
    }
  }
}

/** A Gopher+ string, read (RFC 1738 3.4.4-3.4.9, draft 1994-03 Gopher). */
export interface GopherPlus {
  /**
   * `item` "+" (the default view, 3.4.4); `view` "+view_name[ language_name]" (3.4.8);
   * `form` a "+" line followed by a data block, such as a filled-in +ASK form (3.4.9);
   * `ask` "?" (an item with a +ASK form to fill in, 3.4.5); `attributes` "!" or "!names"
   * (3.4.6-3.4.7); `directory-attributes` "$" or "$names"; `other` anything else.
   */
  kind: 'item' | 'view' | 'form' | 'ask' | 'attributes' | 'directory-attributes' | 'other';
  /** The view name of a "+" string (e.g. "application/postscript"), or null. */
  view: string | null;
  /** The language name after the space (e.g. "Es_ES"), or null. */
  language: string | null;
  /** For "!" and "$": the attribute names asked for ([] = all of them); otherwise null. */
  attributes: string[] | null;
  /** For `form`: what follows the first CR LF (the data block), as sent; otherwise null. */
  dataBlock: string | null;
  /** For a "+-1" data block ending with "." on a line of its own: the values, one per line. */
  askData: string[] | null;
}

/** Reads a decoded Gopher+ string (RFC 1738 3.4.4-3.4.9, draft 1994-03 "Summary: gopher+ string"). */
export function readGopherPlus(g: string): GopherPlus {
  const out: GopherPlus = {
    kind: 'other',
    view: null,
    language: null,
    attributes: null,
    dataBlock: null,
    askData: null,
  };
  const lead = g.charCodeAt(0);
  if (g === '?') out.kind = 'ask';
  else if (lead === 33 || lead === 36) {
    // 3.4.6-3.4.7: "!" or "$", then attribute names separated by (coded) spaces.
    out.kind = lead === 33 ? 'attributes' : 'directory-attributes';
    out.attributes = g
      .slice(1)
      .split(' ')
      .filter((a) => a !== '');
  } else if (lead === 43) {
    // 3.4.8-3.4.9: "+" [view_name [ " " language_name ]] [ TAB "1" CR LF data block ].
    const eol = g.indexOf('\r\n');
    const line = eol < 0 ? g : g.slice(0, eol);
    const tab = line.indexOf('\t');
    const head = tab < 0 ? line.slice(1) : line.slice(1, tab);
    if (head !== '') {
      const sp = head.indexOf(' ');
      out.view = sp < 0 ? head : head.slice(0, sp);
      out.language = sp < 0 ? null : head.slice(sp + 1);
    }
    if (eol >= 0) {
      out.kind = 'form';
      const block = g.slice(eol + 2);
      out.dataBlock = block;
      if (block.startsWith('+-1\r\n') && block.endsWith('\r\n.\r\n')) {
        const body = block.slice(5, block.length - 5);
        out.askData = body === '' ? [] : body.split('\r\n');
      } else if (block === '+-1\r\n.\r\n') out.askData = [];
    } else out.kind = out.view === null ? 'item' : 'view';
  }
  return out;
}

/**
 * The text the client sends (RFC 1738 3.4.2, 3.4.3, 3.4.9; draft 1994-03 Gopher): the selector,
 * then TAB and the search when the search is not empty, then TAB and the Gopher+ string when it
 * is not empty, then CR LF, unless the Gopher+ string carries its own line end and data block
 * (3.4.9), which is sent as written. For "?" (3.4.5) the first thing sent is the request for the
 * +ASK attribute: selector TAB "!+ASK" CR LF.
 *
 * DEVIATION: an empty search is not sent. RFC 1738 3.4.3 reads as if the client sent selector
 * TAB (empty search) TAB Gopher+ string, but its own 3.4.9 example, the draft's examples
 * ("a_gopher_selector<tab>+<cr><lf>" for "%09%09+"), the draft's item 4 ("Otherwise this is an
 * empty string") and the Gopher+ protocol all send selector TAB "+" with no empty field between.
 * An empty Gopher+ string is not sent either (there is nothing to send).
 * For "?" the URL does not give the form's answers, so `request` is the first exchange only.
 * For type 7 with no search, `request` is the selector alone; explain() shows the prompt.
 */
function request(selector: string, search: string | null, gopherPlus: string | null): string {
  if (gopherPlus === '?') return `${selector}\t!+ASK\r\n`;
  let out = selector;
  if (search !== null && search !== '') out += '\t' + search;
  if (gopherPlus !== null && gopherPlus !== '') {
    out += '\t' + gopherPlus;
    if (gopherPlus.includes('\r\n')) return out;
  }
  return out + '\r\n';
}

/** gopher (RFC 1738 3.4): gophertype, selector, search, Gopher+ string, and the request sent. */
export interface GopherFields {
  gophertype: string;
  selector: string;
  search: string | null;
  gopherPlus: string | null;
  /** The exact text the client sends, CR LF included. */
  request: string;
  plus: GopherPlus | null;
}

/**
 * The decoded fields (contract: gophertype, selector, search, gopherPlus, request; plus `plus`,
 * the Gopher+ string read). An empty gopher-path means type "1" and the empty selector (3.4.1).
 */
const NO_SELECTOR: GopherFields = Object.freeze({
  gophertype: '1',
  selector: '',
  search: null,
  gopherPlus: null,
  request: '\r\n',
  plus: null,
});

function fields(url: Url): GopherFields {
  // Speed: a gopher-path without "%" (no escape, so no "%09" either) is a gophertype of one
  // character (or a surrogate pair) and the selector as written; no ranges are made.
  const start = url.pathStart;
  const end = url.bodyEnd;
  if (start < 0 || start === end) return NO_SELECTOR;
  const h = url.href;
  const pc = h.indexOf('%', start);
  if (pc < 0 || pc >= end) {
    const g = isSurrogatePair(h, start, end) ? start + 2 : start + 1;
    const selector = h.slice(g, end);
    return Object.freeze({
      gophertype: h.slice(start, g),
      selector,
      search: null,
      gopherPlus: null,
      request: selector + '\r\n',
      plus: null,
    });
  }
  const p = gopherParts(url)!;
  const gophertype = text(url, p.gtype!);
  const selector = text(url, p.selector);
  const search = p.search === null ? null : text(url, p.search);
  const gopherPlus = p.gopherPlus === null ? null : text(url, p.gopherPlus);
  // Frozen here, every part (fieldsFrozen): the record walks nothing.
  return Object.freeze({
    gophertype,
    selector,
    search,
    gopherPlus,
    request: request(selector, search, gopherPlus),
    plus: gopherPlus === null ? null : frozenPlus(readGopherPlus(gopherPlus)),
  });
}

/** A Gopher+ string read, frozen with its lists (the record's fields are immutable). */
function frozenPlus(p: GopherPlus): GopherPlus {
  if (p.attributes !== null) Object.freeze(p.attributes);
  if (p.askData !== null) Object.freeze(p.askData);
  return Object.freeze(p);
}

/** Refuses a TAB where it would read as the next separator (RFC 1436: no TAB, CR, LF in a selector). */
function noTab(name: string, v: string | null): void {
  if (v === null) return;
  const i = v.indexOf('\t');
  if (i >= 0) {
    throw new LocatorError(
      INVALID_FIELD,
      i,
      `the ${name} cannot hold a TAB: "%09" separates selector, search and Gopher+ string (RFC 1738 3.4.1, RFC 1436)`,
    );
  }
}

/**
 * Builds "//host[:port]/" gophertype selector [ "%09" search [ "%09" gopher+_string ]]
 * (RFC 1738 5 gopherurl). No character is reserved in the gopher-path, so only what may never
 * stand in a URL is encoded ("%", "#", unsafe characters, controls, non-ASCII). A TAB in the
 * selector or search is refused (it would read as "%09", the separator); a TAB in the Gopher+
 * string is written %09 (3.4.9). A Gopher+ string needs the search before it: a null search is
 * written empty (3.4.3). `request` and `plus` are derived and ignored.
 */
function build(f: Record<string, unknown>): string {
  let out = buildLogin(f, { allowLogin: false, defaultPort: 70 });
  const gophertype = stringField(f, 'gophertype') ?? '1';
  const selector = stringField(f, 'selector') ?? '';
  let search = stringField(f, 'search');
  const gopherPlus = stringField(f, 'gopherPlus');
  const t = gophertype.charCodeAt(0);
  if (gophertype.length !== 1 || t < 32 || t >= 127) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `the gophertype must be one printable US-ASCII character, not ${JSON.stringify(gophertype)} (RFC 1738 3.4.1, RFC 1436)`,
    );
  }
  noTab('selector', selector);
  noTab('search', search);
  const le = selector.search(/[\r\n]/);
  if (le >= 0) {
    throw new LocatorError(
      INVALID_FIELD,
      le,
      'a selector may contain any octets except TAB, LF and CR (RFC 1738 3.4.1): it would end the request line',
    );
  }
  if (gopherPlus !== null && search === null) search = '';
  out += '/' + encode(gophertype, XCHAR_SET) + encode(selector, XCHAR_SET);
  if (search !== null) out += '%09' + encode(search, XCHAR_SET);
  if (gopherPlus !== null) out += '%09' + encode(gopherPlus, XCHAR_SET);
  return out;
}

/** What RFC 1436 and the Gopher+ protocol say the server answers, by item type. */
function answerNote(type: string, plus: GopherPlus | null): string | null {
  if (plus !== null && (plus.kind === 'item' || plus.kind === 'view' || plus.kind === 'form')) {
    return 'a Gopher+ server answers with a header line first: "+<length>" (that many octets follow), "+-1" (data ending with "." on a line of its own) or "+-2" (data until the connection closes); "-" instead of "+" means an error (Gopher+, RFC 1738 3.4.3)';
  }
  if (plus !== null && (plus.kind === 'attributes' || plus.kind === 'directory-attributes')) {
    return `the server answers with the attribute blocks (+INFO, +ADMIN, +VIEWS, +ABSTRACT, ...) of ${plus.kind === 'attributes' ? 'the item' : 'every item in the directory'} (RFC 1738 3.4.6)`;
  }
  if (type === '1' || type === '7')
    return 'the server answers with a menu: lines of type and display string, TAB selector TAB host TAB port, ended by a line "." (RFC 1436)';
  if (type === '0') return 'the server answers with text ended by a line "." (RFC 1436)';
  return null;
}

/**
 * The access algorithm (RFC 1738 3.4.1-3.4.9, RFC 1436): connect to host:port (70 by default)
 * and send the request; the server answers and closes. Steps show TAB, CR and LF as <TAB>,
 * <CR><LF>; notes say what the client must add (a search to prompt for, a form to fill in).
 */
function explain(url: Url): Explanation {
  const notes = violationNotes(url);
  const steps: string[] = [];
  const host = url.host;
  if (host === null || host === '') {
    notes.push('no host to connect to: a gopher URL is gopher://<host>:<port>/<gopher-path> (RFC 1738 3.4.1)');
    return { protocol: 'gopher', host, port: url.port, steps, notes };
  }
  const f = url.fields as unknown as GopherFields; // the fields this module makes (fields() above)
  const type = f.gophertype;
  if (url.path === null || url.path === '') {
    notes.push(
      'the gopher-path is empty: type "1" (a directory) and the empty selector, the server\'s top directory (RFC 1738 3.4.1)',
    );
  }
  const noSearch = f.search === null || f.search === '';
  if (f.plus?.kind === 'ask') {
    steps.push(formatRequest(f.request));
    let second = f.selector + (noSearch ? '' : '\t' + f.search) + '\t+\t1\r\n+-1\r\n';
    second = formatRequest(second) + '<each answer><CR><LF>.<CR><LF>';
    steps.push(second);
    notes.push(
      '"?" marks an item with a +ASK form: the client fetches the +ASK attribute, asks the user to fill out the form, and sends the answers with the selector (RFC 1738 3.4.5, 3.4.9)',
    );
  } else if (f.plus?.kind === 'form') {
    // DEVIATION (RFC 1738 3.4.9 sends the form in one exchange): the client asks for the form
    // first, and sends the data block only to a server that announces it (RFC 1738 6).
    steps.push(formatRequest(f.selector + '\t!+ASK\r\n'));
    steps.push(formatRequest(f.request));
    notes.push(
      "the URL carries a filled-in +ASK form, a data block of several lines (RFC 1738 3.4.9): the client first asks for the item's +ASK attribute and sends the block only when the server answers as a Gopher+ server with that form, one value per question; off port 70 only to a port the policy allows, never to one of another protocol, never after a redirect (RFC 1738 6)",
    );
  } else if (type === '7' && noSearch && f.gopherPlus === null) {
    steps.push(formatRequest(f.selector + '\t') + '<search string><CR><LF>');
    notes.push(
      'type 7 is a search engine and the URL gives no search string: the client prompts for one and sends it after a TAB (RFC 1738 3.4.2, RFC 1436); the request field holds the selector alone',
    );
  } else {
    steps.push(formatRequest(f.request));
  }
  if (f.search === '' && f.gopherPlus === null)
    notes.push(
      'the search is empty: nothing follows the selector (draft 1994-03 Gopher: "Otherwise this is an empty string")',
    );
  if (f.search === '' && f.gopherPlus !== null && f.gopherPlus !== '') {
    notes.push(
      'the search is empty, so the Gopher+ string follows the selector after one TAB (RFC 1738 3.4.9; draft 1994-03 Gopher examples)',
    );
  }
  if (f.plus !== null && f.plus.kind === 'other' && f.gopherPlus !== '') {
    notes.push(
      `the Gopher+ string ${JSON.stringify(f.gopherPlus)} starts with none of "+", "?", "!", "$" (RFC 1738 3.4.4-3.4.9): it is sent as written`,
    );
  }
  if (type === 'h' && /^\/?URL:/.test(f.selector)) {
    notes.push(
      `a type "h" item whose selector starts with "URL:" points to another URL (${f.selector.replace(/^\/?URL:/, '')}): a client that knows the convention goes there instead of sending the selector (a Gopher server convention, not RFC 1436)`,
    );
  }
  if (type === '8' || type === 'T') {
    notes.push(
      `type ${type} is a ${type === '8' ? 'Telnet' : 'tn3270'} session (RFC 1436): the client opens a session to host:port instead of sending a request; the selector, if any, names the account to log in as. Links to other protocols should be written as URLs of those protocols (draft 1993-10 Gopher)`,
    );
  } else if (!RFC1436_TYPES.includes(type)) {
    notes.push(
      `type ${JSON.stringify(type)} is not one of the RFC 1436 item types (0-9, +, T, g, I): the client treats the answer by its own convention`,
    );
  }
  const answer = answerNote(type, f.plus);
  if (answer !== null) notes.push(answer);
  if (f.selector.includes('?')) {
    notes.push(
      'the 1993 drafts read "?" in a gopher URL as the start of a search; RFC 1738 3.4.1 reserves no character in the gopher-path, so "?" is part of the selector here',
    );
  }
  if (/[\r\n]/.test(f.selector) || (f.search !== null && /[\r\n]/.test(f.search))) {
    notes.push(
      'the selector or search holds an encoded CR or LF: sent decoded it ends the request line early and the rest reads as another line (RFC 1738 6)',
    );
  }
  if (decodeFailed(url))
    notes.push(
      'some escapes decode to octets that are not UTF-8: the client sends the octets themselves; the fields show them as U+FFFD',
    );
  if (url.fragment !== null) notes.push(`the fragment "#${url.fragment}" is not sent (draft 1993-10 fragment-id)`);
  return { protocol: 'gopher', host, port: url.port, steps, notes };
}

/** True when the decoded path is not the same octets as its UTF-8 text (shown as U+FFFD). */
function decodeFailed(url: Url): boolean {
  const r = pathRange(url);
  if (r === null || url.href.indexOf('%', r.start) < 0) return false;
  const octets = decode(url.href, { strict: false }, r.start, r.end);
  const again = textToOctets(text(url, r));
  if (again.length !== octets.length) return true;
  for (let i = 0; i < octets.length; i++) if (again[i] !== octets[i]) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// What the client sends (RFC 1738 6)

/** The octets of href[start, end) with the href offset of each (an escape's "%"). */
function octetsAt(h: string, start: number, end: number): { octets: number[]; at: number[] } {
  const octets: number[] = [];
  const at: number[] = [];
  for (let i = start; i < end; i++) {
    if (isEscape(h, i, end)) {
      octets.push((hexValue(h.charCodeAt(i + 1)) << 4) | hexValue(h.charCodeAt(i + 2)));
      at.push(i);
      i += 2;
      continue;
    }
    octets.push(h.charCodeAt(i));
    at.push(i);
  }
  return { octets, at };
}

/**
 * The Gopher+ string's own check (RFC 1738 3.4.3-3.4.9, 6): returns the offsets in href of the
 * escapes that smuggle a line. NUL never belongs there. CR and LF belong only to the electronic
 * form of 3.4.9, "a coded version of what the client sends":
 *   "+" [view [" " language]] TAB "1" CR LF  "+-1" CR LF  *(value CR LF)  "." CR LF
 * where no value is "." alone (that line ends the data block) and nothing follows the final line.
 * The first CR or LF outside that form is reported: from there on the client would send lines the
 * URL's form does not account for. A TAB is the Gopher+ request line's own field separator (the
 * TAB before the data flag "1" in 3.4.9) and is not reported.
 */
export function checkGopherPlus(url: Url, part: { start: number; end: number }): number[] {
  const { octets, at } = octetsAt(url.href, part.start, part.end);
  const n = octets.length;
  const found: number[] = [];
  let firstBreak = -1;
  for (let k = 0; k < n; k++) {
    const o = octets[k];
    if (o === NUL) found.push(at[k]);
    else if ((o === CR || o === LF) && firstBreak < 0) firstBreak = k;
  }
  if (firstBreak < 0) return found;
  // Walk the form line by line; `k` is the start of the current line.
  const lineEnd = (k: number): number => {
    while (k < n && octets[k] !== CR && octets[k] !== LF) k++;
    return k;
  };
  const isCrLf = (k: number) => k + 1 < n && octets[k] === CR && octets[k + 1] === LF;
  const equals = (k: number, e: number, t: string) => {
    if (e - k !== t.length) return false;
    for (let j = 0; j < t.length; j++) if (octets[k + j] !== t.charCodeAt(j)) return false;
    return true;
  };
  const bad = (k: number) => {
    found.push(at[k]);
    return found;
  };
  // Line 1: "+" ... TAB "1"
  let e = lineEnd(0);
  if (!(octets[0] === 43 && e >= 3 && octets[e - 2] === TAB && octets[e - 1] === 49 && isCrLf(e))) return bad(e);
  let k = e + 2;
  // Line 2: "+-1"
  e = lineEnd(k);
  if (e === n) return found; // no further line end: the block is unfinished, but nothing is smuggled
  if (!(equals(k, e, '+-1') && isCrLf(e))) return bad(e);
  k = e + 2;
  // Values, then ".".
  for (;;) {
    e = lineEnd(k);
    if (e === n) return found;
    if (!isCrLf(e)) return bad(e);
    if (equals(k, e, '.')) {
      const after = lineEnd(e + 2);
      return after < n ? bad(after) : found;
    }
    k = e + 2;
  }
}

/** The href offset of the first escaped CR or LF in href[start, end), or -1. */
function firstLineEnd(h: string, start: number, end: number): number {
  for (let i = h.indexOf('%', start); i >= 0 && i + 2 < end; i = h.indexOf('%', i + 1)) {
    if (!isEscape(h, i, end)) continue;
    const o = (hexValue(h.charCodeAt(i + 1)) << 4) | hexValue(h.charCodeAt(i + 2));
    if (o === CR || o === LF) return i;
    i += 2;
  }
  return -1;
}

const REQUEST_LINE = 'the Gopher request "<selector> TAB <search>" CR LF';

/**
 * What the client sends (RFC 1738 3.4.2-3.4.9, 6): the selector and the search in the request
 * line "<selector> TAB <search>" CR LF (a TAB cannot stand there: each %09 is the separator, and
 * the gtype is not sent), and the Gopher+ string with its own check: NUL never, CR LF only in the
 * electronic form of 3.4.9, whose data block is marked (`dataBlockAt`) for lint and the policy.
 */
function wire(url: Url): WirePart[] {
  const p = gopherParts(url);
  if (p === null) return [];
  const out: WirePart[] = [wirePart('the selector', p.selector.start, p.selector.end, REQUEST_LINE, LINE)];
  if (p.search !== null) out.push(wirePart('the search', p.search.start, p.search.end, REQUEST_LINE, LINE));
  if (p.gopherPlus !== null) {
    const { start, end } = p.gopherPlus;
    const at = firstLineEnd(url.href, start, end);
    out.push({
      what: 'the Gopher+ string',
      start,
      end,
      line: 'the Gopher+ request: CR LF may stand there only in the electronic form of RFC 1738 3.4.9 ("+" TAB "1" CR LF "+-1" CR LF values CR LF "." CR LF)',
      delimiters: LINE,
      check: checkGopherPlus,
      ...(at >= 0 ? { dataBlockAt: at } : {}),
    });
  }
  return out;
}

/** gopher (RFC 1738 3.4): port 70. */
export const gopher: SchemeSpec<GopherFields> = {
  name: 'gopher',
  defaultPort: 70,
  syntax: 'internet',
  status: 'rfc1738',
  // Not hierarchical. 3.4.1: "Within the <gopher-path>, no characters are reserved": a "/" in a
  // selector is an octet like any other, and the selector is opaque to the client (RFC 1436).
  // The gophertype is glued to the first "segment", so "../x" would consume the item type.
  hierarchical: false,
  normal: {
    section: 'RFC 1738 3.4.1',
    // "The entire <gopher-path> may also be empty, in which case the delimiting "/" is also
    // optional and the <gophertype> defaults to "1"": an empty path is written "/1" (gophertype
    // 1, empty selector). "Within the <gopher-path>, no characters are reserved", so an escape of
    // a reserved character means that character: it is decoded too.
    // An empty search with no Gopher+ string after it is not sent (the client sends the selector
    // alone: see explain below), so a trailing "%09" is dropped: both URLs are the same request,
    // hence the same object.
    path(raw, clean) {
      if (raw === null || raw === '') return '1';
      const p = clean ? raw : normalizeEscapes(raw, DECODE_ALL_GRAPHIC_SAFE);
      return p.endsWith('%09') && p.indexOf('%09') === p.length - 3 ? p.slice(0, -3) : p;
    },
  },
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  build,
  explain,
  wire,
};
