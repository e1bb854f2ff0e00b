// Interactive sessions: telnet (RFC 1738 3.8; section 5 telneturl), and rlogin and tn3270, which
// only the drafts define (draft 1993-10 and draft 1994-03, "Telnet, rlogin, tn3270"; RFC 1738 4
// lists tn3270 among the names it reserves without a syntax and does not name rlogin).
//
//   telneturl = "telnet://" login [ "/" ]
//
// "The final "/" character may be omitted"; nothing may follow it. The user and password are
// advisory only: a telnet client merely tells the user which name and password to try. rlogin is
// different: its handshake (RFC 1282) carries a user name, so the URL's user is sent.

import { normalizeEscapes } from '../core/escapes.js';
import { usualLogin } from '../core/analyze.js';
import type { Url } from '../core/url.js';
import type { Explanation, Report, SchemeSpec, WirePart } from './spec.js';
import { LINE, TELNET_LINE, loginWire } from './wire.js';
import { defineCode } from '../core/errors.js';
import { DRAFT_ONLY } from './codes.js';
import { buildLogin } from './login.js';
import { formatRequest, violationNotes } from './notes.js';

export const TELNET_PATH = defineCode(
  'telnet-path',
  'error',
  'RFC 1738 3.8',
  'a telnet URL ends after the login and an optional "/": nothing may follow that "/"',
);

type SessionScheme = 'telnet' | 'rlogin' | 'tn3270';

/**
 * The rules of RFC 1738 3.8 and section 5 (telneturl = "telnet://" login [ "/" ]), applied to
 * rlogin and tn3270 as well: the drafts give them no grammar of their own (they share the
 * telnet section, and the 1994-03 telnetaddress has no final "/"), so RFC 1738's telnet rule,
 * the later edition, is used for all three. rlogin and tn3270 are reported as draft-only.
 */
function validateSession(url: Url, report: Report): void {
  const scheme = url.scheme;
  if (scheme !== 'telnet') {
    report(
      DRAFT_ONLY,
      url.inputOffset,
      `${scheme} URLs are defined only by the 1993-10 and 1994-03 drafts ("Telnet, rlogin, tn3270"); RFC 1738 defines telnet only`,
    );
  }
  const p = url.pathStart;
  if (p >= 0 && url.bodyEnd > p) {
    report(
      TELNET_PATH,
      p + url.inputOffset,
      `a ${scheme} URL ends after the login and an optional "/" (RFC 1738 3.8, 5): nothing may follow that "/"`,
    );
  }
}

/**
 * The usual telnet URL, which neither the generic rules nor validateSession() report anything in
 * (RFC 1738 3.8, 5): a user info, host and port, then at most a "/" with nothing after it.
 */
const USUAL_TELNET = /* @__PURE__ */ usualLogin('');
const USUAL_TELNET_USER = /* @__PURE__ */ usualLogin('', { user: true });

/** RFC 1738 3.8: no fields beyond the generic user, password, host and port. */
const NO_FIELDS: Record<string, unknown> = Object.freeze({});

/** telnet, rlogin, tn3270 (RFC 1738 3.8): nothing beyond the login. */
export interface SessionFields {}

function sessionFields(): SessionFields {
  return NO_FIELDS;
}

/**
 * The access algorithm (RFC 1738 3.8): open a session to host:port. The user name and password
 * are advisory for telnet and tn3270; rlogin sends the user name in its handshake (RFC 1282:
 * "\0" client-user "\0" server-user "\0" terminal-type "/" speed "\0"). A password is never shown.
 */
