// `locator explain`: the access algorithm of each URL, without the network.
import type { Readable, Writable } from 'node:stream';
import { tryParse } from '../schemes/registry.js';
import { LocatorError } from '../core/errors.js';
import { explain } from '../operations/build.js';
import { inputs, Output, failure } from './io.js';
import type { Command } from './command.js';
import { JSON_OUTPUT, TRIM } from './options.js';
import { maskValue, passwordSpans, redactUrl, secretsOf, spanSecrets } from '../operations/redact.js';

export async function runExplain(
  args: string[],
  opts: { json: boolean; trim: boolean; showSecrets?: boolean; probe?: boolean },
  stdin: Readable,
  stdout: Writable,
): Promise<number> {
  const out = new Output(stdout);
  let status = 0;
  // --probe: the least traffic that proves the object is there (docs/probes.md), loaded only when asked.
  const probeSteps = opts.probe ? (await import('../clients/index.js')).explainProbe : null;
  for await (const raw of inputs(args, stdin)) {
    const u = tryParse(raw, { trim: opts.trim });
    // Passwords are hidden unless asked for (RFC 1738 6): the input from its parsed offsets; the
    // steps, notes and messages, text derived from the URL, by the secrets it holds (PASS is a
    // placeholder, but an opaque scheme such as news://user:pass@host quotes its scheme part).
    const input = opts.showSecrets ? raw : redactUrl(raw);
    const secrets = opts.showSecrets
      ? []
      : u instanceof LocatorError
        ? spanSecrets(raw, passwordSpans(raw))
        : secretsOf(u);
    let rec: Record<string, unknown>;
    try {
      if (u instanceof LocatorError) throw u;
      const x = explain(u);
      rec = {
        input,
        ok: true,
        protocol: x.protocol,
        host: x.host,
        port: x.port,
        steps: probeSteps === null ? x.steps : probeSteps(u),
        notes: probeSteps === null ? x.notes : [],
        error: null,
      };
    } catch (e) {
      // A failure on one line (typed or not) is that line's row; the others still print.
      status = 1;
      rec = { input, ok: false, protocol: null, host: null, port: null, steps: [], notes: [], error: failure(e) };
    }
    rec = { ...maskValue(rec, secrets), input };
    if (opts.json) {
      await out.line(JSON.stringify(rec));
      continue;
    }
    if (!rec.ok) {
      const err = rec.error as { code: string; offset: number; message: string };
      await out.line(`${JSON.stringify(input)}: cannot explain: ${err.message} (${err.code} at ${err.offset})`);
      continue;
    }
    const where = rec.host === null ? '' : ` ${rec.host}${rec.port === null ? '' : ':' + rec.port}`;
    await out.line(`${JSON.stringify(input)}: ${rec.protocol}${where}`);
    const steps = rec.steps as string[];
    for (let i = 0; i < steps.length; i++) await out.line(`  ${i + 1}. ${steps[i]}`);
    for (const n of rec.notes as string[]) await out.line(`  note: ${n}`);
  }
  await out.flush();
  return status;
}

export const explainCommand: Command = {
  name: 'explain',
  synopsis: ['explain [--json] [--probe] [URL...]'],
  about: [
    'Shows the protocol exchanges a client performs, in order, to reach the object of each URL (RFC 1738 3 and the drafts of each scheme), and notes on what the URL leaves to the client. Nothing is sent over the network.',
  ],
  exits: [
    [0, 'every URL was explained'],
    [1, 'some input is not a URL, or its scheme has no access algorithm'],
  ],
  example: ["'ftp://myname@host.dom/%2Fetc/motd'", 'the FTP commands that retrieve /etc/motd as myname'],
  options: {
    json: JSON_OUTPUT,
    trim: TRIM,
    probe: {
      type: 'boolean',
      description:
        'Show instead what `locator check` sends to prove the object is there: the least traffic of each scheme (HEAD, SIZE, STAT, GROUP, the first bytes ...).',
    },
  },
  run: (args, values, io) =>
    runExplain(
      args,
      {
        json: values.json === true,
        trim: values.trim === true,
        showSecrets: values['show-secrets'] === true,
        probe: values.probe === true,
      },
      io.stdin,
      io.stdout,
    ),
};
