// The policy every client consults before it connects (RFC 1738 6). Rows: input, then the code of
// the finding the policy refuses with its offset ("" when the URL is allowed), then the reason.
// The last tests run a small client built the way the clients must be (assertAllowed, then
// resolveAllowed, then connect to the checked address) against a local listener, which shows
// that a refused URL sends no byte at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { parse, eachRow } from './helpers.js';
import {
  DEFAULT_POLICY,
  PolicyError,
  assertAllowed,
  assertAddressAllowed,
  assertRedirectAllowed,
  refusals,
  resolveAllowed,
  isCrossScheme,
  type Policy,
} from '../src/operations/policy.js';
import { LocatorError } from '../src/core/errors.js';
import { explain } from '../src/operations/build.js';

function refused(input: string, policy?: Policy): string {
  try {
    assertAllowed(parse(input), policy);
    return '';
  } catch (e) {
    assert.ok(e instanceof PolicyError, String(e));
    assert.ok(e instanceof LocatorError);
    assert.equal(e.code, 'policy-refused');
    assert.equal(e.offset, e.diagnostic.offset);
    assert.equal(e.section, e.diagnostic.section);
    assert.equal(e.diagnostic.severity, 'error');
    return `${e.diagnostic.code}@${e.diagnostic.offset}`;
  }
}

test('DEFAULT_POLICY: no reserved port, private addresses allowed, 5 redirects, none across schemes; frozen', () => {
  assert.deepEqual(
    { ...DEFAULT_POLICY },
    {
      allowPorts: [],
      refusePrivateAddresses: false,
      maxRedirects: 5,
      maxCrossSchemeRedirects: 0,
      allowViolations: false,
    },
  );
  assert.ok(Object.isFrozen(DEFAULT_POLICY));
  assert.ok(Object.isFrozen(DEFAULT_POLICY.allowPorts));
});

// One URL per client protocol that would smuggle a command, and one that is fine.
const DEFAULT_ROWS: Array<[string, string, string]> = [
  ['ftp://ftp.example.com/pub/f.txt', '', 'RFC 1738 3.2'],
  ['ftp://h.com/a%0D%0ADELE%20x', 'encoded-delimiter@13', 'FTP: CWD a CR LF DELE x'],
  ['ftp://u%0D%0ASITE%20EXEC@h.com/', 'encoded-delimiter@7', 'FTP: USER'],
  ['http://h.com/', '', 'RFC 1738 3.3'],
  ['http://h.com/a%0D%0AHost:x', '', 'HTTP sends the path encoded: a warning only'],
  ['http://h.com/a\r\nHost:x', 'control-char@14', 'a raw CR LF: refused even when violations are allowed'],
  ['https://h.com:80/', 'reserved-port@14', 'RFC 1738 6'],
  ['gopher://h.com/0about', '', 'RFC 1738 3.4'],
  ['gopher://h.com/_HELO%20x%0D%0AMAIL%20FROM:%3Ca@b%3E', 'encoded-delimiter@24', 'Gopher: the selector line'],
  ['gopher://h.com:25/_HELO', 'reserved-port@15', 'RFC 1738 6: gopher to SMTP'],
  ['gopher://h.com:7070/0x', '', 'a non-default port is a warning only'],
  ['gopher://h.com/1f%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A', '', 'RFC 1738 3.4.9: the form is allowed'],
  ['mailto:a@b.c', '', 'RFC 1738 3.5'],
  ['mailto:%22a%0D%0ADATA%22@b.c', 'encoded-delimiter@11', 'SMTP: RCPT TO'],
  ['news:a%0D%0AQUIT', 'encoded-delimiter@6', 'NNTP: GROUP'],
  ['nntp://h.com/a%20b/1', 'encoded-delimiter@14', 'NNTP: GROUP with a second argument'],
  ['telnet://u%0D%0A@h.com/', 'encoded-delimiter@10', 'Telnet: the login prompt'],
  ['file:///etc/passwd%00.txt', 'encoded-delimiter@18', 'the file system: NUL'],
  ['file:///etc/motd', '', 'a local file, private addresses allowed'],
  ['prospero://h.com/a%0Ab', 'encoded-delimiter@18', 'Prospero: the request lines'],
  ['wais://h.com/db?a%00', '', 'WAIS: a warning only'],
  ['http://a.com/~x', 'unsafe-char@13', 'an invalid URL is refused unless violations are allowed'],
  ['ftp://u:hunter2@h.com:25/', 'reserved-port@22', 'the password is not in the message'],
];

