// `locator serve`: runs the gateway of RFC 1738 section 4 (src/gateway/) until interrupted.
import { readFileSync } from 'node:fs';
import { startGateway, type GatewayOptions } from '../gateway/index.js';
import { EXIT, UsageError, type Command, type Io } from './command.js';
import { runWaisServe, WAIS_SERVE_HELP } from './wais-serve.js';
import { safeText } from './safe-text.js';
import { netrcHostsArg } from './netrc-hosts.js';

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
  };
}

async function run(args: string[], values: Record<string, unknown>, io: Io): Promise<number> {
  if (args.length > 0) throw new UsageError('serve takes no URL arguments');
  // `--wais DIR`: not the gateway but a WAIS server of a folder of text (RFC 1625; issue 14).
  if (values.wais !== undefined) return runWaisServe(values as Parameters<typeof runWaisServe>[0], io);
  const options = serveOptions(values, io);
  let gw;
  try {
    gw = await startGateway(options);
  } catch (e) {
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
  return EXIT.ok;
}

export const serveCommand: Command = {
  name: 'serve',
  synopsis: [
    'serve [--host 127.0.0.1] [--port 8080]',
    'Run the gateway: objects of gopher, ftp, news, wais ... URLs as web pages, and a proxy for them (RFC 1738 4).',
    'serve --wais DIR [--database NAME] [--port 210]',
    'Serve the text files of DIR as a WAIS database (RFC 1625), on loopback unless --host.',
  ],
  help: [
    '  --host ADDR          interface to listen on (default 127.0.0.1, loopback only)',
    '  --port N             port (default 8080; 0 for any free port)',
    '  --host-name NAME     another name the gateway is reached by, NAME or NAME:PORT (repeatable);',
    '                       requests naming any other host are refused (421)',
    '  --allow-private      bound elsewhere than loopback, still allow URLs naming private addresses',
    '  --allow-port N       allow a port registered to another protocol (repeatable)',
    '  --allow-files        serve file: URLs from this machine',
    '  --open-proxy         answer proxy requests from other machines too',
    '  --http               retrieve http: URLs too (default: link to them)',
    '  --timeout MS, --request-timeout MS, --max-bytes N, --max-per-client N   limits',
    '  --headers-timeout MS  time a client may take to send its headers (default 10000); then 408',
    '  --receive-timeout MS  time a client may take to send a whole request (default 30000)',
    '  --idle-timeout MS  close a connection with no request in progress after MS (default 5000)',
    '  --max-connections N  connections at once (default 64); past it, the longest idle one is closed',
    "  --netrc-host HOST    the operator's ~/.netrc may be used for this host (repeatable; default none)",
    '  --nntp-server HOST[:PORT]  the news server of news: URLs when NNTPSERVER is not set',
    '  --smtp HOST:PORT     mailto: pages get a form that sends through this relay (default: no form)',
    "  --smtp-ca FILE       the CA certificates (PEM) to trust for the relay's STARTTLS",
    '  --quiet              no request log on standard error',
    '  With --wais (a WAIS server instead of the gateway):',
    ...WAIS_SERVE_HELP,
  ],
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    timeout: { type: 'string' },
    'request-timeout': { type: 'string' },
    'max-bytes': { type: 'string' },
    'max-per-client': { type: 'string' },
    'max-connections': { type: 'string' },
    'idle-timeout': { type: 'string' },
    'headers-timeout': { type: 'string' },
    'receive-timeout': { type: 'string' },
    'netrc-host': { type: 'string', multiple: true },
    'host-name': { type: 'string', multiple: true },
    'allow-private': { type: 'boolean' },
    'allow-port': { type: 'string', multiple: true },
    'allow-files': { type: 'boolean' },
    'open-proxy': { type: 'boolean' },
    http: { type: 'boolean' },
    email: { type: 'string' },
    'nntp-server': { type: 'string' },
    quiet: { type: 'boolean' },
    smtp: { type: 'string' },
    'smtp-ca': { type: 'string' },
    wais: { type: 'string' },
    database: { type: 'string' },
    verbose: { type: 'boolean', short: 'v' },
  },
  run: (args, values, io) => run(args, values, io),
};
