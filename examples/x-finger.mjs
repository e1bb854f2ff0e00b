// x-finger: a scheme that is not in the specs, added with registerScheme alone (RFC 1738 section 4:
// "Any submission of a new URL scheme must include a definition of an algorithm for accessing of
// resources within that scheme and the syntax for representing such a scheme"). It is a user's
// scheme: plain ES module JavaScript, built only on the package's public API (`locator`), so that
// `locator --scheme examples/x-finger.mjs ...` loads it without a build.
//
//   x-fingerurl = "x-finger://" hostport [ "/" [ user ] [ ";W" ] ]
//   user        = *( alpha | digit | safe | extra | escape )     (RFC 1738 5 productions)
//
// The access algorithm is the Finger protocol (RFC 1288 2.1-2.3): connect by TCP to host:port
// (79 by default), send one query line, the user name (maybe empty) or "/W" SP user name with the
// verbose switch, ended by CR LF, and read the reply until the server closes the connection.
//
//   import { registerScheme } from 'locator';
//   import finger from './examples/x-finger.mjs';
//   registerScheme(finger);
//   parse('x-finger://127.0.0.1:7079/root').fields;   // { user: 'root', verbose: false }

import { LocatorError, encode, UCHAR_SET, resolveAllowed } from 'locator';

const CR = 13;
const LF = 10;
const NUL = 0;
/** The {W} token of RFC 1288 2.3, written ";W" at the end of the path. */
const VERBOSE = ';W';

/**
 * The user part: [start, end) of href (the path, without a trailing ";W"), and whether ";W" is
 * there; null when the URL has no "/" after host[:port] (the empty query).
 */
function userRange(url) {
  const path = url.components().path;
  if (path === null) return null;
  const [start, end] = path;
  const verbose = url.href.slice(start, end).endsWith(VERBOSE);
  return { start, end: verbose ? end - VERBOSE.length : end, verbose };
}

const hex = (c) => (c >= 48 && c <= 57 ? c - 48 : (c | 32) >= 97 && (c | 32) <= 102 ? (c | 32) - 87 : -1);

/** Why a character of the user part may not stand there (RFC 1288 2.3), or null. */
function refusal(c) {
  switch (c) {
    case 47:
      return 'the user of an x-finger URL is one name: a "/" would start a further path segment, which the query has no place for';
    case 64:
      return 'an "@" would make the query a forwarding request to another host ({Q2}, RFC 1288 2.3, 3.2.1)';
    case 59:
      return 'the only ";" an x-finger URL takes is the verbose switch ";W" at the end';
    case 63:
    case 58:
    case 38:
    case 61:
      return `"${String.fromCharCode(c)}" is reserved (RFC 1738 2.2); the user of an x-finger URL is alpha, digit, safe and extra characters or escapes`;
    default:
      return null;
  }
}

/** What an escape's octet does to the query when sent decoded (RFC 1288 2.3), or null. */
function escapeRefusal(octet) {
  switch (octet) {
    case 32:
      return 'decodes to a space, which separates the tokens of the query ({S}, RFC 1288 2.3): the server would read two names';
    case 64:
      return 'decodes to "@", which makes the query a forwarding request to another host ({Q2}, RFC 1288 2.3, 3.2.1)';
    case 47:
      return 'decodes to "/", which starts the verbose switch "/W" or another token of the query (RFC 1288 2.3)';
    default:
      return null;
  }
}

/**
 * RFC 1288 2.3 ({Q1} ::= [{W}|{W}{S}{U}]{C}) with the URL syntax of RFC 1738 5: no user or
 * password before the host, and a path that is one user name, optionally followed by ";W".
 * Characters that must be encoded (space, controls, non-ASCII, bad escapes) are reported by the
 * parser; an escaped CR, LF or NUL is left to lint (`wire`, encoded-delimiter). Codes are those
 * the package declares ('unexpected-login', 'invalid-char'): the public API has no defineCode.
 */
function validate(url, report) {
  const login = url.components().user;
  if (login !== null) {
    report(
      'unexpected-login',
      login[0] + url.inputOffset,
      'x-finger URLs take no user name or password before the host: the user to finger is the path (RFC 1288 2.3)',
    );
  }
  const r = userRange(url);
  if (r === null) return;
  const h = url.href;
  for (let i = r.start; i < r.end; i++) {
    const c = h.charCodeAt(i);
    if (c === 37 && i + 2 < r.end && hex(h.charCodeAt(i + 1)) >= 0 && hex(h.charCodeAt(i + 2)) >= 0) {
      const why = escapeRefusal((hex(h.charCodeAt(i + 1)) << 4) | hex(h.charCodeAt(i + 2)));
      if (why !== null) report('invalid-char', i + url.inputOffset, `"${h.slice(i, i + 3)}" in the user ${why}`);
      i += 2;
      continue;
    }
    const why = refusal(c);
    if (why !== null) report('invalid-char', i + url.inputOffset, why);
  }
}