eachRow(
  'assertAllowed with the default policy: one smuggling URL per client protocol is refused',
  DEFAULT_ROWS,
  ([input, expected, why]) => {
    assert.equal(refused(input), expected, `${input} (${why})`);
  },
  { section: (r) => r[2] },
);

test('a refusal names the finding, its section and offset, and never the password', () => {
  try {
    assertAllowed(parse('ftp://u:hunter2@h.com:25/a%0D'));
    assert.fail('not refused');
  } catch (e) {
    assert.ok(e instanceof PolicyError);
    // the most dangerous finding first: the encoded delimiter, then the port
    assert.equal(e.diagnostic.code, 'encoded-delimiter');
    assert.equal(e.message.includes('hunter2'), false);
    assert.match(e.message, /^refused before any connection: "%0D" in a path segment decodes to CR/);
    assert.match(e.message, /\(policy-refused at offset 26\)$/);
    assert.equal(e.input, undefined);
  }
  assert.deepEqual(
    refusals(parse('ftp://u:hunter2@h.com:25/a%0D')).map((d) => d.code),
    ['encoded-delimiter', 'reserved-port'],
  );
});

test('allowPorts allows a reserved port, and only that one', () => {
  assert.equal(refused('gopher://h.com:25/_HELO', { allowPorts: [25] }), '');
  assert.equal(refused('gopher://h.com:25/_HELO%0D%0A', { allowPorts: [25] }), 'encoded-delimiter@23');
  assert.equal(refused('gopher://h.com:110/', { allowPorts: [25] }), 'reserved-port@15');
});

test('allowViolations accepts syntax violations, but never an encoded delimiter, a raw control character or a reserved port', () => {
  const p: Policy = { allowViolations: true };
  assert.equal(refused('http://a.com/~x', p), '');
  assert.equal(refused('gopher://h.com/00/Information About Gopher', p), '');
  assert.equal(refused('ftp://h.com/a%0D%0Ab', p), 'encoded-delimiter@13');
  assert.equal(refused('ftp://h.com/a\nb', p), 'control-char@13');
  assert.equal(refused('http://h.com:25/', p), 'reserved-port@13');
});

test("a Gopher+ data block (RFC 1738 3.4.9): on port 70, or on a port allowed explicitly that is no other protocol's", () => {
  const form = '/1x%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A';
  const smuggle =
    'gopher://127.0.0.1:6380/1x%09%09+%091%0D%0A+-1%0D%0ASET%20pwned%201%0D%0ACONFIG%20SET%20dir%20/tmp%0D%0AFLUSHALL%0D%0A.%0D%0A';
  const at = smuggle.indexOf('%0D');
  assert.equal(refused(smuggle), `gopher-plus-data-block@${at}`);
  assert.equal(refused(smuggle, { allowViolations: true }), `gopher-plus-data-block@${at}`);
  assert.equal(refused(smuggle, { allowPorts: [6381] }), `gopher-plus-data-block@${at}`);
  assert.equal(refused(smuggle, { allowPorts: [6380] }), '');
  assert.equal(refused(`gopher://h.com${form}`), '');
  assert.equal(refused(`gopher://h.com:70${form}`), '');
  // never to a reserved port, even one the policy allows
  for (const port of [6379, 25, 80]) {
    const input = `gopher://h.com:${port}${form}`;
    assert.equal(refused(input, { allowPorts: [port] }), `gopher-plus-data-block@${input.indexOf('%0D')}`, input);
  }
  assert.deepEqual(
    refusals(parse(`gopher://h.com:6379${form}`)).map((d) => d.code),
    ['gopher-plus-data-block', 'reserved-port'],
  );
});

test('assertRedirectAllowed: never to a URL that carries a Gopher+ data block, whatever the port or the budget', () => {
  const to = parse('gopher://h.com/1x%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A');
  const generous: Policy = { maxRedirects: 5, maxCrossSchemeRedirects: 5, allowPorts: [70] };
  for (const from of ['http://h.com/', 'gopher://h.com/hURL:x', 'https://h.com/']) {
    assert.throws(
      () => assertRedirectAllowed(parse(from), to, 0, 0, generous),
      (e: unknown) =>
        e instanceof PolicyError &&
        e.diagnostic.code === 'gopher-plus-data-block' &&
        e.diagnostic.offset === to.href.indexOf('%0D'),
      from,
    );
  }
  // the same item without the data block is followed
  assertRedirectAllowed(parse('http://h.com/'), parse('gopher://h.com/1x%09%09+'), 0, 0, generous);
});

