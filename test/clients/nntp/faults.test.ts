// The NNTP client against in-process fakes, for what INN will not do (RFC 3977): replies cut
// mid-line, stalls, refusals, garbage, blocks that never end, authentication demands (RFC 4643),
// an RFC 977 server with neither CAPABILITIES nor an overview. Each failure is a typed error
// within the timeout, and the socket is closed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import { explain } from '../../../src/operations/build.js';
import { parse } from '../../../src/schemes/registry.js';
import { LocatorError } from '../../../src/core/errors.js';
import type { OpenOptions, TranscriptLine } from '../../../src/clients/types.js';
import { rejects } from '../../helpers.js';
import { matchesSteps, nntpFake, type NntpFake } from './fakes.js';

const HELLO = '200 fake ready\r\n';
const ARTICLE = '220 0 <a@b.example> article\r\nSubject: x\r\n\r\nbody\r\n..dot\r\n.\r\n';

function opts(fake: NntpFake, extra: OpenOptions = {}): OpenOptions {
  return { gateway: false, timeout: 2000, env: { NNTPSERVER: `127.0.0.1:${fake.port}` }, netrc: false, ...extra };
}

/** Opens and reads the whole body; resolves to the text, or rejects with the error. */
async function read(url: string, options: OpenOptions): Promise<string> {
  const r = await open(url, options);
  return Buffer.from(await new Response(r.body).arrayBuffer()).toString('latin1');
}

async function failure(fake: NntpFake, url: string, extra: OpenOptions = {}): Promise<LocatorError> {
  const t0 = Date.now();
  const e = await rejects(read(url, opts(fake, extra)));
  assert.ok(Date.now() - t0 < 5000, 'within the timeout');
  await fake.allClosed();
  return e;
}

const CASES: Array<{
  what: string;
  greeting: string | null;
  answer: (cmd: string, s: import('node:net').Socket) => boolean | void;
  url?: string;
  extra?: OpenOptions;
  code: string;
  message?: RegExp;
}> = [
  {
    what: 'RFC 3977 5.1.1: a 400 greeting (service not available)',
    greeting: '400 too busy\r\n',
    answer: () => {},
    code: 'nntp-reply',
    message: /400 "too busy" on connecting/,
  },
  {
    what: 'RFC 3977 5.1.1: a 502 greeting (service permanently unavailable)',
    greeting: '502 go away\r\n',
    answer: () => {},
    code: 'nntp-reply',
  },
  {
    what: 'RFC 3977 3.2: a garbage greeting',
    greeting: 'SSH-2.0-OpenSSH_9.2\r\n',
    answer: () => {},
    code: 'protocol-error',
  },
  {
    what: 'RFC 3977 3.2: a garbage reply code to ARTICLE',
    greeting: HELLO,
    answer: (c, s) => {
      if (c.startsWith('ARTICLE')) s.write('2x0 what\r\n');
    },
    code: 'protocol-error',
  },
  {
    what: 'RFC 3977 5.1: a greeting cut mid-line',
    greeting: '200 fake re',
    answer: () => {},
    extra: { timeout: 300 },
    code: 'timeout',
  },
  {
    what: 'RFC 3977 3.1: a status line cut mid-line, then the connection closed',
    greeting: HELLO,
    answer: (c, s) => {
      if (c.startsWith('ARTICLE')) s.end('220 0 <a@b.exa');
    },
    code: 'connection-closed',
    message: /middle of a status line/,
  },
  {
    what: 'RFC 3977 3.1.1: an article cut mid-line',
    greeting: HELLO,
    answer: (c, s) => {
      if (c.startsWith('ARTICLE')) s.end('220 0 <a@b.example> article\r\nSubject: x\r\n\r\nbo');
    },
    code: 'connection-closed',
    message: /before the "\." line/,
  },
  {
    what: 'RFC 3977 3.1.1: an article without its closing "." line, the connection closed',
    greeting: HELLO,
    answer: (c, s) => {
      if (c.startsWith('ARTICLE')) s.end('220 0 <a@b.example> article\r\nSubject: x\r\n\r\nbody\r\n');
    },
    code: 'connection-closed',
  },
  {
    what: 'a stall: the server never answers ARTICLE',
    greeting: HELLO,
    answer: () => {},
    extra: { timeout: 300 },
    code: 'timeout',
  },
  {
    what: 'RFC 3977 3.1.1: a multi-line reply that never ends (silence after some lines)',
    greeting: HELLO,
    answer: (c, s) => {
      if (c === 'LIST ACTIVE') s.write('215 list\r\na.b 2 1 y\r\n');
    },
    url: 'news:*',
    extra: { timeout: 300 },
    code: 'timeout',
  },
  {
    what: 'RFC 3977 3.1.1: a multi-line reply that never ends (lines forever), bounded by maxBytes',
    greeting: HELLO,
    answer: (c, s) => {
      if (c !== 'LIST ACTIVE') return;
      s.write('215 list\r\n');
      const t = setInterval(() => (s.destroyed ? clearInterval(t) : s.write('a.b 2 1 y\r\n'.repeat(50))), 2);
    },
    url: 'news:*',
    extra: { maxBytes: 10_000 },
    code: 'too-large',
  },
  {
    what: 'RFC 4643 2.3: 480 with no credentials configured',
    greeting: HELLO,
    answer: (c, s) => {
      if (c.startsWith('ARTICLE')) s.write('480 authentication required\r\n');
      if (c.startsWith('AUTHINFO')) s.write('281 ok\r\n');
    },
    code: 'nntp-auth-required',
    message: /no user name and password are configured/,
  },
  {
    what: 'RFC 4643 2.3.1: credentials refused (481)',
    greeting: HELLO,
    answer: (c, s) => {
      if (c.startsWith('ARTICLE')) s.write('480 authentication required\r\n');
      if (c.startsWith('AUTHINFO USER')) s.write('381 password please\r\n');
      if (c.startsWith('AUTHINFO PASS')) s.write('481 no\r\n');
    },
    extra: { user: 'alice', password: 'wrong' },
    code: 'nntp-reply',
    message: /481/,
  },
];