function explainSession(scheme: SessionScheme, url: Url): Explanation {
  const host = url.host;
  const port = url.port;
  const where = `${url.host}:${url.portDigits ?? port}`; // the digits as written, at any length (RFC 1738 3.1)
  const steps: string[] = [];
  const notes: string[] = [];
  const user = url.user;
  const password = url.password;
  if (host === null || host === '') {
    notes.push(`no host is given: there is nothing to connect to`);
  } else if (scheme === 'rlogin') {
    steps.push(`connect ${where} from a reserved local port (512-1023)`);
    const serverUser = user !== null && user !== '' ? formatRequest(user, true) : '<your local user name>';
    steps.push(`send <NUL><your local user name><NUL>${serverUser}<NUL><terminal type>/<speed><NUL>`);
  } else {
    steps.push(`connect ${where}`);
    if (scheme === 'tn3270') {
      steps.push(
        'negotiate TERMINAL-TYPE (an IBM 3278 model), BINARY and END-OF-RECORD (RFC 1576), then exchange 3270 data streams',
      );
    }
  }

  notes.push(
    `${scheme === 'rlogin' ? 'an' : 'a'} ${scheme} URL designates an interactive service, not a data object (RFC 1738 3.8)`,
  );
  notes.push('open the session with `locator connect URL` (connect() in the library), not with fetch or open()');
  if (scheme !== 'telnet') notes.push(`${scheme} URLs are defined only by the 1993-10 and 1994-03 drafts`);
  if (scheme === 'rlogin') {
    notes.push('the server answers the handshake with one NUL octet, then the session starts (RFC 1282)');
    if (user === null || user === '') {
      notes.push('no user name is given: rlogin sends your local user name as the server user name');
    } else {
      notes.push(
        `the user name ${formatRequest(user, true)} is sent as the server user name in the rlogin handshake (RFC 1282); the client user name and terminal type/speed come from the local system`,
      );
      if (/[\0\r\n]/.test(user)) {
        notes.push(
          'the user name holds an encoded NUL, CR or LF: sent as is it would end the handshake field early (RFC 1738 6: encoded delimiters must not be decoded into the protocol)',
        );
      }
    }
    if (password !== null) {
      notes.push(
        'a password is given in the URL (not shown here): rlogin does not send it; type it if the server prompts for one',
      );
    }
  } else {
    if (user === null) {
      notes.push('no user name is suggested: log in as the service asks');
    } else if (user === '') {
      notes.push('the user name is given but empty: no user name is suggested');
    } else {
      notes.push(
        `the user name ${formatRequest(user, true)} is advisory: log in as ${formatRequest(user, true)} when prompted`,
      );
    }
    if (password !== null) {
      notes.push(
        'a password is given in the URL (not shown here): it is advisory too; type it when the service asks for one',
      );
    }
    if (scheme === 'tn3270') notes.push('the 3270 terminal model and screen size are left to the client');
  }
  const p = url.path;
  if (p !== null && p !== '')
    notes.push(`the text after the "/" (${JSON.stringify(p)}) is not part of a ${scheme} URL and is not used`);
  violationNotes(url, notes);
  return { protocol: scheme, host, port, steps, notes };
}

/**
 * What the client sends (RFC 1738 3.8, 6): the user name and password are advisory; a client that
 * logs in types them into the Telnet session (FF is Telnet IAC there). rlogin (drafts 1993-10,
 * 1994-03; RFC 1282) sends the user in the handshake's NUL-ended fields.
 */
function sessionWire(name: SessionScheme, url: Url): WirePart[] {
  if (name === 'rlogin') {
    return loginWire(
      url,
      LINE,
      'the rlogin handshake ("<NUL>client-user<NUL>server-user<NUL>terminal/speed<NUL>")',
      'the rlogin session, typed at the password prompt followed by CR LF',
    );
  }
  return loginWire(
    url,
    TELNET_LINE,
    'the Telnet session, typed at the login prompt followed by CR LF',
    'the Telnet session, typed at the password prompt followed by CR LF',
  );
}

/**
 * The registry entry of one interactive scheme: the telnet rules, no fields of its own, a build
 * that writes "//" login "/" (RFC 1738 3.8: telnet://<user>:<password>@<host>:<port>/), and
 * the session's access algorithm.
 */
function sessionSpec(name: SessionScheme, defaultPort: number, status: 'rfc1738' | 'draft'): SchemeSpec<SessionFields> {
  return {
    name,
    defaultPort,
    syntax: 'internet',
    status,
    // No path at all (3.8: only a final "/", which may be omitted): nothing to merge into.
    hierarchical: false,
    normal: {
      section: 'RFC 1738 3.8',
      // telnet://<user>:<password>@<host>:<port>/ — "The final "/" character may be omitted":
      // the normal form writes it.
      path: (raw, clean) => (raw === null ? '' : clean ? raw : normalizeEscapes(raw)),
      keepsCleanPath: true,
    },
    validate: validateSession,
    fields: sessionFields,
    fieldsFrozen: true,
    ...(name === 'telnet' ? { usual: USUAL_TELNET, usualUser: USUAL_TELNET_USER } : {}),
    build: (fields: Record<string, unknown>) => buildLogin(fields, { defaultPort }) + '/',
    explain: (url) => explainSession(name, url),
    wire: (url) => sessionWire(name, url),
  };
}

/** telnet (RFC 1738 3.8). */
export const telnet: SchemeSpec<SessionFields> = sessionSpec('telnet', 23, 'rfc1738');

/** rlogin (drafts 1993-10 and 1994-03, "Telnet, rlogin, tn3270"; the protocol is RFC 1282). */
export const rlogin: SchemeSpec<SessionFields> = sessionSpec('rlogin', 513, 'draft');

/** tn3270 (drafts 1993-10 and 1994-03, "Telnet, rlogin, tn3270"; reserved by RFC 1738 4). */
export const tn3270: SchemeSpec<SessionFields> = sessionSpec('tn3270', 23, 'draft');