test('refusePrivateAddresses refuses hosts inside the network as written, and files of this machine', () => {
  const p: Policy = { refusePrivateAddresses: true };
  assert.equal(refused('http://127.0.0.1/', p), 'private-address@7');
  assert.equal(refused('http://localhost:8080/', p), 'private-address@7');
  assert.equal(refused('gopher://169.254.169.254/0', p), 'private-address@9');
  assert.equal(refused('file:///etc/passwd', p), 'private-address@0');
  assert.equal(refused('file://localhost/etc/passwd', p), 'private-address@0');
  assert.equal(refused('afs://cell.dom/usr', p), 'private-address@0');
  assert.equal(refused('http://example.com/', p), '');
  assert.equal(refused('http://127.0.0.1/'), '');
  const e = refusals(parse('http://[::1]/'), { refusePrivateAddresses: true, allowViolations: true });
  assert.deepEqual(
    e.map((d) => [d.code, d.severity, d.section]),
    [['private-address', 'error', 'RFC 4291 2.5.3']],
  );
});

test('assertAddressAllowed: refused only with refusePrivateAddresses; IPv4-mapped IPv6 read through; fails closed', () => {
  const p: Policy = { refusePrivateAddresses: true };
  for (const [address, family] of [
    ['127.0.0.1', 4],
    ['10.0.0.1', 4],
    ['169.254.169.254', 4],
    ['0.0.0.0', 4],
    ['224.0.0.1', 4],
    ['::1', 6],
    ['::', 6],
    ['::ffff:127.0.0.1', 6],
    ['fe80::1%lo', 6],
    ['fd00::1', 6],
    ['ff02::1', 6],
    ['not-an-address', 4],
  ] as const) {
    assert.doesNotThrow(() => assertAddressAllowed(address, family));
    assert.throws(
      () => assertAddressAllowed(address, family, p),
      (e: unknown) => {
        assert.ok(e instanceof PolicyError);
        assert.equal(e.diagnostic.code, 'private-address');
        assert.equal(e.offset, -1);
        return true;
      },
      address,
    );
  }
  for (const [address, family] of [
    ['93.184.216.34', 4],
    ['2606:2800:220:1::', 6],
    ['::ffff:93.184.216.34', 6],
  ] as const) {
    assert.doesNotThrow(() => assertAddressAllowed(address, family, p), address);
  }
  const url = parse('http://db.internal:8080/');
  assert.throws(
    () => assertAddressAllowed('10.1.1.1', 4, p, url),
    (e: unknown) =>
      e instanceof PolicyError &&
      e.offset === 7 &&
      e.diagnostic.section === 'RFC 1918 3' &&
      e.message.includes('resolved to 10.1.1.1, a private address (10.0.0.0/8)'),
  );
});

test('assertRedirectAllowed: at most maxRedirects, none across schemes by default, never to a file, and the target checked', () => {
  const http = parse('http://a.com/');
  const https = parse('https://a.com/');
  const gopher = parse('gopher://127.0.0.1:6379/_x');
  const code = (f: () => void) => {
    try {
      f();
      return '';
    } catch (e) {
      assert.ok(e instanceof PolicyError);
      assert.equal(e.message.includes('hunter2'), false, 'messages name schemes, not URLs');
      return e.diagnostic.code;
    }
  };
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('http://b.com/'), 0, 0)),
    '',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('http://b.com/'), 4, 0)),
    '',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('http://b.com/'), 5, 0)),
    'too-many-redirects',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('http://b.com/'), 1, 0, { maxRedirects: 1 })),
    'too-many-redirects',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, https, 0, 0)),
    '',
    'http to https is the same protocol over TLS',
  );
  assert.equal(
    code(() => assertRedirectAllowed(https, http, 0, 0)),
    '',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, gopher, 0, 0)),
    'cross-scheme-redirect',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('ftp://a.com/f'), 0, 0, { maxCrossSchemeRedirects: 1 })),
    '',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('ftp://u:hunter2@a.com/f'), 0, 1, { maxCrossSchemeRedirects: 1 })),
    'cross-scheme-redirect',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('ftp://u:hunter2@a.com:25/f'), 0, 0, { maxCrossSchemeRedirects: 1 })),
    'reserved-port',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('file:///etc/passwd'), 0, 0, { maxCrossSchemeRedirects: 9 })),
    'redirect-to-file',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('file://localhost/etc/passwd'), 0, 0, { maxCrossSchemeRedirects: 9 })),
    'redirect-to-file',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('http://a.com:25/'), 0, 0)),
    'reserved-port',
  );
  assert.equal(
    code(() => assertRedirectAllowed(http, parse('http://127.0.0.1/'), 0, 0, { refusePrivateAddresses: true })),
    'private-address',
  );
  assert.equal(isCrossScheme(http, https), false);
  assert.equal(isCrossScheme(http, gopher), true);
});

