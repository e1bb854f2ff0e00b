// `locator parse`: the contract's NDJSON record per input, or the drawn human view.
import type { Readable, Writable } from 'node:stream';
import { tryParse } from '../core/parse.js';
import { LocatorError, type Diagnostic } from '../core/errors.js';
import { inputs, Output } from './io.js';
import { drawRecord, drawDiagnostics } from './draw.js';
import type { Command } from './command.js';

export interface ParseCommandOptions {
  json: boolean;
  trim: boolean;
}

/** The contract JSON of one input (../shared/docs/contract.md, `locator parse`). */
export function parseRecord(input: string, trim = false): Record<string, unknown> {
  const r = tryParse(input, { trim });
  if (r instanceof LocatorError) {
    return {
      input, ok: false, valid: false, error: r.toDiagnostic(), href: null, scheme: null, user: null,
      password: null, host: null, port: null, explicitPort: false, path: null, fragment: null,
      fields: {}, violations: [],
    };
  }
  const j = r.toJSON();
  return { input, ok: true, valid: j.valid, error: null, ...j };
}

export async function runParse(args: string[], opts: ParseCommandOptions, stdin: Readable, stdout: Writable): Promise<number> {
  const out = new Output(stdout);
  let status = 0;
  for await (const input of inputs(args, stdin)) {
    const rec = parseRecord(input, opts.trim);
    if (rec.valid !== true) status = 1;
    if (opts.json) {
      await out.line(JSON.stringify(rec));
      continue;
    }
    const r = tryParse(input, { trim: opts.trim });
    if (r instanceof LocatorError) {
      await out.line(`${JSON.stringify(input)}: not a URL`);
      for (const l of drawDiagnostics(input, [r.toDiagnostic()])) await out.line(l);
      await out.line('');
      continue;
    }
    await out.line(`${JSON.stringify(input)}: ${r.valid ? 'valid' : 'not valid'} ${r.scheme} URL`);
    for (const l of drawRecord(r, input)) await out.line(l);
    const fields = r.fields;
    for (const [k, v] of [['user', r.user], ['password', r.password], ['port', r.port], ...Object.entries(fields)] as Array<[string, unknown]>) {
      if (v !== null && v !== undefined) await out.line(`  ${k}: ${JSON.stringify(v)}`);
    }
    for (const l of drawDiagnostics(input, r.violations as Diagnostic[])) await out.line(l);
    await out.line('');
  }
  await out.flush();
  return status;
}

export const parseCommand: Command = {
  name: 'parse',
  synopsis: ['parse [--json] [--trim] [URL...]', 'Parse URLs; show each part and every violation of the spec.'],
  help: [
    '  --trim       (parse) Remove white space and a byte order mark around each URL first',
    '               (leniency; each removal is reported as a warning).',
  ],
  options: { json: { type: 'boolean' }, trim: { type: 'boolean' } },
  run: (args, values, io) => runParse(args, { json: values.json === true, trim: values.trim === true }, io.stdin, io.stdout),
};