/** The decoded fields: the user to finger ("" for the empty query) and the verbose switch (RFC 1288 2.3). */
function fields(url) {
  const r = userRange(url);
  if (r === null) return { user: '', verbose: false };
  return { user: url.decode(r.start, r.end), verbose: r.verbose };
}

/** The octets the client sends: "[/W ]<user>" CR LF (RFC 1288 2.3). */
export function query(user, verbose) {
  if (!verbose) return `${user}\r\n`;
  return user === '' ? '/W\r\n' : `/W ${user}\r\n`;
}

const refuse = (message) => {
  throw new LocatorError('invalid-field', -1, message);
};

/**
 * Builds "//host[:port]/user[;W]" from { host, port, user, verbose } (RFC 1738 5; RFC 1288 2.3):
 * the user is encoded; one the query cannot carry (a space, "@", "/", CR, LF, NUL) is refused
 * with `invalid-field`. `user` is the user to finger: an x-finger URL has no login.
 */
function build(f) {
  const { host, port, user = '', verbose = false } = f;
  if (typeof host !== 'string' || host === '') refuse('an x-finger URL needs a host');
  if (f.password !== undefined && f.password !== null) refuse('an x-finger URL has no password');
  if (typeof user !== 'string') refuse('the user of an x-finger URL is a string');
  if (typeof verbose !== 'boolean') refuse('verbose is true or false');
  if (/[\s@/\0]/.test(user))
    refuse(
      `the user ${JSON.stringify(user)} cannot be sent as one finger query: a space, "@", "/", CR, LF or NUL would change the query (RFC 1288 2.3)`,
    );
  let out = `//${host}`;
  if (port !== undefined && port !== null && String(port) !== '79') out += `:${port}`;
  if (user !== '' || verbose) out += '/' + encode(user, UCHAR_SET) + (verbose ? VERBOSE : '');
  return out;
}

/** Shows CR, LF and NUL as <CR>, <LF>, <NUL>, as explain's steps do for every scheme. */
const show = (s) => s.replace(/\r/g, '<CR>').replace(/\n/g, '<LF>').replace(/\0/g, '<NUL>');

/** The access algorithm (RFC 1288 2.1-2.3) as the steps a client performs (`locator explain`). */
function explain(url) {
  const notes = url.violations
    .filter((d) => d.severity === 'error')
    .map((d) => `not valid: ${d.message} (${d.code} at ${d.offset})`);
  const { user, verbose } = fields(url);
  const host = url.host;
  if (host === null || host === '') {
    notes.push('no host to connect to: an x-finger URL is x-finger://<host>:<port>/<user>');
    return { protocol: 'finger', host, port: url.port, steps: [], notes };
  }
  notes.push(
    `connect by TCP to ${host}:${url.port}, send the query line, and read the reply until the server closes the connection (RFC 1288 2.1)`,
  );
  if (user === '') notes.push('the empty query: the server lists the users logged in (RFC 1288 2.5.1)');
  if (verbose) notes.push('";W" asks for the verbose form of the reply with the token "/W" (RFC 1288 2.5.2)');
  return { protocol: 'finger', host, port: url.port, steps: [show(query(user, verbose))], notes };
}

/**
 * The part the client sends decoded (RFC 1738 6): the user, on the query line, which CR and LF
 * end and NUL cuts short. lint reports an escape of one of them there as `encoded-delimiter`,
 * and the policy refuses the URL before connecting.
 */
function wire(url) {
  const r = userRange(url);
  if (r === null || r.start === r.end) return [];
  return [
    {
      what: 'the user name',
      start: r.start,
      end: r.end,
      line: 'the finger query "<user>" CR LF (RFC 1288 2.3)',
      delimiters: [CR, LF, NUL],
      sent: 'decoded',
    },
  ];
}