// A server never sends the client to a file URL, whatever its host (docs/security.md: "A server may
// never send the client to its own files"): a file URL of another host is fetched by FTP, but its
// host may be this machine under another name (127.0.0.1, a name of this machine, ...), and a
// refusal that hangs on the host would follow those. The code is the same with any budget, from
// any scheme that redirects, and before the cross-scheme budget is asked.
const FILE_TARGETS = [
  'file:///etc/passwd',
  'file://localhost/etc/passwd',
  'file://LOCALHOST/etc/passwd',
  'file://LocalHost./etc/passwd',
  'file://127.0.0.1/etc/passwd',
  'file://127.1/etc/passwd',
  'file://[::1]/etc/passwd',
  'file://0.0.0.0/etc/passwd',
  'file://otherhost/etc/passwd',
  'file://files.example/pub/x',
  'file://u:p@files.example/pub/x',
  'FILE://files.example/pub/x',
  'afs://cell.example/usr/x',
  'mid:m1@host.example',
  'cid:part1@host.example',
];

test('assertRedirectAllowed: never to a file URL whatever its host, nor to afs, mid or cid; redirect-to-file before any budget', () => {
  const policies: Policy[] = [
    DEFAULT_POLICY,
    { maxCrossSchemeRedirects: 9 },
    { maxCrossSchemeRedirects: 9, allowViolations: true },
  ];
  const froms = [
    'http://a.com/',
    'https://a.com/',
    'gopher://a.com/1',
    'prospero://a.com/x',
    'file://files.example/d/',
  ];
  const got: string[] = [];
  const want: string[] = [];
  const refusals: Array<[string, string, PolicyError]> = [];
  for (const from of froms) {
    for (const to of FILE_TARGETS) {
      for (const policy of policies) {
        const row = `${from} -> ${to} ${JSON.stringify(policy === DEFAULT_POLICY ? 'default' : policy)}`;
        want.push(`${row}: redirect-to-file`);
        try {
          assertRedirectAllowed(parse(from), parse(to), 0, 0, policy);
          got.push(`${row}: followed`);
        } catch (e) {
          assert.ok(e instanceof PolicyError, String(e));
          got.push(`${row}: ${e.diagnostic.code}`);
          if (e.diagnostic.code === 'redirect-to-file') refusals.push([from, to, e]);
        }
      }
    }
  }
  assert.deepEqual(got, want);
  for (const [from, to, e] of refusals) {
    assert.equal(e.diagnostic.offset, 0);
    assert.equal(e.diagnostic.section, 'RFC 1738 3.10');
    assert.equal(
      e.diagnostic.message,
      `a ${parse(from).scheme} answer redirects to a ${parse(to).scheme} URL, which names files of a machine rather than a server's object: that could make the client read its own files for a remote server (RFC 1738 3.10, 6)`,
    );
    assert.ok(!e.message.includes(':p@'), 'no password in the message');
  }
  // The rule is the target's, not the host's: the same hosts under ftp are a change of scheme.
  assertRedirectAllowed(parse('http://a.com/'), parse('ftp://files.example/pub/x'), 0, 0, {
    maxCrossSchemeRedirects: 9,
  });
});

test('resolveAllowed: every answer is checked, the first is returned, literals need no lookup', async () => {
  const p: Policy = { refusePrivateAddresses: true };
  const answers = (list: Array<[string, number]>) => async () => list.map(([address, family]) => ({ address, family }));
  assert.deepEqual(
    await resolveAllowed(
      parse('http://a.com/'),
      p,
      answers([
        ['93.184.216.34', 4],
        ['2606:2800:220:1::', 6],
      ]),
    ),
    { address: '93.184.216.34', family: 4 },
  );
  await assert.rejects(
    resolveAllowed(
      parse('http://a.com/'),
      p,
      answers([
        ['93.184.216.34', 4],
        ['127.0.0.1', 4],
      ]),
    ),
    (e: unknown) => e instanceof PolicyError && e.diagnostic.code === 'private-address' && e.offset === 7,
  );
  await assert.rejects(
    resolveAllowed(parse('http://a.com/'), p, answers([])),
    (e: unknown) => e instanceof LocatorError && e.code === 'no-address',
  );
  const never = async () => assert.fail('no lookup for a literal');
  assert.deepEqual(await resolveAllowed(parse('http://[2606:2800:220:1::]/'), p, never), {
    address: '2606:2800:220:1::',
    family: 6,
  });
  await assert.rejects(resolveAllowed(parse('http://10.0.0.1/'), p, never), PolicyError);
  assert.deepEqual(await resolveAllowed(parse('http://10.0.0.1/'), undefined, never), {
    address: '10.0.0.1',
    family: 4,
  });
});