for (const c of CASES) {
  test(`${c.what}: a typed error (${c.code}), the socket closed`, async () => {
    const fake = await nntpFake(c.greeting, c.answer);
    try {
      const e = await failure(fake, c.url ?? 'news:a@b.example', c.extra);
      assert.equal(e.code, c.code, e.message);
      if (c.message) assert.match(e.message, c.message);
    } finally {
      await fake.close();
    }
  });
}

test('RFC 4643 2.3: with no credentials, no AUTHINFO is sent', async () => {
  const fake = await nntpFake(HELLO, (c, s) => {
    if (c.startsWith('ARTICLE')) s.write('480 authentication required\r\n');
  });
  try {
    await failure(fake, 'news:a@b.example');
    assert.deepEqual(fake.commands[0], ['CAPABILITIES', 'ARTICLE <a@b.example>']);
  } finally {
    await fake.close();
  }
});

/** A server that asks for authentication before ARTICLE, and accepts alice/s3cret. */
function authServer() {
  let authed = false;
  let user = '';
  return nntpFake(HELLO, (c, s) => {
    if (c.startsWith('ARTICLE')) s.write(authed ? ARTICLE : '480 authentication required\r\n');
    else if (c.startsWith('AUTHINFO USER ')) {
      user = c.slice(14);
      s.write('381 password please\r\n');
    } else if (c.startsWith('AUTHINFO PASS ')) {
      authed = user === 'alice' && c.slice(14) === 's3cret';
      s.write(authed ? '281 welcome\r\n' : '481 no\r\n');
    }
  });
}