/** The scheme entry (a SchemeSpec of the package: src/schemes/spec.ts). */
const xFinger = {
  name: 'x-finger',
  defaultPort: 79,
  syntax: 'internet',
  status: 'later',
  validate,
  fields,
  build,
  explain,
  // A user name is no hierarchy: a relative path against an x-finger URL is an error (RFC 1738 2.3).
  hierarchical: false,
  // The path is kept as written; the generic rules still lower-case the host and drop ":79".
  normal: { section: 'RFC 1288 2.3', path: (raw) => raw },
  wire,
  readsThisMachine: () => false,
  // Imported only when an x-finger URL is opened: the entry itself reaches no node: module.
  client: async () => ({ open: openFinger }),
};

export default xFinger;

const DEFAULT_TIMEOUT = 30_000;

/**
 * The Finger client (RFC 1288 2.1-2.3): resolves the host and lets the policy judge every
 * address (resolveAllowed), connects, sends the query, and streams the reply until the server
 * closes. Honours options.signal (`aborted`), options.timeout (milliseconds of silence allowed
 * on any one wait: `timeout`), options.maxBytes (`too-large`) and options.transcript.
 */
async function openFinger(url, options = {}) {
  const { user, verbose } = fields(url);
  const port = url.port ?? 79;
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  const signal = options.signal;
  const note = typeof options.transcript === 'function' ? options.transcript : () => {};
  const aborted = () => new LocatorError('aborted', -1, 'the transfer was cancelled');
  if (signal?.aborted) throw aborted();
  const net = await import('node:net');
  const dns = await import('node:dns/promises');
  let target;
  try {
    target = await resolveAllowed(url, options.policy, (h) => dns.lookup(h, { all: true }));
  } catch (e) {
    if (e instanceof LocatorError) throw e;
    throw new LocatorError(
      'connect-failed',
      -1,
      `cannot resolve the host ${JSON.stringify(url.host)}: ${e.code ?? e}`,
      { cause: e },
    );
  }
  if (signal?.aborted) throw aborted();
  note({ direction: 'info', text: `connect ${target.family === 6 ? `[${target.address}]` : target.address}:${port}` });
  const socket = net.connect({ host: target.address, port, family: target.family });
  socket.setTimeout(timeout);
  let failure = null;
  const fail = (e) => {
    if (failure === null) failure = e;
    socket.destroy();
  };
  const onAbort = () => fail(aborted());
  signal?.addEventListener('abort', onAbort, { once: true });
  socket.on('timeout', () => fail(new LocatorError('timeout', -1, `${url.host}:${port} was silent for ${timeout} ms`)));
  try {
    await new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('close', () =>
        reject(failure ?? new LocatorError('connection-closed', -1, 'the connection closed before it was made')),
      );
      socket.once('error', (e) => {
        if (failure === null)
          failure = new LocatorError(
            'connect-failed',
            -1,
            `could not connect to ${url.host}:${port}: ${e.code ?? e.message}`,
            { cause: e },
          );
      });
    });
  } catch (e) {
    signal?.removeEventListener('abort', onAbort);
    throw e;
  }
  socket.removeAllListeners('close');
  socket.removeAllListeners('error');
  const request = query(user, verbose);
  socket.write(request, 'latin1');
  note({ direction: 'send', text: show(request) });

  const maxBytes = options.maxBytes ?? Infinity;
  let received = 0;
  // True once the stream is closed, errored or cancelled: the socket's late events are dropped.
  let settled = false;
  const body = new ReadableStream(
    {
      start(controller) {
        socket.on('data', (chunk) => {
          if (settled) return;
          received += chunk.length;
          if (received > maxBytes) {
            fail(new LocatorError('too-large', -1, `the reply is larger than ${maxBytes} octets (maxBytes)`));
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
          if ((controller.desiredSize ?? 1) <= 0) {
            // Back-pressure: the reader is slow, not the server; the wait for it is not timed.
            socket.pause();
            socket.setTimeout(0);
          }
        });
        socket.on('error', (e) => {
          if (failure === null)
            failure = new LocatorError('connection-closed', -1, `the connection failed: ${e.code ?? e.message}`, {
              cause: e,
            });
        });
        socket.on('close', () => {
          signal?.removeEventListener('abort', onAbort);
          if (settled) return;
          settled = true;
          note({ direction: 'info', text: `the server closed the connection after ${received} octets` });
          if (failure !== null) controller.error(failure);
          else controller.close();
        });
      },
      pull() {
        socket.setTimeout(timeout);
        socket.resume();
      },
      cancel() {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        socket.destroy();
      },
    },
    { highWaterMark: 4 },
  );
  return {
    meta: { scheme: url.scheme, url: url.href, size: null, contentType: 'text/plain', transcript: [] },
    body,
  };
}
