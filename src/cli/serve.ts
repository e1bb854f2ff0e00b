// `locator serve`: runs the gateway of RFC 1738 section 4 (src/gateway/) until interrupted.
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { startGateway, type GatewayOptions } from '../gateway/index.js';
import { EXIT, UsageError, type Command, type Io } from './command.js';
import { ALLOW_PORT, EMAIL, MAX_BYTES, NETRC_HOST, NNTP_SERVER, SMTP_CA, TIMEOUT, VERBOSE } from './options.js';
import { runWaisServe } from './wais-serve.js';
import { safeText } from './safe-text.js';
import { netrcHostsArg } from './netrc-hosts.js';
import { TrustedProxies } from '../gateway/clients.js';
import { openReplay, warcFiles } from './serve-warc.js';
import { folderArg } from './folder.js';

function whole(name: string, v: unknown, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(`--${name} takes a whole number of at least ${min}, not ${JSON.stringify(v)}`);
  return n;
}

/** The gateway's options from the command line. */
export function serveOptions(values: Record<string, unknown>, io: Io): GatewayOptions {
  const port = whole('port', values.port, 0);
  if (port !== undefined && port > 65535) throw new UsageError(`--port takes a port number (0-65535), not ${port}`);
  const allow = ([] as unknown[]).concat(values['allow-port'] ?? []).map((p) => {
    const n = whole('allow-port', p, 1)!;
    if (n > 65535) throw new UsageError(`--allow-port takes a port number, not ${n}`);
    return n;
  });
  return {
    host: (values.host as string | undefined) ?? '127.0.0.1',
    port: port ?? 8080,
    timeout: whole('timeout', values.timeout, 1),
    requestTimeout: whole('request-timeout', values['request-timeout'], 1),
    maxBytes: whole('max-bytes', values['max-bytes'], 1),
    maxPerClient: whole('max-per-client', values['max-per-client'], 1),
    maxConnections: whole('max-connections', values['max-connections'], 1),
    idleTimeout: whole('idle-timeout', values['idle-timeout'], 1),
    headersTimeout: whole('headers-timeout', values['headers-timeout'], 1),
    receiveTimeout: whole('receive-timeout', values['receive-timeout'], 1),
    // The names users reach the gateway by (besides its address): any other Host is refused.
    hostNames: ([] as unknown[]).concat(values['host-name'] ?? []).map((h) => {
      if (
        typeof h !== 'string' ||
        !/^([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/.test(h)
      )
        throw new UsageError(`--host-name takes a host name, with a port or not, not ${JSON.stringify(h)}`);
      return h.toLowerCase();
    }),
    allowPrivate: values['allow-private'] === true,
    allowPorts: allow,
    allowLocalFiles: values['allow-files'] === true,
    openProxy: values['open-proxy'] === true,
    http: values.http === true,
    // ~/.netrc only for the hosts named here: a URL from a request names any host it likes.
    netrcHosts: netrcHostsArg(values['netrc-host']) ?? [],
    email: (values.email as string | undefined) ?? io.env.LOCATOR_EMAIL ?? io.env.EMAIL,
    newsServer: values['nntp-server'] as string | undefined,
    // The mail form of mailto: pages is off unless a relay is named here (never from SMTP_RELAY
    // alone: a gateway that sends mail is a decision of whoever starts it).
    smtp: values.smtp as string | undefined,
    smtpCa: typeof values['smtp-ca'] === 'string' ? readFileSync(values['smtp-ca']) : undefined,
    log: values.quiet === true ? undefined : (line) => io.stderr.write(safeText(`${line}\n`)),
    public: values.public === true,
    rate: whole('rate', values.rate, 0),
    burst: whole('burst', values.burst, 1),
    trustProxy: trustProxyArg(values['trust-proxy']),
    forwardedHeader: forwardedHeaderArg(values['forwarded-header']),
    robots: typeof values.robots === 'string' ? readFileSync(values.robots, 'utf8') : undefined,
    index: values.index === true,
    cacheSize: whole('cache-size', values['cache-size'], 0),
    cacheDir: values['cache-dir'] as string | undefined,
    cacheSearches: values['cache-searches'] === true,
    inlineImages: values['inline-images'] === true,
    caps: values.caps === true,
    inlineImageBytes: whole('inline-image-bytes', values['inline-image-bytes'], 1),
    upstreamPerServer: whole('upstream-per-server', values['upstream-per-server'], 1),
    upstreamDelay: whole('upstream-delay', values['upstream-delay'], 0),
  };
}

function trustProxyArg(v: unknown): string[] {
  const list = ([] as unknown[]).concat(v ?? []).map(String);
  try {
    new TrustedProxies(list);
  } catch (e) {
    throw new UsageError(`--trust-proxy: ${(e as Error).message}`);
  }
  return list;
}

function forwardedHeaderArg(v: unknown): 'x-forwarded-for' | 'forwarded' | undefined {
  if (v === undefined) return undefined;
  const h = String(v).toLowerCase();
  if (h !== 'x-forwarded-for' && h !== 'forwarded')
    throw new UsageError(`--forwarded-header takes x-forwarded-for or forwarded, not ${JSON.stringify(v)}`);
  return h;
}

async function run(args: string[], values: Record<string, unknown>, io: Io): Promise<number> {
  // `--warc FILE...`: the gateway backed by archives (serve-warc.ts); FILE arguments follow it.
  const warc = values.warc !== undefined ? warcFiles(args, values) : null;
  if (warc === null && values.cdxj !== undefined) throw new UsageError('--cdxj goes with --warc');
  if (warc === null && args.length > 0) throw new UsageError('serve takes no URL arguments');
  // `--wais DIR`: not the gateway but a WAIS server of a folder of text (RFC 1625; docs/wais.md).
  if (values.wais !== undefined) return runWaisServe(values as Parameters<typeof runWaisServe>[0], io);
  const options = serveOptions(values, io);
  // Made now: a folder that cannot be made is a usage error, not a request that never ends.
  if (options.cacheDir !== undefined) folderArg('--cache-dir', options.cacheDir);
  const closeReplay = warc !== null ? await openReplay(warc, values, options, io) : async () => {};
  const logFile = values['access-log'] as string | undefined;
  let log: WriteStream | null = null;
  if (logFile === '-') options.accessLog = (line) => io.stdout.write(`${line}\n`);
  else if (logFile !== undefined) {
    // Appended to, as a log rotated by the operator's tools (logrotate's copytruncate) expects.
    const stream = createWriteStream(logFile, { flags: 'a', mode: 0o640 });
    log = stream;
    try {
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
    } catch (e) {
      throw new UsageError(`--access-log: cannot open ${logFile}: ${(e as Error).message}`);
    }
    stream.on('error', (e) => io.stderr.write(safeText(`locator serve: the access log failed: ${e.message}\n`)));
    options.accessLog = (line) => stream.write(`${line}\n`);
  }
  let gw;
  try {
    gw = await startGateway(options);
  } catch (e) {
    await closeReplay();
    io.stderr.write(
      safeText(`locator serve: cannot listen on ${options.host}:${options.port}: ${(e as Error).message}\n`),
    );
    return EXIT.network;
  }
  io.stderr.write(safeText(`locator serve: the gateway is at ${gw.url}/ (Ctrl-C stops it)\n`));
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await gw.close();
  await closeReplay();
  if (log !== null) await new Promise<void>((resolve) => log.end(() => resolve()));
  return EXIT.ok;
}

const WAIS_GROUP = 'With --wais DIR (a WAIS server instead of the gateway)';
const WARC_GROUP = 'With --warc FILE... (the gateway replays archives, reaching no server)';

export const serveCommand: Command = {
  name: 'serve',
  synopsis: [
    'serve [--host ADDR] [--port N] [options]',
    'serve --wais DIR [--database NAME] [--host ADDR] [--port N] [-v]',
    'serve --warc FILE... [--cdxj FILE] [--port N] [options]',
  ],
  about: [
    'Runs the gateway until Ctrl-C (SIGINT or SIGTERM): GET /?url=<percent-encoded URL> shows the object of a gopher, ftp, news, wais ... URL as a web page, and a request line with an absolute URL is served as a proxy (RFC 1738 4; docs/gateway.md). A line per request on standard error.',
    'With --wais DIR, serves the text files of DIR as a WAIS database (RFC 1625; docs/wais.md) instead.',
    'With --warc FILE..., serves the objects of WARC files (locator archive, wget --warc-file ...) by the same pages, each with the date of its capture, and reaches no server: a URL the archives do not hold is "not archived" (docs/gateway.md, "Replay").',
  ],
  exits: [
    [0, 'stopped by SIGINT or SIGTERM'],
    [
      2,
      'usage error: an unknown or malformed option, a bad option value, a DIR that is not a folder, a WARC file that cannot be read',
    ],
    [3, 'the port cannot be bound'],
  ],
  example: ['--port 8070', 'the gateway at http://127.0.0.1:8070/'],
  options: {
    host: {
      type: 'string',
      value: 'ADDR',
      default: '127.0.0.1 (loopback only)',
      description: 'The interface to listen on.',
    },
    port: {
      type: 'string',
      value: 'N',
      default: '8080; with --wais 210',
      description: 'The TCP port; 0 for any free port.',
    },
    'host-name': {
      type: 'string',
      value: 'NAME',
      multiple: true,
      description:
        'Another name the gateway is reached by, NAME or NAME:PORT (repeatable); requests naming any other host are refused (421).',
    },
    'allow-private': {
      type: 'boolean',
      description: 'Bound elsewhere than loopback, still allow URLs naming private addresses.',
    },
    'allow-port': ALLOW_PORT,
    'allow-files': { type: 'boolean', description: 'Serve file: URLs from this machine.' },
    'open-proxy': { type: 'boolean', description: 'Answer proxy requests from other machines too.' },
    http: { type: 'boolean', description: 'Retrieve http: URLs too (by default their pages link to them).' },
    'netrc-host': {
      ...NETRC_HOST,
      description:
        "A host whose URLs may use the operator's ~/.netrc (its default entry included). Repeatable; without it, none.",
    },
    email: EMAIL,
    'nntp-server': NNTP_SERVER,
    smtp: {
      type: 'string',
      value: 'HOST:PORT',
      description:
        'mailto: pages get a form that sends through this relay; without it there is no form ($SMTP_RELAY alone does not turn it on).',
    },
    'smtp-ca': SMTP_CA,
    quiet: { type: 'boolean', description: 'No request log on standard error.' },
    'inline-images': {
      type: 'boolean',
      description: 'Show the images of Gopher image items (g, I, p) in menu pages; without it, links only.',
    },
    caps: {
      type: 'boolean',
      description:
        "Read each Gopher server's caps.txt (once per its ExpireCapsAfter, else an hour) for the breadcrumbs of its menus.",
    },
    'inline-image-bytes': {
      type: 'string',
      value: 'N',
      default: '1048576 (1 MiB)',
      description: 'The largest image shown in a page (--inline-images); larger ones are refused (413).',
    },
    'access-log': {
      type: 'string',
      value: 'FILE',
      description:
        'Append a line per request to FILE (- for standard output) in the Combined Log Format: the client as resolved through --trust-proxy, passwords masked.',
    },
    public: {
      type: 'boolean',
      group: 'A public gateway',
      description:
        'The safe defaults of a gateway others reach, each overridden by its own option: private and loopback URLs refused even bound to loopback (--allow-private), no file: (--allow-files), --rate 2 --burst 20, X-Robots-Tag: noindex, nofollow on every answer (--index), a 64 MiB cache (--cache-size).',
    },
    rate: {
      type: 'string',
      value: 'N',
      default: '0 (no limit); 2 with --public',
      group: 'A public gateway',
      description: 'Requests a second one client may make (a token bucket); more get 429 with Retry-After.',
    },
    burst: {
      type: 'string',
      value: 'N',
      default: '20',
      group: 'A public gateway',
      description: 'Requests a client may make back to back after a quiet spell (the size of its bucket).',
    },
    'trust-proxy': {
      type: 'string',
      value: 'ADDR',
      multiple: true,
      group: 'A public gateway',
      description:
        "A reverse proxy (an address, or a network ADDR/BITS) whose --forwarded-header names the client of its requests, and whose X-Forwarded-Proto (or Forwarded proto=) https makes https:// origins the gateway's own (repeatable); any other connection's headers are ignored.",
    },
    'forwarded-header': {
      type: 'string',
      value: 'NAME',
      default: 'x-forwarded-for',
      group: 'A public gateway',
      description:
        'The header the trusted proxies name the client in: x-forwarded-for, or forwarded (RFC 7239). Only the one the proxy writes: the other passes through from the client.',
    },
    robots: {
      type: 'string',
      value: 'FILE',
      default: 'User-agent: * / Disallow: /',
      group: 'A public gateway',
      description: 'The text served as /robots.txt.',
    },
    'cache-size': {
      type: 'string',
      value: 'N',
      default: '0 (no cache); 67108864 (64 MiB) with --public or --cache-dir',
      group: 'A public gateway',
      description:
        'Octets of retrieved objects kept in memory (menus 5 minutes, documents an hour); identical requests in flight then make one upstream request.',
    },
    'cache-dir': {
      type: 'string',
      value: 'DIR',
      group: 'A public gateway',
      description: 'Keep the cache in DIR too, across restarts (up to 1 GiB).',
    },
    'cache-searches': {
      type: 'boolean',
      group: 'A public gateway',
      description: 'Keep the answers of searches too (by default each search goes upstream).',
    },
    index: {
      type: 'boolean',
      group: 'A public gateway',
      description:
        'Let search engines in: /robots.txt allows all (unless --robots), and no X-Robots-Tag with --public.',
    },
    timeout: {
      ...TIMEOUT,
      group: 'Limits',
      description: 'The silence allowed on any one wait of a retrieval: a positive whole number.',
    },
    'request-timeout': {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '300000',
      group: 'Limits',
      description: 'The time one request may take in all, transfer included.',
    },
    'max-bytes': {
      ...MAX_BYTES,
      default: '1073741824 (1 GiB)',
      group: 'Limits',
      description: 'The largest object passed on; past it the transfer is cut.',
    },
    'max-per-client': {
      type: 'string',
      value: 'N',
      default: '4',
      group: 'Limits',
      description: 'The requests one client address may have in progress; more get 429.',
    },
    'headers-timeout': {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '10000',
      group: 'Limits',
      description: "The time a client may take to send a request's headers; then 408.",
    },
    'receive-timeout': {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '30000',
      group: 'Limits',
      description: 'The time a client may take to send a whole request; then 408.',
    },
    'idle-timeout': {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '5000',
      group: 'Limits',
      description: 'A connection with no request in progress is closed after this.',
    },
    'max-connections': {
      type: 'string',
      value: 'N',
      default: '64',
      group: 'Limits',
      description: 'Connections at once, all clients together; past it, the one idle longest is closed.',
    },
    'upstream-per-server': {
      type: 'string',
      value: 'N',
      default: '4',
      group: 'Limits',
      description: 'Requests at once to one remote server, all readers together; more wait their turn.',
    },
    'upstream-delay': {
      type: 'string',
      value: 'MS',
      unit: 'milliseconds',
      default: '0',
      group: 'Limits',
      description: 'The least time between the starts of two requests to one remote server.',
    },
    warc: {
      type: 'string',
      value: 'FILE',
      multiple: true,
      group: WARC_GROUP,
      description:
        'Replay WARC files (.warc or .warc.gz, any writer): the files after it are replayed too. The index is made once at the start, from a CDXJ beside each file when one is as new, else by reading the file through.',
    },
    cdxj: {
      type: 'string',
      value: 'FILE',
      multiple: true,
      group: WARC_GROUP,
      description:
        'Read the index of the WARC files from this CDXJ (pywb format, as locator archive --index writes it) instead of looking beside them (repeatable).',
    },
    wais: {
      type: 'string',
      value: 'DIR',
      group: WAIS_GROUP,
      description: 'Serve the text files of DIR as one WAIS database (RFC 1625); --host and --port as above.',
    },
    database: {
      type: 'string',
      value: 'NAME',
      default: 'the name of the folder',
      group: WAIS_GROUP,
      description: 'The database name.',
    },
    verbose: { ...VERBOSE, group: WAIS_GROUP, description: 'Print a line per request on standard error.' },
  },
  run: (args, values, io) => run(args, values, io),
};