// A client built the way the clients must be: policy, resolution, check, connect to the checked
// address, send what the access algorithm sends. The bytes are explain()'s steps (RFC 1738 3.x),
// with <CR>, <LF>, <TAB> put back: a model of each protocol's client until the clients exist.
function wire(step: string): string {
  return step.replace(/<CR>/g, '\r').replace(/<LF>/g, '\n').replace(/<TAB>/g, '\t');
}

async function modelClient(input: string, policy: Policy): Promise<void> {
  const url = parse(input);
  assertAllowed(url, policy);
  const { address } = await resolveAllowed(url, policy, (host) => dnsLookup(host, { all: true }));
  const bytes = explain(url)
    .steps.map((s) => wire(s).replace(/(\r\n)?$/, '\r\n'))
    .join('');
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host: address, port: url.port as number }, () => socket.end(bytes, () => resolve()));
    socket.on('error', reject);
  });
}

async function listener(): Promise<{ server: Server; port: number; received: () => Promise<string[]> }> {
  const chunks: string[] = [];
  const connections: Array<Promise<void>> = [];
  const server = createServer((s) => {
    let data = '';
    connections.push(
      new Promise((resolve) => {
        s.on('data', (d) => {
          data += d.toString('latin1');
        });
        s.on('close', () => {
          chunks.push(data);
          resolve();
        });
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    received: async () => {
      await Promise.all(connections);
      return chunks.sort();
    },
  };
}

test('a local listener, per client protocol: a URL that would smuggle a command is refused and no byte arrives', async () => {
  const l = await listener();
  const at = `127.0.0.1:${l.port}`;
  // [scheme, a URL that would smuggle a command, a clean URL whose request does arrive]
  const cases: Array<[string, string, string]> = [
    ['ftp', `ftp://${at}/pub%0D%0ADELE%20x/f`, `ftp://${at}/pub/f`],
    ['ftp (USER)', `ftp://u%0D%0ASITE%20x@${at}/f`, `ftp://u@${at}/f`],
    ['http', `http://${at}/a\r\nHost: evil`, `http://${at}/a`],
    ['gopher', `gopher://${at}/_SET%20k%20v%0D%0AQUIT`, `gopher://${at}/0hello`],
    ['gopher (search)', `gopher://${at}/7s%09a%0Ab`, `gopher://${at}/7s%09a`],
    ['gopher+', `gopher://${at}/0x%09%09!+A%0D%0AEVIL`, `gopher://${at}/0x%09%09!+A`],
    ['nntp', `nntp://${at}/a%0D%0AQUIT`, `nntp://${at}/comp.lang.c/1`],
    ['telnet', `telnet://u%0D%0A@${at}/`, `telnet://u@${at}/`],
    ['prospero', `prospero://${at}/a%0Ab`, `prospero://${at}/a`],
  ];
  const sent: string[] = [];
  try {
    for (const [scheme, bad, good] of cases) {
      await assert.rejects(
        modelClient(bad, DEFAULT_POLICY),
        (e: unknown) => e instanceof PolicyError && ['encoded-delimiter', 'control-char'].includes(e.diagnostic.code),
        scheme,
      );
      await modelClient(good, DEFAULT_POLICY);
      sent.push(
        explain(parse(good))
          .steps.map((s) => wire(s).replace(/(\r\n)?$/, '\r\n'))
          .join(''),
      );
    }
    // a server that fetches for others: the loopback listener is out of reach, by literal and by name
    for (const host of ['127.0.0.1', 'localhost']) {
      await assert.rejects(
        modelClient(`gopher://${host}:${l.port}/0hello`, { refusePrivateAddresses: true }),
        (e: unknown) => e instanceof PolicyError && e.diagnostic.code === 'private-address',
        host,
      );
    }
  } finally {
    await new Promise((resolve) => l.server.close(resolve));
  }
  // exactly the clean requests arrived, each whole, and nothing of the refused ones
  const got = await l.received();
  assert.deepEqual(got, [...sent].sort());
  for (const chunk of got) assert.doesNotMatch(chunk, /DELE|SITE|evil|SET k|QUIT\r\n.*QUIT|EVIL/s);
});