test('RFC 4643 2.3: 480, then AUTHINFO USER/PASS with the options, and the command again; the password hidden', async () => {
  const fake = await authServer();
  try {
    const lines: TranscriptLine[] = [];
    const text = await read(
      'news:a@b.example',
      opts(fake, { user: 'alice', password: 's3cret', transcript: (l) => lines.push(l) }),
    );
    assert.equal(text, 'Subject: x\r\n\r\nbody\r\n.dot\r\n');
    assert.deepEqual(fake.commands[0], [
      'CAPABILITIES',
      'ARTICLE <a@b.example>',
      'AUTHINFO USER alice',
      'AUTHINFO PASS s3cret',
      'CAPABILITIES',
      'ARTICLE <a@b.example>',
      'QUIT',
    ]);
    const shown = lines.map((l) => l.text).join('\n');
    assert.ok(!shown.includes('s3cret'), shown);
    assert.match(shown, /AUTHINFO PASS \*\*\*\*/);
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('RFC 4643 2.3: the credentials of ~/.netrc for the host, read only when asked', async () => {
  const fake = await authServer();
  const home = mkdtempSync(join(tmpdir(), 'locator-netrc-'));
  writeFileSync(join(home, '.netrc'), 'machine 127.0.0.1 login alice password s3cret\n');
  try {
    const text = await read('news:a@b.example', {
      ...opts(fake),
      netrc: undefined,
      env: { ...opts(fake).env, HOME: home },
    });
    assert.match(text, /body/);
    assert.ok(fake.commands[0].includes('AUTHINFO USER alice'));
  } finally {
    await fake.close();
  }
});

test('RFC 977 server (no CAPABILITIES, no XOVER): MODE READER, GROUP, HEAD for each article; explain() says so', async () => {
  const heads: Record<string, string> = {
    '3': 'Subject: =?UTF-8?Q?K=C3=B6ln?=\r\nFrom: a@b.example\r\nDate: d3\r\nMessage-ID: <m3@b.example>\r\n',
    '5': 'Subject: five\r\n\tfolded\r\nFrom: c@d.example\r\nMessage-ID: <m5@b.example>\r\nBytes: 99\r\n',
  };
  const fake = await nntpFake('201 old server\r\n', (c, s) => {
    if (c === 'CAPABILITIES' || c.startsWith('XOVER')) s.write('500 what?\r\n');
    else if (c === 'MODE READER') s.write('201 reader\r\n');
    else if (c === 'GROUP g.x') s.write('211 2 3 5 g.x\r\n');
    else if (c.startsWith('HEAD ')) {
      const h = heads[c.slice(5)];
      s.write(h === undefined ? '423 no such article\r\n' : `221 ${c.slice(5)} <x> head\r\n${h}.\r\n`);
    } else return;
    return true;
  });
  try {
    const url = 'news:g.x';
    const text = Buffer.from(await read(url, opts(fake)), 'latin1').toString('utf8');
    assert.equal(
      text,
      '3\tKöln\ta@b.example\td3\t\tnews:m3@b.example\n5\tfive folded\tc@d.example\t\t99\tnews:m5@b.example\n',
    );
    const sent = fake.commands[0];
    assert.deepEqual(sent, [
      'CAPABILITIES',
      'MODE READER',
      'GROUP g.x',
      'XOVER 3-5',
      'HEAD 3',
      'HEAD 4',
      'HEAD 5',
      'QUIT',
    ]);
    // explain's OVER step names XOVER and HEAD <n> as the fallbacks: the steps before and after hold.
    const steps = explain(parse(url)).steps;
    assert.ok(matchesSteps(sent.slice(0, 3), steps.slice(0, 4)), JSON.stringify(steps));
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('RFC 3977 5.4: a server that never answers QUIT delays the end of the body by a second at most', async () => {
  const fake = await nntpFake(HELLO, (c, s) => {
    if (c.startsWith('ARTICLE')) s.write(ARTICLE);
    return c === 'QUIT'; // no 205, the connection left open
  });
  try {
    const t0 = Date.now();
    const text = await read('news:a@b.example', opts(fake, { timeout: 20_000 }));
    assert.equal(text, 'Subject: x\r\n\r\nbody\r\n.dot\r\n');
    assert.ok(Date.now() - t0 < 3000, `${Date.now() - t0} ms`);
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('RFC 3977 5.3: a reader server (CAPABILITIES lists READER) gets no MODE READER', async () => {
  const fake = await nntpFake(HELLO, (c, s) => {
    if (c.startsWith('ARTICLE')) s.write(ARTICLE);
  });
  try {
    await read('news:a@b.example', opts(fake));
    assert.deepEqual(fake.commands[0], ['CAPABILITIES', 'ARTICLE <a@b.example>', 'QUIT']);
  } finally {
    await fake.close();
  }
});

test('cancelling the body closes the socket', async () => {
  const fake = await nntpFake(HELLO, (c, s) => {
    if (c.startsWith('ARTICLE')) s.write('220 0 <a@b.example> article\r\nSubject: x\r\n\r\nbody\r\n');
  });
  try {
    const r = await open('news:a@b.example', opts(fake));
    const reader = r.body.getReader();
    await reader.read();
    await reader.cancel();
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});
